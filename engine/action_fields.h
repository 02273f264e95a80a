// SPDX-License-Identifier: AGPL-3.0-or-later
// The fields an action value may hold, checked the same way for every game.
//
// The protocol asks a seat to send one of its request's `legal` values verbatim,
// and every other client message refuses unknown fields. A decoder therefore
// refuses an action object holding a key that its type does not have, instead of
// acting as if the key were absent.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>

#include "engine/game.h"

namespace casa {

// Each action type a game knows, with the keys it may hold besides "type",
// separated by spaces: {{"play", "card"}, {"fold", ""}}.
using ActionFields = std::initializer_list<std::pair<std::string_view, std::string_view>>;

// malformed_action ("A play action has no \"extra\".") when `action` is an object
// whose "type" is listed in `fields` and which holds a key that type lacks;
// nullopt otherwise (a missing or unknown type is left to the decoder).
std::optional<Error> check_action_fields(const Value& action, ActionFields fields);

}  // namespace casa
