// SPDX-License-Identifier: AGPL-3.0-or-later
// Casino cards (CA-1): the 52-card deck, ids, values and the masks the rules use.
//
// Card index: suit * 13 + rank, suits in id order S H D C, ranks A 2 .. 9 T J Q K
// (rank 0 = ace). So spades are bits 0..12, and "card index order" (the
// canonical order of every card list this game prints) is AS 2S .. KS AH .. KC.
// Id = rank letter + suit letter, e.g. "TD" (Big Casino) and "2S" (Little Casino).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

namespace casa::casino {

inline constexpr int kRanks = 13;
inline constexpr int kSuits = 4;
inline constexpr int kDeckSize = 52;  // CA-1.1
inline constexpr int kHandSize = 4;   // CA-2.3, CA-2.5
inline constexpr int kTableDeal = 4;  // CA-2.3
inline constexpr int kMaxValue = 10;  // CA-3.3 a build is worth 2..10

enum Suit : int { kSpadeSuit = 0, kHeartSuit = 1, kDiamondSuit = 2, kClubSuit = 3 };

inline constexpr std::uint64_t kAllCards = (std::uint64_t{1} << kDeckSize) - 1;

constexpr int card_of(int suit, int rank) { return suit * kRanks + rank; }
constexpr int rank_of(int card) { return card % kRanks; }
constexpr int suit_of(int card) { return card / kRanks; }
// CA-1.2 J, Q and K are face cards: no value, never in a build or a sum.
constexpr bool is_face(int card) { return rank_of(card) >= kMaxValue; }
// CA-1.2 A = 1, 2..10 as printed; 0 for a face card.
constexpr int value_of(int card) { return is_face(card) ? 0 : rank_of(card) + 1; }
constexpr std::uint64_t bit(int card) { return std::uint64_t{1} << card; }

inline constexpr int kBigCasino = card_of(kDiamondSuit, 9);     // TD, CA-5.2
inline constexpr int kLittleCasino = card_of(kSpadeSuit, 1);    // 2S, CA-5.2
inline constexpr std::uint64_t kSpadeCards = (std::uint64_t{1} << kRanks) - 1;

// All four cards of one rank.
constexpr std::uint64_t rank_cards(int rank) {
  std::uint64_t m = 0;
  for (int s = 0; s < kSuits; ++s) m |= bit(card_of(s, rank));
  return m;
}
inline constexpr std::uint64_t kAceCards = rank_cards(0);

// Number cards (A..10) of value at most `v`.
constexpr std::uint64_t number_cards_up_to(int v) {
  std::uint64_t m = 0;
  for (int r = 0; r < v && r < kMaxValue; ++r) m |= rank_cards(r);
  return m;
}
inline constexpr std::uint64_t kNumberCards = number_cards_up_to(kMaxValue);

// Bit v set when `cards` holds a number card of value v (1..10).
constexpr std::uint32_t values_held(std::uint64_t cards) {
  std::uint32_t values = 0;
  cards &= kNumberCards;
  while (cards) {
    values |= std::uint32_t{1} << value_of(std::countr_zero(cards));
    cards &= cards - 1;
  }
  return values;
}

// Sum of the values of the number cards in `cards`.
constexpr int sum_of(std::uint64_t cards) {
  int sum = 0;
  cards &= kNumberCards;
  while (cards) {
    sum += value_of(std::countr_zero(cards));
    cards &= cards - 1;
  }
  return sum;
}

inline constexpr std::string_view kRankLetters = "A23456789TJQK";
inline constexpr std::string_view kSuitLetters = "SHDC";

// The id of a card, e.g. "7S"; views and events use nothing else.
inline std::string_view card_id(int card) {
  static constexpr auto ids = [] {
    std::array<std::array<char, 2>, kDeckSize> out{};
    for (int c = 0; c < kDeckSize; ++c) out[c] = {kRankLetters[rank_of(c)], kSuitLetters[suit_of(c)]};
    return out;
  }();
  return std::string_view(ids[card].data(), 2);
}

// The card index of an id, or -1 when `id` names no card.
inline int parse_card(std::string_view id) {
  if (id.size() != 2) return -1;
  const auto r = kRankLetters.find(id[0]);
  const auto s = kSuitLetters.find(id[1]);
  if (r == std::string_view::npos || s == std::string_view::npos) return -1;
  return card_of(static_cast<int>(s), static_cast<int>(r));
}

}  // namespace casa::casino
