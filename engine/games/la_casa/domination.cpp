// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/domination.h"

#include <memory>
#include <string>

#include "engine/games/la_casa/domination_game.h"
#include "engine/games/la_casa/mode_options.h"

namespace casa::la_casa {

namespace {

std::optional<Error> read_domination_options(const Value& options, DominationSetup& setup) {
  using mode_options::bad;
  if (!options.is_null() && !options.is_object()) return bad("Options must be an object.");
  if (options.is_null()) return std::nullopt;
  for (const auto& [key, v] : options.as_object()) {
    std::optional<Error> err;
    if (key == "format") {
      if (!v.is_string() || v.as_string() != "domination") {
        err = bad("This mode is created with format 'domination'.");
      }
    } else if (key == "target") {
      err = mode_options::read_int(key, v, 1, 1000, setup.target);
    } else if (key == "election") {
      bool ignored = false;  // LC-9.2 Domination always holds its own Election
      err = mode_options::read_bool(key, v, ignored);
    } else if (key == "deck") {
      std::array<int, kDeckSize> deck{};
      err = mode_options::read_deck(v, deck);
      if (!err) setup.deck = deck;
    } else if (key == "dealer") {
      int dealer = 0;
      err = mode_options::read_int(key, v, 0, 1, dealer);
      if (!err) setup.dealer = dealer;
    } else if (key == "rounds") {
      err = mode_options::read_int(key, v, 1, 1000, setup.rounds);
    } else {
      err = bad("La Casa Domination has no option '" + key + "'.");
    }
    if (err) return err;
  }
  return std::nullopt;
}

}  // namespace

CreateResult create_domination(int players, const Value& options, std::uint64_t seed) {
  if (players != 2) {
    return {nullptr, Error{"bad_players", "Domination is played by exactly two players."}};
  }
  DominationSetup setup;
  setup.seed = seed;
  if (auto err = read_domination_options(options, setup)) return {nullptr, std::move(err)};
  return {std::make_unique<DominationGame>(setup), std::nullopt};
}

}  // namespace casa::la_casa
