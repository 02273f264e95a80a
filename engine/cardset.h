// SPDX-License-Identifier: AGPL-3.0-or-later
// A set of up to 64 cards as a bitmask: bit i set means card index i is present.
// Legal moves are mask operations; iterating a set allocates nothing.
#pragma once

#include <bit>
#include <cstdint>

namespace casa {

class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(std::uint64_t bits) : bits_(bits) {}
  static constexpr CardSet of(int card) { return CardSet(std::uint64_t{1} << card); }

  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool has(int card) const { return (bits_ >> card) & 1u; }
  constexpr void add(int card) { bits_ |= std::uint64_t{1} << card; }
  constexpr void remove(int card) { bits_ &= ~(std::uint64_t{1} << card); }
  // Lowest and highest card index; the set must not be empty.
  constexpr int lowest() const { return std::countr_zero(bits_); }
  constexpr int highest() const { return 63 - std::countl_zero(bits_); }
  constexpr int pop_lowest() {
    const int c = lowest();
    bits_ &= bits_ - 1;
    return c;
  }

  constexpr CardSet operator|(CardSet o) const { return CardSet(bits_ | o.bits_); }
  constexpr CardSet operator&(CardSet o) const { return CardSet(bits_ & o.bits_); }
  constexpr CardSet operator-(CardSet o) const { return CardSet(bits_ & ~o.bits_); }
  constexpr CardSet& operator|=(CardSet o) { bits_ |= o.bits_; return *this; }
  constexpr CardSet& operator&=(CardSet o) { bits_ &= o.bits_; return *this; }
  constexpr CardSet& operator-=(CardSet o) { bits_ &= ~o.bits_; return *this; }
  friend constexpr bool operator==(CardSet, CardSet) = default;

  // for (int card : set) { ... } visits cards from the lowest index up.
  class Iterator {
   public:
    constexpr explicit Iterator(std::uint64_t bits) : bits_(bits) {}
    constexpr int operator*() const { return std::countr_zero(bits_); }
    constexpr Iterator& operator++() { bits_ &= bits_ - 1; return *this; }
    constexpr bool operator!=(const Iterator& o) const { return bits_ != o.bits_; }
   private:
    std::uint64_t bits_;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  std::uint64_t bits_ = 0;
};

}  // namespace casa
