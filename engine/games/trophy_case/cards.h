// SPDX-License-Identifier: AGPL-3.0-or-later
// Trophy Case cards (TC-1): the 174-card Fanucci deck, and DeckSet, a fixed-size
// set of those cards (three 64-bit words: the engine's CardSet holds only 64).
//
// Card index: suit * 11 + value for the 165 suited cards (value 0..9, and 10 for
// ∞), then 165..173 for the nine trumps. Suits are numbered in the order of TC-1.1,
// which groups them three by three into the colours of TC-1.3, so a suit's colour
// is suit / 3. Mud (TC-1.4) is not a card; trick records write it as kMud.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace casa::trophy_case {

inline constexpr int kSuits = 15;
inline constexpr int kValues = 11;  // 0..9 and ∞
inline constexpr int kInfinity = 10;
inline constexpr int kSuitedCards = kSuits * kValues;  // 165
inline constexpr int kTrumps = 9;
inline constexpr int kDeckSize = kSuitedCards + kTrumps;  // 174 (TC-1.2)
inline constexpr int kColours = 5;
inline constexpr int kSuitsPerColour = 3;
inline constexpr int kMud = 255;  // TC-1.4: what a player without cards plays

// A set of Trophy Case cards: bit i set means card index i is present.
// Fixed size, no allocation; set operations are three word operations.
class DeckSet {
 public:
  static constexpr int kWords = 3;

  constexpr DeckSet() = default;
  static constexpr DeckSet of(int card) {
    DeckSet s;
    s.add(card);
    return s;
  }
  // Cards first, first + 1, ..., first + count - 1.
  static constexpr DeckSet range(int first, int count) {
    DeckSet s;
    for (int c = first; c < first + count; ++c) s.add(c);
    return s;
  }

  constexpr bool has(int card) const { return (w_[card >> 6] >> (card & 63)) & 1u; }
  constexpr void add(int card) { w_[card >> 6] |= std::uint64_t{1} << (card & 63); }
  constexpr void remove(int card) { w_[card >> 6] &= ~(std::uint64_t{1} << (card & 63)); }
  constexpr bool empty() const { return (w_[0] | w_[1] | w_[2]) == 0; }
  constexpr int size() const {
    return std::popcount(w_[0]) + std::popcount(w_[1]) + std::popcount(w_[2]);
  }
  // The lowest card index; the set must not be empty.
  constexpr int lowest() const {
    for (int i = 0; i < kWords; ++i)
      if (w_[i]) return i * 64 + std::countr_zero(w_[i]);
    return -1;
  }
  constexpr std::uint64_t word(int i) const { return w_[i]; }

  constexpr DeckSet operator|(const DeckSet& o) const {
    DeckSet r = *this;
    return r |= o;
  }
  constexpr DeckSet operator&(const DeckSet& o) const {
    DeckSet r = *this;
    return r &= o;
  }
  constexpr DeckSet operator-(const DeckSet& o) const {
    DeckSet r = *this;
    return r -= o;
  }
  constexpr DeckSet& operator|=(const DeckSet& o) {
    for (int i = 0; i < kWords; ++i) w_[i] |= o.w_[i];
    return *this;
  }
  constexpr DeckSet& operator&=(const DeckSet& o) {
    for (int i = 0; i < kWords; ++i) w_[i] &= o.w_[i];
    return *this;
  }
  constexpr DeckSet& operator-=(const DeckSet& o) {
    for (int i = 0; i < kWords; ++i) w_[i] &= ~o.w_[i];
    return *this;
  }
  friend constexpr bool operator==(const DeckSet&, const DeckSet&) = default;

  // for (int card : set) { ... } visits cards from the lowest index up.
  class Iterator {
   public:
    constexpr Iterator(const DeckSet* set, int word, std::uint64_t bits)
        : set_(set), word_(word), bits_(bits) {
      skip_empty();
    }
    constexpr int operator*() const { return word_ * 64 + std::countr_zero(bits_); }
    constexpr Iterator& operator++() {
      bits_ &= bits_ - 1;
      skip_empty();
      return *this;
    }
    constexpr bool operator!=(const Iterator& o) const {
      return word_ != o.word_ || bits_ != o.bits_;
    }

   private:
    constexpr void skip_empty() {
      while (bits_ == 0 && word_ < kWords) {
        ++word_;
        bits_ = word_ < kWords ? set_->w_[word_] : 0;
      }
    }
    const DeckSet* set_;
    int word_;
    std::uint64_t bits_;
  };
  constexpr Iterator begin() const { return Iterator(this, 0, w_[0]); }
  constexpr Iterator end() const { return Iterator(this, kWords, 0); }

 private:
  std::array<std::uint64_t, kWords> w_{};
};

constexpr bool is_trump(int card) { return card >= kSuitedCards && card < kDeckSize; }
// Suit and value of a suited card (0..14 and 0..10).
constexpr int suit_of(int card) { return card / kValues; }
constexpr int value_of(int card) { return card % kValues; }
// TC-1.3 Three suits to a colour, in TC-1.1 order.
constexpr int colour_of_suit(int suit) { return suit / kSuitsPerColour; }
constexpr int card_of(int suit, int value) { return suit * kValues + value; }

inline constexpr DeckSet kAllCards = DeckSet::range(0, kDeckSize);
inline constexpr DeckSet kSuitedSet = DeckSet::range(0, kSuitedCards);
inline constexpr DeckSet kTrumpSet = DeckSet::range(kSuitedCards, kTrumps);

constexpr DeckSet suit_cards(int suit) { return DeckSet::range(suit * kValues, kValues); }
constexpr DeckSet colour_cards(int colour) {
  return DeckSet::range(colour * kSuitsPerColour * kValues, kSuitsPerColour * kValues);
}

// TC-6.1 Points of one card in a finished trick: 8 and 9 one each, ∞ two, a 0 one
// when the trick holds a trump; trumps (and Mud) nothing.
constexpr int card_points(int card, bool trick_has_trump) {
  if (!(card >= 0 && card < kSuitedCards)) return 0;
  const int v = value_of(card);
  if (v == 8 || v == 9) return 1;
  if (v == kInfinity) return 2;
  if (v == 0) return trick_has_trump ? 1 : 0;
  return 0;
}

inline constexpr std::array<std::string_view, kSuits> kSuitCodes{
    "MAZ", "BOO", "RAI", "BUG", "FRO", "INK", "SCY", "PLU",
    "FAC", "TIM", "LAM", "HIV", "EAR", "ZUR", "TOP"};
inline constexpr std::array<std::string_view, kSuits> kSuitNames{
    "Mazes", "Books", "Rain",  "Bugs", "Fromps", "Inkblots", "Scythes", "Plungers",
    "Faces", "Time",  "Lamps", "Hives", "Ears",  "Zurfs",    "Tops"};
inline constexpr std::array<std::string_view, kColours> kColourNames{"red", "orange", "yellow",
                                                                     "green", "blue"};
inline constexpr std::array<std::string_view, kTrumps> kTrumpIds{
    "T-GRANOLA", "T-DEATH", "T-LIGHT", "T-SNAIL", "T-BEAUTY",
    "T-TIME",    "T-GRUE",  "T-LOBSTER", "T-JESTER"};

// TC-1.1 / TC-1.2 The stable id of a card: "MAZ0" … "MAZX", "T-GRANOLA", …
const std::string& card_id(int card);
std::optional<int> parse_card(std::string_view id);

}  // namespace casa::trophy_case
