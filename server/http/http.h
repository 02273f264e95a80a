// SPDX-License-Identifier: AGPL-3.0-or-later
// The plain HTTP side of casa-server (everything but the WebSocket upgrade):
// the JSON API under /api/, /healthz, and the web client's static files.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <atomic>
#include <filesystem>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/ops/config.h"

namespace casa::server {

class Lobby;
class Store;
class Cluster;
class Accounts;

// A snapshot of the web client's built files, read into memory at startup (the
// whole client is a few hundred kilobytes). Only files found under the root are
// served, so no request path can reach outside it; a symbolic link is followed
// only when its target lies inside the root. `name.gz` and `name.br` next to a
// file are its precompressed forms, sent to clients that accept them.
class WebFiles {
 public:
  struct File {
    std::string content_type;
    std::string identity;  // the file as it is
    std::string gzip;      // empty when there is no .gz beside it
    std::string brotli;    // empty when there is no .br beside it
    std::string etag;      // quoted; the encodings add "-gz" / "-br" inside the quotes
  };

  // Reads every file under `root`. Throws std::runtime_error when root is not a
  // readable directory.
  static std::shared_ptr<const WebFiles> load(const std::filesystem::path& root);

  // `path` is a decoded request path without the leading '/', e.g. "assets/a.js".
  const File* find(const std::string& path) const;
  const std::filesystem::path& root() const { return root_; }
  std::size_t size() const { return files_.size(); }
  std::size_t bytes() const { return bytes_; }

 private:
  std::filesystem::path root_;
  std::map<std::string, File, std::less<>> files_;
  std::size_t bytes_ = 0;
};

// The web directory to serve for `config` (flag --web-dir, CASA_WEB_DIR):
// "off" serves none; an explicit directory must exist; empty picks the first
// that exists of <dir of the executable>/../share/casa/web and clients/web/dist
// (relative to the working directory). Empty result: no web client.
std::filesystem::path find_web_dir(const Config& config);

// GET /api/games: the games `games` this server runs, each with its player
// counts and the JSON Schema of its options, from the game's declaration
// (engine/registry.h; the same as protocol/schemas/options/<game>.json), and
// the table settings every game shares. Options marked "x-testing" are left out
// unless `testing`.
nlohmann::json game_catalogue(const std::vector<std::string>& games, bool testing);

struct HttpContext {
  const Config* config = nullptr;
  Lobby* lobby = nullptr;
  Store* store = nullptr;
  std::shared_ptr<const WebFiles> web;  // null: no web client installed
  std::string catalogue;                // game_catalogue(), serialised once
  const std::atomic<bool>* draining = nullptr;  // set: /healthz answers 503 while true
  Cluster* cluster = nullptr;                   // cluster mode: this node's (its /metrics)
  Accounts* accounts = nullptr;                 // /api/account (server/http/accounts.h)
};

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// Answers one request; the response is complete (Content-Length set; for HEAD
// the length of the body a GET would get, and no body). An answer that another
// node of a cluster must give (an admin request for a table run there, a player
// connected there) comes later: nullopt is returned, and `later` is called
// once with the response, from an io_context thread.
// `address`: the client's (the peer's, or as a trusted proxy says), for the
// rate limits of signing in.
std::optional<HttpResponse> answer_http(const HttpContext& context, const HttpRequest& request,
                                        std::function<void(HttpResponse)> later, const std::string& address = {});

// Decodes %XX escapes of a URL path; false on a malformed escape or an encoded
// NUL or slash.
bool decode_path(std::string_view in, std::string& out);

}  // namespace casa::server
