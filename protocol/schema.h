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
#include <optional>
#include <string>

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
  std::optional<std::string> check(const nlohmann::json& schema, const std::string& base,
                                   const nlohmann::json& value, const std::string& path) const;
  // Resolves a $ref seen in document `base` to (document id, schema node).
  std::pair<std::string, const nlohmann::json*> resolve(const std::string& base,
                                                        const std::string& ref) const;

  std::map<std::string, nlohmann::json> documents_;
};

// Every schema of protocol/schemas/, compiled into the binary. Envelopes are
// "client.json" and "server.json"; single messages "client/<type>.json" and
// "server/<type>.json".
const SchemaSet& protocol_schemas();

}  // namespace casa::protocol
