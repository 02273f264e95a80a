// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-8.4 / LC-11.15: the Robot's four rules, on robot_choose directly.
#include <doctest/doctest.h>

#include <array>
#include <initializer_list>

#include "engine/games/la_casa/robot.h"

using namespace casa::la_casa;

namespace {

casa::CardSet cards(std::initializer_list<const char*> ids) {
  casa::CardSet s;
  for (const char* id : ids) s.add(*parse_card(id));
  return s;
}

int id(const char* s) { return *parse_card(s); }

// Columns: the i-th card listed lies in column i (so earlier = nearer the Casa).
struct Table {
  std::array<std::int8_t, kDeckSize> nearness{};
  casa::CardSet playable;
  explicit Table(std::initializer_list<const char*> feet) {
    std::int8_t column = 0;
    for (const char* c : feet) {
      nearness[id(c)] = column++;
      playable.add(id(c));
    }
  }
  RobotSituation situation() const {
    RobotSituation s;
    s.playable = playable;
    s.nearness = nearness.data();
    return s;
  }
};

}  // namespace

TEST_CASE("LC-8.4 rule 1: leading, the Robot plays its highest card; rule 4 breaks ties") {
  Table t({"K3", "G9", "M9", "F2"});
  RobotSituation s = t.situation();
  s.ruling = kFists;
  CHECK(card_id(robot_choose(s)) == "G9");  // G9 and M9 tie: column 2 is nearer the Casa
  Table u({"M9", "G9", "K3", "F2"});
  CHECK(card_id(robot_choose(u.situation())) == "M9");
}

TEST_CASE("LC-8.4 rule 2: following, the highest card if it wins, else the lowest") {
  Table t({"K3", "K7", "G9", "K5"});
  const int trick_low[] = {id("K6")};
  RobotSituation s = t.situation();
  s.trick = trick_low;
  s.trick_len = 1;
  s.lead = kKnives;
  s.ruling = kGuns;
  CHECK(card_id(robot_choose(s)) == "K7");  // K7 beats K6
  const int trick_high[] = {id("K8")};
  s.trick = trick_high;
  CHECK(card_id(robot_choose(s)) == "K3");  // nothing wins: lowest Knife, not the ruling G9
}

TEST_CASE("LC-8.4 rule 2: the Mangia-Cake follows the Ruling Family when led") {
  Table t({"MC", "G9", "K2"});
  const int trick[] = {id("G4")};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 1;
  s.lead = kGuns;
  s.ruling = kGuns;
  CHECK(card_id(robot_choose(s)) == "G9");
  s.playable = cards({"MC", "K2"});
  CHECK(card_id(robot_choose(s)) == "MC");  // must follow Guns with the Mangia-Cake
}

TEST_CASE("LC-8.4 rule 3: unable to follow, the highest Ruling card, else the lowest card") {
  Table t({"K3", "M7", "M2", "F2"});
  const int trick[] = {id("G6")};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 1;
  s.lead = kGuns;
  s.ruling = kMasks;
  CHECK(card_id(robot_choose(s)) == "M7");
  s.ruling = kKnives;
  CHECK(card_id(robot_choose(s)) == "K3");  // the only Ruling card, even though low
  s.ruling = kNoFamily;
  CHECK(card_id(robot_choose(s)) == "M2");  // M2 and F2 tie: column 3 is nearer than 4
}

TEST_CASE("LC-11.15 rule 3 counts a familyless Mangia-Cake as the lowest card") {
  Table t({"K3", "MC", "M2"});
  const int trick[] = {id("G6")};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 1;
  s.lead = kGuns;
  CHECK(card_id(robot_choose(s)) == "MC");
}

TEST_CASE("LC-11.15 against a led familyless Mangia-Cake the Robot applies rule 3") {
  Table t({"G9", "K4", "M4", "F8"});
  const int trick[] = {kMangiaCake};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 1;
  s.lead = kNoFamily;
  CHECK(card_id(robot_choose(s)) == "K4");  // lowest of all, nearest of the two 4s
}

TEST_CASE("LC-11.15 'would win' includes the card's own Capitano effect") {
  // Three-card trick (the rules extended to hands): G3 led, K7 of the ruling Knives.
  Table t({"G5", "G2"});
  const int trick[] = {id("G3"), id("K7")};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 2;
  s.lead = kGuns;
  s.ruling = kKnives;
  s.capitano = true;
  CHECK(card_id(robot_choose(s)) == "G5");  // G5 makes Guns rule and wins
  s.capitano = false;
  CHECK(card_id(robot_choose(s)) == "G2");  // without Capitano G5 cannot beat K7
}

TEST_CASE("LC-11.15 the Ruling Family in force when the Robot plays decides rule 3") {
  // A Capitano led by the human has just made Guns rule: Knives no longer do.
  Table t({"K9", "M3", "F4"});
  const int trick[] = {id("G5")};
  RobotSituation s = t.situation();
  s.trick = trick;
  s.trick_len = 1;
  s.lead = kGuns;
  s.ruling = kGuns;
  s.capitano = true;
  CHECK(card_id(robot_choose(s)) == "M3");
}

TEST_CASE("robot_choose without nearness breaks ties by card index (hands)") {
  RobotSituation s;
  s.playable = cards({"F9", "K9", "M9"});
  CHECK(card_id(robot_choose(s)) == "K9");
}
