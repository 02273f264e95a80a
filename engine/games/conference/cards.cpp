// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/conference/cards.h"

namespace casa::conference {

namespace {

// Every id by card index (see the layout in cards.h).
constexpr const char* kIds[kCardCount] = {
    "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "EJ", "EC", "EQ", "EK",
    "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "AJ", "AC", "AQ", "AK",
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "FJ", "FC", "FQ", "FK",
    "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "WJ", "WC", "WQ", "WK",
    "GOOD", "EVIL",
    "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14",
    "T15", "T16", "T17", "T18", "T19", "T20", "T21",
    "FOOL"};

}  // namespace

std::string card_id(int c) { return c >= 0 && c < kCardCount ? kIds[c] : "?"; }

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
