// SPDX-License-Identifier: AGPL-3.0-or-later
// A small JSON Schema validator for the subset the protocol schemas use:
// type, required, properties, additionalProperties, enum, const, items,
// minItems/maxItems, minimum/maximum, minLength/maxLength, oneOf, anyOf, $ref
// (relative file references and JSON pointers into definitions).
//
// Schemas are registered by their "$id" (a relative path such as
// "client/hello.json"); a "$ref" is resolved against the id of the document it
// appears in, like a relative URL.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace casa::protocol {

class SchemaSet {
 public:
  // Registers a schema under its "$id" (or `id` when it has none).
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

  std::map<std::string, nlohmann::json> documents_;
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
