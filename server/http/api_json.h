// SPDX-License-Identifier: AGPL-3.0-or-later
// The JSON answers and bodies of the account and passkey endpoints
// (server/http/accounts.cpp, server/http/passkeys.cpp): one place for the
// headers every answer carries, the error object, the body read as an
// object, and the labels players give their devices and passkeys.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace casa::server::api {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

// `body` with `status`, as JSON that no cache keeps; a HEAD request gets the
// headers and the length only.
Response reply(const Request& req, int status, const nlohmann::json& body);
// {"error": code, "message": message}.
Response error(const Request& req, int status, const std::string& code, const std::string& message);

// The request's body as a JSON object ({} when it is empty), or nullopt when
// it is something else.
std::optional<nlohmann::json> body_of(const Request& req);
// A string member of `body`, or nullopt when absent or not a string.
std::optional<std::string> string_field(const nlohmann::json& body, const char* name);

// The longest label a device or passkey keeps, in bytes.
constexpr std::size_t kMaxLabel = 64;
// A label as the player will see it: control characters dropped, at most
// kMaxLabel bytes (cut at a character boundary), `fallback` when nothing is left.
std::string clean_label(const std::string& raw, const std::string& fallback);

}  // namespace casa::server::api
