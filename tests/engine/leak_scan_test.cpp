// SPDX-License-Identifier: AGPL-3.0-or-later
// The hidden-card scan of the property tests (tests/engine/support/properties.h)
// finds a hidden card wherever the server would send one: in an event to a seat
// or to the spectators, in a seat's or the spectators' view, and in the legal
// actions a seat's request lists. A toy game that leaks on purpose proves it, so
// that thousands of clean random games mean something.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/game.h"
#include "tests/engine/support/properties.h"

using namespace casa;
using casa::testing::AudienceSecrets;

namespace {

// Two seats holding "A1" and "A2" (and seat 1 "TRUMP-XXI"); "A3" is face up. `leak` names where the
// toy shows seat 1's card "A2" by mistake.
class LeakyGame final : public Game {
 public:
  explicit LeakyGame(std::string leak) : leak_(std::move(leak)) {}

  std::string_view name() const override { return "leaky"; }
  int players() const override { return 2; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<LeakyGame>(*this); }
  SeatMask to_act() const override { return seat_bit(0); }
  void legal_actions(Seat seat, std::vector<Action>& out) const override {
    out.clear();
    if (seat == 0) out.push_back(Action{});
  }
  std::optional<Error> step(Seat, const Action&, std::vector<Event>* events) override {
    if (!events) return std::nullopt;
    const Value card = leak_ == "seat event" || leak_ == "spectator event" ? "A2" : "A3";
    events->push_back(
        Event{seat_bit(0), false,
              Value::obj({{"type", "shown"}, {"card", leak_ == "seat event" ? card : "A3"}})});
    events->push_back(Event{0, true, Value::obj({{"type", "shown"}, {"card", card}})});
    return std::nullopt;
  }
  bool is_over() const override { return false; }
  std::vector<int> scores() const override { return {0, 0}; }
  std::vector<Seat> winners() const override { return {}; }
  Value view(Seat seat) const override {
    Value v = Value::obj({{"face_up", "A3"}});
    if (seat >= 0) v.set("hand", Value(Value::Array{Value(seat == 0 ? "A1" : "A2")}));
    if ((leak_ == "seat view" && seat == 0) || (leak_ == "spectator view" && seat == kSpectator))
      v.set("peek", Value::obj({{"cards", Value(Value::Array{Value("A2")})}}));
    if (leak_ == "view key" && seat == 0) v.set("counts", Value::obj({{"A2", 1}}));
    if (leak_ == "long id" && seat == 0) v.set("trump", "TRUMP-XXI");
    return v;
  }
  Value full_state() const override { return Value::obj({{"hands", "A1 A2"}}); }
  std::vector<std::string> secret_cards(Seat seat) const override {
    if (seat == 0) return {"A2", "TRUMP-XXI"};  // an id too long to pack
    if (seat == 1) return {"A1"};
    return {"A1", "A2", "TRUMP-XXI"};
  }
  Value encode_action(const Action&) const override {
    return Value::obj({{"type", "swap"}, {"for", leak_ == "legal action" ? "A2" : "A3"}});
  }
  std::optional<Error> decode_action(const Value&, Action& out) const override {
    out = Action{};
    return std::nullopt;
  }
  std::unique_ptr<Game> determinize(Seat, std::uint64_t) const override { return clone(); }

 private:
  std::string leak_;
};

std::vector<Event> one_action(Game& game) {
  std::vector<Event> events;
  REQUIRE_FALSE(game.apply(0, Action{}, &events));
  return events;
}

std::vector<Value> request_of(const Game& game, Seat seat) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  std::vector<Value> encoded;
  for (const auto& a : legal) encoded.push_back(game.encode_action(a));
  return encoded;
}

// Every scan the property tests run after an action, as a list of findings.
std::vector<std::string> findings(const std::string& leak) {
  LeakyGame game(leak);
  AudienceSecrets secrets;
  secrets.assign(game);
  std::vector<std::string> out;
  const auto events = one_action(game);
  for (const std::string& found :
       {casa::testing::event_leak(secrets, game.players(), events),
        casa::testing::view_leak(game, secrets),
        casa::testing::legal_action_leak(0, request_of(game, 0), secrets.of(0))}) {
    if (!found.empty()) out.push_back(found);
  }
  return out;
}

}  // namespace

TEST_CASE("LC-10.2 CA-9.2 CO-11.2 TC-8.2 the leak scan passes a game that shows no hidden card") {
  CHECK(findings("none").empty());
}

TEST_CASE(
    "LC-10.2 CA-9.2 CO-11.2 TC-8.2 the leak scan finds a hidden card in each kind of message") {
  const struct {
    const char* leak;
    const char* expected;
  } cases[] = {
      {"seat event", "seat 0 sees A2 in event"},
      {"spectator event", "spectators see A2 in event"},
      {"seat view", "seat 0 sees A2 in view"},
      {"spectator view", "spectators see A2 in view"},
      {"view key", "seat 0 sees A2 in view"},
      {"legal action", "seat 0 sees A2 in legal action"},
      {"long id", "seat 0 sees TRUMP-XXI in view"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.leak);
    const auto found = findings(c.leak);
    REQUIRE(found.size() == 1);
    CHECK(found[0].rfind(c.expected, 0) == 0);
  }
}

TEST_CASE(
    "the card tally of the conservation invariants finds a card twice, a stranger and a gap") {
  casa::testing::DeckTally tally({"A1", "A2", "A3"});
  CHECK(tally.add("A1"));
  CHECK(tally.add("A2"));
  CHECK_FALSE(tally.complete());
  CHECK(tally.add("A3"));
  CHECK(tally.complete());
  CHECK_FALSE(tally.add("A2"));
  CHECK(tally.problem() == "A2");
  tally.clear();
  CHECK_FALSE(tally.add("B1"));
  CHECK(tally.problem() == "B1");
}

TEST_CASE("same_value agrees with Value's == whatever the order of object members") {
  const Value a = Value::obj({{"x", 1}, {"y", Value::obj({{"p", "G5"}, {"q", 2}})}});
  const Value b = Value::obj({{"x", 1}, {"y", Value::obj({{"q", 2}, {"p", "G5"}})}});
  const Value c = Value::obj({{"x", 1}, {"y", Value::obj({{"p", "G6"}, {"q", 2}})}});
  CHECK(casa::testing::same_value(a, a));
  CHECK(casa::testing::same_value(a, b));
  CHECK_FALSE(casa::testing::same_value(a, c));
  CHECK_FALSE(casa::testing::same_value(b, c));
  CHECK_FALSE(casa::testing::same_value(Value(Value::Array{a}), Value(Value::Array{a, b})));
}
