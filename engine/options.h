// SPDX-License-Identifier: AGPL-3.0-or-later
// A game's options, declared once in the game's own folder. From the declaration
// come the parser (read_options below, used by the game's create()), the JSON
// Schema of protocol/schemas/options/<game>.json (protocol/options_schema.h
// writes it; a test fails when the file differs), the catalogue the server
// publishes (GET /api/games) and the server's list of options for test servers
// only (testing_options() in engine/registry.h).
//
// An option is an OptionSpec (what it is, for people and for the schema, and
// the generic check of its value) and a store function of the game (which
// keeps the value and may refuse it for a reason of its own). A game read in
// several ways (La Casa: the table game, Domination, Solo, chosen by "format")
// declares one list per way, an OptionMode each; the schema lists every option
// once, as the first mode that reads it describes it, with the formats that
// accept it ("x-formats").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game.h"

namespace casa {

enum class OptionType {
  kInteger,  // a whole number in [min, max] (and at most players - 1 with max_seat)
  kBoolean,  // true or false
  kSwitch,   // true or false, or "on" or "off"
  kChoice,   // one of `choices`
  kCards,    // a list of card ids, min to max of them, each once (checked by the store)
  kOther,    // anything: the store checks it, schema_json describes it
};

struct OptionSpec {
  std::string_view name;
  // For people (the schema's title and description; the web client's form).
  std::string_view title{};
  std::string_view description{};
  OptionType type = OptionType::kOther;
  std::int64_t min = 0;   // kInteger: the range; kCards: how many ids
  std::int64_t max = 0;
  bool max_seat = false;  // kInteger: also a seat of the table (at most players - 1)
  std::span<const std::string_view> choices{};  // kChoice
  // kChoice, when the choices depend on the player count: those of `players`
  // (0: every choice of any count). Replaces `choices`.
  std::vector<std::string_view> (*choices_for)(int players) = nullptr;
  std::string_view default_json{};  // the default, as JSON text; empty: none
  std::span<const int> players{};   // the player counts that may set it; empty: all
  bool testing = false;             // fixes the deal or cuts the game short: test servers only
  // The error message ("bad_option") for a value that fails the generic check of
  // its type. Empty: no generic check, the store checks the value itself.
  std::string_view invalid{};
  // More schema members (JSON text of an object), laid over the generated ones:
  // what the types above cannot say (a oneOf, the choices by player count, ...).
  std::string_view schema_json{};
};

// One way a game reads its options.
struct OptionMode {
  // The values of the "format" option this mode serves (empty: the game has no formats).
  std::vector<std::string_view> formats;
  std::vector<const OptionSpec*> options;
};

// The parser's half of an option: the spec, and how Settings keeps the value.
template <class Settings>
struct Option {
  OptionSpec spec;
  // Keeps a value the spec's check accepted; an Error refuses it.
  std::optional<Error> (*store)(const Value& value, Settings& out, int players) = nullptr;
};

template <class Settings>
std::vector<const OptionSpec*> specs_of(std::span<const Option<Settings>> options) {
  std::vector<const OptionSpec*> out;
  for (const auto& o : options) out.push_back(&o.spec);
  return out;
}

// Stores that keep a value the spec's check accepted, at the member path `Path`
// of Settings (one or more member pointers: &Setup::dealer, or &Setup::o,
// &CasinoOptions::target for a nested member):
//   .store = store_integer<&Setup::dealer>
template <auto... Path, class Settings>
std::optional<Error> store_integer(const Value& value, Settings& out, int) {
  (out .* ... .* Path) = static_cast<int>(value.as_int());
  return std::nullopt;
}
template <auto... Path, class Settings>
std::optional<Error> store_boolean(const Value& value, Settings& out, int) {
  (out .* ... .* Path) = value.as_bool();
  return std::nullopt;
}

inline Error bad_option(std::string message) { return Error{"bad_option", std::move(message)}; }

// The Error for an option `name` a game does not have: `pattern` with "{}"
// replaced by the name.
Error unknown_option(std::string_view pattern, std::string_view name);

// The choices of a kChoice option at `players` (0: every choice).
std::vector<std::string_view> option_choices(const OptionSpec& spec, int players);

// Whether `value` passes the generic check of `spec` at `players` (true when the
// spec has none).
bool option_value_fits(const OptionSpec& spec, const Value& value, int players);

// Reads `options` (an object; null reads as no options) through `declared`, in
// the object's order: the first unknown name or refused value is the Error. An
// unknown name's message is `unknown` with "{}" replaced by the name.
template <class Settings>
std::optional<Error> read_options(std::span<const Option<Settings>> declared, std::string_view unknown,
                                  int players, const Value& options, Settings& out) {
  if (options.is_null()) return std::nullopt;
  if (!options.is_object()) return bad_option("Options must be an object.");
  for (const auto& [key, value] : options.as_object()) {
    const Option<Settings>* option = nullptr;
    for (const auto& o : declared) {
      if (o.spec.name == key) option = &o;
    }
    if (!option) return unknown_option(unknown, key);
    if (!option_value_fits(option->spec, value, players)) return bad_option(std::string(option->spec.invalid));
    if (option->store) {
      if (auto err = option->store(value, out, players)) return err;
    }
  }
  return std::nullopt;
}

}  // namespace casa
