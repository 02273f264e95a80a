// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/http/http.h"

#include <boost/beast/http.hpp>
#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <mutex>
#include <system_error>
#include <unistd.h>

#include "engine/bots.h"
#include "engine/registry.h"
#include "protocol/options_schema.h"
#include "protocol/protocol.h"
#include "protocol/schema_documents.h"
#include "server/table/bot_pool.h"
#include "server/cluster/cluster.h"
#include "server/http/accounts.h"
#include "server/tournaments/tournaments.h"
#include "server/lobby/friends.h"
#include "server/lobby/lobby.h"
#include "server/lobby/notifier.h"
#include "server/ops/metrics.h"
#include "server/store/account_rows.h"
#include "server/store/store.h"
#include "versioninfo/version.h"

namespace casa::server {

namespace fs = std::filesystem;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using nlohmann::json;

namespace {

// Every file the server holds in memory together: a web build is far smaller.
constexpr std::size_t kMaxWebBytes = 64u * 1024 * 1024;

// 'wasm-unsafe-eval' lets the page compile WebAssembly (the replay page's checks,
// clients/web/src/verify.ts) and nothing more: no eval, no inline script.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; base-uri 'none'";

// Paths the web client routes itself: the server answers them with index.html.
constexpr std::array<std::string_view, 7> kClientRoutes{"event/", "join/", "replay/", "table/", "leaderboard/", "players/", "help/"};

std::string content_type_of(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::map<std::string, std::string, std::less<>> kTypes = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".txt", "text/plain; charset=utf-8"},
      {".xml", "application/xml"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".avif", "image/avif"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".ttf", "font/ttf"},
      {".otf", "font/otf"},
      {".wasm", "application/wasm"},
      {".pdf", "application/pdf"},
      {".gz", "application/gzip"},
      {".br", "application/octet-stream"},
  };
  const auto it = kTypes.find(ext);
  return it == kTypes.end() ? "application/octet-stream" : it->second;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return std::move(out).str();
}

// FNV-1a, 64 bits: an ETag needs to change with the content, not to resist attack.
std::string content_tag(const std::string& data) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin();
  auto q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *r != *q) return false;
  }
  return true;
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

// ---- Static files ----------------------------------------------------------------

std::shared_ptr<const WebFiles> WebFiles::load(const fs::path& root_in) {
  std::error_code ec;
  const fs::path root = fs::canonical(root_in, ec);
  if (ec || !fs::is_directory(root)) throw std::runtime_error("web directory " + root_in.string() + " not found");
  auto web = std::make_shared<WebFiles>();
  web->root_ = root;
  std::map<std::string, std::string> found;  // request path -> file contents
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (!name.empty() && name[0] == '.') {  // .git, .DS_Store, editor files: never served
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    // A link is followed only to a regular file inside the root; directory
    // links are not walked (recursive_directory_iterator does not follow them).
    std::error_code e2;
    const fs::path real = fs::canonical(p, e2);
    if (e2 || !inside(root, real) || !fs::is_regular_file(real, e2)) {
      if (it->is_symlink(e2)) spdlog::warn("web directory: {} leads outside it or nowhere; not served", p.string());
      continue;
    }
    std::string data = read_file(real);
    web->bytes_ += data.size();
    if (web->bytes_ > kMaxWebBytes) throw std::runtime_error("web directory " + root.string() + " holds over 64 MB");
    found.emplace(p.lexically_relative(root).generic_string(), std::move(data));
  }
  if (ec) throw std::runtime_error("cannot read web directory " + root.string() + ": " + ec.message());
  for (auto& [path, data] : found) {
    // x.gz / x.br beside x are x's encodings, not files of their own.
    if ((ends_with(path, ".gz") || ends_with(path, ".br")) && found.count(path.substr(0, path.size() - 3))) continue;
    File f;
    f.content_type = content_type_of(path);
    f.etag = content_tag(data);
    f.identity = std::move(data);
    if (auto gz = found.find(path + ".gz"); gz != found.end()) f.gzip = gz->second;
    if (auto br = found.find(path + ".br"); br != found.end()) f.brotli = br->second;
    web->files_.emplace(path, std::move(f));
  }
  return web;
}

const WebFiles::File* WebFiles::find(const std::string& path) const {
  const auto it = files_.find(path);
  return it == files_.end() ? nullptr : &it->second;
}

fs::path find_web_dir(const Config& config) {
  if (config.web_dir == "off") return {};
  if (!config.web_dir.empty()) return config.web_dir;
  std::error_code ec;
  std::vector<fs::path> candidates;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path() / ".." / "share" / "casa" / "web");
  candidates.push_back(fs::current_path(ec) / "clients" / "web" / "dist");
  for (const auto& c : candidates) {
    if (fs::is_directory(c, ec)) return fs::weakly_canonical(c, ec);
  }
  return {};
}

bool decode_path(std::string_view in, std::string& out) {
  out.clear();
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return false;
    const int hi = hex(in[i + 1]);
    const int lo = hex(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    const char c = static_cast<char>(hi * 16 + lo);
    if (c == '\0' || c == '/' || c == '\\') return false;
    out += c;
    i += 2;
  }
  return true;
}

// ---- The catalogue ----------------------------------------------------------------

namespace {

// Removes the testing options from a schema: from every "properties" and
// "required" that names them.
void drop_names(json& node, const std::vector<std::string>& names) {
  if (node.is_array()) {
    for (auto& item : node) drop_names(item, names);
    return;
  }
  if (!node.is_object()) return;
  if (auto p = node.find("properties"); p != node.end() && p->is_object()) {
    for (const auto& n : names) p->erase(n);
  }
  if (auto d = node.find("dependencies"); d != node.end() && d->is_object()) {
    for (const auto& n : names) d->erase(n);
  }
  if (auto r = node.find("required"); r != node.end() && r->is_array()) {
    json kept = json::array();
    for (const auto& n : *r) {
      if (std::find(names.begin(), names.end(), n) == names.end()) kept.push_back(n);
    }
    *r = std::move(kept);
  }
  for (auto& [key, value] : node.items()) {
    if (key != "properties" && key != "enum" && key != "const" && key != "default") drop_names(value, names);
  }
  if (auto p = node.find("properties"); p != node.end() && p->is_object()) {
    for (auto& [key, value] : p->items()) drop_names(value, names);
  }
}

json public_schema(json schema, bool testing) {
  if (testing || !schema.contains("properties")) return schema;
  std::vector<std::string> names;
  for (const auto& [key, value] : schema["properties"].items()) {
    if (value.is_object() && value.value("x-testing", false)) names.push_back(key);
  }
  drop_names(schema, names);
  return schema;
}

}  // namespace

json game_catalogue(const std::vector<std::string>& games, bool testing) {
  json list = json::array();
  for (const auto& name : games) {
    json entry = {{"name", name}};
    if (const GameInfo* game = find_game(name)) {
      // The game's own declaration (engine/registry.h), and the schema made from
      // its options: the same document as protocol/schemas/options/<name>.json.
      const json s = json::parse(protocol::options_schema(*game).dump());
      entry["title"] = s["title"];
      entry["description"] = s["description"];
      entry["players"] = s["x-players"];
      entry["teams"] = s["x-teams"];
      entry["options"] = public_schema(s, testing);
    } else {
      // A game without a published schema (a test game): its options are not described.
      entry["title"] = name;
      entry["description"] = "";
      entry["players"] = json::array();
      entry["options"] = {{"type", "object"}};
    }
    list.push_back(std::move(entry));
  }
  const json* table = protocol::schema_document("table_settings.json");
  return {{"protocol", 1},
          {"games", std::move(list)},
          {"bots", bot_names()},
          {"table", table ? public_schema(*table, testing) : json::object()}};
}

// ---- Requests ----------------------------------------------------------------------

namespace {

void security_headers(HttpResponse& res) {
  res.set(http::field::server, "casa-server");
  res.set("Content-Security-Policy", kContentSecurityPolicy);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
}

// Sets the body, or for HEAD only the length it would have.
void set_body(HttpResponse& res, const HttpRequest& req, std::string body) {
  if (req.method() == http::verb::head) {
    res.content_length(body.size());
  } else {
    res.body() = std::move(body);
    res.prepare_payload();
  }
}

HttpResponse json_response(const HttpRequest& req, http::status status, const std::string& body) {
  HttpResponse res{status, req.version()};
  security_headers(res);
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-cache");
  res.keep_alive(req.keep_alive());
  set_body(res, req, body);
  return res;
}

HttpResponse text_response(const HttpRequest& req, http::status status, const std::string& text) {
  HttpResponse res{status, req.version()};
  security_headers(res);
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set(http::field::cache_control, "no-cache");
  res.keep_alive(req.keep_alive());
  set_body(res, req, text);
  return res;
}

// Whether the request's Accept-Encoding admits `coding` (q=0 refuses it).
bool accepts(const HttpRequest& req, std::string_view coding) {
  const auto field = req.find(http::field::accept_encoding);
  if (field == req.end()) return false;
  std::string_view v = field->value();
  while (!v.empty()) {
    const auto comma = v.find(',');
    std::string_view item = v.substr(0, comma);
    v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
    auto trim = [](std::string_view s) {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
      return s;
    };
    const auto semi = item.find(';');
    const std::string_view token = trim(item.substr(0, semi));
    if (token.size() != coding.size() ||
        !std::equal(token.begin(), token.end(), coding.begin(),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; })) {
      continue;
    }
    if (semi == std::string_view::npos) return true;
    std::string_view params = trim(item.substr(semi + 1));
    if (params.rfind("q=", 0) == 0) {
      params.remove_prefix(2);
      // q=0, q=0.0, q=0.000: refused; anything else admits it.
      return params.find_first_not_of("0.") != std::string_view::npos;
    }
    return true;
  }
  return false;
}

// If-None-Match against `etag` (weak comparison, as RFC 9110 asks for it).
bool not_modified(const HttpRequest& req, const std::string& etag) {
  const auto field = req.find(http::field::if_none_match);
  if (field == req.end()) return false;
  std::string_view v = field->value();
  if (v.find('*') != std::string_view::npos) return true;
  std::size_t pos = 0;
  while ((pos = v.find('"', pos)) != std::string_view::npos) {
    const auto end = v.find('"', pos + 1);
    if (end == std::string_view::npos) break;
    if (v.substr(pos, end - pos + 1) == etag) return true;
    pos = end + 1;
  }
  return false;
}

HttpResponse file_response(const HttpRequest& req, const WebFiles::File& file, bool immutable) {
  const std::string* body = &file.identity;
  const char* encoding = nullptr;
  std::string etag = file.etag;
  if (!file.brotli.empty() && accepts(req, "br")) {
    body = &file.brotli;
    encoding = "br";
    etag += "-br";
  } else if (!file.gzip.empty() && accepts(req, "gzip")) {
    body = &file.gzip;
    encoding = "gzip";
    etag += "-gz";
  }
  etag = "\"" + etag + "\"";
  const bool has_encodings = !file.gzip.empty() || !file.brotli.empty();
  const bool unchanged = not_modified(req, etag);
  HttpResponse res{unchanged ? http::status::not_modified : http::status::ok, req.version()};
  security_headers(res);
  res.keep_alive(req.keep_alive());
  res.set(http::field::etag, etag);
  res.set(http::field::cache_control, immutable ? "public, max-age=31536000, immutable" : "no-cache");
  if (has_encodings) res.set(http::field::vary, "Accept-Encoding");
  if (unchanged) return res;  // 304: no body, no Content-Length
  res.set(http::field::content_type, file.content_type);
  if (encoding) res.set(http::field::content_encoding, encoding);
  if (req.method() == http::verb::head) {
    res.content_length(body->size());
  } else {
    res.body() = *body;
    res.prepare_payload();
  }
  return res;
}

HttpResponse web_response(const HttpContext& ctx, const HttpRequest& req, const std::string& target) {
  static const std::string kNoClient =
      "The web client is not installed on this server. Build it (clients/web) and start casa-server "
      "with --web-dir, or play with a bot or the casa terminal client over /ws.\n";
  std::string path;
  if (target.empty() || target[0] != '/' || !decode_path(target.substr(1), path)) {
    return text_response(req, http::status::bad_request, "Bad path.\n");
  }
  // Files are looked up by exact name in the snapshot, so no path can leave the
  // web directory; dot segments are refused outright all the same.
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const std::string_view seg = std::string_view(path).substr(start, slash - start);
    if (seg == "." || seg == "..") return text_response(req, http::status::not_found, "Not found.\n");
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  const bool client_route =
      path.empty() || path == "index.html" ||
      std::any_of(kClientRoutes.begin(), kClientRoutes.end(),
                  [&](std::string_view r) { return path.rfind(r, 0) == 0 || path + "/" == r; });
  if (!ctx.web) return text_response(req, http::status::not_found, kNoClient);
  if (const auto* file = ctx.web->find(path); file && !client_route) {
    return file_response(req, *file, path.rfind("assets/", 0) == 0);
  }
  if (client_route) {
    if (const auto* index = ctx.web->find("index.html")) return file_response(req, *index, false);
    return text_response(req, http::status::not_found, kNoClient);
  }
  return text_response(req, http::status::not_found, "Not found.\n");
}

// %XX escapes decoded ("bot%3Arobot" is "bot:robot"); a bad escape stays as is.
std::string percent_decoded(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

// The value of name=value in a query string ("" when absent).
std::string query_param(const std::string& query, const std::string& name) {
  std::size_t start = 0;
  while (start <= query.size()) {
    const auto amp = query.find('&', start);
    const std::string pair = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    if (pair.rfind(name + "=", 0) == 0) return percent_decoded(pair.substr(name.size() + 1));
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  return {};
}

// Whether the request carries "Authorization: Bearer <token>". The two
// tokens' SHA-256 are compared in constant time, so neither the length nor
// the first differing byte of the token shows in the time the answer takes.
bool bearer_matches(const HttpRequest& req, const std::string& token) {
  const auto field = req.find(http::field::authorization);
  if (field == req.end()) return false;
  const std::string_view value = field->value();
  constexpr std::string_view kScheme = "Bearer ";
  if (value.size() <= kScheme.size() || !beast::iequals(value.substr(0, kScheme.size()), kScheme)) return false;
  const std::string given = sha256_hex(value.substr(kScheme.size()));
  const std::string wanted = sha256_hex(token);
  return CRYPTO_memcmp(given.data(), wanted.data(), given.size()) == 0;
}

HttpResponse unauthorized(const HttpRequest& req, const char* realm) {
  HttpResponse res =
      json_response(req, http::status::unauthorized, json{{"error", "unauthorized"}, {"message", "Send Authorization: Bearer <token>."}}.dump());
  res.set(http::field::www_authenticate, std::string("Bearer realm=\"") + realm + "\"");
  return res;
}

// GET /metrics: the Prometheus text format (server/ops/metrics.h).
HttpResponse metrics_response(const HttpContext& ctx, const HttpRequest& req) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    HttpResponse res = json_response(req, http::status::method_not_allowed, json{{"error", "get_only"}}.dump());
    res.set(http::field::allow, "GET, HEAD");
    return res;
  }
  if (!ctx.config->metrics_token.empty() && !bearer_matches(req, ctx.config->metrics_token)) {
    return unauthorized(req, "casa-metrics");
  }
  MetricsGauges g;
  const Lobby::Gauges lobby = ctx.lobby->gauges();
  g.tables_by_state = lobby.tables_by_state;
  g.players_connected = lobby.players_connected;
  g.store_queue = static_cast<std::int64_t>(ctx.store->queue_depth());
  g.store_wal_copy_bytes = static_cast<std::int64_t>(ctx.store->wal_copy_bytes());
  if (BotPool* pool = ctx.lobby->bot_pool()) {
    g.bot_threads = pool->threads();
    g.bot_busy = static_cast<std::int64_t>(pool->busy());
    g.bot_queued = static_cast<std::int64_t>(pool->queued());
  }
  if (Cluster* cluster = ctx.cluster) {
    const Cluster::Stats c = cluster->stats();
    g.node = cluster->node();
    g.tables_owned = c.tables_owned;
    g.lease_renew_failures = c.lease_renew_failures;
    g.leases_lost = c.leases_lost;
    g.cut_off = c.cut_off;
    g.bus_in = c.bus_in;
    g.bus_out = c.bus_out;
  }
  HttpResponse res{http::status::ok, req.version()};
  security_headers(res);
  res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
  res.set(http::field::cache_control, "no-cache");
  res.keep_alive(req.keep_alive());
  set_body(res, req, metrics_text(g));
  return res;
}

// /api/account/friends (docs/accounts.md#friends), with the caller's session
// token. Answered on the friends' worker thread, never on a network thread:
// it reads and writes the store.
HttpResponse friends_answer(const HttpContext& ctx, const HttpRequest& req, const std::string& path) {
  auto respond = [&](int status, const json& body) {
    return json_response(req, static_cast<http::status>(status), body.dump());
  };
  try {
    const auto caller = ctx.accounts->authenticate(req);
    if (!caller) {
      HttpResponse res = respond(401, {{"error", "unauthorized"}, {"message", "Sign in first: no valid session token."}});
      res.set(http::field::www_authenticate, "Bearer");
      return res;
    }
    if (caller->banned) return respond(403, {{"error", "banned"}, {"message", "This player is banned from this server."}});
    Friends& friends = ctx.lobby->friends();
    int status = 500;
    const std::string prefix = "/api/account/friends/";
    if (path == "/api/account/friends") {
      if (req.method() == http::verb::get) {
        const json body = friends.list(caller->player_id, status);
        return respond(status, body);
      }
      if (req.method() == http::verb::post) {
        const json in = json::parse(req.body(), nullptr, false);
        if (!in.is_object() || !in.contains("handle") || !in["handle"].is_string()) {
          return respond(400, {{"error", "bad_request"}, {"message", "Send {\"handle\": \"...\"}."}});
        }
        const json body = friends.add(caller->player_id, in["handle"].get<std::string>(), status);
        return respond(status, body);
      }
    } else if (path.size() > prefix.size() && path.rfind(prefix, 0) == 0) {
      std::string handle;
      if (!decode_path(path.substr(prefix.size()), handle)) {
        return respond(400, {{"error", "bad_request"}, {"message", "The handle in the path is malformed."}});
      }
      if (req.method() == http::verb::delete_) {
        const json body = friends.remove(caller->player_id, handle, status);
        return respond(status, body);
      }
    } else {
      return respond(404, {{"error", "not_found"}, {"message", "No such page."}});
    }
    HttpResponse res = respond(405, {{"error", "method_not_allowed"}, {"message", "Not with this method."}});
    res.set(http::field::allow, path == "/api/account/friends" ? "GET, POST" : "DELETE");
    return res;
  } catch (const std::exception& e) {
    spdlog::warn("http: {} failed: {}", std::string(req.target()), e.what());
    return respond(503, {{"error", "storage_unavailable"}, {"message", "Friends cannot be reached now."}});
  }
}

std::optional<HttpResponse> friends_response(const HttpContext& ctx, const HttpRequest& req, const std::string& path,
                                             const std::function<void(HttpResponse)>& later) {
  auto copy = std::make_shared<HttpRequest>(req);
  const bool queued =
      ctx.lobby->friends().run([&ctx, copy, path, later] { later(friends_answer(ctx, *copy, path)); });
  if (queued) return std::nullopt;
  return json_response(req, http::status::service_unavailable,
                       json{{"error", "busy"}, {"message", "The server is busy; try again in a moment."}}.dump());
}

// The admin API (docs/operations.md#admin-api): off without --admin-token;
// every request carries the token, or is answered 401 and changes nothing.
// Close and disconnect may need another node's answer: `later` gets it.
std::optional<HttpResponse> admin_response(const HttpContext& ctx, const HttpRequest& req, const std::string& target,
                                           const std::function<void(HttpResponse)>& later) {
  auto respond = [&](int status, const json& body) {
    return json_response(req, static_cast<http::status>(status), body.dump());
  };
  // Runs `act` with a Lobby::AdminAnswer: an answer given before act returns
  // is the response; one given afterwards (by another node) goes to `later`.
  auto answer_of = [&](const std::function<void(Lobby::AdminAnswer)>& act) -> std::optional<HttpResponse> {
    struct Pending {
      std::mutex mutex;
      bool returned = false;
      std::optional<HttpResponse> now;
    };
    auto pending = std::make_shared<Pending>();
    // Only what json_response reads: the method, the version, keep-alive.
    auto head = std::make_shared<HttpRequest>(req.method(), req.target(), req.version());
    head->keep_alive(req.keep_alive());
    act([pending, head, later](int status, json body) {
      HttpResponse res = json_response(*head, static_cast<http::status>(status), body.dump());
      std::lock_guard lock(pending->mutex);
      if (!pending->returned) {
        pending->now = std::move(res);
      } else {
        later(std::move(res));
      }
    });
    std::lock_guard lock(pending->mutex);
    pending->returned = true;
    return std::move(pending->now);
  };
  if (ctx.config->admin_token.empty()) {
    return respond(404, {{"error", "admin_disabled"}, {"message", "Start the server with --admin-token to use the admin API."}});
  }
  if (!bearer_matches(req, ctx.config->admin_token)) return unauthorized(req, "casa-admin");
  const auto method = req.method();
  const bool get = method == http::verb::get || method == http::verb::head;
  auto wrong_method = [&](const char* allow) {
    HttpResponse res = respond(405, {{"error", "method_not_allowed"}});
    res.set(http::field::allow, allow);
    return res;
  };
  // The operator's reason: {"reason": "..."}, 1 to 500 characters.
  auto reason_of = [&](std::string& reason) -> std::optional<HttpResponse> {
    const json body = json::parse(req.body(), nullptr, false);
    if (!body.is_object() || !body.contains("reason") || !body["reason"].is_string() ||
        body["reason"].get<std::string>().empty() || body["reason"].get<std::string>().size() > 500) {
      return respond(400, {{"error", "bad_request"}, {"message", "Send a JSON object with a reason of 1 to 500 characters."}});
    }
    reason = body["reason"].get<std::string>();
    return std::nullopt;
  };
  const std::string path = target.substr(std::string("/api/admin/").size());
  // Splits "a/b/c" into its parts.
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto slash = path.find('/', start);
    parts.push_back(percent_decoded(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start)));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  int status = 404;
  if (parts.size() == 1 && parts[0] == "tables") {
    if (!get) return wrong_method("GET, HEAD");
    return answer_of([&](Lobby::AdminAnswer done) { ctx.lobby->admin_tables(std::move(done)); });
  }
  if (parts.size() == 1 && parts[0] == "bans") {
    if (!get) return wrong_method("GET, HEAD");
    return respond(200, ctx.lobby->admin_bans());
  }
  if (parts.size() == 3 && parts[0] == "tables" && parts[2] == "close" && !parts[1].empty()) {
    if (method != http::verb::post) return wrong_method("POST");
    std::string reason;
    if (auto bad = reason_of(reason)) return *bad;
    return answer_of([&](Lobby::AdminAnswer done) { ctx.lobby->admin_close_table(parts[1], reason, std::move(done)); });
  }
  if (parts.size() == 3 && parts[0] == "players" && !parts[1].empty() && parts[2] == "disconnect") {
    if (method != http::verb::post) return wrong_method("POST");
    return answer_of([&](Lobby::AdminAnswer done) { ctx.lobby->admin_disconnect(parts[1], std::move(done)); });
  }
  // An account by its handle (docs/accounts.md): the same ban as its player's.
  if (parts.size() == 3 && parts[0] == "accounts" && !parts[1].empty() && parts[2] == "ban") {
    std::optional<account_rows::Account> account;
    ctx.store->read([&](Db& db) { account = account_rows::by_handle(db, parts[1]); });
    if (!account) return respond(404, {{"error", "no_such_account"}});
    parts = {"players", account->player_id, "ban"};
  }
  if (parts.size() == 3 && parts[0] == "players" && !parts[1].empty() && parts[2] == "ban") {
    if (method == http::verb::delete_) {
      json body = ctx.lobby->admin_unban(parts[1], status);
      return respond(status, body);
    }
    if (method != http::verb::post) return wrong_method("POST, DELETE");
    std::string reason;
    if (auto bad = reason_of(reason)) return *bad;
    json body = ctx.lobby->admin_ban(parts[1], reason, status);
    return respond(status, body);
  }
  return respond(404, {{"error", "not_found"}});
}

// A player's webhooks (docs/accounts.md, "Notifications"): the player is the
// one whose resume token comes as "Authorization: Bearer <token>".
//   GET    /api/account/webhooks            the list (no secrets)
//   POST   /api/account/webhooks            {"url", "format"}: 201, with its secret
//   DELETE /api/account/webhooks/{id}
//   POST   /api/account/webhooks/{id}/test  a test delivery (202)
HttpResponse webhooks_response(const HttpContext& ctx, const HttpRequest& req, const std::string& path) {
  auto respond = [&](int status, const json& body) {
    return json_response(req, static_cast<http::status>(status), body.dump());
  };
  auto wrong_method = [&](const char* allow) {
    HttpResponse res = respond(405, {{"error", "method_not_allowed"}});
    res.set(http::field::allow, allow);
    return res;
  };
  std::string token;
  if (const auto field = req.find(http::field::authorization); field != req.end()) {
    const std::string_view value = field->value();
    constexpr std::string_view kScheme = "Bearer ";
    if (value.size() > kScheme.size() && beast::iequals(value.substr(0, kScheme.size()), kScheme)) {
      token = std::string(value.substr(kScheme.size()));
    }
  }
  const auto player = ctx.lobby->player_of_token(token);
  if (!player) return unauthorized(req, "casa-account");
  if (ctx.lobby->is_banned(*player)) return respond(403, {{"error", "banned"}});
  Notifier& notifier = ctx.lobby->notifier();
  const std::string rest = path.substr(std::string("/api/account/webhooks").size());
  const auto method = req.method();
  int status = 404;
  if (rest.empty() || rest == "/") {
    if (method == http::verb::get || method == http::verb::head) return respond(200, notifier.list(*player, status));
    if (method != http::verb::post) return wrong_method("GET, HEAD, POST");
    const json body = json::parse(req.body(), nullptr, false);
    json answer = notifier.create(*player, body, status);
    return respond(status, answer);
  }
  std::string id = rest.substr(1);
  bool test = false;
  if (ends_with(id, "/test")) {
    id.resize(id.size() - 5);
    test = true;
  }
  if (id.empty() || id.size() > 64 || id.find('/') != std::string::npos) return respond(404, {{"error", "not_found"}});
  if (test) {
    if (method != http::verb::post) return wrong_method("POST");
    json answer = notifier.test(*player, id, status);
    return respond(status, answer);
  }
  if (method != http::verb::delete_) return wrong_method("DELETE");
  json answer = notifier.remove(*player, id, status);
  return respond(status, answer);
}

}  // namespace

namespace {
HttpResponse answer_http_unguarded(const HttpContext& ctx, const HttpRequest& req);

// A read the database refuses (PostgreSQL gone, say) answers 503, never more.
HttpResponse storage_failure(const HttpRequest& req, const std::exception& e) {
  spdlog::warn("http: {} failed: {}", std::string(req.target()), e.what());
  return json_response(req, http::status::service_unavailable, json{{"error", "storage_unavailable"}}.dump());
}

HttpResponse answer_http_guarded(const HttpContext& ctx, const HttpRequest& req) {
  try {
    return answer_http_unguarded(ctx, req);
  } catch (const std::exception& e) {
    return storage_failure(req, e);
  }
}

// The API reads answered from the store: a replay, an event, the leaderboard,
// a player's profile (GET or HEAD; the catalogue /api/games is in memory).
bool reads_store(const HttpRequest& req) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) return false;
  const std::string_view target = req.target().substr(0, req.target().find('?'));
  auto starts = [&](std::string_view prefix) { return target.substr(0, prefix.size()) == prefix; };
  return (starts("/api/games/") && target.size() > std::string_view("/api/games/").size()) ||
         starts("/api/tables/") || starts("/api/events/") || target == "/api/leaderboard" ||
         starts("/api/players/") || target == "/api/my-tables";
}
}  // namespace

std::optional<HttpResponse> answer_http(const HttpContext& ctx, const HttpRequest& req,
                                        std::function<void(HttpResponse)> later, const std::string& address) {
  try {
    {
      const std::string path(req.target().substr(0, req.target().find('?')));
      if (path.rfind("/api/admin/", 0) == 0) return admin_response(ctx, req, path, later);
      if (path == "/api/account/webhooks" || path.rfind("/api/account/webhooks/", 0) == 0) {
        if (ctx.lobby->cluster()) {
          // They read and write the store: on the cluster's pool, never on an event loop.
          auto copy = std::make_shared<HttpRequest>(req);
          const bool queued = ctx.lobby->cluster()->offload([copy, later, path, &ctx] {
            HttpResponse res;
            try {
              res = webhooks_response(ctx, *copy, path);
            } catch (const std::exception& e) {
              res = storage_failure(*copy, e);
            }
            later(std::move(res));
          });
          if (queued) return std::nullopt;
          return json_response(req, http::status::service_unavailable,
                               json{{"error", "busy"}, {"message", ClusterPort::kPoolFull}}.dump());
        }
        return webhooks_response(ctx, req, path);
      }
      // Friends: answered from their worker thread (server/lobby/friends.h).
      if ((path == "/api/account/friends" || path.rfind("/api/account/friends/", 0) == 0) && ctx.accounts) {
        return friends_response(ctx, req, path, later);
      }
      // Accounts: answered from their worker thread (server/http/accounts.h).
      if ((path == "/api/account" || path.rfind("/api/account/", 0) == 0) && ctx.accounts) {
        ctx.accounts->handle(req, path, address, later);
        return std::nullopt;
      }
    }
    // In a cluster these answers read PostgreSQL: on the cluster's pool of
    // database calls, so that no event loop waits on the network; past the
    // pool's bound, 503 busy at once (docs/security.md).
    if (ctx.lobby->cluster() && reads_store(req)) {
      auto copy = std::make_shared<HttpRequest>(req);
      const bool queued = ctx.lobby->cluster()->offload(
          [&ctx, copy, later] { later(answer_http_guarded(ctx, *copy)); });
      if (queued) return std::nullopt;
      return json_response(req, http::status::service_unavailable,
                           json{{"error", "busy"}, {"message", ClusterPort::kPoolFull}}.dump());
    }
    return answer_http_unguarded(ctx, req);
  } catch (const std::exception& e) {
    return storage_failure(req, e);
  }
}

namespace {
HttpResponse answer_http_unguarded(const HttpContext& ctx, const HttpRequest& req) {
  {
    std::string path(req.target().substr(0, req.target().find('?')));
    if (path == "/metrics") return metrics_response(ctx, req);
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    HttpResponse res = json_response(req, http::status::method_not_allowed, json{{"error", "get_only"}}.dump());
    res.set(http::field::allow, "GET, HEAD");
    return res;
  }
  std::string target(req.target());
  std::string query;
  if (auto q = target.find('?'); q != std::string::npos) {
    query = target.substr(q + 1);
    target = target.substr(0, q);
  }
  auto respond = [&](int status, const json& body) {
    return json_response(req, static_cast<http::status>(status), body.dump());
  };
  if (target == "/healthz") {
    // 503 while draining: a load balancer's health check stops sending new
    // clients here (docker/haproxy.cfg).
    // 503 too for a node of a cluster cut off from the database past its
    // lease (docs/cluster.md, "Partitions"): it runs no table and can reach
    // none, so its clients are better served by another node.
    const bool draining = ctx.draining && ctx.draining->load();
    const bool cut_off = ctx.lobby->cluster() && ctx.lobby->cluster()->cut_off();
    return respond(draining || cut_off ? 503 : 200,
                   {{"status", draining ? "draining" : cut_off ? "cut_off" : "ok"},
                    {"storage", ctx.store->healthy() ? "ok" : "unavailable"},
                    {"version", casa::version()}});
  }
  // Which build answers: the release (SemVer), its commit, and the protocol
  // version its hello and welcome speak (docs/protocol.md).
  if (target == "/api/version") {
    return respond(200, {{"version", casa::version()}, {"commit", casa::commit()}, {"protocol", protocol::kVersion}});
  }
  if (target == "/api/games" || target == "/api/games/") return json_response(req, http::status::ok, ctx.catalogue);
  // A finished game's replay: /api/tables/{table}/replay, and the older
  // /api/games/{table}.
  const std::string games_prefix = "/api/games/";
  const std::string tables_prefix = "/api/tables/";
  std::string replay_of;
  if (target.rfind(games_prefix, 0) == 0) {
    replay_of = target.substr(games_prefix.size());
  } else if (target.rfind(tables_prefix, 0) == 0 && ends_with(target, "/replay")) {
    replay_of = target.substr(tables_prefix.size(), target.size() - tables_prefix.size() - 7);
  }
  if (!replay_of.empty() && replay_of.size() <= 32 && replay_of.find('/') == std::string::npos) {
    int status = 404;
    // A private table's game: its invite code, or a seated player's token.
    std::string token;
    if (const auto field = req.find(http::field::authorization); field != req.end()) {
      const std::string_view value = field->value();
      constexpr std::string_view kScheme = "Bearer ";
      if (value.size() > kScheme.size() && beast::iequals(value.substr(0, kScheme.size()), kScheme)) {
        token = std::string(value.substr(kScheme.size()));
      }
    }
    std::string invite = query_param(query, "invite");
    if (invite.size() > 32) invite.clear();
    json body = ctx.lobby->replay(replay_of, status, invite, token);
    return respond(status, body);
  }
  // "Your games": the unfinished tables of the player whose token comes as
  // "Authorization: Bearer <token>" (docs/protocol.md, "Your games").
  if (target == "/api/my-tables") {
    std::string token;
    if (const auto field = req.find(http::field::authorization); field != req.end()) {
      const std::string_view value = field->value();
      constexpr std::string_view kScheme = "Bearer ";
      if (value.size() > kScheme.size() && beast::iequals(value.substr(0, kScheme.size()), kScheme)) {
        token = std::string(value.substr(kScheme.size()));
      }
    }
    int status = 401;
    json body = ctx.lobby->my_tables_by_token(token, status);
    HttpResponse res = respond(status, body);
    res.set(http::field::cache_control, "no-store");
    if (status == 401) res.set(http::field::www_authenticate, "Bearer realm=\"casa\"");
    return res;
  }
  const std::string events_prefix = "/api/events/";
  if (target.rfind(events_prefix, 0) == 0) {
    const std::string event = target.substr(events_prefix.size());
    if (!event.empty() && event.size() <= 32 && event.find('/') == std::string::npos) {
      int status = 404;
      json body = ctx.lobby->tournaments().describe(event, status);
      return respond(status, body);
    }
  }
  if (target == "/api/leaderboard") {
    std::string game = query_param(query, "game");
    if (game.size() > 32) game.resize(32);
    return respond(200, ctx.lobby->leaderboard(game));
  }
  // A player's profile: /api/players/{id}, id a player id or bot:<kind>.
  const std::string players_prefix = "/api/players/";
  if (target.rfind(players_prefix, 0) == 0) {
    const std::string id = percent_decoded(target.substr(players_prefix.size()));
    if (id.empty() || id.size() > 64 || id.find('/') != std::string::npos) {
      return respond(404, {{"error", "not_found"}});
    }
    int status = 404;
    json body = ctx.lobby->player_profile(id, status);
    return respond(status, body);
  }
  if (target.rfind("/api/", 0) == 0 || target == "/api" || target == "/ws") {
    return respond(404, {{"error", "not_found"}});
  }
  return web_response(ctx, req, target);
}

}  // namespace

}  // namespace casa::server
