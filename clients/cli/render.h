// SPDX-License-Identifier: AGPL-3.0-or-later
// Text for people from the server's JSON: a seat's view, an offered action, the
// final scores. It knows each game's card notation (to group a hand by Family,
// suit or colour and to print a card readably) and the names of a few view fields
// (to give them a good label and order). It knows no rule: what is legal always
// comes from the server's request, never from here.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace casa::cli {

// Keys stay in the order the server sent them.
using Json = nlohmann::ordered_json;

// Who a number of a per-seat or per-side list belongs to.
struct Seating {
  std::size_t players = 0;  // 0 when unknown
  Json sides;               // the teams when some seats play together, else null
  int me = -1;              // the reader's seat (-1: a spectator)
};
// From a view (its `players`, `teams`, `hand_sizes`, `seat`) or a table_state.
Seating seating_of(const Json& view);

// The terminal the default screen is made for.
inline constexpr std::size_t kScreenWidth = 80;
inline constexpr std::size_t kScreenHeight = 24;

// Columns a line takes on a terminal (UTF-8 code points; every glyph used is one column).
std::size_t columns(std::string_view line);

// A line broken at spaces into pieces of at most `width` columns; the pieces after
// the first are indented by four spaces.
std::vector<std::string> wrap_line(const std::string& line, std::size_t width = kScreenWidth);

// "0:45" for 45000 ms, "1:02:03" past an hour; never negative.
std::string clock_text(std::int64_t ms);

// A card id as a person reads it ("TD" in Casino is "10♦"); unknown ids unchanged.
std::string card_label(std::string_view game, std::string_view id);

// The hand grouped by Family / suit / colour, one group per line, e.g.
// "Guns: G1 G5\nKnives: K3\n". Unknown games: the cards on one line.
std::string render_hand(std::string_view game, const Json& cards);

// The whole view: a header (game, phase, whose turn, scores), then the table
// state field by field, then the seat's own hand. Ends with a newline.
std::string render_view(const Json& view);

// One offered action on one line, e.g. "play G5" or "capture 7♥ taking [3♠ 4♦]".
std::string render_action(std::string_view game, const Json& action);

// One event of the game on one line, e.g. "seat 2: play G5"; numbers per seat or
// per side read as such when the seating is known ("counts seats 0+2: 6 · ...").
std::string render_event(std::string_view game, const Json& event, const Seating& seating = {});

// A round's or hand's end (an event whose type ends in "_end") or the game's end in
// words, one fact a line: "Round 1 is over." then "Points: seats 0+2 (you): 1 · ...".
// Empty for any other event.
std::vector<std::string> render_summary(std::string_view game, const Json& event,
                                        const Seating& seating);

// One seat of a table_state / table_update as a person reads it:
// "ann", "ann (you)", "robot (bot)", "(empty)", "ann (away, robot in 0:45)",
// "ann (away, played by robot)". `elapsed_ms` is the time since the server sent it
// (the countdown goes on).
std::string render_seat(const Json& seat_info, int me, std::int64_t elapsed_ms = 0);

// What the default screen shows besides the view and the choices.
struct ScreenContext {
  std::string table;               // named in the header ("" = not named)
  Json seats;                      // seat infos (null = unknown); shown when one is away
  std::int64_t seats_age_ms = 0;   // time since those seat infos came
  std::int64_t time_left_ms = -1;  // this decision's timer (-1 = none)
  std::string prompt;              // the last line
  std::size_t width = kScreenWidth;
  std::size_t height = kScreenHeight;
};

// The default screen of a decision (or, with an empty `legal`, of the state of
// play): header, scores, away seats, the state of play, the hand and the numbered
// choices, then `prompt`. Every line fits `width` columns and there are at most
// `height` lines: bookkeeping fields that do not fit are left out, and
// `*complete` (when given) says whether anything was left out.
std::vector<std::string> render_screen(const Json& view, const Json& legal,
                                       const ScreenContext& context, bool* complete = nullptr);

// The final result in words: "Final scores: ...", "Winners: seats 0+2 (you)." and
// whether the reader won.
std::vector<std::string> render_game_end(std::string_view game, const Json& scores,
                                         const Json& winners, const Seating& seating);

// A game review (review/review.h's JSON, docs/review.md) in words: the review's
// budget, then per seat its accuracy and verdict counts, then each decision that
// was not the best: "#12 seat 0 played G5; better R9 (loss 0.22, blunder)".
// An {"error": ...} answer reads as one line.
std::vector<std::string> render_review(const Json& review);

// Any JSON value on one line, cards printed with card_label.
std::string render_inline(std::string_view game, const Json& value);

}  // namespace casa::cli
