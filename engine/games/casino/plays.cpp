// SPDX-License-Identifier: AGPL-3.0-or-later
// The plays of CA-3 with the holding rules of CA-3.3/3.4, the ownership rules of
// CA-4 and the sweep rule CA-7.2: which actions are legal, and why one is not.
//
// Captures are enumerated from the loose number cards once per call: every subset
// with a sum of at most 10 (at most 4050 even with every number card loose), then,
// for a played value v, every union of disjoint subsets summing to v, times every
// choice of builds of value v. Scratch buffers are thread-local and reused, so no
// allocation happens once they have grown.
//
// Bound: the unions grow about threefold with every two more loose number cards
// (some 5,000 for 16 of them), so a table where everybody keeps trailing would
// make the list explode. The list therefore holds every single set, and unions
// of several sets only up to kMaxListedUnions per played value; apply() accepts
// every valid capture whether listed or not (see docs/rules-casino.md).
#include <algorithm>
#include <string>
#include <vector>

#include "engine/cardset.h"
#include "engine/games/casino/casino_game.h"

namespace casa::casino {
namespace {

inline constexpr std::size_t kMaxListedUnions = 2048;

struct Subset {
  std::uint64_t cards;
  int sum;
};

Action make(std::uint16_t kind, int card, std::uint64_t set = 0, std::uint64_t set2 = 0,
            int arg = 0) {
  Action a;
  a.kind = kind;
  a.card = static_cast<std::uint16_t>(card);
  a.set = set;
  a.set2 = set2;
  a.arg = arg;
  return a;
}

// The loose number cards of `loose` ordered by value, so that a sum can stop early.
int number_cards_by_value(std::uint64_t loose, int* out) {
  int n = 0;
  for (int r = 0; r < kMaxValue; ++r) {
    for (int s = 0; s < kSuits; ++s) {
      const int c = card_of(s, r);
      if (loose & bit(c)) out[n++] = c;
    }
  }
  return n;
}

// Appends every non-empty subset of cards[from..n) (ordered by value) whose sum,
// added to `sum`, stays at most `limit`. Each subset appears once.
void subsets_up_to(const int* cards, int n, int from, std::uint64_t mask, int sum, int limit,
                   std::vector<Subset>& out) {
  for (int j = from; j < n; ++j) {
    const int s = sum + value_of(cards[j]);
    if (s > limit) break;
    const std::uint64_t m = mask | bit(cards[j]);
    out.push_back({m, s});
    subsets_up_to(cards, n, j + 1, m, s, limit, out);
  }
}

// Appends unions of two or more pairwise disjoint groups[from..] added to
// `current` (which holds `depth` groups), until `out` holds `limit` masks.
void disjoint_unions(const std::vector<std::uint64_t>& groups, std::size_t from,
                     std::uint64_t current, int depth, std::size_t limit,
                     std::vector<std::uint64_t>& out) {
  for (std::size_t j = from; j < groups.size() && out.size() < limit; ++j) {
    if (groups[j] & current) continue;
    const std::uint64_t m = current | groups[j];
    if (depth >= 1) out.push_back(m);
    disjoint_unions(groups, j + 1, m, depth + 1, limit, out);
  }
}

bool partitionable(std::uint64_t cards, int v);

// Whether some subset of `pool` summing to `need`, together with `group_done`
// (the cards already set aside), leaves `rest` partitionable.
bool complete_group(std::uint64_t pool, int need, std::uint64_t rest, int v) {
  if (need == 0) return partitionable(rest, v);
  while (pool) {
    const int c = std::countr_zero(pool);
    pool &= pool - 1;
    const int value = value_of(c);
    if (value > need) continue;
    // Later candidates come from `pool` only, so each subset is tried once.
    if (complete_group(pool, need - value, rest & ~bit(c), v)) return true;
  }
  return false;
}

// CA-3.1 / CA-3.7 Whether the loose cards `cards` split into sets each summing to v
// (a single card of value v is such a set).
bool partitionable(std::uint64_t cards, int v) {
  if (cards == 0) return true;
  if (sum_of(cards) % v != 0) return false;
  const int lowest = std::countr_zero(cards);
  const std::uint64_t rest = cards & ~bit(lowest);
  const int need = v - value_of(lowest);
  if (need < 0) return false;
  return complete_group(rest, need, rest, v);
}

}  // namespace

bool CasinoGame::owns_build(Seat seat) const {
  for (std::uint64_t b = live_builds_; b; b &= b - 1) {
    if (builds_[std::countr_zero(b)].owner == seat) return true;
  }
  return false;
}

std::uint32_t CasinoGame::owned_values(Seat seat, std::uint64_t except) const {
  std::uint32_t values = 0;
  for (std::uint64_t b = live_builds_ & ~except; b; b &= b - 1) {
    const Build& build = builds_[std::countr_zero(b)];
    if (build.owner == seat) values |= std::uint32_t{1} << build.value;
  }
  return values;
}

void CasinoGame::ask_actions(std::vector<Action>& out) const {
  // CA-6.2 one captured card with one other player not asked yet, or the end of the step.
  for (int card : CardSet(ask_cards_)) {
    for (Seat t = 0; t < players_; ++t) {
      if (ask_targets_ & seat_bit(t)) out.push_back(make(kAsk, card, 0, 0, t));
    }
  }
  out.push_back(make(kDoneAsking, 0));
}

void CasinoGame::play_actions(Seat seat, std::vector<Action>& out) const {
  const std::uint64_t hand = hands_[seat];
  if (only_trail_) {
    // CA-7.2 after a sweep the next player can only trail.
    for (int c : CardSet(hand)) out.push_back(make(kTrail, c));
    return;
  }
  thread_local std::vector<Subset> subsets;
  thread_local std::vector<std::uint64_t> groups;
  thread_local std::vector<std::uint64_t> unions;
  int pool[kDeckSize];
  const int pool_size = number_cards_by_value(loose_, pool);
  subsets.clear();
  subsets_up_to(pool, pool_size, 0, 0, 0, kMaxValue, subsets);

  const std::uint32_t owned = owned_values(seat, 0);
  const bool owner = owns_build(seat);
  for (int c : CardSet(hand)) {
    if (is_face(c)) {
      // CA-3.2 a face card takes exactly one loose card of its rank.
      for (int l : CardSet(loose_ & rank_cards(rank_of(c)))) out.push_back(make(kCapture, c, bit(l)));
      if (!owner) out.push_back(make(kTrail, c));  // CA-3.5, CA-4.2
      continue;
    }
    const int a = value_of(c);
    const std::uint32_t a_bit = std::uint32_t{1} << a;
    // What the player still holds after playing c: CA-3.3, CA-3.4, CA-4.1.
    const std::uint32_t keep = values_held(hand & ~bit(c));

    // CA-3.1 captures. Only builds of value a can leave the player's hands, so
    // every other owned value must still be held; if a is no longer held, all the
    // player's own builds of value a must go (CA-4.1, CA-4.4).
    if (!(owned & ~a_bit & ~keep)) {
      std::uint64_t of_value = 0, own_of_value = 0;
      for (std::uint64_t b = live_builds_; b; b &= b - 1) {
        const int i = std::countr_zero(b);
        if (builds_[i].value != a) continue;
        of_value |= bit(i);
        if (builds_[i].owner == seat) own_of_value |= bit(i);
      }
      const std::uint64_t mandatory = (keep & a_bit) ? 0 : own_of_value;
      const std::uint64_t optional = of_value & ~mandatory;
      groups.clear();
      for (const Subset& s : subsets) {
        if (s.sum == a) groups.push_back(s.cards);
      }
      unions.clear();
      unions.push_back(0);
      unions.insert(unions.end(), groups.begin(), groups.end());
      disjoint_unions(groups, 0, 0, 0, groups.size() + 1 + kMaxListedUnions, unions);
      std::sort(unions.begin() + 1, unions.end());
      unions.erase(std::unique(unions.begin() + 1, unions.end()), unions.end());
      for (std::uint64_t loose : unions) {
        for (std::uint64_t o = optional;; o = (o - 1) & optional) {
          const std::uint64_t builds = o | mandatory;
          if (loose | builds) out.push_back(make(kCapture, c, loose, builds));
          if (o == 0) break;
        }
      }
    }

    // CA-3.3 builds: the new value must be held after the play, and so must
    // every value the player owns already.
    if (!(owned & ~keep)) {
      for (const Subset& s : subsets) {
        const int v = a + s.sum;
        if (v <= kMaxValue && (keep & (std::uint32_t{1} << v))) out.push_back(make(kBuild, c, s.cards));
      }
    }

    // CA-3.4 increases, of any build; the increaser becomes the owner (CA-4.3).
    for (std::uint64_t b = live_builds_; b; b &= b - 1) {
      const int i = std::countr_zero(b);
      const int v = builds_[i].value + a;
      if (v > kMaxValue || !(keep & (std::uint32_t{1} << v))) continue;
      if (owned_values(seat, bit(i)) & ~keep) continue;
      out.push_back(make(kIncrease, c, 0, 0, i + 1));
    }

    if (!owner) out.push_back(make(kTrail, c));  // CA-3.5, CA-4.2
  }
}

void CasinoGame::legal_actions(Seat seat, std::vector<Action>& out) const {
  out.clear();
  if (!(to_act() & seat_bit(seat))) return;
  if (phase_ == Phase::kAsk) {
    ask_actions(out);
  } else if (phase_ == Phase::kRoundOver) {
    out.push_back(make(kDeal, 0));
  } else {
    play_actions(seat, out);
  }
}

std::optional<std::string> CasinoGame::why_illegal(Seat seat, const Action& a) const {
  if (phase_ == Phase::kRoundOver) {
    if (a.kind != kDeal) return "The round is over: the next dealer deals first (CA-2.2).";
    if (a.card || a.arg || a.set || a.set2) return "deal names nothing.";
    return std::nullopt;
  }
  if (a.kind == kDeal) return "It is not time to deal.";
  if (phase_ == Phase::kAsk) {
    if (a.kind == kDoneAsking) {
      if (a.card || a.arg || a.set || a.set2) return "done_asking names nothing.";
      return std::nullopt;
    }
    if (a.kind != kAsk) return "Ask your questions first, or say done_asking (CA-6.2).";
    if (a.set || a.set2) return "An ask names one card and one player.";
    if (a.card >= kDeckSize || !(ask_cards_ & bit(a.card)))
      return "You may ask only about a card this capture took from the table, once (CA-6.2).";
    if (a.arg < 0 || a.arg >= players_ || a.arg == seat)
      return "Ask another player at the table (CA-6.2).";
    if (!(ask_targets_ & seat_bit(a.arg))) return "Each player may be asked once per capture (CA-6.2).";
    return std::nullopt;
  }
  if (a.kind == kAsk || a.kind == kDoneAsking) return "There is nothing to ask about now (CA-6.2).";
  if (a.kind < kCapture || a.kind > kTrail) return "There is no such play.";
  if (a.card >= kDeckSize || !(hands_[seat] & bit(a.card))) return "You do not hold that card.";
  const int c = a.card;
  if (only_trail_ && a.kind != kTrail) return "After a sweep you may only trail (CA-7.2).";
  const std::uint32_t keep = values_held(hands_[seat] & ~bit(c));
  const auto keeps_own_builds = [&](std::uint64_t except) {
    return !(owned_values(seat, except) & ~keep);
  };
  const char* const kKeep =
      "You must still hold a card of the value of every build you own (CA-4.1).";

  switch (a.kind) {
    case kCapture: {
      if (a.arg) return "A capture names cards and builds only.";
      if ((a.set & ~loose_) != 0) return "You may capture only loose cards on the table.";
      if ((a.set2 >> kMaxBuilds) != 0 || (a.set2 & ~live_builds_) != 0)
        return "That build is not on the table.";
      if ((a.set | a.set2) == 0) return "A capture must take something.";
      if (is_face(c)) {
        // CA-3.2
        if (a.set2 || std::popcount(a.set) != 1 || rank_of(std::countr_zero(a.set)) != rank_of(c))
          return "A face card captures exactly one loose card of its own rank (CA-3.2).";
        return std::nullopt;
      }
      const int v = value_of(c);
      if (a.set & ~kNumberCards) return "Face cards are never part of a sum (CA-3.6).";
      for (std::uint64_t b = a.set2; b; b &= b - 1) {
        if (builds_[std::countr_zero(b)].value != v)
          return "A build is captured only by a card of exactly its value (CA-3.6).";
      }
      if (!partitionable(a.set, v))
        return "The loose cards do not split into sets of value " + std::to_string(v) + " (CA-3.1).";
      if (!keeps_own_builds(a.set2)) return kKeep;
      return std::nullopt;
    }
    case kBuild: {
      if (a.arg || a.set2) return "A build names loose cards only.";
      if (is_face(c)) return "Face cards are never in a build (CA-3.6).";
      if (a.set == 0) return "A build needs at least one loose card (CA-3.3).";
      if ((a.set & ~loose_) != 0) return "You may build only with loose cards on the table.";
      if (a.set & ~kNumberCards) return "Face cards are never in a build (CA-3.6).";
      const int v = value_of(c) + sum_of(a.set);
      if (v > kMaxValue) return "A build is worth at most 10 (CA-3.3).";
      if (!(keep & (std::uint32_t{1} << v)))
        return "You must still hold a card of value " + std::to_string(v) + " (CA-3.3).";
      if (!keeps_own_builds(0)) return kKeep;
      return std::nullopt;
    }
    case kIncrease: {
      if (a.set || a.set2) return "An increase names one build only.";
      if (is_face(c)) return "Face cards are never in a build (CA-3.6).";
      if (a.arg < 1 || a.arg > kMaxBuilds || !(live_builds_ & bit(a.arg - 1)))
        return "That build is not on the table.";
      const int v = builds_[a.arg - 1].value + value_of(c);
      if (v > kMaxValue) return "A build is worth at most 10 (CA-3.4).";
      if (!(keep & (std::uint32_t{1} << v)))
        return "You must still hold a card of value " + std::to_string(v) + " (CA-3.4).";
      if (!keeps_own_builds(bit(a.arg - 1))) return kKeep;
      return std::nullopt;
    }
    case kTrail: {
      if (a.arg || a.set || a.set2) return "A trail names one card only.";
      if (owns_build(seat)) return "You own a build, so you may not trail (CA-4.2).";
      return std::nullopt;
    }
    default:
      return "There is no such play.";
  }
}

}  // namespace casa::casino
