// SPDX-License-Identifier: AGPL-3.0-or-later
// Scenario tests for question cards (CA-6), options (CA-8), what each seat sees
// (CA-9), card ids (CA-1.1) and the public form of actions (CA-3.7).
#include <doctest/doctest.h>

#include <set>

#include "engine/games/casino/casino_game.h"
#include "tests/engine/casino/support.h"

using namespace casino_test;

namespace {

std::set<std::string> all_strings(const Value& v) {
  std::set<std::string> out;
  if (v.is_string()) out.insert(v.as_string());
  if (v.is_array())
    for (const auto& x : v.as_array()) {
      auto s = all_strings(x);
      out.insert(s.begin(), s.end());
    }
  if (v.is_object())
    for (const auto& [k, x] : v.as_object()) {
      auto s = all_strings(x);
      out.insert(s.begin(), s.end());
    }
  return out;
}

Value question_object(const std::string& prefix) {
  Value q = Value::object();
  for (int c = 0; c < 52; ++c) q.set(std::string(casa::casino::card_id(c)), prefix + std::to_string(c));
  return q;
}

}  // namespace

TEST_CASE("CA-1.1 52 cards with rank+suit ids; TD and 2S are the casinos") {
  std::set<std::string> ids_seen;
  for (int c = 0; c < 52; ++c) {
    const std::string id(casa::casino::card_id(c));
    CHECK(casa::casino::parse_card(id) == c);
    ids_seen.insert(id);
  }
  CHECK(ids_seen.size() == 52);
  CHECK(ids_seen.count("TD"));
  CHECK(ids_seen.count("2S"));
  CHECK(casa::casino::card_id(casa::casino::kBigCasino) == "TD");
  CHECK(casa::casino::card_id(casa::casino::kLittleCasino) == "2S");
  CHECK(casa::casino::parse_card("10D") == -1);
  CHECK(casa::casino::parse_card("1S") == -1);
  auto bad = casa::create_game("casino", 2, J(R"({"deck":["AS"]})"), 1);
  REQUIRE(bad.error);
  CHECK(bad.error->code == "bad_option");
}

TEST_CASE("CA-3.7 equal lists are one action, whatever their order; encode is canonical") {
  auto g = make(2, with_deck(R"({"dealer":1})", ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "9H", "5D",
                                                     "4D", "QS"})));
  CHECK(decode(*g, R"({"type":"capture","card":"9S","loose":["5D","9H","4D"]})") ==
        decode(*g, R"({"type":"capture","card":"9S","loose":["4D","5D","9H"],"builds":[]})"));
  CHECK(g->encode_action(decode(*g, R"({"type":"capture","card":"9S","loose":["5D","9H","4D"]})"))
            .debug_string() == R"({"type":"capture","card":"9S","loose":["9H","4D","5D"],"builds":[]})");
  CHECK(decode(*g, R"({"type":"capture","card":"5H","builds":["B2","B1"]})") ==
        decode(*g, R"({"type":"capture","card":"5H","builds":["B1","B2"]})"));
  // Malformed: unknown card or build ids, repeats, keys of another action (CA-3.6:
  // an increase never takes loose cards).
  Action a;
  for (const char* text : {R"({"type":"capture","card":"9S","loose":["9H","9H"]})",
                           R"({"type":"capture","card":"1S"})", R"({"type":"capture","card":"9S","builds":["B0"]})",
                           R"({"type":"increase","card":"2D","build":"B1","loose":["3C"]})",
                           R"({"type":"trail"})", R"({"type":"shuffle"})", R"({"card":"9S"})", R"([1])",
                           R"({"type":"ask","card":"9S","target":7})"}) {
    auto err = g->decode_action(J(text), a);
    REQUIRE_MESSAGE(err, text);
    CHECK(err->code == "malformed_action");
  }
}

TEST_CASE("CA-8 options: defaults, accepted values and refusals") {
  auto g = make(4, Value::object());
  CHECK_VALUE(at(g->view(0), "options"), J(R"({"target":21,"partners":false,"sweeps":false,"questions":false})"));
  CHECK(make(2, J(R"({"questions":"default"})"))->view(0).find("questions"));
  CHECK_VALUE(at(make(2, J(R"({"questions":"off","sweeps":true,"target":5})"))->view(0), "options"),
              J(R"({"target":5,"partners":false,"sweeps":true,"questions":false})"));
  for (const char* bad : {R"({"target":0})", R"({"target":"21"})", R"({"partners":1})", R"({"sweeps":"yes"})",
                          R"({"questions":"trivia"})", R"({"questions":{"AS":"Why?"}})", R"({"dealer":4})",
                          R"({"rounds":0})", R"({"colour":"red"})"}) {
    auto r = casa::create_game("casino", 4, J(bad), 1);
    REQUIRE_MESSAGE(r.error, bad);
    CHECK(r.error->code == "bad_option");
  }
  Value q = question_object("Q");
  q.set("ZZ", "extra");
  CHECK(casa::create_game("casino", 2, Value::obj({{"questions", q}}), 1).error);
  Value empty = question_object("Q");
  empty.set("AS", "");
  CHECK(casa::create_game("casino", 2, Value::obj({{"questions", empty}}), 1).error);
}

TEST_CASE("CA-6.1 the built-in set has 52 distinct texts; a custom set gives each card its text") {
  std::set<std::string> texts;
  for (const auto& text : casa::casino::default_questions()) {
    CHECK(text.size() > 10);
    CHECK(text.back() == '?');
    texts.insert(text);
  }
  CHECK(texts.size() == 52);

  const std::vector<std::string> front = ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "9H", "5D", "4D", "QS"});
  Value options = Value::obj({{"questions", question_object("Custom question ")}, {"dealer", 1}});
  options.set("deck", deck(front));
  auto g = make(2, options);
  CHECK(at(at(g->view(0), "options"), "questions").as_string() == "custom");
  must(*g, 0, R"({"type":"capture","card":"9S","loose":["9H"]})");
  const auto asked = of_type(must(*g, 0, R"({"type":"ask","card":"9H","target":1})"), "question");
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].get_string("text", "") ==
        "Custom question " + std::to_string(casa::casino::parse_card("9H")));

  auto d = make(2, with_deck(R"({"questions":"default","dealer":1})", front));
  must(*d, 0, R"({"type":"capture","card":"9S","loose":["9H"]})");
  const auto built_in = of_type(must(*d, 0, R"({"type":"ask","card":"9H","target":1})"), "question");
  REQUIRE(built_in.size() == 1);
  CHECK(built_in[0].get_string("text", "") ==
        casa::casino::default_questions()[static_cast<std::size_t>(casa::casino::parse_card("9H"))]);
}

TEST_CASE("CA-6.2 CA-6.3 after a capture the capturer asks about taken cards, each player once") {
  auto g = make(3, with_deck(R"({"questions":"default","dealer":2})",
                             ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "8C", "8D", "8H", "JD",
                                  "9H", "5D", "4D", "QS"})));
  must(*g, 0, R"({"type":"capture","card":"9S","loose":["9H","4D","5D"]})");
  CHECK(phase(*g) == "ask");
  CHECK(g->to_act() == casa::seat_bit(0));
  CHECK_VALUE(at(g->view(1), "asking"), J(R"({"asker":0,"cards":["9H","4D","5D"],"targets":[1,2]})"));
  // Cards taken x other players, plus done; never the played card, never oneself.
  CHECK(legal(*g, 0).size() == 3 * 2 + 1);
  refused(*g, 0, R"({"type":"ask","card":"9S","target":1})");
  refused(*g, 0, R"({"type":"ask","card":"9H","target":0})");
  refused(*g, 0, R"({"type":"trail","card":"5H"})");
  refused(*g, 1, R"({"type":"done_asking"})", "not_your_turn");

  auto events = must(*g, 0, R"({"type":"ask","card":"4D","target":2})");
  const auto q = of_type(events, "question");
  REQUIRE(q.size() == 1);
  CHECK(q[0].get_int("asker", -1) == 0);
  CHECK(q[0].get_int("target", -1) == 2);
  CHECK(q[0].get_string("card", "") == "4D");
  CHECK(q[0].get_string("text", "") == std::string(at(g->view(0), "questions").as_array()[0].get_string("text", "")));
  CHECK(events[0].spectators);  // CA-6.3 public
  CHECK(events[0].seats == 0b111);
  // Seat 2 and card 4D are used up.
  CHECK(legal(*g, 0).size() == 2 * 1 + 1);
  refused(*g, 0, R"({"type":"ask","card":"9H","target":2})");
  refused(*g, 0, R"({"type":"ask","card":"4D","target":1})");
  // The last possible pair ends the step by itself.
  const std::vector<int> before = g->scores();
  must(*g, 0, R"({"type":"ask","card":"5D","target":1})");
  CHECK(phase(*g) == "play");
  CHECK(turn(*g) == 1);
  CHECK(g->scores() == before);  // questions never change scores
  CHECK(at(g->view(casa::kSpectator), "questions").size() == 2);

  // The next capture gets a fresh step; done ends it at once.
  must(*g, 1, R"({"type":"trail","card":"3C"})");
  must(*g, 2, R"({"type":"trail","card":"8C"})");
  must(*g, 0, R"({"type":"trail","card":"KC"})");
  must(*g, 1, R"({"type":"trail","card":"4C"})");
  must(*g, 2, R"({"type":"capture","card":"8D","loose":["8C"]})");
  CHECK(phase(*g) == "ask");
  CHECK(legal(*g, 2).size() == 2 + 1);  // 8C to seat 0 or 1, or done
  must(*g, 2, R"({"type":"done_asking"})");
  CHECK(phase(*g) == "play");
  CHECK(turn(*g) == 0);
}

TEST_CASE("CA-6.2 partners may be asked; with 2 players one question per capture ends the step") {
  auto g = make(2, with_deck(R"({"questions":"default","dealer":1})",
                             ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "9H", "5D", "4D", "QS"})));
  must(*g, 0, R"({"type":"capture","card":"9S","loose":["9H","4D","5D"]})");
  must(*g, 0, R"({"type":"ask","card":"9H","target":1})");
  CHECK(phase(*g) == "play");
  CHECK(turn(*g) == 1);

  auto p = make(4, J(R"({"questions":"default","partners":true,"dealer":3})"));
  // Find a capture for seat 0 if there is one; otherwise this seed gives none.
  bool asked_partner = false;
  for (std::uint64_t seed = 1; seed < 40 && !asked_partner; ++seed) {
    auto t = make(4, J(R"({"questions":"default","partners":true,"dealer":3})"), seed);
    for (const auto& a : legal(*t, 0)) {
      if (t->encode_action(a).get_string("type", "") != "capture") continue;
      REQUIRE_FALSE(t->apply(0, a, nullptr));
      asked_partner = listed(*t, 0, R"({"type":"ask","card":")" + std::string(casa::casino::card_id(
                                        static_cast<int>(std::countr_zero(a.set | 0)))) +
                                        R"(","target":2})");
      break;
    }
  }
  CHECK(asked_partner);
}

TEST_CASE("CA-9.1 CA-9.2 each seat sees the public table and only its own hand") {
  auto g = make(4, with_deck(R"({"partners":true,"dealer":3})",
                             ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "8C", "8D", "8H", "JD", "AS",
                                  "AH", "AD", "AC", "9H", "5D", "4D", "QS"})));
  must(*g, 0, R"({"type":"capture","card":"9S","loose":["9H"]})");
  must(*g, 1, R"({"type":"build","card":"3C","loose":["4D"]})");
  const std::vector<std::vector<std::string>> hands = {
      ids({"5H", "2D", "KC"}), ids({"4C", "6C", "7C"}), ids({"8D", "8H", "8C", "JD"}), ids({"AS", "AH", "AD", "AC"})};
  const Value spectator = g->view(casa::kSpectator);
  CHECK(spectator.get_int("seat", 0) == -1);
  CHECK_FALSE(spectator.find("hand"));
  CHECK_VALUE(at(spectator, "hand_sizes"), J("[3,3,4,4]"));
  CHECK_VALUE(at(spectator, "table"),
              J(R"({"loose":["QS","5D"],"builds":[{"id":"B1","cards":["4D","3C"],"value":7,"owner":1}]})"));
  CHECK_VALUE(at(spectator, "captures"), J(R"([["9S","9H"],[],[],[]])"));
  CHECK(spectator.get_int("deck", -1) == 52 - 20);
  CHECK(spectator.get_int("dealer", -1) == 3);
  CHECK(spectator.get_int("turn", -1) == 2);
  CHECK_VALUE(at(spectator, "to_act"), J("[2]"));
  CHECK_VALUE(at(spectator, "scores"), J("[0,0,0,0]"));
  for (Seat s = 0; s < 4; ++s) {
    const Value v = g->view(s);
    CHECK(v.get_int("seat", -1) == s);
    auto own = strings(at(v, "hand"));
    auto expected = hands[s];
    std::sort(own.begin(), own.end());
    std::sort(expected.begin(), expected.end());
    CHECK(own == expected);
    // Nothing of any other hand, the partner's included, nor of the deck.
    const auto seen = all_strings(v);
    for (Seat other = 0; other < 4; ++other) {
      if (other == s) continue;
      for (const auto& id : hands[other]) CHECK_MESSAGE(!seen.count(id), "seat ", s, " sees ", id);
    }
    for (const auto& secret : g->secret_cards(s)) CHECK_MESSAGE(!seen.count(secret), secret);
    // The view is the spectator's plus the hand.
    Value public_part = v;
    public_part.set("seat", -1);
    auto& members = public_part.as_object();
    members.erase(std::remove_if(members.begin(), members.end(), [](const auto& m) { return m.first == "hand"; }),
                  members.end());
    CHECK_VALUE(public_part, spectator);
  }
  CHECK(g->secret_cards(casa::kSpectator).size() == 14 + 32);  // 14 in hands, 32 in the deck
}

TEST_CASE("CA-9.2 new cards reach only their holder") {
  auto g = make(2, J(R"({"dealer":1})"));
  std::vector<Event> events;
  while (events.empty() || of_type(events, "deal").empty()) {
    const Seat s = turn(*g);
    events = must(*g, s, R"({"type":"trail","card":")" + hand(*g, s)[0] + R"("})");
  }
  for (const auto& e : events) {
    if (e.body.get_string("type", "") != "hand") continue;
    const Seat holder = static_cast<Seat>(e.body.get_int("seat", -1));
    CHECK(e.seats == casa::seat_bit(holder));
    CHECK_FALSE(e.spectators);
    CHECK(strings(at(e.body, "hand")) == hand(*g, holder));
  }
}

TEST_CASE("CA-4.4 determinize keeps every owner holding its build's value") {
  auto g = make(2, with_deck(R"({"dealer":1})", ids({"3S", "7H", "2C", "8D", "AC", "8H", "5S", "6S", "4H", "5C",
                                                     "2H", "JS"})));
  must(*g, 0, R"({"type":"build","card":"3S","loose":["4H"]})");
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto sample = g->determinize(1, seed);
    CHECK(sample->view(1) == g->view(1));
    // Seat 0 owns a 7-build: in every sample it holds a 7 and can act.
    bool has_seven = false;
    const Value state = sample->full_state();
    for (const auto& id : at(state, "hands").as_array()[0].as_array())
      has_seven = has_seven || id.as_string()[0] == '7';
    CHECK(has_seven);
  }
}
