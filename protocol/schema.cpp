// SPDX-License-Identifier: AGPL-3.0-or-later
#include "protocol/schema.h"

#include <cmath>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace casa::protocol {

using nlohmann::json;

namespace {

const char* type_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "number";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    default: return "unknown";
  }
}

bool has_type(const json& v, const std::string& want) {
  const std::string_view got = type_of(v);
  if (want == got) return true;
  if (want == "number") return got == "integer";
  if (want == "integer" && got == "number") {
    const double d = v.get<double>();
    return std::floor(d) == d;
  }
  return false;
}

// Joins a relative reference onto the directory of `base`, folding "..".
std::string join_path(const std::string& base, const std::string& relative) {
  std::vector<std::string> parts;
  const auto slash = base.rfind('/');
  std::string dir = slash == std::string::npos ? "" : base.substr(0, slash);
  std::string full = dir.empty() ? relative : dir + "/" + relative;
  std::string part;
  for (std::size_t i = 0; i <= full.size(); ++i) {
    if (i == full.size() || full[i] == '/') {
      if (part == "..") {
        if (!parts.empty()) parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.push_back(part);
      }
      part.clear();
    } else {
      part += full[i];
    }
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// A member name as a JSON pointer token (RFC 6901: "~" and "/" escaped).
std::string pointer_token(std::string_view name) {
  std::string out;
  for (const char ch : name) {
    if (ch == '~') {
      out += "~0";
    } else if (ch == '/') {
      out += "~1";
    } else {
      out += ch;
    }
  }
  return out;
}

// Keywords that only describe a schema and constrain nothing. Members whose
// names start with "x-" are the project's own annotations (forms, formats).
bool is_annotation(std::string_view k) {
  return k == "title" || k == "description" || k == "$comment" || k == "examples" ||
         k == "default" || k == "$schema" || k == "$id" || k.substr(0, 2) == "x-";
}

bool is_count(const json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
}

bool is_string_array(const json& v) {
  if (!v.is_array()) return false;
  for (const auto& one : v) {
    if (!one.is_string()) return false;
  }
  return true;
}

}  // namespace

void SchemaSet::load(const std::string& id, const json& schema, const std::string& pointer,
                     std::unordered_map<std::string, std::regex>& patterns) const {
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("schema " + id + " at " + (pointer.empty() ? "/" : pointer) + ": " +
                                why);
  };
  if (schema.is_boolean()) return;
  if (!schema.is_object()) refuse("a schema must be an object or a boolean");
  const auto sub = [&](const std::string& key, const json& node) {
    load(id, node, pointer + "/" + pointer_token(key), patterns);
  };
  const auto subs = [&](const std::string& key, const json& map) {
    if (!map.is_object()) refuse(key + " must be an object of schemas");
    for (const auto& [name, node] : map.items()) {
      load(id, node, pointer + "/" + pointer_token(key) + "/" + pointer_token(name), patterns);
    }
  };
  for (const auto& [key, value] : schema.items()) {
    const std::string_view k = key;
    if (is_annotation(k)) continue;
    if (k == "$ref") {
      if (!value.is_string()) refuse("$ref must be a string");
      // Draft-07 ignores every keyword beside a $ref; this validator would
      // apply them, so a schema that has any is refused rather than read two ways.
      for (const auto& [other, unused] : schema.items()) {
        if (other != "$ref" && !is_annotation(other)) refuse("keyword '" + other + "' beside $ref");
      }
    } else if (k == "type") {
      static const std::set<std::string, std::less<>> kTypes = {
          "null", "boolean", "integer", "number", "string", "array", "object"};
      const bool ok = value.is_string() ? kTypes.count(value.get_ref<const std::string&>()) != 0
                                        : is_string_array(value) && !value.empty();
      if (!ok) refuse("type must name JSON types");
      if (value.is_array()) {
        for (const auto& one : value) {
          if (kTypes.count(one.get_ref<const std::string&>()) == 0)
            refuse("unknown type " + one.dump());
        }
      }
    } else if (k == "const") {
    } else if (k == "enum") {
      if (!value.is_array() || value.empty()) refuse("enum must be a non-empty array");
    } else if (k == "minimum" || k == "maximum") {
      if (!value.is_number()) refuse(key + " must be a number");
    } else if (k == "minLength" || k == "maxLength" || k == "minItems" || k == "maxItems" ||
               k == "minProperties" || k == "maxProperties") {
      if (!is_count(value)) refuse(key + " must be a non-negative integer");
    } else if (k == "pattern") {
      if (!value.is_string()) refuse("pattern must be a string");
      const std::string& text = value.get_ref<const std::string&>();
      try {
        patterns.emplace(text, std::regex(text, std::regex::ECMAScript));
      } catch (const std::regex_error& e) {
        refuse("pattern " + value.dump() + " does not compile: " + e.what());
      }
    } else if (k == "uniqueItems") {
      if (!value.is_boolean()) refuse("uniqueItems must be a boolean");
    } else if (k == "required") {
      if (!is_string_array(value)) refuse("required must be an array of member names");
    } else if (k == "items") {
      if (value.is_array()) refuse("items as an array of schemas (tuples) is not implemented");
      sub(key, value);
    } else if (k == "additionalProperties" || k == "not" || k == "if" || k == "then" ||
               k == "else") {
      sub(key, value);
    } else if (k == "properties" || k == "definitions") {
      subs(key, value);
    } else if (k == "dependencies") {
      if (!value.is_object()) refuse("dependencies must be an object");
      for (const auto& [name, node] : value.items()) {
        if (!is_string_array(node))
          load(id, node, pointer + "/dependencies/" + pointer_token(name), patterns);
      }
    } else if (k == "allOf" || k == "anyOf" || k == "oneOf") {
      if (!value.is_array() || value.empty()) refuse(key + " must be a non-empty array of schemas");
      for (std::size_t i = 0; i < value.size(); ++i) {
        load(id, value[i], pointer + "/" + key + "/" + std::to_string(i), patterns);
      }
    } else {
      refuse("unsupported keyword '" + key + "'");
    }
  }
}

void SchemaSet::add(const std::string& id, json schema) {
  std::string key = id;
  if (schema.is_object() && schema.contains("$id") && schema["$id"].is_string()) {
    key = schema["$id"].get<std::string>();
  }
  std::unordered_map<std::string, std::regex> patterns;
  load(key, schema, "", patterns);
  std::lock_guard lock(resolved_->mutex);
  resolved_->refs.clear();
  documents_[key] = std::move(schema);
  for (auto& [text, compiled] : patterns) patterns_.insert_or_assign(text, std::move(compiled));
}

std::string SchemaSet::render(const Path* path) {
  if (path == nullptr) return "/";
  std::vector<const Path*> chain;
  for (const Path* p = path; p != nullptr; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    out += '/';
    if ((*it)->is_index) {
      out += std::to_string((*it)->index);
    } else {
      out += (*it)->key;
    }
  }
  return out;
}

std::pair<const std::string*, const json*> SchemaSet::resolve(const std::string& base, const json& ref_node) const {
  {
    std::lock_guard lock(resolved_->mutex);
    if (const auto hit = resolved_->refs.find(&ref_node); hit != resolved_->refs.end()) return hit->second;
  }
  const std::string& ref = ref_node.get_ref<const std::string&>();
  const auto hash = ref.find('#');
  const std::string file = ref.substr(0, hash);
  const std::string pointer = hash == std::string::npos ? "" : ref.substr(hash + 1);
  const std::string doc_id = file.empty() ? base : join_path(base, file);
  const auto it = documents_.find(doc_id);
  if (it == documents_.end()) return {nullptr, nullptr};
  const json* node = &it->second;
  if (!pointer.empty()) {
    try {
      node = &it->second.at(json::json_pointer(pointer));
    } catch (const std::exception&) {
      return {nullptr, nullptr};
    }
  }
  std::lock_guard lock(resolved_->mutex);
  resolved_->refs[&ref_node] = {&it->first, node};
  return {&it->first, node};
}

std::optional<std::string> SchemaSet::validate(const std::string& id, const json& document) const {
  const auto it = documents_.find(id);
  if (it == documents_.end()) return "no schema " + id;
  return check(it->second, id, document, nullptr);
}

std::optional<std::string> SchemaSet::check(const json& schema, const std::string& base,
                                            const json& value, const Path* path) const {
  const auto where = [&] { return render(path); };
  if (schema.is_boolean()) {
    if (schema.get<bool>()) return std::nullopt;
    return where() + ": not allowed";
  }
  if (!schema.is_object()) return std::nullopt;
  // The keywords of this node, found in one pass over its few members rather
  // than one map lookup per keyword the validator knows.
  const json *ref = nullptr, *type = nullptr, *constant = nullptr, *enumeration = nullptr,
             *minimum = nullptr, *maximum = nullptr, *min_length = nullptr, *max_length = nullptr,
             *min_items = nullptr, *max_items = nullptr, *items = nullptr, *required = nullptr,
             *props = nullptr, *extra = nullptr, *one_of = nullptr, *any_of = nullptr,
             *all_of = nullptr, *pattern = nullptr, *unique = nullptr, *min_props = nullptr,
             *max_props = nullptr, *dependencies = nullptr, *negated = nullptr,
             *condition = nullptr, *then_branch = nullptr, *else_branch = nullptr;
  // clang-format off
  for (const auto& [key, keyword] : schema.items()) {
    const std::string_view k = key;
    if (k == "$ref") ref = &keyword;
    else if (k == "type") type = &keyword;
    else if (k == "const") constant = &keyword;
    else if (k == "enum") enumeration = &keyword;
    else if (k == "minimum") minimum = &keyword;
    else if (k == "maximum") maximum = &keyword;
    else if (k == "minLength") min_length = &keyword;
    else if (k == "maxLength") max_length = &keyword;
    else if (k == "minItems") min_items = &keyword;
    else if (k == "maxItems") max_items = &keyword;
    else if (k == "items") items = &keyword;
    else if (k == "required") required = &keyword;
    else if (k == "properties") props = &keyword;
    else if (k == "additionalProperties") extra = &keyword;
    else if (k == "oneOf") one_of = &keyword;
    else if (k == "anyOf") any_of = &keyword;
    else if (k == "allOf") all_of = &keyword;
    else if (k == "pattern") pattern = &keyword;
    else if (k == "uniqueItems") unique = &keyword;
    else if (k == "minProperties") min_props = &keyword;
    else if (k == "maxProperties") max_props = &keyword;
    else if (k == "dependencies") dependencies = &keyword;
    else if (k == "not") negated = &keyword;
    else if (k == "if") condition = &keyword;
    else if (k == "then") then_branch = &keyword;
    else if (k == "else") else_branch = &keyword;
  }
  // clang-format on

  if (ref != nullptr) {
    if (!ref->is_string()) return where() + ": $ref is not a string";
    const auto [doc, node] = resolve(base, *ref);
    if (node == nullptr) return where() + ": unresolved $ref " + ref->get<std::string>();
    if (auto err = check(*node, *doc, value, path)) return err;
  }
  if (const json* t = type) {
    bool ok = false;
    if (t->is_string()) {
      ok = has_type(value, t->get_ref<const std::string&>());
    } else {
      for (const auto& one : *t) ok = ok || (one.is_string() && has_type(value, one.get_ref<const std::string&>()));
    }
    if (!ok) return where() + ": expected " + t->dump() + ", got " + type_of(value);
  }
  if (const json* c = constant; c != nullptr && *c != value) {
    return where() + ": must be " + c->dump();
  }
  if (const json* e = enumeration) {
    bool found = false;
    for (const auto& one : *e) found = found || one == value;
    if (!found) return where() + ": must be one of " + e->dump();
  }
  if (value.is_number()) {
    const double d = value.get<double>();
    if (const json* m = minimum; m != nullptr && d < m->get<double>()) {
      return where() + ": below minimum " + m->dump();
    }
    if (const json* m = maximum; m != nullptr && d > m->get<double>()) {
      return where() + ": above maximum " + m->dump();
    }
  }
  if (value.is_string()) {
    // Length in code points, as the standard counts it.
    std::size_t length = 0;
    for (const unsigned char ch : value.get_ref<const std::string&>()) length += (ch & 0xC0) != 0x80;
    if (const json* m = min_length; m != nullptr && length < m->get<std::size_t>()) {
      return where() + ": shorter than " + m->dump();
    }
    if (const json* m = max_length; m != nullptr && length > m->get<std::size_t>()) {
      return where() + ": longer than " + m->dump();
    }
    // ECMA-262 regular expressions, matched anywhere in the string as the
    // standard says (a pattern anchors itself with ^ and $). std::regex's
    // ECMAScript grammar runs on bytes, not code points: the same for the
    // protocol's patterns, which are ASCII classes and anchors only (every one
    // compiles when its schema is added, and the tests match each).
    if (pattern != nullptr) {
      const auto compiled = patterns_.find(pattern->get_ref<const std::string&>());
      if (compiled == patterns_.end() ||
          !std::regex_search(value.get_ref<const std::string&>(), compiled->second)) {
        return where() + ": does not match pattern " + pattern->dump();
      }
    }
  }
  if (value.is_array()) {
    if (const json* m = min_items; m != nullptr && value.size() < m->get<std::size_t>()) {
      return where() + ": fewer items than " + m->dump();
    }
    if (const json* m = max_items; m != nullptr && value.size() > m->get<std::size_t>()) {
      return where() + ": more items than " + m->dump();
    }
    if (unique != nullptr && unique->get<bool>()) {
      // Equal as JSON values (1 and 1.0 too; objects whatever their order).
      for (std::size_t i = 0; i < value.size(); ++i) {
        for (std::size_t j = i + 1; j < value.size(); ++j) {
          if (value[i] == value[j]) {
            return where() + ": items " + std::to_string(i) + " and " + std::to_string(j) +
                   " are equal";
          }
        }
      }
    }
    if (items != nullptr) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const Path sub{path, {}, i, true};
        if (auto err = check(*items, base, value[i], &sub)) return err;
      }
    }
  }
  if (value.is_object()) {
    if (const json* m = min_props; m != nullptr && value.size() < m->get<std::size_t>()) {
      return where() + ": fewer members than " + m->dump();
    }
    if (const json* m = max_props; m != nullptr && value.size() > m->get<std::size_t>()) {
      return where() + ": more members than " + m->dump();
    }
    if (const json* req = required) {
      for (const auto& name : *req) {
        if (!name.is_string() || !value.contains(name.get_ref<const std::string&>())) {
          return where() + ": missing " + name.get<std::string>();
        }
      }
    }
    for (const auto& [key, member] : value.items()) {
      const Path sub{path, key};
      const json* known = nullptr;
      if (props != nullptr && props->is_object()) {
        if (const auto p = props->find(key); p != props->end()) known = &*p;
      }
      if (known != nullptr) {
        if (auto err = check(*known, base, member, &sub)) return err;
      } else if (extra != nullptr) {
        if (extra->is_boolean() && !extra->get<bool>()) return render(&sub) + ": unknown field";
        if (auto err = check(*extra, base, member, &sub)) return err;
      }
    }
  }
  if (value.is_object() && dependencies != nullptr) {
    for (const auto& [name, rule] : dependencies->items()) {
      if (!value.contains(name)) continue;
      if (rule.is_array()) {
        for (const auto& needed : rule) {
          if (!value.contains(needed.get_ref<const std::string&>())) {
            return where() + ": " + name + " needs " + needed.get<std::string>();
          }
        }
      } else if (auto err = check(rule, base, value, path)) {
        return *err + " (with " + name + ")";
      }
    }
  }
  if (const json* all = all_of) {
    for (const auto& branch : *all) {
      if (auto err = check(branch, base, value, path)) return err;
    }
  }
  if (negated != nullptr && !check(*negated, base, value, path)) {
    return where() + ": must not match " + negated->dump();
  }
  if (condition != nullptr) {
    const bool holds = !check(*condition, base, value, path);
    if (const json* branch = holds ? then_branch : else_branch) {
      if (auto err = check(*branch, base, value, path)) {
        return *err + " (when " + condition->dump() + (holds ? "" : " fails") + ")";
      }
    }
  }
  if (const json* one = one_of) {
    int matches = 0;
    std::string last;
    for (const auto& branch : *one) {
      if (auto err = check(branch, base, value, path)) {
        last = *err;
      } else {
        ++matches;
      }
    }
    if (matches != 1) {
      return where() + ": matches " + std::to_string(matches) + " of oneOf" +
             (matches == 0 ? " (e.g. " + last + ")" : "");
    }
  }
  if (const json* any = any_of) {
    bool matched = false;
    for (const auto& branch : *any) matched = matched || !check(branch, base, value, path);
    if (!matched) return where() + ": matches none of anyOf";
  }
  return std::nullopt;
}

}  // namespace casa::protocol
