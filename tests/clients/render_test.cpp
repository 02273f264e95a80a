// The CLI's renderer: each game's view comes out as text holding its key facts.
#include "clients/cli/render.h"

#include <doctest/doctest.h>

#include <string>

namespace {

using casa::cli::Json;
using casa::cli::render_action;
using casa::cli::render_hand;
using casa::cli::render_view;

bool has(const std::string& text, const std::string& part) {
  const bool found = text.find(part) != std::string::npos;
  if (!found) MESSAGE("missing \"" << part << "\" in:\n" << text);
  return found;
}

}  // namespace

TEST_CASE("a La Casa view shows the Families, the Ruling Family, the trick and whose turn") {
  const Json view = Json::parse(R"({
    "game": "la-casa", "seat": 1, "to_act": [1], "phase": "play", "round": 2, "dealer": 0,
    "scores": [3, 5, 3, 5],
    "challenge": "Cousins", "ruling_family": "Guns",
    "trick": [{"seat": 0, "card": "K7"}],
    "tricks_won": [1, 2, 0, 1],
    "hand": ["G1", "K3", "G5", "MC", "F9"]
  })");
  const std::string text = render_view(view);
  CHECK(has(text, "la-casa"));
  CHECK(has(text, "round 2"));
  CHECK(has(text, "You are seat 1."));
  CHECK(has(text, "To act: seat 1 (you)."));
  CHECK(has(text, "seat 1 5"));
  CHECK(has(text, "Ruling Family: Guns"));
  CHECK(has(text, "Challenge: Cousins"));
  CHECK(has(text, "Trick: seat 0: K7"));
  CHECK(has(text, "Tricks won: 1 2 0 1"));
  // The hand by Family, in the Families' order, cards in the order sent.
  CHECK(has(text, "Guns: G1 G5\n"));
  CHECK(has(text, "Knives: K3\n"));
  CHECK(has(text, "Fists: F9\n"));
  CHECK(has(text, "Mangia-Cake: MC\n"));
  CHECK(text.find("Guns: G1") < text.find("Knives: K3"));
  CHECK(text.find("Fists") < text.find("Mangia-Cake: MC"));
}

TEST_CASE("a two-player La Casa view shows each player's tableau") {
  const Json view = Json::parse(R"({
    "game": "la-casa", "seat": 0, "to_act": [1], "phase": "play", "scores": [0, 1],
    "tableau": [[{"up": "G9", "down": 1}, {"up": "M2", "down": 0}],
                [{"up": "K4", "down": 1}]],
    "hand": ["F2"]
  })");
  const std::string text = render_view(view);
  CHECK(has(text, "To act: seat 1."));
  CHECK(has(text, "Tableau: (up G9, down 1) (up M2, down 0) · (up K4, down 1)"));
  CHECK(has(text, "Fists: F2"));
}

TEST_CASE("a Casino view shows the loose cards, the builds and suits with their symbols") {
  const Json view = Json::parse(R"({
    "game": "casino", "seat": 0, "to_act": [0], "phase": "play", "scores": [0, 0],
    "loose": ["TD", "2S", "KH"],
    "builds": [{"value": 7, "owner": 1, "cards": ["3C", "4H"]}],
    "hand": ["7S", "AC", "KD", "9H"]
  })");
  const std::string text = render_view(view);
  CHECK(has(text, "Loose cards: 10\u2666 2\u2660 K\u2665"));
  CHECK(has(text, "Builds: value 7, owner 1, cards [3\u2663 4\u2665]"));
  CHECK(has(text, "Spades: 7\u2660\n"));
  CHECK(has(text, "Clubs: A\u2663\n"));
  CHECK(text.find("Spades") < text.find("Hearts"));
  CHECK(text.find("Diamonds") < text.find("Clubs"));
}

TEST_CASE("a Conference view groups trumps first and marks the Honours") {
  const Json view = Json::parse(R"({
    "game": "conference", "seat": 2, "to_act": [3], "phase": "play", "scores": [0, 0, 0, 0],
    "trick": [{"seat": 3, "card": "EK"}],
    "hand": ["E3", "T21", "FOOL", "T4", "WQ", "A10", "T1"]
  })");
  const std::string text = render_view(view);
  CHECK(has(text, "Trumps: T21* T4 T1*\n"));
  CHECK(has(text, "Fool: FOOL*\n"));
  CHECK(has(text, "Earth: E3\n"));
  CHECK(has(text, "Air: A10\n"));
  CHECK(has(text, "Water: WQ\n"));
  CHECK(text.find("Trumps") < text.find("Earth"));
  CHECK(has(text, "Trick: seat 3: EK"));
}

TEST_CASE("a Trophy Case view groups the hand by colour and shows who folded") {
  const Json view = Json::parse(R"({
    "game": "trophy-case", "seat": 0, "to_act": [0], "phase": "trick", "scores": [1, 0, 2],
    "led_colour": "red", "folded": [2],
    "trick": [{"seat": 1, "card": "MAZ3"}, {"seat": 2, "card": "BOO7"}],
    "hand": ["TOP9", "RAI2", "T-DEATH", "MAZX", "LAM0"]
  })");
  const std::string text = render_view(view);
  CHECK(has(text, "Led colour: red"));
  CHECK(has(text, "Folded: 2"));
  CHECK(has(text, "Trick: seat 1: MAZ3 · seat 2: BOO7"));
  CHECK(has(text, "red: RAI2 MAZX\n"));
  CHECK(has(text, "green: LAM0\n"));
  CHECK(has(text, "blue: TOP9\n"));
  CHECK(has(text, "Trumps: T-DEATH\n"));
  CHECK(text.find("red:") < text.find("green:"));
  CHECK(text.find("blue:") < text.find("Trumps:"));
}

TEST_CASE("a spectator's view says so and a long list goes one item per line") {
  Json view = Json::parse(R"({"game": "casino", "seat": -1, "to_act": [], "phase": "over",
                              "scores": [11, 4]})");
  Json builds = Json::array();
  for (int v = 2; v <= 6; ++v)
    builds.push_back({{"value", v}, {"owner", v % 2}, {"cards", {"AS", "AH"}}});
  view["builds"] = builds;
  const std::string text = render_view(view);
  CHECK(has(text, "You are watching."));
  CHECK(has(text, "To act: nobody."));
  CHECK(has(text, "Builds:\n  - value 2, owner 0, cards [A\u2660 A\u2665]\n"));
  CHECK(has(text, "  - value 6, owner 0"));
}

TEST_CASE("unknown games and fields still render, field by field") {
  const Json view = Json::parse(R"({"game": "new-game", "seat": 0, "to_act": [0],
      "phase": "x", "scores": [0], "mystery_pile": {"0": 3, "1": 4}, "hand": ["Q1", "Q2"]})");
  const std::string text = render_view(view);
  CHECK(has(text, "Mystery pile: 0 3, 1 4"));
  CHECK(has(text, "Other: Q1 Q2"));
}

TEST_CASE("offered actions read as one line each") {
  CHECK(render_action("la-casa", Json::parse(R"({"type":"play","card":"G5"})")) == "play G5");
  CHECK(
      render_action("casino",
                    Json::parse(R"({"type":"capture","card":"7H","sets":[["3S","4D"],["7C"]]})")) ==
      "capture 7\u2665 sets [[3\u2660 4\u2666] [7\u2663]]");
  CHECK(render_action("trophy-case", Json::parse(R"({"type":"fold"})")) == "fold");
  CHECK(render_action("la-casa", Json::parse(R"({"type":"elect","family":"Guns"})")) ==
        "elect family Guns");
}

TEST_CASE("an empty hand and a hand that is only a count") {
  CHECK(render_hand("la-casa", Json::array()) == "(no cards)\n");
  CHECK(render_hand("la-casa", Json(7)) == "7\n");
}

TEST_CASE("a real two-player La Casa view (engine output): scores, tableaux by seat, hand") {
  const Json view = Json::parse(
      R"({"casa": {"count": 1, "top": "G8"}, "challenge": "revenge", "cousins": null, "dealer": 0, "election": false, "face_up": [[], []], "format": "challenges", "game": "la-casa", "hand": ["G1", "G9", "K3", "M2", "M9", "F1", "F2", "F6"], "hand_sizes": [8, 8], "lead_family": null, "leader": 1, "phase": "play", "players": 2, "reference": null, "round": 1, "ruling_family": "guns", "scores": [0, 0], "seat": 1, "seat_scores": [0, 0], "set_aside": [], "set_aside_counts": [0, 0], "tableaux": [[{"down": 1, "up": "K9"}, {"down": 1, "up": "M4"}, {"down": 1, "up": "M8"}, {"down": 1, "up": "G5"}, {"down": 1, "up": "K4"}], [{"down": 1, "up": "M6"}, {"down": 1, "up": "K6"}, {"down": 1, "up": "F7"}, {"down": 1, "up": "F8"}, {"down": 1, "up": "F5"}]], "target": 12, "to_act": [1], "total_tricks": 18, "trick": [], "tricks_played": 0, "tricks_won": [0, 0]})");
  const std::string text = render_view(view);
  CHECK(has(text, "You are seat 1. Dealer: seat 0. To act: seat 1 (you)."));
  CHECK(has(text, "Scores: seat 0 0, seat 1 0"));
  CHECK(has(text, "Ruling Family: guns"));
  CHECK(has(text, "Challenge: revenge"));
  CHECK(has(text, "Casa: count 1, top G8"));
  CHECK(has(text, "Tableaux:\n  seat 0:\n    - down 1, up K9\n"));
  CHECK(has(text, "  seat 1:\n    - down 1, up M6\n"));
  CHECK(has(text, "Fists: F1 F2 F6\n"));
}

TEST_CASE("four-player La Casa scores are per side when the view has fewer scores than players") {
  const Json view = Json::parse(R"({"game":"la-casa","players":4,"seat":0,"to_act":[3],
                                    "scores":[5,7],"seat_scores":[5,7,5,7]})");
  const std::string text = render_view(view);
  CHECK(has(text, "Scores: side 0 5, side 1 7"));
  CHECK(has(text, "Scores by seat: 5 7 5 7"));
}
