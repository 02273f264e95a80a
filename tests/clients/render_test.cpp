// SPDX-License-Identifier: AGPL-3.0-or-later
// The CLI's renderer: each game's view comes out as text holding its key facts.
#include "clients/cli/render.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

namespace {

using casa::cli::columns;
using casa::cli::Json;
using casa::cli::render_action;
using casa::cli::render_event;
using casa::cli::render_game_end;
using casa::cli::render_hand;
using casa::cli::render_screen;
using casa::cli::render_seat;
using casa::cli::render_summary;
using casa::cli::render_view;
using casa::cli::ScreenContext;
using casa::cli::seating_of;

bool has(const std::string& text, const std::string& part) {
  const bool found = text.find(part) != std::string::npos;
  if (!found) MESSAGE("missing \"" << part << "\" in:\n" << text);
  return found;
}

// Real views and offered actions, saved from the engines (casa-sim) in
// tests/clients/views/: {"view": ..., "legal": [...] or null}.
Json fixture(const std::string& name) {
  std::ifstream in(std::string(CASA_CLIENT_VIEWS_DIR) + "/" + name + ".json");
  REQUIRE_MESSAGE(in.good(), "no fixture " << name);
  return Json::parse(in);
}

// Every line "Label: ..." of a text: no field name left raw (snake_case).
bool labels_read_as_words(const std::string& text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos && line.substr(0, colon).find('_') != std::string::npos) {
      MESSAGE("raw field name in: " << line);
      return false;
    }
    pos = end == std::string::npos ? text.size() : end + 1;
  }
  return true;
}

}  // namespace

TEST_CASE("four-player La Casa, mid-trick: sides, teams, the trick, the last trick") {
  const Json f = fixture("la-casa-4-challenges-play");
  const std::string text = render_view(f["view"]);
  CHECK(has(text, "== la-casa | phase play | round 1 ==\n"));
  CHECK(has(text, "You are seat 0. Dealer: seat 1. To act: seat 1.\n"));
  CHECK(has(text, "Scores: seats 0+2: 0, seats 1+3: 0\n"));
  CHECK(has(text, "Teams: seats 0+2 vs seats 1+3\n"));
  CHECK(has(text, "Ruling Family: knives\n"));
  CHECK(has(text, "Challenge: kin\n"));
  CHECK(has(text, "Lead Family: knives\n"));
  CHECK(has(text, "Trick: seat 3: K1 \u00b7 seat 0: MC\n"));
  CHECK(has(text,
            "Last trick: seat 2: F1 \u00b7 seat 3: F9 \u00b7 seat 0: F2 \u00b7 seat 1: G7  "
            "(winner seat 3)\n"));
  CHECK(has(text, "Tricks won: seats 0+2: 0 \u00b7 seats 1+3: 1\n"));
  CHECK(has(text, "Cards in hand: seat 0: 5 \u00b7 seat 1: 6"));
  CHECK(has(text, "Masks: M2 M5 M6 M9\n"));
  // Fields with nothing in them (no Cousins, empty face-up lists) are left out.
  CHECK(text.find("Cousins") == std::string::npos);
  CHECK(text.find("Face-up") == std::string::npos);
  CHECK(labels_read_as_words(text));
}

TEST_CASE("La Casa between rounds: the round's result by side, and the deal to come") {
  const Json f = fixture("la-casa-4-challenges-round_over");
  const std::string text = render_view(f["view"]);
  CHECK(has(text, "| phase round over |"));
  CHECK(has(text, "To act: seat 2."));
  CHECK(has(text, "Round result:\n  Counts: seats 0+2: 2 \u00b7 seats 1+3: 5\n"));
  CHECK(has(text, "  Points: seats 0+2: 0 \u00b7 seats 1+3: 1\n"));
  CHECK(has(text, "Scores: seats 0+2: 0, seats 1+3: 1\n"));
  CHECK(has(text, "Your hand:\n  (no cards)\n"));
  CHECK(labels_read_as_words(text));
  CHECK(render_action("la-casa", Json::parse(R"({"type":"deal"})")) == "deal");

  const Json solo = fixture("la-casa-1-solo-round_over");
  const std::string solo_text = render_view(solo["view"]);
  CHECK(has(solo_text, "| phase round over |"));
  CHECK(has(solo_text, "Last trick: F3 \u00b7 K4  (winner human)\n"));
  CHECK(has(solo_text, "Tricks: human 5, robot 12\n"));
  CHECK(labels_read_as_words(solo_text));
}

TEST_CASE("La Casa Solo and Domination views") {
  const std::string solo = render_view(fixture("la-casa-1-solo-play")["view"]);
  CHECK(has(solo, "Trick: no card yet\n"));
  CHECK(has(solo, "Robot:\n  Cards: 18\n  Columns:\n    - column 1, face down 2, face up F8\n"));
  CHECK(labels_read_as_words(solo));

  const Json f = fixture("la-casa-2-domination-take_pile-late");
  const std::string text = render_view(f["view"]);
  CHECK(has(text, "| phase take pile |"));
  CHECK(has(text, "Ruling Family: fists\n"));
  CHECK(has(text, "Election: elector seat 1, nominated fists, round 1\n"));
  CHECK(has(text, "Last trick: seat 1: F8 \u00b7 seat 0: F9  (winner seat 0)\n"));
  CHECK(has(text, "Tricks: seat 0: 5 \u00b7 seat 1: 3\n"));
  CHECK(labels_read_as_words(text));
  CHECK(render_action("la-casa", f["legal"][0]) == "take pile face up");
  CHECK(render_action("la-casa", f["legal"][1]) == "take pile stock");
}

TEST_CASE("a Casino view: the table's loose cards and builds, captures by seat, suits") {
  const Json f = fixture("casino-4-partners-play");
  const std::string text = render_view(f["view"]);
  CHECK(has(text, "Teams: seats 0+2 vs seats 1+3\n"));
  CHECK(has(text, "Table:\n  Builds: B1 value 9 [4\u2663 5\u2663] owner seat 0\n"));
  CHECK(has(text,
            "  Loose cards: 2\u2660 5\u2660 K\u2660 4\u2665 6\u2666 9\u2666 10\u2666 Q\u2666\n"));
  CHECK(has(text, "Cards in the deck: 32\n"));
  CHECK(has(text, "Last capture by: nobody\n"));
  CHECK(has(text, "Spades: 4\u2660\n"));
  CHECK(labels_read_as_words(text));

  const Json late = fixture("casino-2-play-late");
  const std::string late_text = render_view(late["view"]);
  CHECK(has(late_text, "Captured:\n  seat 0: 2\u2660 3\u2660"));
  CHECK(has(late_text, "Last capture by: seat 1\n"));
  CHECK(labels_read_as_words(late_text));
  CHECK(render_action("casino", late["legal"][0]) == "capture Q\u2660 loose [Q\u2666]");
  CHECK(render_action("casino", late["legal"][1]) == "trail Q\u2660");
}

TEST_CASE("a Conference view: sides, partner, contract, the trick and the last one") {
  const Json f = fixture("conference-4-play-late");
  const std::string text = render_view(f["view"]);
  CHECK(has(text, "== conference | phase play | hand 1 ==\n"));
  CHECK(has(text, "Teams: seats 0+1 vs seats 2+3\n"));
  CHECK(has(text, "Partner: seat 1\n"));
  CHECK(has(text, "Your side: seats 0+1\n"));
  CHECK(has(text, "Contract (card points): 83\n"));
  CHECK(has(text, "Trick: seat 3: WC \u00b7 seat 0: W2  (leader seat 3; led water)\n"));
  CHECK(has(text, "Tricks this hand: 5\n"));
  CHECK(has(text,
            "Last trick (leader seat 3; led fire; winner seat 3):\n"
            "  seat 3: FK \u00b7 seat 0: F10 \u00b7 seat 1: F1 \u00b7 seat 2: F4\n"));
  CHECK(has(text, "Tricks won: seats 0+1: 2 \u00b7 seats 2+3: 3\n"));
  CHECK(has(text, "Game points: seats 0+1: 0 \u00b7 seats 2+3: 0\n"));
  CHECK(has(text, "Fool: owner seat 1, trick 2\n"));
  CHECK(has(text, "Trumps: T1* T5 T9 T11 T14\n"));
  CHECK(text.find("Allegiance") == std::string::npos);  // null: not in this game
  CHECK(labels_read_as_words(text));

  const std::string discard = render_view(fixture("conference-4-discard")["view"]);
  CHECK(has(discard, "| phase discard |"));
  CHECK(has(discard, "Cards to discard: 2\n"));
  CHECK(has(discard, "Cards in hand: seat 0: 19 \u00b7 seat 1: 21"));
  CHECK(discard.find("Trick:") == std::string::npos);  // no trick before the play
  CHECK(labels_read_as_words(discard));
}

TEST_CASE("a Trophy Case view: who is still in, who folded, the suits played") {
  const Json f = fixture("trophy-case-4-play");
  const std::string text = render_view(f["view"]);
  CHECK(has(text,
            "Trick (folded seat 1; still in seats 0, 2, 3; leader seat 2; "
            "led colour blue; led suit ZUR; suits played ZUR):\n"
            "  seat 2: ZUR\u221e \u00b7 seat 3: BUG2 \u00b7 seat 0: ZUR9"));
  CHECK(has(text, "Hands before the reshuffle: 2\n"));
  CHECK(has(text, "Cards in the stock: 126\n"));
  CHECK(has(text, "orange: FRO9 INK4 INK6 INK9\n"));
  CHECK(has(text, "blue: ZUR4 TOP8\n"));
  CHECK(text.find("Winners") == std::string::npos);  // nobody yet
  CHECK(text.find("Turn") == std::string::npos);     // the header says whose turn
  CHECK(labels_read_as_words(text));

  const std::string late = render_view(fixture("trophy-case-4-play-late")["view"]);
  CHECK(has(late, "Last trick (folded seats 1, 2, 3; still in seat 0;"));
  CHECK(has(late, "points 5; reason last in; winner seat 0):\n"));
  CHECK(has(late, "Set aside: BUG2 FRO1"));
  CHECK(labels_read_as_words(late));
}

TEST_CASE("events read as one line each, the seat first") {
  const Json co = fixture("conference-4-events");
  CHECK(render_event("conference", co["discard"]) == "seat 1: discard FQ");
  CHECK(render_event("conference", co["trick"]) ==
        "trick: seat 2: T6 \u00b7 seat 3: T17 \u00b7 seat 0: T16 \u00b7 seat 1: T3 "
        "(leader seat 2; led trump; trick 1; winner seat 3)");
  const Json tc = fixture("trophy-case-4-events");
  CHECK(render_event("trophy-case", tc["fold"]) == "seat 1: fold");
  CHECK(render_event("trophy-case", tc["game_over"]) == "game over winners seat 0");
  const Json ca = fixture("casino-2-events");
  CHECK(render_event("casino", ca["hand"]) == "seat 0: hand 2\u2660 8\u2660 3\u2666 Q\u2666");
  const Json ca4 = fixture("casino-4-partners-events");
  CHECK(has(render_event("casino", ca4["round_end"]), "K\u2666], seat 2) round 1"));
  CHECK(has(render_event("casino", ca4["round_end"]), "seats 0, 2, spades 8"));
  const Json lc = fixture("la-casa-4-challenges-events");
  CHECK(render_event("la-casa", lc["deal"]) ==
        "deal challenge cousins dealer seat 2 redeals 0 round 2");
}

TEST_CASE("hands group by Family, suit or colour in each game's order") {
  const std::string lc = render_hand("la-casa", Json::parse(R"(["G1", "K3", "G5", "MC", "F9"])"));
  CHECK(lc == "Guns: G1 G5\nKnives: K3\nFists: F9\nMangia-Cake: MC\n");
  const std::string ca = render_hand("casino", Json::parse(R"(["7S", "AC", "KD", "9H"])"));
  CHECK(ca == "Spades: 7\u2660\nHearts: 9\u2665\nDiamonds: K\u2666\nClubs: A\u2663\n");
  const std::string co =
      render_hand("conference", Json::parse(R"(["E3", "T21", "FOOL", "T4", "WQ", "A10", "T1"])"));
  CHECK(co == "Trumps: T21* T4 T1*\nFool: FOOL*\nEarth: E3\nAir: A10\nWater: WQ\n");
  const std::string tc =
      render_hand("trophy-case", Json::parse(R"(["TOP9", "RAI2", "T-DEATH", "MAZX", "LAM0"])"));
  // TC-1.1: the value above 9 is Infinity, X in the ids, ∞ on the screen.
  CHECK(tc == "red: RAI2 MAZ\u221e\ngreen: LAM0\nblue: TOP9\nTrumps: T-DEATH\n");
}

TEST_CASE("a spectator's view says so and a long list goes one item per line") {
  Json view = Json::parse(R"({"game": "casino", "seat": -1, "to_act": [], "phase": "over",
                              "scores": [11, 4]})");
  Json builds = Json::array();
  for (int v = 2; v <= 6; ++v) {
    // Appended, not "B" + string: GCC 12 at -O3 warns (-Wrestrict, a false positive).
    std::string id = "B";
    id += std::to_string(v);
    builds.push_back({{"id", id}, {"value", v}, {"owner", v % 2}, {"cards", {"AS", "AH"}}});
  }
  view["builds"] = builds;
  const std::string text = render_view(view);
  CHECK(has(text, "You are watching."));
  CHECK(has(text, "To act: nobody."));
  CHECK(has(text, "Builds:\n  - B2 value 2 [A\u2660 A\u2665] owner seat 0\n"));
  CHECK(has(text, "  - B6 value 6 [A\u2660 A\u2665] owner seat 0\n"));
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
  CHECK(render_action("la-casa", Json::parse(R"({"type":"name_family","family":"guns"})")) ==
        "name family guns");
}

TEST_CASE("an empty hand and a hand that is only a count") {
  CHECK(render_hand("la-casa", Json::array()) == "(no cards)\n");
  CHECK(render_hand("la-casa", Json(7)) == "7\n");
}

TEST_CASE("a two-player La Casa view: scores, tableaux by seat, hand") {
  const Json view = Json::parse(
      R"({"casa": {"count": 1, "top": "G8"}, "challenge": "revenge", "cousins": null, "dealer": 0, "election": false, "face_up": [[], []], "format": "challenges", "game": "la-casa", "hand": ["G1", "G9", "K3", "M2", "M9", "F1", "F2", "F6"], "hand_sizes": [8, 8], "lead_family": null, "leader": 1, "phase": "play", "players": 2, "reference": null, "round": 1, "ruling_family": "guns", "scores": [0, 0], "seat": 1, "seat_scores": [0, 0], "set_aside": [], "set_aside_counts": [0, 0], "tableaux": [[{"down": 1, "up": "K9"}, {"down": 1, "up": "M4"}, {"down": 1, "up": "M8"}, {"down": 1, "up": "G5"}, {"down": 1, "up": "K4"}], [{"down": 1, "up": "M6"}, {"down": 1, "up": "K6"}, {"down": 1, "up": "F7"}, {"down": 1, "up": "F8"}, {"down": 1, "up": "F5"}]], "target": 12, "to_act": [1], "total_tricks": 18, "trick": [], "tricks_played": 0, "tricks_won": [0, 0]})");
  const std::string text = render_view(view);
  CHECK(has(text, "You are seat 1. Dealer: seat 0. To act: seat 1 (you)."));
  CHECK(has(text, "Scores: seat 0: 0, seat 1: 0"));
  CHECK(has(text, "Ruling Family: guns"));
  CHECK(has(text, "Challenge: revenge"));
  CHECK(has(text, "Casa: count 1, top G8"));
  CHECK(has(text, "Tableaux:\n  seat 0:\n    - down 1, up K9\n"));
  CHECK(has(text, "  seat 1:\n    - down 1, up M6\n"));
  CHECK(has(text, "Fists: F1 F2 F6\n"));
}

namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// The screen fits the terminal: at most 24 lines, none wider than 80 columns.
bool fits_80x24(const std::vector<std::string>& lines) {
  bool ok = lines.size() <= 24;
  if (!ok) MESSAGE(lines.size() << " lines:\n" << joined(lines));
  for (const auto& l : lines)
    if (columns(l) > 80) {
      MESSAGE("wider than 80 columns (" << columns(l) << "): " << l);
      ok = false;
    }
  return ok;
}

bool has_cards(const Json& v) { return v.is_array() && !v.empty(); }

}  // namespace

TEST_CASE(
    "the default screen of each game's decisions fits 80x24 with trick, hand, scores, choices") {
  // Decisions spread over whole games of every engine (casa-sim, random play).
  for (const char* name : {"screens-la-casa-4", "screens-la-casa-2", "screens-la-casa-1",
                           "screens-casino-2", "screens-casino-4", "screens-conference-4",
                           "screens-trophy-case-3", "screens-trophy-case-5"}) {
    const Json f = fixture(name);
    REQUIRE(f["decisions"].size() >= 5);
    for (const auto& d : f["decisions"]) {
      CAPTURE(name);
      const Json& view = d["view"];
      const Json& legal = d["legal"];
      ScreenContext context;
      context.table = "t3kq9x2m";
      context.time_left_ms = 42000;
      context.prompt = "Your move (1-" + std::to_string(legal.size()) + ", or help)> ";
      bool complete = false;
      const auto lines = render_screen(view, legal, context, &complete);
      const std::string text = joined(lines);
      CHECK(fits_80x24(lines));
      CHECK(has(lines.front(),
                "== " + view["game"].get<std::string>() + " | table t3kq9x2m | 0:42 left"));
      CHECK(has(text, "Scores: "));
      if (has_cards(view.value("hand", Json()))) CHECK(has(text, "Your hand: "));
      // Every choice is on the screen, numbered.
      for (std::size_t i = 0; i < legal.size(); ++i)
        CHECK(has(text, std::to_string(i + 1) + ") " +
                            casa::cli::render_action(view["game"].get<std::string>(), legal[i])));
      // The trick being played, whenever there is one.
      const Json trick = view.value("trick", Json());
      if ((trick.is_array() && !trick.empty()) || trick.is_object()) CHECK(has(text, "Trick"));
      CHECK(lines.back() == context.prompt);
      // The table's settings are not repeated at every decision.
      CHECK(text.find("Options:") == std::string::npos);
      CHECK(text.find("Format:") == std::string::npos);
    }
  }
}

TEST_CASE("the screen shows who is away, the takeover countdown and who a robot plays for") {
  const Json f = fixture("la-casa-4-challenges-play");
  ScreenContext context;
  context.prompt = "> ";
  context.seats = Json::parse(R"([
      {"seat":0,"kind":"player","name":"ann","connected":true,"away":false},
      {"seat":1,"kind":"player","name":"bob","connected":false,"away":true,"takeover_in_ms":45000},
      {"seat":2,"kind":"player","name":"cy","connected":false,"away":true,"played_by":"robot"},
      {"seat":3,"kind":"bot","bot":"robot"}])");
  context.seats_age_ms = 5000;  // the countdown goes on after the update came
  const auto lines = render_screen(f["view"], f["legal"], context);
  const std::string text = joined(lines);
  CHECK(fits_80x24(lines));
  CHECK(has(text,
            "Seats: 0 ann (you) \u00b7 1 bob (away, robot in 0:40) \u00b7 "
            "2 cy (away, played by robot)\n    \u00b7 3 robot (bot)\n"));
  // Nobody away: no seats line, the room goes to the game.
  context.seats = Json::parse(R"([{"seat":0,"kind":"player","name":"ann","away":false}])");
  CHECK(joined(render_screen(f["view"], f["legal"], context)).find("Seats:") == std::string::npos);
  CHECK(render_seat(Json::parse(R"({"seat":2,"kind":"empty"})"), 0) == "(empty)");
}

TEST_CASE(
    "a decision with more choices than room: the screen still fits and says how to see them") {
  const Json f = fixture("la-casa-4-challenges-play");
  Json legal = Json::array();
  for (int i = 0; i < 200; ++i) legal.push_back({{"type", "pick"}, {"number", i}});
  ScreenContext context;
  context.prompt = "> ";
  bool complete = true;
  const auto lines = render_screen(f["view"], legal, context, &complete);
  CHECK(fits_80x24(lines));
  CHECK_FALSE(complete);
  CHECK(has(joined(lines), "more (type 'choices' to see them all)"));
}

TEST_CASE("set-aside cards show only when someone set cards aside (LC-7.8, The Club)") {
  Json view = fixture("la-casa-4-challenges-play")["view"];
  view["set_aside_counts"] = Json::parse("[0,0,0,0]");
  CHECK(render_view(view).find("Set-aside") == std::string::npos);
  view["set_aside_counts"] = Json::parse("[2,0,1,0]");
  CHECK(has(render_view(view), "Set-aside cards: seat 0: 2"));
}

TEST_CASE("round, hand and game summaries read in words, owners named, no raw arrays") {
  const Json lc = fixture("la-casa-4-challenges-events");
  const Json view = fixture("la-casa-4-challenges-round_over")["view"];
  const auto seating = seating_of(view);  // seat 0, sides 0+2 and 1+3
  const std::string round = joined(render_summary("la-casa", lc["round_end"], seating));
  CHECK(has(round, "Round 1 is over.\n"));
  CHECK(has(round, "  Counts: seats 0+2 (you): 2 \u00b7 seats 1+3: 5\n"));
  CHECK(has(round, "  Points: seats 0+2 (you): 0 \u00b7 seats 1+3: 1\n"));
  CHECK(has(round, "  Scores: seats 0+2 (you): 0 \u00b7 seats 1+3: 1\n"));
  CHECK(round.find('[') == std::string::npos);
  CHECK(round.find("References") == std::string::npos);  // nothing in it
  // An event that is no summary gets none, but still names owners when it lists them.
  CHECK(render_summary("la-casa", lc["play"], seating).empty());

  const Json ca = fixture("casino-4-partners-events");
  Json casino_view = {{"players", 4}, {"teams", {{0, 2}, {1, 3}}}, {"seat", 1}};
  const std::string casino =
      joined(render_summary("casino", ca["round_end"], seating_of(casino_view)));
  CHECK(has(casino, "Round 1 is over.\n"));
  CHECK(has(casino,
            "  seats 0+2: aces 1, big casino, cards 26, most cards 0, most spades 1, "
            "points\n    4, spades 8"));
  CHECK(has(casino, "  seats 1+3 (you): aces 3, cards 26, little casino,"));
  CHECK(casino.find("big casino false") == std::string::npos);

  const Json co = fixture("conference-4-events");
  Json co_view = {{"players", 4}, {"teams", {{0, 1}, {2, 3}}}, {"seat", 2}};
  const std::string hand =
      joined(render_summary("conference", co["hand_end"], seating_of(co_view)));
  CHECK(has(hand, "Hand is over.\n"));
  CHECK(has(hand, "  Card points: seats 0+1: 73 \u00b7 seats 2+3 (you): 73\n"));
  CHECK(has(hand, "  Game points: seats 0+1: 0 \u00b7 seats 2+3 (you): 1\n"));

  const Json solo = fixture("la-casa-1-solo-events");
  const std::string solo_round = joined(render_summary(
      "la-casa", solo["round_end"], seating_of(Json::parse(R"({"players":1,"seat":0})"))));
  CHECK(has(solo_round, "  Tricks: human 5, robot 12\n"));

  for (const std::string& text : {round, casino, hand, solo_round}) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t end = text.find('\n', pos);
      CHECK(columns(text.substr(pos, end - pos)) <= 80);
      pos = end + 1;
    }
  }
  const std::string end =
      joined(render_game_end("la-casa", Json::parse("[12, 7]"), Json::parse("[0, 2]"), seating));
  CHECK(end ==
        "Final scores: seats 0+2 (you): 12 \u00b7 seats 1+3: 7\nWinners: seat 0 (you), seat "
        "2.\nYou won.\n");
  const std::string lost =
      joined(render_game_end("la-casa", Json::parse("[3]"), Json::parse("[-1]"),
                             seating_of(Json::parse(R"({"players":1,"seat":0})"))));
  CHECK(lost == "Final scores: seat 0 (you): 3\nWinner: the game's own opponent.\nYou lost.\n");
}

TEST_CASE("events name who a list of numbers belongs to when the seating is known") {
  const Json lc = fixture("la-casa-4-challenges-events");
  const auto seating = seating_of(fixture("la-casa-4-challenges-round_over")["view"]);
  CHECK(render_event("la-casa", lc["round_end"], seating) ==
        "round end counts (seats 0+2 (you): 2, seats 1+3: 5) points (seats 0+2 (you): 0, "
        "seats 1+3: 1) round 1 scores (seats 0+2 (you): 0, seats 1+3: 1) tricks (seats 0+2 "
        "(you): 2, seats 1+3: 5)");
}

TEST_CASE("Trophy Case's Infinity reads as \u221e on every screen") {
  CHECK(casa::cli::card_label("trophy-case", "MAZX") == "MAZ\u221e");
  CHECK(casa::cli::card_label("trophy-case", "TOPX") == "TOP\u221e");
  CHECK(casa::cli::card_label("trophy-case", "T-GRUE") == "T-GRUE");
  CHECK(casa::cli::card_label("la-casa", "MX") == "MX");
  CHECK(render_action("trophy-case", Json::parse(R"({"type":"play","card":"BOOX"})")) ==
        "play BOO\u221e");
  Json view = fixture("trophy-case-4-play")["view"];
  view["hand"].push_back("RAIX");
  view["trick"]["plays"].push_back({{"card", "ZURX"}, {"seat", 0}});
  const std::string text = render_view(view);
  CHECK(has(text, "red: RAI\u221e"));
  CHECK(has(text, "seat 2: ZUR\u221e"));
  CHECK(text.find("ZURX") == std::string::npos);
}

TEST_CASE("render_review: accuracy per seat, then each decision that was not the best") {
  const Json review = Json::parse(R"({
    "game": "la-casa", "iterations": 2000, "seed": "7", "measure": "score",
    "seats": [{"seat": 0, "name": "ann", "decisions": 3, "forced": 1, "accuracy": 61.5,
               "counts": {"best": 1, "good": 1, "inaccuracy": 0, "mistake": 0, "blunder": 1}}],
    "decisions": [
      {"seq": 4, "seat": 0, "played": {"type": "play", "card": "F2"}, "best": {"type": "play", "card": "F2"},
       "loss": 0.0, "verdict": "best"},
      {"seq": 8, "seat": 0, "played": {"type": "play", "card": "K6"}, "best": {"type": "play", "card": "K6"},
       "verdict": "forced"},
      {"seq": 12, "seat": 0, "played": {"type": "play", "card": "G5"}, "best": {"type": "play", "card": "M9"},
       "loss": 0.031, "verdict": "good"},
      {"seq": 24, "seat": 0, "played": {"type": "play", "card": "F9"}, "best": {"type": "play", "card": "F2"},
       "loss": 0.6, "verdict": "blunder"}]})");
  const auto lines = casa::cli::render_review(review);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "Review of la-casa: 2000 search iterations per decision, seed 7, losses in expected "
                    "score (0-1)");
  CHECK(lines[1] == "seat 0 (ann): accuracy 61.5 % over 3 decisions (1 best, 1 good, 0 inaccuracy, "
                    "0 mistake, 1 blunder; 1 forced)");
  CHECK(lines[2] == "  #12 seat 0 (ann) played " + render_action("la-casa", review["decisions"][2]["played"]) +
                        "; better " + render_action("la-casa", review["decisions"][2]["best"]) +
                        " (loss 0.03, good)");
  CHECK(lines[3].find("#24 seat 0 (ann) played") != std::string::npos);
  CHECK(lines[3].find("(loss 0.60, blunder)") != std::string::npos);
  const auto refused = casa::cli::render_review(Json::parse(R"({"error":"not_over","why":"the game is not over"})"));
  REQUIRE(refused.size() == 1);
  CHECK(refused[0] == "No review (not_over): the game is not over");
}
