// SPDX-License-Identifier: AGPL-3.0-or-later
// The registry of the Challenge cards: one entry per file of this folder.
#include <cstdint>

#include "engine/games/la_casa/challenges/challenge.h"

namespace casa::la_casa {

extern const Challenge kAnarchyChallenge;
extern const Challenge kBanditsChallenge;
extern const Challenge kBetrayalChallenge;
extern const Challenge kBrutoChallenge;
extern const Challenge kCapitanoChallenge;
extern const Challenge kCaritaChallenge;
extern const Challenge kCardsOnTheTableChallenge;
extern const Challenge kTheClubChallenge;
extern const Challenge kCousinsChallenge;
extern const Challenge kFiguraChallenge;
extern const Challenge kKinChallenge;
extern const Challenge kMangiaCakeChallengeRules;
extern const Challenge kMinionsChallenge;
extern const Challenge kPassTheBuckChallenge;
extern const Challenge kRevengeChallenge;
extern const Challenge kSlapDownChallenge;

namespace {

const Challenge kPlainRound{};

// In the order of their ids (ChallengeId).
const std::array<const Challenge*, kChallengeCount> kChallenges{
    &kAnarchyChallenge,         &kBanditsChallenge,     &kBetrayalChallenge,
    &kBrutoChallenge,           &kCapitanoChallenge,    &kCaritaChallenge,
    &kCardsOnTheTableChallenge, &kTheClubChallenge,     &kCousinsChallenge,
    &kFiguraChallenge,          &kKinChallenge,         &kMangiaCakeChallengeRules,
    &kMinionsChallenge,         &kPassTheBuckChallenge, &kRevengeChallenge,
    &kSlapDownChallenge};

}  // namespace

const Challenge& challenge(int id) {
  return id >= 0 && id < kChallengeCount ? *kChallenges[static_cast<std::size_t>(id)] : kPlainRound;
}

const std::array<const Challenge*, kChallengeCount>& all_challenges() { return kChallenges; }

// LC-7.0
std::uint32_t challenges_for(int players) {
  std::uint32_t set = 0;
  for (const Challenge* c : kChallenges) {
    if ((players == 4 && c->four_players) || (players == 2 && c->two_players)) set |= 1u << c->id;
  }
  return set;
}

// LC-8.3
std::uint32_t solo_challenges() {
  std::uint32_t set = 0;
  for (const Challenge* c : kChallenges)
    if (c->solo) set |= 1u << c->id;
  return set;
}

std::string_view challenge_name(int id) { return challenge(id).name; }

int parse_challenge(std::string_view name) {
  for (const Challenge* c : kChallenges)
    if (c->name == name) return c->id;
  return kNoChallenge;
}

}  // namespace casa::la_casa
