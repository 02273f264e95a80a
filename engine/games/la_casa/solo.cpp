// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/solo.h"

#include <memory>
#include <string>

#include "engine/games/la_casa/mode_options.h"
#include "engine/games/la_casa/solo_game.h"

namespace casa::la_casa {

namespace {

std::optional<Error> read_solo_options(const Value& options, SoloSetup& setup) {
  using mode_options::bad;
  if (!options.is_null() && !options.is_object()) return bad("Options must be an object.");
  if (options.is_null()) return std::nullopt;
  for (const auto& [key, v] : options.as_object()) {
    std::optional<Error> err;
    if (key == "format") {
      if (!v.is_string() || v.as_string() != "solo") {
        err = bad("La Casa for one player is played in format 'solo'.");
      }
    } else if (key == "challenges") {
      err = mode_options::read_bool(key, v, setup.challenges);
    } else if (key == "target") {
      // LC-8.3 The Solo goal is fixed (4 points in 6 rounds); a table target is ignored.
      int ignored = 0;
      err = mode_options::read_int(key, v, 1, 1000, ignored);
    } else if (key == "election") {
      bool election = false;
      err = mode_options::read_bool(key, v, election);
      if (!err && election) err = bad("LC-11.14: there is no Election in La Casa Solo.");
    } else if (key == "deck") {
      std::array<int, kDeckSize> deck{};
      err = mode_options::read_deck(v, deck);
      if (!err) setup.deck = deck;
    } else if (key == "challenge") {
      const int c = v.is_string() ? parse_challenge(v.as_string()) : kNoChallenge;
      if (c == kNoChallenge || !challenge(c).solo) {
        err = bad("Option 'challenge' must be one of betrayal, capitano, carita, cousins, "
                  "minions, revenge.");
      } else {
        setup.first_challenge = c;
      }
    } else if (key == "rounds") {
      err = mode_options::read_int(key, v, 1, kSoloChallenges, setup.rounds);
    } else {
      err = bad("La Casa Solo has no option '" + key + "'.");
    }
    if (err) return err;
  }
  if (setup.first_challenge && !setup.challenges) {
    return bad("Option 'challenge' needs 'challenges' to be true.");
  }
  return std::nullopt;
}

}  // namespace

CreateResult create_solo(int players, const Value& options, std::uint64_t seed) {
  if (players != 1) {
    return {nullptr, Error{"bad_players", "La Casa Solo is played by exactly one player."}};
  }
  SoloSetup setup;
  setup.seed = seed;
  if (auto err = read_solo_options(options, setup)) return {nullptr, std::move(err)};
  return {std::make_unique<SoloGame>(setup), std::nullopt};
}

}  // namespace casa::la_casa
