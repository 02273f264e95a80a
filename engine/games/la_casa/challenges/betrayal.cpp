// SPDX-License-Identifier: AGPL-3.0-or-later
// LC-7.3 Betrayal: the 1s are dealt as reference cards; a trick holding a card of
// its winner's reference family is invalid (LC-11.5); the side with more valid
// tricks scores. No Selection; the dealer leads.
//
// Rule choice: whether a trick is valid is not announced during the round; the
// reference cards and the valid trick counts are shown when it ends.
#include "engine/games/la_casa/challenges/challenge.h"
#include "engine/games/la_casa/solo_game.h"
#include "engine/games/la_casa/la_casa_game.h"

namespace casa::la_casa {

template <>
struct ChallengeRules<kBetrayal> {
  // LC-7.3 Betrayal: the 1s come out first, in deck order.
  static int deal(LaCasaGame& g, const std::int8_t* deck, std::int8_t* rest) {
    int n = 0;
    int ones = 0;
    for (int i = 0; i < kDeckSize; ++i) {
      const int card = deck[i];
      if (card != kMangiaCake && card_value(card) == 1) {
        if (ones < g.players_) {
          g.reference_[(g.dealer_ + 1 + ones) % g.players_] = static_cast<std::int8_t>(card);
        } else {
          g.out_.add(card);
        }
        ++ones;
        continue;
      }
      rest[n++] = static_cast<std::int8_t>(card);
    }
    return n;
  }

  // LC-7.3 the dealer leads.
  static int leader(const LaCasaGame& g) { return g.dealer_; }

  // LC-7.3 / LC-11.5 the side with more valid tricks scores.
  static void score(LaCasaGame& g, std::array<int, 2>& points) {
    std::array<int, 2> valid{};
    for (int s = 0; s < g.players_; ++s) {
      const int ref_family = printed_family(g.reference_[s]);
      // A reference is always a 1 (LC-7.3); a sampled world of determinize()
      // may hold another card there, and one with no family matches nothing.
      if (ref_family < 0) {
        valid[g.side_of(s)] += g.won_count_[s];
        continue;
      }
      for (int t = 0; t < g.won_count_[s]; ++t)
        if (!(g.won_families_[s][t] & (1u << ref_family))) ++valid[g.side_of(s)];
    }
    const int side = g.decide(valid[0], valid[1], true);
    if (side >= 0) points[side] = 1;
  }

  // LC-8.5 Betrayal in Solo: the first 1 is the Casa's reference, the second the human's.
  static int solo_deal(SoloGame& g, const std::array<int, kDeckSize>& deck,
                       std::array<int, kDeckSize>& rest) {
    int n = 0;
    for (int card : deck) {
      if (card_value(card) == 1 && g.human_reference_ < 0 && card != kMangiaCake) {
        if (g.casa_ < 0) {
          g.casa_ = card;
        } else {
          g.human_reference_ = card;
        }
        continue;
      }
      rest[static_cast<std::size_t>(n++)] = card;
    }
    return n;
  }

  // LC-8.5 / LC-11.5 A card of either reference family voids the trick; the
  // Mangia-Cake (no printed family) never does.
  static bool solo_trick_valid(SoloGame& g, CardSet cards, int winner) {
    const CardSet voiding =
        family_cards(printed_family(g.casa_)) | family_cards(printed_family(g.human_reference_));
    const bool valid = (cards & voiding).empty();
    if (valid) ++g.valid_tricks_[static_cast<std::size_t>(winner)];
    return valid;
  }

  // LC-8.5 more valid tricks than the Robot scores 1.
  static int solo_score(const SoloGame& g) {
    return g.decide(g.valid_tricks_[0], g.valid_tricks_[1], true);
  }

  static Value solo_valid_tricks(const SoloGame& g) {
    return Value::obj({{"human", g.valid_tricks_[0]}, {"robot", g.valid_tricks_[1]}});
  }

  // The references are public (LC-8.5).
  static void solo_view_after_casa(const SoloGame& g, Value& v) {
    v.set("references",
          Value::obj({{"casa", card_id(g.casa_)}, {"human", card_id(g.human_reference_)}}));
  }
  static void solo_view_after_tricks(const SoloGame& g, Value& v) {
    v.set("valid_tricks", solo_valid_tricks(g));
  }
  static void solo_round_end(const SoloGame& g, Value& body) {
    body.set("valid_tricks", solo_valid_tricks(g));
  }
};

extern const Challenge kBetrayalChallenge;
const Challenge kBetrayalChallenge{
    .id = kBetrayal,
    .name = "betrayal",
    .four_players = true,
    .two_players = true,
    .solo = true,
    .deal = &ChallengeRules<kBetrayal>::deal,
    // LC-7.3 no Selection: no Ruling Family.
    .selection = false,
    .leader = &ChallengeRules<kBetrayal>::leader,
    .score = &ChallengeRules<kBetrayal>::score,
    // LC-7.3 the four 1s are set apart, as references and (two players) out of play.
    .set_apart = value_cards(1),
    .solo_deal = &ChallengeRules<kBetrayal>::solo_deal,
    // LC-8.5 the Casa's 1 is shown: a reference, not a Selection.
    .solo_casa_shown = true,
    .solo_trick_valid = &ChallengeRules<kBetrayal>::solo_trick_valid,
    .solo_score = &ChallengeRules<kBetrayal>::solo_score,
    .solo_view_after_casa = &ChallengeRules<kBetrayal>::solo_view_after_casa,
    .solo_view_after_tricks = &ChallengeRules<kBetrayal>::solo_view_after_tricks,
    .solo_round_end = &ChallengeRules<kBetrayal>::solo_round_end,
};

}  // namespace casa::la_casa
