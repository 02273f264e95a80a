// SPDX-License-Identifier: AGPL-3.0-or-later
// The game review (review/review.h): it judges a seat only from what the seat
// could know (two other seats' hidden cards swapped change nothing, in every
// game), it finds the known best and losing choices of stacked positions, it
// repeats itself byte for byte, and it refuses a game not over or a bad replay.
#include "review/review.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/games/casino/cards.h"
#include "engine/games/la_casa/cards.h"
#include "engine/games/trophy_case/cards.h"
#include "engine/rng.h"
#include "protocol/value_json.h"
#include "review/robot_replay.h"
#include "tests/engine/conference/helpers.h"
#include "tests/engine/la_casa/table_support.h"
#include "tests/engine/trophy_case/table.h"

using namespace casa;
using nlohmann::json;

namespace {

using Step = ScriptedAction;

std::unique_ptr<Game> create(const std::string& game, int players, const json& options,
                             std::uint64_t seed) {
  auto created = create_game(game, players, from_json(options), seed);
  REQUIRE_MESSAGE(created.game, (created.error ? created.error->message : ""));
  return std::move(created.game);
}

json make_replay(const std::string& game, int players, const json& options, std::uint64_t seed,
                 const std::vector<Step>& script, std::uint64_t robot_seed = 1,
                 int max_actions = 1 << 30) {
  json replay = robot_replay(game, players, options, seed, script, robot_seed, max_actions);
  REQUIRE_MESSAGE(!replay.contains("error"), replay.dump());
  return replay;
}

std::vector<Step> script_of(const json& log, std::size_t count) {
  std::vector<Step> out;
  for (std::size_t i = 0; i < count && i < log.size(); ++i)
    out.push_back({log[i]["seat"].get<Seat>(), log[i]["action"]});
  return out;
}

ReviewOptions quick(int iterations, std::vector<int> seats = {}) {
  ReviewOptions o;
  o.iterations = iterations;
  o.seats = std::move(seats);
  return o;
}

const json* decision_at(const json& review, int seq) {
  for (const json& d : review["decisions"])
    if (d["seq"] == seq) return &d;
  return nullptr;
}

std::vector<std::string> ids_of(int count, std::string (*id)(int)) {
  std::vector<std::string> ids;
  for (int c = 0; c < count; ++c) ids.push_back(id(c));
  return ids;
}

std::string la_casa_id(int c) { return la_casa::card_id(c); }
std::string casino_id(int c) { return std::string(casino::card_id(c)); }
std::string trophy_id(int c) { return trophy_case::card_id(c); }

struct Config {
  const char* game;
  int players;
  const char* options;
  std::vector<std::string> ids;  // every card id of the deck
};

}  // namespace

TEST_CASE("review: a seat's verdicts never depend on hidden cards (two others' cards swapped)") {
  // Method of the bots' no-peeking tests (tests/engine/strong_test.cpp, the
  // Trophy Case voids test): two deals the reviewed seat cannot tell apart up to
  // its decision, here two cards it has not seen exchanged in the stacked deck.
  // Both games share the log to that decision and go their own way after it.
  const Config configs[] = {
      {"la-casa", 4, "{}", ids_of(la_casa::kDeckSize, la_casa_id)},
      {"la-casa", 2, R"({"format":"domination"})", ids_of(la_casa::kDeckSize, la_casa_id)},
      {"la-casa", 1, R"({"format":"solo"})", ids_of(la_casa::kDeckSize, la_casa_id)},
      {"casino", 2, "{}", ids_of(casino::kDeckSize, casino_id)},
      {"conference", 4, "{}", conference_test::all_ids(false)},
      {"trophy-case", 4, "{}", ids_of(trophy_case::kDeckSize, trophy_id)},
  };
  for (const Config& c : configs) {
    INFO(std::string(c.game), " ", c.players, " ", std::string(c.options));
    std::vector<std::string> deck = c.ids;
    Rng shuffle(0xD1CE + static_cast<std::uint64_t>(c.players));
    for (std::size_t i = deck.size() - 1; i > 0; --i)
      std::swap(deck[i], deck[shuffle.below(static_cast<std::uint32_t>(i + 1))]);
    json options = json::parse(c.options);
    options["deck"] = deck;
    const Seat seat = 0;
    const json a = make_replay(c.game, c.players, options, 3, {});
    const json& log = a["log"];

    // A decision of the seat after some play, and two cards it
    // has not seen that swap between two other seats' hands (with one other seat
    // or none, between what the others hold or the stock).
    int chosen = -1;
    json swapped;
    // The first round's decisions: a later deal does not come from the stacked deck.
    for (std::size_t k = 2; k < log.size() && chosen < 0; ++k) {
      if (log[k]["seat"] != seat) continue;
      auto at_k = create(c.game, c.players, options, 3);
      for (std::size_t i = 0; i < k; ++i) {
        Action act;
        REQUIRE_FALSE(at_k->decode_action(from_json(log[i]["action"]), act));
        REQUIRE_FALSE(at_k->apply(log[i]["seat"].get<Seat>(), act, nullptr));
      }
      const std::vector<std::string> secret = at_k->secret_cards(seat);
      for (std::size_t x = 0; x < secret.size() && chosen < 0; x += 3) {
        for (std::size_t y = x + 1; y < secret.size() && chosen < 0; y += 5) {
          json other_options = options;
          std::vector<std::string> other = deck;
          auto px = std::find(other.begin(), other.end(), secret[x]);
          auto py = std::find(other.begin(), other.end(), secret[y]);
          if (px == other.end() || py == other.end()) continue;
          std::iter_swap(px, py);
          other_options["deck"] = other;
          auto real = create(c.game, c.players, options, 3);
          auto twin = create(c.game, c.players, other_options, 3);
          bool same_view = real->view(seat) == twin->view(seat);
          for (std::size_t i = 0; i < k && same_view; ++i) {
            Action act;
            if (twin->decode_action(from_json(log[i]["action"]), act)) same_view = false;
            const Seat who = log[i]["seat"].get<Seat>();
            if (!same_view || twin->apply(who, act, nullptr)) {
              same_view = false;
              break;
            }
            REQUIRE_FALSE(real->decode_action(from_json(log[i]["action"]), act));
            REQUIRE_FALSE(real->apply(who, act, nullptr));
            same_view = real->view(seat) == twin->view(seat);
          }
          if (!same_view || real->full_state() == twin->full_state()) continue;
          int others_changed = 0;
          for (Seat o = 0; o < c.players; ++o)
            if (o != seat && !(real->view(o) == twin->view(o))) ++others_changed;
          if (others_changed < std::min(2, c.players - 1)) continue;
          chosen = static_cast<int>(k);
          swapped = other_options;
        }
      }
    }
    REQUIRE_MESSAGE(chosen >= 0, "no decision with two hidden cards to swap");
    const int seq = log[static_cast<std::size_t>(chosen)]["seq"].get<int>();
    const json b = make_replay(c.game, c.players, swapped, 3,
                               script_of(log, static_cast<std::size_t>(chosen) + 1), 99);
    REQUIRE(a["initial_state"] != b["initial_state"]);

    const ReviewOptions o = quick(24, {seat});
    const json ra = review_replay(a, o);
    const json rb = review_replay(b, o);
    REQUIRE_MESSAGE(!ra.contains("error"), ra.dump());
    REQUIRE_MESSAGE(!rb.contains("error"), rb.dump());
    int compared = 0;
    for (const json& d : ra["decisions"]) {
      if (d["seq"].get<int>() > seq) break;
      const json* twin = decision_at(rb, d["seq"].get<int>());
      REQUIRE(twin);
      CHECK_MESSAGE(d == *twin, d.dump(), "\n", twin->dump());
      ++compared;
    }
    CHECK(decision_at(ra, seq));
    CHECK(compared >= 1);
  }
}

TEST_CASE("LC-2.4 LC-2.5 LC-5.1 review: ruffing with the top trump is a blunder, F2 the best") {
  using namespace casa::la_casa::testing;
  // The position of the strong bot's test: classic, Fists trumps (F1 turned up,
  // LC-4.5), dealer 0, target 1 (the round decides the game). After five tricks
  // and K5 K6 K8, seat 0 (void in Knives) holds F2 and F9. Either trump takes
  // this trick (LC-2.5); only F2 keeps F9, which takes the last trick whatever
  // is left, 4 tricks to 3 and the point (LC-5.1). With F9 played, seat 0 must
  // lead F2 and seat 1 follows with F8 (LC-2.4), which takes it.
  const Value deck = deck4(0,
                           {Cards{"G4", "M4", "M7", "G6", "K4", "F2", "F9"},
                            Cards{"G9", "M9", "M5", "G7", "K9", "K5", "F8"},
                            Cards{"G2", "M2", "M8", "G8", "K2", "K6", "G1"},
                            Cards{"G3", "M3", "M6", "G5", "K3", "K8", "K7"}},
                           Cards{"F1"});
  const json options = {
      {"format", "classic"}, {"dealer", 0}, {"target", 1}, {"deck", to_json(deck)}};
  const char* tricks[5][4] = {{"G9", "G2", "G3", "G4"},
                              {"M9", "M2", "M3", "M4"},
                              {"M5", "M8", "M6", "M7"},
                              {"G8", "G5", "G6", "G7"},
                              {"K2", "K3", "K4", "K9"}};
  const Seat leaders[5] = {1, 1, 1, 2, 2};
  std::vector<Step> script;
  auto play = [&](Seat s, const char* card) {
    script.push_back({s, {{"type", "play"}, {"card", card}}});
  };
  for (int k = 0; k < 5; ++k)
    for (int i = 0; i < 4; ++i) play((leaders[k] + i) % 4, tricks[k][i]);
  play(1, "K5");
  play(2, "K6");
  play(3, "K8");
  const int seq = static_cast<int>(script.size()) + 1;
  std::vector<Step> blunder = script, right = script;
  blunder.push_back({0, {{"type", "play"}, {"card", "F9"}}});
  right.push_back({0, {{"type", "play"}, {"card", "F2"}}});

  const json lost = review_replay(make_replay("la-casa", 4, options, 5, blunder), quick(400, {0}));
  REQUIRE_MESSAGE(!lost.contains("error"), lost.dump());
  const json* d = decision_at(lost, seq);
  REQUIRE(d);
  CHECK((*d)["played"]["card"] == "F9");
  CHECK((*d)["best"]["card"] == "F2");
  CHECK((*d)["verdict"] == "blunder");
  CHECK((*d)["loss"].get<double>() >= lost["thresholds"]["blunder"].get<double>());
  CHECK((*d)["actions"][0]["action"]["card"] == "F2");
  CHECK(lost["seats"][0]["counts"]["blunder"].get<int>() >= 1);
  CHECK(lost["seats"][0]["accuracy"].get<double>() < 100.0);

  const json won = review_replay(make_replay("la-casa", 4, options, 5, right), quick(400, {0}));
  REQUIRE_MESSAGE(!won.contains("error"), won.dump());
  const json* w = decision_at(won, seq);
  REQUIRE(w);
  CHECK((*w)["verdict"] == "best");
  CHECK((*w)["loss"] == 0.0);
}

TEST_CASE("TC-4.3 TC-4.4 TC-4.6 TC-6.1 TC-6.3 review: folding loses the game, the trump wins it") {
  // Three players, target 2, dealer 2: seat 0 leads MAZX (red, an Infinity: 2
  // points, TC-6.1). Seat 1 holds no red card, so it may play any card (TC-4.3):
  // its trump T-GRUE ends the trick at once and takes it (TC-4.6(a)), 2 points,
  // the target: seat 1 wins the game (TC-6.3). Folding puts it out of the trick
  // for good (TC-4.4): it can never take it, and MAZX (or another seat's trump)
  // does, which ends the game with seat 1 beaten. (An off-colour card keeps seat
  // 1 in, to play the trump on its next turn unless a trump comes first: nearly
  // as good as the trump at once.)
  tc_test::Stack stack;
  stack.players = 3;
  stack.dealer = 2;
  stack.hands[0][0] = {"MAZX"};
  stack.hands[0][1] = {"T-GRUE", "BUG8", "BUG9", "BUGX", "FRO8", "FRO9", "FROX",
                       "INK8",   "INK9", "INKX", "TIM8", "TIM9", "TIMX", "LAM8"};
  const json options = to_json(stack.options(Value::obj({{"target", 2}})));
  const std::vector<Step> lead = {{0, {{"type", "play"}, {"card", "MAZX"}}}};
  std::vector<Step> blunder = lead, right = lead;
  blunder.push_back({1, {{"type", "fold"}}});
  right.push_back({1, {{"type", "play"}, {"card", "T-GRUE"}}});

  const json lost =
      review_replay(make_replay("trophy-case", 3, options, 7, blunder), quick(600, {1}));
  REQUIRE_MESSAGE(!lost.contains("error"), lost.dump());
  const json* d = decision_at(lost, 2);
  REQUIRE(d);
  CHECK((*d)["played"]["type"] == "fold");
  CHECK((*d)["best"]["type"] == "play");
  CHECK_MESSAGE((*d)["verdict"] == "blunder", d->dump());
  CHECK((*d)["loss"].get<double>() > 0.5);  // a game won turned into a game lost

  const json won = review_replay(make_replay("trophy-case", 3, options, 7, right), quick(600, {1}));
  REQUIRE_MESSAGE(!won.contains("error"), won.dump());
  const json* w = decision_at(won, 2);
  REQUIRE(w);
  CHECK((*w)["played"]["card"] == "T-GRUE");
  CHECK_MESSAGE((*w)["verdict"] == "best", w->dump());
}

TEST_CASE("review: the same replay, seed and budget give the same JSON, byte for byte") {
  const json replay = make_replay("la-casa", 4, json::object(), 42, {}, 7);
  ReviewOptions o = quick(30);
  const std::string first = review_replay(replay, o).dump();
  CHECK(first == review_replay(json::parse(replay.dump()), o).dump());
  CHECK(first == review_replay_text(replay.dump(), R"({"iterations":30})"));
  const json parsed = json::parse(first);
  REQUIRE_FALSE(parsed.contains("error"));
  CHECK(parsed["seats"].size() == 4);  // no bot listed: every seat is reviewed
  CHECK(parsed["sides"] == json::parse("[[0,2],[1,3]]"));
  for (const json& d : parsed["decisions"]) {
    CHECK(d["expected"].size() == 2);
    if (d["verdict"] != "forced") {
      CHECK(d["loss"].get<double>() >= 0.0);
      CHECK(d["value_best"].get<double>() >= d["value_played"].get<double>());
    }
  }
  o.seed = 7;
  CHECK(first != review_replay(replay, o).dump());  // the seed is used
  const json one = review_replay(replay, quick(30, {2}));
  REQUIRE(one["seats"].size() == 1);
  CHECK(one["seats"][0]["seat"] == 2);
  for (const json& d : one["decisions"]) CHECK(d["seat"] == 2);
}

TEST_CASE("review: a game not over, a bad replay and bad options give the error JSON") {
  const json finished = make_replay("casino", 2, json::object(), 9, {}, 3);
  const json unfinished = make_replay("casino", 2, json::object(), 9, {}, 3, 10);
  CHECK(review_replay(unfinished, quick(10))["error"] == "not_over");
  json flagged = finished;
  flagged["game_over"] = false;
  CHECK(review_replay(flagged, quick(10))["error"] == "not_over");

  CHECK(json::parse(review_replay_text("{not json", ""))["error"] == "replay");
  CHECK(review_replay(json::array(), quick(10))["error"] == "replay");
  CHECK(review_replay(json::object(), quick(10))["error"] == "replay");
  json tampered = finished;
  tampered["log"][3]["seat"] = 1 - tampered["log"][3]["seat"].get<int>();
  const json refused = review_replay(tampered, quick(10));
  CHECK(refused["error"] == "replay");
  CHECK(refused["why"].get<std::string>().find("action 4") != std::string::npos);
  json reseeded = finished;
  reseeded["seed"] = "10";
  CHECK(review_replay(reseeded, quick(10))["error"] == "replay");

  CHECK(review_replay(finished, quick(0))["error"] == "options");
  CHECK(review_replay(finished, quick(10, {2}))["error"] == "options");
  for (const char* bad :
       {R"({"iterations":0})", R"({"seed":"x"})", R"({"seats":[9]})", R"({"depth":1})", "[1]"}) {
    INFO(bad);
    CHECK(json::parse(review_replay_text(finished.dump(), bad))["error"] == "options");
  }
  const json good = json::parse(
      review_replay_text(finished.dump(), R"({"iterations":5,"seed":"12","seats":[1]})"));
  CHECK_FALSE(good.contains("error"));
  CHECK(good["seed"] == "12");
}

TEST_CASE("review: verdict steps per game, and the accuracy formula of docs/review.md") {
  for (const char* game : {"la-casa", "casino", "conference", "trophy-case"}) {
    INFO(std::string(game));
    const ReviewThresholds t = review_thresholds(game);
    CHECK(std::string(t.measure) == "score");
    CHECK(std::string(review_thresholds(game, 4).measure) == "score");
    CHECK(0 < t.good);
    CHECK(t.good < t.inaccuracy);
    CHECK(t.inaccuracy < t.mistake);
    CHECK(t.mistake < t.blunder);
    CHECK(std::string(review_verdict(0.0, t)) == "best");
    CHECK(std::string(review_verdict(t.good, t)) == "good");
    CHECK(std::string(review_verdict(t.inaccuracy, t)) == "inaccuracy");
    CHECK(std::string(review_verdict(t.mistake, t)) == "mistake");
    CHECK(std::string(review_verdict(t.blunder, t)) == "blunder");
    CHECK(std::string(review_verdict(1.0, t)) == "blunder");
  }
  const ReviewThresholds solo = review_thresholds("la-casa", 1);  // the round point's chance
  CHECK(std::string(solo.measure) == "win");
  CHECK((0 < solo.good && solo.good < solo.inaccuracy && solo.inaccuracy < solo.mistake &&
         solo.mistake < solo.blunder && solo.blunder < 1));
  CHECK(review_seed(1, 5) == review_seed(1, 5));
  CHECK(review_seed(1, 5) != review_seed(1, 6));
  CHECK(review_seed(1, 5) != review_seed(2, 5));

  const json review = review_replay(make_replay("casino", 2, json::object(), 4, {}, 2), quick(40));
  REQUIRE_FALSE(review.contains("error"));
  const double blunder = review["thresholds"]["blunder"].get<double>();
  for (const json& seat : review["seats"]) {
    const int s = seat["seat"].get<int>();
    double credit = 0;
    int decisions = 0, forced = 0;
    for (const json& d : review["decisions"]) {
      if (d["seat"] != s) continue;
      if (d["verdict"] == "forced") {
        ++forced;
        CHECK_FALSE(d.contains("loss"));
        continue;
      }
      ++decisions;
      credit += std::max(0.0, 1.0 - d["loss"].get<double>() / blunder);
      CHECK(d["verdict"] == review_verdict(d["loss"].get<double>(), review_thresholds("casino")));
      CHECK(d["actions"].size() > 1);
      CHECK(d["actions"][0]["value"] == d["value_best"]);
    }
    REQUIRE(decisions > 0);
    CHECK(seat["decisions"] == decisions);
    CHECK(seat["forced"] == forced);
    CHECK(seat["accuracy"].get<double>() ==
          doctest::Approx(100.0 * credit / decisions).epsilon(0.001));
  }
}

TEST_CASE("LC-8.2 LC-8.3 LC-8.4 LC-2.5 review: in Solo, leading F1 loses the round, K2 wins it") {
  // Solo without challenges, one round, the deal of seed 8 (Casa F7: Fists rule,
  // LC-4.5), the human played by the robot for 16 tricks. Then the human has won
  // 10 tricks of 16 and leads with K2 and F1; the Robot shows F8 over one face-down
  // card, which can only be G1 (every other card has been seen). 11 tricks score
  // the round's point (LC-8.3). K2: the Robot cannot follow and ruffs with F8
  // (LC-8.4 rule 3), leads G1 (rule 1) and F1 ruffs it (LC-2.5): 11 tricks. F1: the
  // Robot beats it with F8 (rule 2), leads G1 and K2 neither follows nor ruffs: 10.
  const json options = {{"format", "solo"}, {"challenges", false}, {"rounds", 1}};
  const json robots = make_replay("la-casa", 1, options, 8, {});
  const int seq = 17;
  std::vector<Step> lose = script_of(robots["log"], seq - 1), win = lose;
  lose.push_back({0, {{"type", "play"}, {"card", "F1"}}});
  win.push_back({0, {{"type", "play"}, {"card", "K2"}}});

  const json lost = review_replay(make_replay("la-casa", 1, options, 8, lose), ReviewOptions{});
  REQUIRE_MESSAGE(!lost.contains("error"), lost.dump());
  CHECK(lost["measure"] == "win");
  const json* d = decision_at(lost, seq);
  REQUIRE(d);
  CHECK((*d)["played"]["card"] == "F1");
  CHECK((*d)["best"]["card"] == "K2");
  // The position is decided from the seat's view: the whole chance of the point is lost.
  CHECK((*d)["value_best"] == 1.0);
  CHECK((*d)["value_played"] == 0.0);
  CHECK((*d)["verdict"] == "blunder");
  CHECK(lost["seats"][0]["counts"]["blunder"].get<int>() >= 1);

  const json won = review_replay(make_replay("la-casa", 1, options, 8, win), ReviewOptions{});
  REQUIRE_MESSAGE(!won.contains("error"), won.dump());
  const json* w = decision_at(won, seq);
  REQUIRE(w);
  CHECK((*w)["played"]["card"] == "K2");
  CHECK((*w)["verdict"] == "best");
  CHECK((*w)["loss"] == 0.0);
}
