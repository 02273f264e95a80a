// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/http/api_json.h"

#include <boost/beast/http.hpp>

namespace casa::server::api {

namespace http = boost::beast::http;
using json = nlohmann::json;

Response reply(const Request& req, int status, const json& body) {
  Response res{static_cast<http::status>(status), req.version()};
  res.set(http::field::server, "casa-server");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  if (req.method() == http::verb::head) {
    res.content_length(body.dump().size());
  } else {
    res.body() = body.dump();
    res.prepare_payload();
  }
  return res;
}

Response error(const Request& req, int status, const std::string& code, const std::string& message) {
  return reply(req, status, json{{"error", code}, {"message", message}});
}

std::optional<json> body_of(const Request& req) {
  if (req.body().empty()) return json::object();
  json body = json::parse(req.body(), nullptr, false);
  if (!body.is_object()) return std::nullopt;
  return body;
}

std::optional<std::string> string_field(const json& body, const char* name) {
  auto it = body.find(name);
  if (it == body.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::string clean_label(const std::string& raw, const std::string& fallback) {
  std::string out;
  for (unsigned char c : raw) {
    if (c >= 0x20 && c != 0x7f) out += static_cast<char>(c);
  }
  if (out.size() > kMaxLabel) {
    std::size_t cut = kMaxLabel;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
  }
  return out.empty() ? fallback : out;
}

}  // namespace casa::server::api
