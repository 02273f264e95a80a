// SPDX-License-Identifier: AGPL-3.0-or-later
// Option readers shared by the Solo and Domination modes: each returns an Error
// ("bad_option") with a sentence naming the option when the value does not fit.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "engine/game.h"
#include "engine/games/la_casa/cards.h"

namespace casa::la_casa::mode_options {

inline Error bad(const std::string& message) { return Error{"bad_option", message}; }

// LC-4.8 A `deck` option: all 37 card ids, each once, in dealing order.
inline std::optional<Error> read_deck(const Value& v, std::array<int, kDeckSize>& out) {
  if (!v.is_array() || v.size() != kDeckSize) {
    return bad("Option 'deck' must list all 37 card ids.");
  }
  CardSet seen;
  for (std::size_t i = 0; i < kDeckSize; ++i) {
    const Value& item = v.as_array()[i];
    const auto card = item.is_string() ? parse_card(item.as_string()) : std::nullopt;
    if (!card) return bad("Option 'deck' holds something that is not a card id.");
    if (seen.has(*card)) return bad("Option 'deck' lists " + card_id(*card) + " twice.");
    seen.add(*card);
    out[i] = *card;
  }
  return std::nullopt;
}

// An integer option within [low, high].
inline std::optional<Error> read_int(const std::string& key, const Value& v, int low, int high,
                                     int& out) {
  if (!v.is_int() || v.as_int() < low || v.as_int() > high) {
    return bad("Option '" + key + "' must be a whole number from " + std::to_string(low) +
               " to " + std::to_string(high) + ".");
  }
  out = static_cast<int>(v.as_int());
  return std::nullopt;
}

inline std::optional<Error> read_bool(const std::string& key, const Value& v, bool& out) {
  if (!v.is_bool()) return bad("Option '" + key + "' must be true or false.");
  out = v.as_bool();
  return std::nullopt;
}

}  // namespace casa::la_casa::mode_options
