// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/options_schema.h"

#include <algorithm>
#include <string>
#include <vector>

namespace casa::protocol {

using ojson = nlohmann::ordered_json;

namespace {

ojson parse(std::string_view text) { return ojson::parse(text.begin(), text.end()); }

// Lays the members of `extra` (JSON text of an object) over `into`.
void lay_over(ojson& into, std::string_view extra) {
  if (extra.empty()) return;
  const ojson members = parse(extra);
  for (auto it = members.begin(); it != members.end(); ++it) into[it.key()] = it.value();
}

ojson string_list(const std::vector<std::string_view>& items) {
  ojson list = ojson::array();
  for (const auto& s : items) list.push_back(std::string(s));
  return list;
}

ojson property(const OptionSpec& o, const std::vector<int>& players) {
  ojson p = ojson::object();
  if (!o.title.empty()) p["title"] = std::string(o.title);
  if (!o.description.empty()) p["description"] = std::string(o.description);
  switch (o.type) {
    case OptionType::kInteger:
      p["type"] = "integer";
      p["minimum"] = o.min;
      p["maximum"] = o.max;
      if (o.max_seat) p["x-max-seat"] = true;
      break;
    case OptionType::kBoolean: p["type"] = "boolean"; break;
    case OptionType::kSwitch:
      p["oneOf"] = ojson::array({{{"type", "boolean"}}, {{"type", "string"}, {"enum", {"on", "off"}}}});
      break;
    case OptionType::kChoice:
      p["type"] = "string";
      p["enum"] = string_list(option_choices(o, 0));
      if (o.choices_for) {
        ojson by = ojson::object();
        for (const int n : players) by[std::to_string(n)] = string_list(o.choices_for(n));
        p["x-enum-by-players"] = std::move(by);
      }
      break;
    case OptionType::kCards:
      p["type"] = "array";
      p["items"] = {{"type", "string"}};
      p["minItems"] = o.min;
      p["maxItems"] = o.max;
      p["uniqueItems"] = true;
      break;
    case OptionType::kOther: break;
  }
  if (!o.default_json.empty()) p["default"] = parse(o.default_json);
  if (!o.players.empty()) p["x-players"] = std::vector<int>(o.players.begin(), o.players.end());
  lay_over(p, o.schema_json);
  if (o.testing) p["x-testing"] = true;
  return p;
}

const OptionSpec* spec_in(const OptionMode& mode, std::string_view name) {
  for (const OptionSpec* o : mode.options) {
    if (o->name == name) return o;
  }
  return nullptr;
}

// What `mode` narrows of `published` (the option as the schema lists it):
// null when nothing, false when the mode does not read it.
ojson narrowing(const OptionMode& mode, const OptionSpec& published) {
  const OptionSpec* o = spec_in(mode, published.name);
  if (!o) return false;
  if (o == &published) return nullptr;
  ojson p = ojson::object();
  if (o->type == OptionType::kInteger && published.type == OptionType::kInteger) {
    if (o->min != published.min) p["minimum"] = o->min;
    if (o->max != published.max) p["maximum"] = o->max;
  }
  if (o->type == OptionType::kChoice && option_choices(*o, 0) != option_choices(published, 0)) {
    p["enum"] = string_list(option_choices(*o, 0));
  }
  lay_over(p, o->schema_json);
  return p.empty() ? ojson(nullptr) : p;
}

}  // namespace

ojson options_schema(const GameInfo& game) {
  ojson s = ojson::object();
  s["$schema"] = "http://json-schema.org/draft-07/schema#";
  s["$id"] = "options/" + std::string(game.name) + ".json";
  s["title"] = std::string(game.title);
  s["description"] = std::string(game.description);
  s["x-players"] = game.players;
  s["x-teams"] = std::string(game.teams);
  s["type"] = "object";
  s["additionalProperties"] = false;

  // Every option once, as the first mode that reads it describes it.
  std::vector<const OptionSpec*> published;
  for (const OptionMode& mode : game.option_modes) {
    for (const OptionSpec* o : mode.options) {
      const bool listed = std::any_of(published.begin(), published.end(),
                                      [&](const OptionSpec* p) { return p->name == o->name; });
      if (!listed) published.push_back(o);
    }
  }
  const bool formats = std::any_of(game.option_modes.begin(), game.option_modes.end(),
                                   [](const OptionMode& m) { return !m.formats.empty(); });
  ojson properties = ojson::object();
  for (const OptionSpec* o : published) {
    ojson p = property(*o, game.players);
    if (formats) {
      std::vector<std::string_view> in;
      for (const OptionMode& mode : game.option_modes) {
        if (spec_in(mode, o->name)) in.insert(in.end(), mode.formats.begin(), mode.formats.end());
      }
      p["x-formats"] = string_list(in);
    }
    properties[std::string(o->name)] = std::move(p);
  }
  s["properties"] = std::move(properties);

  // Each format's own limits: the options it does not read, and narrower ranges
  // or choices. A mode that serves the default format applies without "format".
  if (formats) {
    ojson all_of = ojson::array();
    for (const OptionMode& mode : game.option_modes) {
      ojson then = ojson::object();
      for (const OptionSpec* o : published) {
        if (o->name == "format") continue;
        ojson n = narrowing(mode, *o);
        if (!n.is_null()) then[std::string(o->name)] = std::move(n);
      }
      if (then.empty()) continue;
      const OptionSpec* format = nullptr;
      for (const OptionSpec* o : published) {
        if (o->name == "format") format = o;
      }
      bool serves_default = false;
      if (format && !format->default_json.empty()) {
        const ojson d = parse(format->default_json);
        for (const auto& f : mode.formats) serves_default = serves_default || d == std::string(f);
      }
      ojson cond = ojson::object();
      cond["properties"]["format"] = mode.formats.size() == 1 ? ojson{{"const", std::string(mode.formats[0])}}
                                                              : ojson{{"enum", string_list(mode.formats)}};
      if (!serves_default) cond["required"] = {"format"};
      all_of.push_back({{"if", std::move(cond)}, {"then", {{"properties", std::move(then)}}}});
    }
    if (!all_of.empty()) s["allOf"] = std::move(all_of);
  }
  lay_over(s, game.schema_json);
  return s;
}

}  // namespace casa::protocol
