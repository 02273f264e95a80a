// SPDX-License-Identifier: AGPL-3.0-or-later
// A small JSON Schema (draft-07) validator for the keywords the protocol
// schemas use: type, const, enum, minimum/maximum, minLength/maxLength,
// pattern, items (one schema for every item), minItems/maxItems, uniqueItems,
// required, properties, additionalProperties, minProperties/maxProperties,
// dependencies, allOf, anyOf, oneOf, not, if/then/else, definitions and $ref
// (relative file references and JSON pointers into definitions).
//
// A schema that uses any other keyword is refused when it is added (add()
// throws), so that no rule of a schema is ever silently left unchecked.
// Annotations are allowed: title, description, $comment, examples, default,
// $schema, $id, and the project's own extensions, whose names start with "x-".
//
// Schemas are registered by their "$id" (a relative path such as
// "client/hello.json"); a "$ref" is resolved against the id of the document it
// appears in, like a relative URL.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace casa::protocol {

class SchemaSet {
 public:
  // Registers a schema under its "$id" (or `id` when it has none). Throws
  // std::invalid_argument naming the schema and the JSON pointer of the node
  // when the schema uses a keyword this validator does not implement, a
  // keyword's value has the wrong form, or a pattern does not compile.
  void add(const std::string& id, nlohmann::json schema);
  bool has(const std::string& id) const { return documents_.count(id) != 0; }

  // nullopt when `document` satisfies schema `id`; otherwise where and why not.
  std::optional<std::string> validate(const std::string& id, const nlohmann::json& document) const;

 private:
  // Where in the document a check is: a chain of members and indices, turned
  // into a JSON pointer only when a check fails (checks are on the hot path of
  // every client message, failures are not).
  struct Path {
    const Path* parent = nullptr;
    std::string_view key;
    std::size_t index = 0;
    bool is_index = false;
  };
  static std::string render(const Path* path);

  std::optional<std::string> check(const nlohmann::json& schema, const std::string& base,
                                   const nlohmann::json& value, const Path* path) const;
  // Resolves a $ref seen in document `base` to (document id, schema node).
  std::pair<const std::string*, const nlohmann::json*> resolve(const std::string& base,
                                                               const nlohmann::json& ref) const;

  // Refuses what the validator cannot check (see add()); compiles patterns.
  void load(const std::string& id, const nlohmann::json& schema, const std::string& pointer,
            std::unordered_map<std::string, std::regex>& patterns) const;

  std::map<std::string, nlohmann::json> documents_;
  // Every "pattern" of the documents, compiled, by its text.
  std::unordered_map<std::string, std::regex> patterns_;
  // Resolved $refs by the address of the "$ref" node (a node lives in one
  // document, so its base is fixed); emptied when a document is added. Moving
  // the set keeps the map's nodes, and so the cache, valid.
  struct Resolved {
    std::mutex mutex;
    std::unordered_map<const nlohmann::json*, std::pair<const std::string*, const nlohmann::json*>> refs;
  };
  std::unique_ptr<Resolved> resolved_ = std::make_unique<Resolved>();
};

// Every schema of protocol/schemas/, compiled into the binary. Envelopes are
// "client.json" and "server.json"; single messages "client/<type>.json" and
// "server/<type>.json".
const SchemaSet& protocol_schemas();

}  // namespace casa::protocol
