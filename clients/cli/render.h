// Text for people from the server's JSON: a seat's view, an offered action, the
// final scores. It knows each game's card notation (to group a hand by Family,
// suit or colour and to print a card readably) and the names of a few view fields
// (to give them a good label and order). It knows no rule: what is legal always
// comes from the server's request, never from here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace casa::cli {

// Keys stay in the order the server sent them.
using Json = nlohmann::ordered_json;

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

// One event of the game on one line, e.g. "seat 2: play G5".
std::string render_event(std::string_view game, const Json& event);

// Any JSON value on one line, cards printed with card_label.
std::string render_inline(std::string_view game, const Json& value);

}  // namespace casa::cli
