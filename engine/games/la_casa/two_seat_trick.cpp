// SPDX-License-Identifier: AGPL-3.0-or-later
#include "engine/games/la_casa/two_seat_trick.h"

#include <string>

namespace casa::la_casa {

namespace {

Value card_or_null(int card) { return card < 0 ? Value() : Value(card_id(card)); }

Value card_list(CardSet cards) {
  Value list = Value::array();
  for (int card : cards) list.push(card_id(card));
  return list;
}

}  // namespace

void TwoSeatTrick::clear() {
  len = 0;
  lead = kNoFamily;
  played = 0;
  won = {};
  captured = {};
  last = {-1, -1};
  last_winner = -1;
}

void TwoSeatTrick::play(int player, int card, int ruling) {
  lead = trick::lead_after(card, lead_now(), ruling);  // LC-2.3
  cards[len] = card;
  players[len] = player;
  ++len;
}

int TwoSeatTrick::take(int ruling, int cousins) {
  const int winner = players[trick::winner(cards.data(), len, lead, ruling, cousins)];
  for (int i = 0; i < len; ++i) captured[winner].add(cards[i]);
  ++won[winner];
  ++played;
  last = cards;
  last_players = players;
  last_winner = winner;
  len = 0;
  lead = kNoFamily;
  return winner;
}

Value TwoSeatTrick::trick_state(std::string_view who) const {
  Value trick = Value::array();
  for (int i = 0; i < len; ++i)
    trick.push(Value::obj({{std::string(who), players[i]}, {"card", card_id(cards[i])}}));
  return trick;
}

Value TwoSeatTrick::captured_state() const {
  return Value::Array{card_list(captured[0]), card_list(captured[1])};
}

Value TwoSeatTrick::last_state() const {
  return Value::Array{card_or_null(last[0]), card_or_null(last[1])};
}

Value TwoSeatTrick::last_players_state() const {
  return Value::Array{last_players[0], last_players[1]};
}

}  // namespace casa::la_casa
