// SPDX-License-Identifier: AGPL-3.0-or-later
// The engine's own random numbers, specified here so that a seed gives the same
// deal with every compiler and standard library (std::uniform_int_distribution
// and std::shuffle are implementation-defined, so the engine never uses them).
//
// Generator: xoshiro256** seeded through SplitMix64. Bounded integers: Lemire's
// multiply-and-reject method, unbiased. Shuffle: Fisher–Yates from the back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace casa {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& word : s_) word = splitmix64(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound); bound must be > 0.
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Fisher–Yates shuffle of any random-access range of n elements.
  template <typename T>
  void shuffle(T* first, std::size_t n) {
    for (std::size_t i = n; i > 1; --i) {
      const std::size_t j = below(static_cast<std::uint32_t>(i));
      std::swap(first[i - 1], first[j]);
    }
  }

  // A fresh independent seed, for deriving per-round or per-purpose generators.
  std::uint64_t fork() { return next(); }

  friend bool operator==(const Rng& a, const Rng& b) {
    for (int i = 0; i < 4; ++i)
      if (a.s_[i] != b.s_[i]) return false;
    return true;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  std::uint64_t s_[4]{};
};

}  // namespace casa
