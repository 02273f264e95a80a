// SPDX-License-Identifier: AGPL-3.0-or-later
// Scenario tests for the plays (CA-1, CA-3) and build ownership (CA-4), each on
// a stacked deck. Two players, dealer 1, so seat 0 plays first: deck positions
// 0-3 are seat 0's hand, 4-7 seat 1's, 8-11 the table (see casino.h).
#include <doctest/doctest.h>

#include <set>

#include "tests/engine/casino/support.h"

using namespace casino_test;

namespace {

std::unique_ptr<Game> two_players(const std::vector<std::string>& front,
                                  const std::string& options = R"({"dealer":1})") {
  return make(2, with_deck(options, front));
}

// Every listed capture played with `card`, as the sorted "loose + builds" text.
std::set<std::string> captures_with(const Game& g, Seat seat, const std::string& card) {
  std::set<std::string> out;
  for (const auto& a : legal(g, seat)) {
    const Value v = g.encode_action(a);
    if (v.get_string("type", "") != "capture" || v.get_string("card", "") != card) continue;
    std::string text;
    for (const auto& id : strings(at(v, "loose"))) text += id + " ";
    for (const auto& id : strings(at(v, "builds"))) text += id + " ";
    out.insert(text);
  }
  return out;
}

bool any_trail(const Game& g, Seat seat) {
  for (const auto& a : legal(g, seat)) {
    if (g.encode_action(a).get_string("type", "") == "trail") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("CA-3.1 a number card captures by pairing, by combining, or both, as the player chooses") {
  auto g = two_players(ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "9H", "5D", "4D", "QS"}));
  CHECK(captures_with(*g, 0, "9S") == std::set<std::string>{"9H ", "4D 5D ", "9H 4D 5D "});
  CHECK(captures_with(*g, 0, "5H") == std::set<std::string>{"5D "});
  CHECK(captures_with(*g, 0, "2D").empty());
  // Nothing forces taking every set (CA-3.1), and any capture is listed once.
  CHECK(listed(*g, 0, R"({"type":"capture","card":"9S","loose":["9H"]})"));
  CHECK(refused(*g, 0, R"({"type":"capture","card":"9S","loose":["9H","5D"]})").find("CA-3.1") !=
        std::string::npos);

  const auto events = must(*g, 0, R"({"type":"capture","card":"9S","loose":["5D","9H","4D"]})");
  CHECK(pile(*g, 0) == ids({"9S", "9H", "4D", "5D"}));
  CHECK(loose(*g) == ids({"QS"}));
  CHECK(hand(*g, 0) == ids({"5H", "2D", "KC"}));
  CHECK(turn(*g) == 1);
  const auto captures = of_type(events, "capture");
  REQUIRE(captures.size() == 1);
  CHECK(captures[0].get_int("seat", -1) == 0);
  CHECK(captures[0].get_string("card", "") == "9S");
  CHECK(strings(at(captures[0], "taken")) == ids({"9H", "4D", "5D"}));
}

TEST_CASE("CA-3.5 any card may be trailed, even one that could capture") {
  auto g = two_players(ids({"9S", "5H", "KC", "2D", "3C", "4C", "6C", "7C", "9H", "5D", "4D", "QS"}));
  must(*g, 0, R"({"type":"trail","card":"9S"})");
  CHECK(loose(*g) == ids({"9S", "QS", "9H", "4D", "5D"}));
  CHECK(pile(*g, 0).empty());
  // The trailed card is there for the next player to use.
  CHECK(listed(*g, 1, R"({"type":"build","card":"3C","loose":["4D"]})"));
}

TEST_CASE("CA-1.2 aces count 1, tens 10, face cards have no value") {
  auto g = two_players(ids({"3H", "TH", "QD", "8C", "2C", "4C", "6C", "7C", "AS", "2D", "JC", "TC"}));
  CHECK(captures_with(*g, 0, "3H") == std::set<std::string>{"AS 2D "});
  CHECK(captures_with(*g, 0, "TH") == std::set<std::string>{"TC "});
  CHECK(captures_with(*g, 0, "QD").empty());
  // CA-3.6 a face card is never in a build or a sum.
  CHECK(refused(*g, 0, R"({"type":"build","card":"3H","loose":["JC"]})").find("CA-3.6") !=
        std::string::npos);
  refused(*g, 0, R"({"type":"capture","card":"3H","loose":["AS","2D","JC"]})");
  refused(*g, 0, R"({"type":"build","card":"QD","loose":["AS"]})");
  // A + 2 + 8 = 11 is over 10, even though 8C is held.
  refused(*g, 0, R"({"type":"build","card":"8C","loose":["AS","2D"]})");
  CHECK(listed(*g, 0, R"({"type":"build","card":"AS","loose":["2D"]})") == false);  // AS is not in hand
}

TEST_CASE("CA-3.2 a face card captures exactly one loose card of its rank") {
  auto g = two_players(ids({"KC", "5H", "2D", "3D", "3C", "4C", "6C", "7C", "KS", "KH", "5D", "QS"}));
  CHECK(captures_with(*g, 0, "KC") == std::set<std::string>{"KS ", "KH "});
  CHECK(refused(*g, 0, R"({"type":"capture","card":"KC","loose":["KS","KH"]})").find("CA-3.2") !=
        std::string::npos);
  refused(*g, 0, R"({"type":"capture","card":"KC","loose":["QS"]})");
  must(*g, 0, R"({"type":"capture","card":"KC","loose":["KH"]})");
  CHECK(pile(*g, 0) == ids({"KH", "KC"}));
  CHECK(loose(*g) == ids({"QS", "KS", "5D"}));
}

TEST_CASE("CA-3.3 CA-3.4 CA-3.6 CA-3.7 CA-4.2 CA-4.3 builds: made, increased, stolen, captured together") {
  auto g = two_players(ids({"3S", "7H", "2C", "8D", "AC", "8H", "5S", "6S", "4H", "5C", "2H", "JS"}));
  // CA-3.3 the new value must still be held after the play, and be at most 10.
  CHECK(refused(*g, 0, R"({"type":"build","card":"3S","loose":["2H","4H"]})").find("value 9") !=
        std::string::npos);
  CHECK(refused(*g, 0, R"({"type":"build","card":"7H","loose":["4H"]})").find("at most 10") !=
        std::string::npos);
  CHECK(listed(*g, 0, R"({"type":"build","card":"3S","loose":["5C"]})"));  // 8, 8D held
  must(*g, 0, R"({"type":"build","card":"3S","loose":["4H"]})");
  REQUIRE(builds(*g).size() == 1);
  CHECK_VALUE(builds(*g)[0], J(R"({"id":"B1","cards":["3S","4H"],"value":7,"owner":0})"));
  CHECK(loose(*g) == ids({"JS", "2H", "5C"}));

  // CA-3.4 anyone's build may be increased; the increaser becomes its owner (CA-4.3)
  // and the build keeps its id (CA-3.7).
  CHECK(any_trail(*g, 1));
  must(*g, 1, R"({"type":"increase","card":"AC","build":"B1"})");
  CHECK_VALUE(builds(*g)[0], J(R"({"id":"B1","cards":["3S","4H","AC"],"value":8,"owner":1})"));

  // Seat 0 no longer owns anything: it may trail again.
  CHECK(any_trail(*g, 0));
  must(*g, 0, R"({"type":"build","card":"2C","loose":["5C"]})");
  CHECK_VALUE(builds(*g)[1], J(R"({"id":"B2","cards":["2C","5C"],"value":7,"owner":0})"));

  // CA-4.2 an owner may not trail.
  CHECK_FALSE(any_trail(*g, 1));
  CHECK(refused(*g, 1, R"({"type":"trail","card":"5S"})").find("CA-4.2") != std::string::npos);
  // CA-3.3 a second build of the same value stays a separate pile.
  must(*g, 1, R"({"type":"build","card":"6S","loose":["2H"]})");
  REQUIRE(builds(*g).size() == 3);
  CHECK_VALUE(builds(*g)[2], J(R"({"id":"B3","cards":["6S","2H"],"value":8,"owner":1})"));

  // CA-3.1 both 8-builds, separately or together; CA-3.6 never B2 with an 8.
  CHECK(captures_with(*g, 0, "8D") == std::set<std::string>{"B1 ", "B3 ", "B1 B3 "});
  CHECK(refused(*g, 0, R"({"type":"capture","card":"8D","builds":["B2"]})").find("CA-3.6") !=
        std::string::npos);
  CHECK_FALSE(any_trail(*g, 0));
  must(*g, 0, R"({"type":"capture","card":"8D","builds":["B3","B1"]})");
  CHECK(pile(*g, 0) == ids({"3S", "6S", "2H", "4H", "8D", "AC"}));
  REQUIRE(builds(*g).size() == 1);
  CHECK(builds(*g)[0].get_string("id", "") == "B2");

  // CA-4.3 a captured build has no owner any more: seat 1 may trail.
  CHECK(any_trail(*g, 1));
  must(*g, 1, R"({"type":"trail","card":"5S"})");
  // CA-4.4 the owner's last card can always take its build.
  CHECK(legal_text(*g, 0) == std::vector<std::string>{
                                 R"({"type":"capture","card":"7H","loose":[],"builds":["B2"]})"});
  must(*g, 0, R"({"type":"capture","card":"7H","builds":["B2"]})");
  must(*g, 1, R"({"type":"trail","card":"8H"})");
  // The deal's last card is played: a new deal, no build left.
  CHECK(builds(*g).empty());
  CHECK(at(g->view(0), "hand").size() == 4);
}

TEST_CASE("CA-4.1 a play that leaves an owner without a card of the build's value is illegal") {
  auto g = two_players(ids({"7H", "7D", "3S", "9C", "6H", "7C", "8S", "QD", "4H", "5C", "2D", "KS"}));
  must(*g, 0, R"({"type":"build","card":"3S","loose":["4H"]})");
  must(*g, 1, R"({"type":"trail","card":"QD"})");
  // With 7H still in hand, 7D may capture loose cards and leave B1.
  must(*g, 0, R"({"type":"capture","card":"7D","loose":["5C","2D"]})");
  must(*g, 1, R"({"type":"trail","card":"7C"})");
  // Now 7H is the last 7: it may not leave B1 behind, and 9C may not trail.
  CHECK(refused(*g, 0, R"({"type":"capture","card":"7H","loose":["7C"]})").find("CA-4.1") !=
        std::string::npos);
  refused(*g, 0, R"({"type":"trail","card":"9C"})");
  CHECK(captures_with(*g, 0, "7H") == std::set<std::string>{"B1 ", "7C B1 "});
  CHECK(legal(*g, 0).size() == 2);
  must(*g, 0, R"({"type":"capture","card":"7H","loose":["7C"],"builds":["B1"]})");
  CHECK(pile(*g, 0) == ids({"3S", "4H", "7H", "2D", "7D", "5C", "7C"}));
}

TEST_CASE("CA-4.1 CA-3.4 an owner may increase its own build but not give up its last card of a value") {
  auto g = two_players(ids({"AS", "3H", "6H", "9D", "5C", "8S", "9C", "KC", "2H", "3D", "JD", "QD"}));
  must(*g, 0, R"({"type":"build","card":"AS","loose":["2H"]})");  // B1 = 3, 3H held
  must(*g, 1, R"({"type":"trail","card":"KC"})");
  // 3H + 3D = 6 would satisfy CA-3.3 (6H held) but leave B1 without a 3.
  CHECK(refused(*g, 0, R"({"type":"build","card":"3H","loose":["3D"]})").find("CA-4.1") !=
        std::string::npos);
  CHECK(listed(*g, 0, R"({"type":"build","card":"6H","loose":["3D"]})"));  // 9, and 3H kept
  CHECK(listed(*g, 0, R"({"type":"increase","card":"3H","build":"B1"})"));
  // 6H makes B1 a 9: the 3 is no longer needed, 9D is held.
  CHECK(listed(*g, 0, R"({"type":"increase","card":"6H","build":"B1"})"));
  must(*g, 0, R"({"type":"increase","card":"3H","build":"B1"})");
  CHECK_VALUE(builds(*g)[0], J(R"({"id":"B1","cards":["AS","2H","3H"],"value":6,"owner":0})"));
}
