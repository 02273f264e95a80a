// SPDX-License-Identifier: AGPL-3.0-or-later
// The schema documents of protocol/schemas/ as JSON, by their path there
// (e.g. "options/la-casa.json"), for the server to publish them as they are.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace casa::protocol {

// The document at `path` under protocol/schemas/, or null.
const nlohmann::json* schema_document(const std::string& path);

}  // namespace casa::protocol
