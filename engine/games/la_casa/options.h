// SPDX-License-Identifier: AGPL-3.0-or-later
// La Casa's options, declared once (options.cpp, engine/options.h): read in one
// of three ways by "format" (the table game, Domination, Solo).
#pragma once

#include <optional>

#include "engine/game.h"
#include "engine/registry.h"

namespace casa::la_casa {

struct TableOptions;
struct DominationSetup;
struct SoloSetup;

std::optional<Error> read_table_options(int players, const Value& options, TableOptions& out);
std::optional<Error> read_domination_options(const Value& options, DominationSetup& out);
std::optional<Error> read_solo_options(const Value& options, SoloSetup& out);

}  // namespace casa::la_casa
