// SPDX-License-Identifier: AGPL-3.0-or-later
// The Conference deck (CO-1): card indices, ids, suits, ranks and card points,
// and Cards, an 80-card set held in two 64-bit words (the engine's CardSet holds
// only 64).
//
// Index layout (chosen so that index order is the id order of CO-5.2):
//   0..55   the suits E, A, F, W, 14 each, Ace first: suit * 14 + rank, where
//           rank 0 = Ace, 1..9 = 2..10, 10 = Jack, 11 = Cavalier, 12 = Queen, 13 = King
//   56 GOOD, 57 EVIL, 58..78 T1..T21, 79 FOOL
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace casa::conference {

inline constexpr int kSuits = 4;
inline constexpr int kSuitLength = 14;
inline constexpr int kGood = 56;
inline constexpr int kEvil = 57;
inline constexpr int kTrump1 = 58;  // T1; Tn is kTrump1 + n - 1
inline constexpr int kFool = 79;
inline constexpr int kCardCount = 80;
inline constexpr int kTrumpSuit = 4;  // "suit" value of every trump, GOOD and EVIL included
inline constexpr int kNoSuit = 5;     // the Fool

inline constexpr int kAceRank = 0;
inline constexpr int kJackRank = 10;
inline constexpr int kCavalierRank = 11;
inline constexpr int kQueenRank = 12;
inline constexpr int kKingRank = 13;

constexpr int trump(int n) { return kTrump1 + n - 1; }
constexpr bool is_suit_card(int c) { return c < kGood; }
constexpr bool is_good_evil(int c) { return c == kGood || c == kEvil; }
constexpr bool is_trump(int c) { return c >= kGood && c < kFool; }
constexpr int suit_of(int c) { return c < kGood ? c / kSuitLength : (c == kFool ? kNoSuit : kTrumpSuit); }
// Rank within a suit (0 = Ace .. 13 = King), or trump rank (GOOD/EVIL 0, Tn n).
constexpr int rank_of(int c) {
  return c < kGood ? c % kSuitLength : (c < kTrump1 ? 0 : c - kTrump1 + 1);
}
constexpr bool is_court(int c) { return is_suit_card(c) && rank_of(c) >= kJackRank; }
constexpr bool is_king(int c) { return is_suit_card(c) && rank_of(c) == kKingRank; }
// CO-1.3
constexpr bool is_honour(int c) { return c == trump(1) || c == trump(21) || c == kFool; }

// CO-1.4 printed card points.
constexpr int card_points(int c) {
  if (is_honour(c)) return 5;
  if (!is_suit_card(c)) return 1;
  switch (rank_of(c)) {
    case kKingRank: return 5;
    case kAceRank: return 5;
    case kQueenRank: return 4;
    case kCavalierRank: return 3;
    case kJackRank: return 2;
    default: return 1;
  }
}

inline constexpr char kSuitLetters[kSuits] = {'E', 'A', 'F', 'W'};
inline constexpr std::string_view kSuitNames[kSuits] = {"earth", "air", "fire", "water"};

// CO-1.1 / CO-1.2 ids: "EK", "W10", "A1", "T21", "GOOD", "EVIL", "FOOL".
std::string card_id(int c);
std::optional<int> parse_card(std::string_view id);

// A set of up to 80 cards; bit i of the 128-bit pair is card index i.
class Cards {
 public:
  constexpr Cards() = default;
  static constexpr Cards of(int c) {
    Cards s;
    s.add(c);
    return s;
  }
  static constexpr Cards range(int first, int last_exclusive) {
    Cards s;
    for (int c = first; c < last_exclusive; ++c) s.add(c);
    return s;
  }

  constexpr bool empty() const { return lo_ == 0 && hi_ == 0; }
  constexpr int size() const { return std::popcount(lo_) + std::popcount(hi_); }
  constexpr bool has(int c) const {
    return c < 64 ? ((lo_ >> c) & 1u) : ((hi_ >> (c - 64)) & 1u);
  }
  constexpr void add(int c) {
    if (c < 64) lo_ |= std::uint64_t{1} << c;
    else hi_ |= std::uint64_t{1} << (c - 64);
  }
  constexpr void remove(int c) {
    if (c < 64) lo_ &= ~(std::uint64_t{1} << c);
    else hi_ &= ~(std::uint64_t{1} << (c - 64));
  }
  // Lowest card index; the set must not be empty.
  constexpr int lowest() const { return lo_ ? std::countr_zero(lo_) : 64 + std::countr_zero(hi_); }

  constexpr Cards operator|(Cards o) const { return Cards(lo_ | o.lo_, hi_ | o.hi_); }
  constexpr Cards operator&(Cards o) const { return Cards(lo_ & o.lo_, hi_ & o.hi_); }
  constexpr Cards operator-(Cards o) const { return Cards(lo_ & ~o.lo_, hi_ & ~o.hi_); }
  constexpr Cards& operator|=(Cards o) { return *this = *this | o; }
  constexpr Cards& operator&=(Cards o) { return *this = *this & o; }
  constexpr Cards& operator-=(Cards o) { return *this = *this - o; }
  friend constexpr bool operator==(Cards, Cards) = default;

  // for (int c : cards) visits cards from the lowest index up.
  class Iterator {
   public:
    constexpr Iterator(std::uint64_t lo, std::uint64_t hi) : lo_(lo), hi_(hi) {}
    constexpr int operator*() const {
      return lo_ ? std::countr_zero(lo_) : 64 + std::countr_zero(hi_);
    }
    constexpr Iterator& operator++() {
      if (lo_) lo_ &= lo_ - 1;
      else hi_ &= hi_ - 1;
      return *this;
    }
    constexpr bool operator!=(const Iterator& o) const { return lo_ != o.lo_ || hi_ != o.hi_; }

   private:
    std::uint64_t lo_, hi_;
  };
  constexpr Iterator begin() const { return Iterator(lo_, hi_); }
  constexpr Iterator end() const { return Iterator(0, 0); }

 private:
  constexpr Cards(std::uint64_t lo, std::uint64_t hi) : lo_(lo), hi_(hi) {}
  std::uint64_t lo_ = 0;
  std::uint64_t hi_ = 0;
};

constexpr Cards suit_cards(int suit) {
  return Cards::range(suit * kSuitLength, (suit + 1) * kSuitLength);
}
inline constexpr Cards kAllTrumps = Cards::range(kGood, kFool);

}  // namespace casa::conference
