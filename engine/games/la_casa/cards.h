// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa cards (LC-1): four Families of nine cards valued 1-9, and the
// Mangia-Cake (value 0, no family of its own). 37 cards.
//
// Card index: family * 9 + (value - 1) for family cards (0..35); the Mangia-Cake
// is 36. A set of cards is a CardSet (bit i = card i). Ids are the spec's
// stable ids: G1..G9, K1..K9, M1..M9, F1..F9, MC.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/cardset.h"

namespace casa::la_casa {

// LC-1.1 The four Families, in id order.
enum Family : int { kGuns = 0, kKnives = 1, kMasks = 2, kFists = 3 };
inline constexpr int kFamilies = 4;
inline constexpr int kNoFamily = -1;
inline constexpr int kValuesPerFamily = 9;
inline constexpr int kMangiaCake = 36;  // LC-1.3
inline constexpr int kDeckSize = 37;    // LC-1.4

inline constexpr CardSet kAllCards{(std::uint64_t{1} << kDeckSize) - 1};
inline constexpr CardSet kMangiaCakeSet = CardSet::of(kMangiaCake);

constexpr int card_of(int family, int value) { return family * kValuesPerFamily + value - 1; }
constexpr bool is_mangia_cake(int card) { return card == kMangiaCake; }
// The printed family of a card; kNoFamily for the Mangia-Cake.
constexpr int printed_family(int card) {
  return card == kMangiaCake ? kNoFamily : card / kValuesPerFamily;
}
// LC-1.1 / LC-1.3 The value: 1-9, and 0 for the Mangia-Cake.
constexpr int card_value(int card) {
  return card == kMangiaCake ? 0 : card % kValuesPerFamily + 1;
}
// LC-2.2 The family a card counts as: the Mangia-Cake belongs to the Ruling Family
// while one exists, and to no family otherwise.
constexpr int effective_family(int card, int ruling) {
  return card == kMangiaCake ? ruling : printed_family(card);
}

// All nine cards of one family (without the Mangia-Cake).
constexpr CardSet family_cards(int family) {
  return CardSet(((std::uint64_t{1} << kValuesPerFamily) - 1) << (family * kValuesPerFamily));
}
// Cards that count as `family` when `ruling` rules: the Mangia-Cake joins the Ruling Family.
constexpr CardSet counted_family_cards(int family, int ruling) {
  if (family == kNoFamily) return CardSet();
  return family == ruling ? family_cards(family) | kMangiaCakeSet : family_cards(family);
}
// All cards of one value across the families (value 1..9).
constexpr CardSet value_cards(int value) {
  CardSet s;
  for (int f = 0; f < kFamilies; ++f) s.add(card_of(f, value));
  return s;
}
// LC-1.2 Brutos are the 1s and 2s.
inline constexpr CardSet kBrutos = value_cards(1) | value_cards(2);

inline constexpr std::array<char, kFamilies> kFamilyLetters{'G', 'K', 'M', 'F'};
inline constexpr std::array<std::string_view, kFamilies> kFamilyNames{"guns", "knives", "masks",
                                                                     "fists"};

// LC-1.4 The stable id of a card, e.g. "G5", "MC".
inline std::string card_id(int card) {
  if (card == kMangiaCake) return "MC";
  return std::string(1, kFamilyLetters[card / kValuesPerFamily]) +
         static_cast<char>('0' + card_value(card));
}

inline std::optional<int> parse_card(std::string_view id) {
  if (id == "MC") return kMangiaCake;
  if (id.size() != 2 || id[1] < '1' || id[1] > '9') return std::nullopt;
  for (int f = 0; f < kFamilies; ++f) {
    if (id[0] == kFamilyLetters[f]) return card_of(f, id[1] - '0');
  }
  return std::nullopt;
}

inline std::string_view family_name(int family) {
  return family == kNoFamily ? std::string_view("none") : kFamilyNames[family];
}

inline std::optional<int> parse_family(std::string_view name) {
  for (int f = 0; f < kFamilies; ++f) {
    if (name == kFamilyNames[f]) return f;
  }
  return std::nullopt;
}

// LC-1.2 Cosmetic names for clients.
inline std::string_view card_title(int card) {
  switch (card_value(card)) {
    case 0: return "Mangia-Cake";
    case 1: case 2: return "Bruto";
    case 4: return "Zio/Zia";
    case 5: return "Capitano";
    default: return "";
  }
}

}  // namespace casa::la_casa
