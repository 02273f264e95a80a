#include "engine/games/conference/cards.h"

namespace casa::conference {

std::string card_id(int c) {
  if (c == kGood) return "GOOD";
  if (c == kEvil) return "EVIL";
  if (c == kFool) return "FOOL";
  if (is_trump(c)) return "T" + std::to_string(rank_of(c));
  if (c < 0 || c >= kGood) return "?";
  static constexpr const char* kRankIds[kSuitLength] = {"1", "2", "3", "4", "5", "6", "7",
                                                        "8", "9", "10", "J", "C", "Q", "K"};
  return std::string(1, kSuitLetters[suit_of(c)]) + kRankIds[rank_of(c)];
}

std::optional<int> parse_card(std::string_view id) {
  if (id == "GOOD") return kGood;
  if (id == "EVIL") return kEvil;
  if (id == "FOOL") return kFool;
  if (id.size() < 2 || id.size() > 3) return std::nullopt;
  const std::string_view rest = id.substr(1);
  if (id[0] == 'T') {
    int n = 0;
    for (char ch : rest) {
      if (ch < '0' || ch > '9') return std::nullopt;
      n = n * 10 + (ch - '0');
    }
    if (rest[0] == '0' || n < 1 || n > 21) return std::nullopt;
    return trump(n);
  }
  int suit = -1;
  for (int s = 0; s < kSuits; ++s)
    if (id[0] == kSuitLetters[s]) suit = s;
  if (suit < 0) return std::nullopt;
  int rank = -1;
  if (rest == "K") rank = kKingRank;
  else if (rest == "Q") rank = kQueenRank;
  else if (rest == "C") rank = kCavalierRank;
  else if (rest == "J") rank = kJackRank;
  else if (rest == "10") rank = 9;
  else if (rest.size() == 1 && rest[0] >= '1' && rest[0] <= '9') rank = rest[0] - '1';
  if (rank < 0) return std::nullopt;
  return suit * kSuitLength + rank;
}

}  // namespace casa::conference
