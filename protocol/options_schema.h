// SPDX-License-Identifier: AGPL-3.0-or-later
// The JSON Schema of a game's options, made from the game's declaration
// (engine/registry.h, engine/options.h). protocol/schemas/options/<game>.json
// holds the same documents for the validator and the web client's generated
// types: casa-options-schema writes them, and a test fails when they differ.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/registry.h"

namespace casa::protocol {

// The document for options/<game.name>.json (its members in declaration order).
nlohmann::ordered_json options_schema(const GameInfo& game);

}  // namespace casa::protocol
