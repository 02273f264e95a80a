// SPDX-License-Identifier: AGPL-3.0-or-later
// The plain HTTP side of an in-process server: the game catalogue, the replay
// addresses, and the web client's files served from a temporary directory
// (content types, caching, precompressed forms, conditional requests, HEAD,
// methods, security headers, and no way out of the directory).
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <map>

#include "server/http/http.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

namespace beast = boost::beast;
namespace http = beast::http;

// Sends each request in turn on one keep-alive connection.
std::vector<Reply> exchange(unsigned short port, const std::vector<http::request<http::string_body>>& requests) {
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  stream.expires_after(std::chrono::seconds(10));
  beast::flat_buffer buffer;
  std::vector<Reply> out;
  for (auto req : requests) {
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(true);
    req.prepare_payload();
    http::write(stream, req);
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    if (req.method() == http::verb::head) parser.skip(true);
    http::read(stream, buffer, parser);
    const auto& res = parser.get();
    Reply r;
    r.status = static_cast<int>(res.result_int());
    for (const auto& f : res) {
      std::string name(f.name_string());
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
      r.headers[name] = std::string(f.value());
    }
    r.body = res.body();
    out.push_back(std::move(r));
  }
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  return out;
}

http::request<http::string_body> request(http::verb verb, const std::string& target,
                                         std::map<std::string, std::string> headers = {}) {
  http::request<http::string_body> req{verb, target, 11};
  for (const auto& [k, v] : headers) req.set(k, v);
  return req;
}

Reply fetch(unsigned short port, const std::string& target, std::map<std::string, std::string> headers = {},
            http::verb verb = http::verb::get) {
  return exchange(port, {request(verb, target, std::move(headers))}).front();
}

void write_file(const fs::path& p, const std::string& data) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << data;
}

const std::string kIndex = "<!doctype html><title>La Casa</title><script type=module src=/assets/app-3f2a.js></script>";
const std::string kApp = "console.log('la casa');\n";
const std::string kAppGz = std::string("\x1f\x8b\x08\x00gzip-bytes-of-app", 22);
const std::string kAppBr = "brotli-bytes-of-app";
const std::string kSecret = "TOP SECRET: outside the web directory";

// A web directory inside `base`, with a secret file beside it and links that
// try to reach it.
fs::path make_web_dir(const fs::path& base);

// A temporary directory holding a web directory; removed at the end of the test.
struct TempWeb {
  fs::path base = temp_dir("web");
  fs::path web = make_web_dir(base);
  ~TempWeb() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
};

fs::path make_web_dir(const fs::path& base) {
  const fs::path web = base / "web";
  write_file(web / "index.html", kIndex);
  write_file(web / "index.html.gz", "gzipped index");
  write_file(web / "assets" / "app-3f2a.js", kApp);
  write_file(web / "assets" / "app-3f2a.js.gz", kAppGz);
  write_file(web / "assets" / "app-3f2a.js.br", kAppBr);
  write_file(web / "assets" / "style-91bc.css", "body{color:#111}");
  write_file(web / "assets" / "font-77aa.woff2", "wOF2");
  write_file(web / "icon.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>");
  write_file(web / "manifest.webmanifest", "{}");
  write_file(web / "data.bin", "raw");
  write_file(web / ".env", "SECRET=1");
  write_file(base / "secret.txt", kSecret);
  fs::create_symlink(base / "secret.txt", web / "leak.txt");
  fs::create_symlink("../secret.txt", web / "assets" / "leak2.js");
  fs::create_symlink(base, web / "up");
  fs::create_symlink("/etc", web / "etc");
  fs::create_symlink(web / "assets" / "app-3f2a.js", web / "app.js");  // inside: served
  return web;
}

void web_server(casa::server::Config& c, const fs::path& dir) {
  c.web_dir = dir.string();
}

const std::string kCsp =
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; base-uri 'none'";

void check_security_headers(const Reply& r) {
  CHECK(r.header("content-security-policy") == kCsp);
  CHECK(r.header("x-content-type-options") == "nosniff");
  CHECK(r.header("referrer-policy") == "no-referrer");
}

}  // namespace

TEST_CASE("GET /api/games lists every game with its player counts and options schema") {
  TestServer ts([](casa::server::Config& c) { c.testing = false; });
  const Reply r = fetch(ts.port(), "/api/games");
  REQUIRE(r.status == 200);
  CHECK(r.header("content-type") == "application/json");
  check_security_headers(r);
  const json catalogue = json::parse(r.body);
  std::vector<std::string> names;
  for (const auto& g : catalogue["games"]) names.push_back(g["name"]);
  CHECK(names == test_game_names());
  for (const auto& g : catalogue["games"]) {
    if (g["name"] != "la-casa") continue;
    CHECK(g["title"] == "La Casa");
    CHECK(g["players"] == json::array({1, 2, 4}));
    CHECK(g["options"]["properties"].contains("election"));
    CHECK(g["options"]["properties"]["target"]["default"] == 12);
    CHECK_FALSE(g["options"]["properties"].contains("deck"));  // testing only
  }
  CHECK(catalogue["bots"] == json::array({"random", "robot", "strong"}));
  CHECK(catalogue["table"]["properties"]["disconnect_policy"]["properties"]["takeover"]["enum"] ==
        json::array({"robot", "strong", "none", "forfeit"}));
  // The same document for HEAD, without the body.
  const Reply head = fetch(ts.port(), "/api/games", {}, http::verb::head);
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(head.header("content-length") == std::to_string(r.body.size()));
}

TEST_CASE("a --testing server lists the testing options too") {
  TestServer ts;  // testing
  const json catalogue = get_json(ts.port(), "/api/games", 200);
  bool seen = false;
  for (const auto& g : catalogue["games"]) {
    if (g["name"] != "casino") continue;
    seen = true;
    CHECK(g["options"]["properties"]["deck"]["x-testing"] == true);
    CHECK(g["options"]["properties"]["deck"]["minItems"] == 52);
  }
  CHECK(seen);
  CHECK(catalogue["table"]["properties"].contains("seed"));
}

TEST_CASE("a finished game's replay answers at /api/tables/{table}/replay and /api/games/{table}") {
  TestServer ts;
  WsClient a(ts.port());
  REQUIRE(a.hello("ann")["type"] == "welcome");
  const json created = a.call({{"type", "create_table"}, {"game", "fake-trick"}, {"players", 2},
                               {"options", {{"hand", 2}}}});
  REQUIRE(created["type"] == "table_created");
  const std::string table = created["table"];
  get_json(ts.port(), "/api/tables/" + table + "/replay", 403);  // not over yet
  REQUIRE(a.call({{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"bot", "random"}})["type"] == "bot_added");
  play_out({&a}, table);
  const json replay = get_json(ts.port(), "/api/tables/" + table + "/replay", 200);
  CHECK(replay["table"] == table);
  CHECK(replay["log"].size() > 0);
  CHECK(replay == get_json(ts.port(), "/api/games/" + table, 200));
  get_json(ts.port(), "/api/tables/nosuchtable/replay", 404);
  get_json(ts.port(), "/api/tables/" + table, 404);
  get_json(ts.port(), "/api/tables/" + table + "/replay/x", 404);
  get_json(ts.port(), "/api/nothing", 404);
}

TEST_CASE("the web client: index for / and client routes, assets with long caching") {
  TempWeb tw;
  const fs::path& web = tw.web;
  TestServer ts([&](casa::server::Config& c) { web_server(c, web); });

  const Reply root = fetch(ts.port(), "/");
  REQUIRE(root.status == 200);
  CHECK(root.body == kIndex);
  CHECK(root.header("content-type") == "text/html; charset=utf-8");
  CHECK(root.header("cache-control") == "no-cache");
  CHECK_FALSE(root.header("etag").empty());
  check_security_headers(root);

  for (const char* route : {"/index.html", "/join/K7QX", "/replay/t123", "/table/t9", "/event/e12", "/join/K7QX?x=1", "/help", "/help/la-casa"}) {
    CAPTURE(route);
    const Reply r = fetch(ts.port(), route);
    CHECK(r.status == 200);
    CHECK(r.body == kIndex);
    CHECK(r.header("cache-control") == "no-cache");
  }

  const Reply app = fetch(ts.port(), "/assets/app-3f2a.js");
  REQUIRE(app.status == 200);
  CHECK(app.body == kApp);
  CHECK(app.header("content-type") == "text/javascript; charset=utf-8");
  CHECK(app.header("cache-control") == "public, max-age=31536000, immutable");
  CHECK(app.header("content-encoding").empty());
  CHECK(app.header("vary") == "Accept-Encoding");
  check_security_headers(app);

  const std::map<std::string, std::string> types = {
      {"/assets/style-91bc.css", "text/css; charset=utf-8"},
      {"/assets/font-77aa.woff2", "font/woff2"},
      {"/icon.svg", "image/svg+xml"},
      {"/manifest.webmanifest", "application/manifest+json"},
      {"/data.bin", "application/octet-stream"},
  };
  for (const auto& [path, type] : types) {
    CAPTURE(path);
    const Reply r = fetch(ts.port(), path);
    CHECK(r.status == 200);
    CHECK(r.header("content-type") == type);
    CHECK(r.header("cache-control") == (path.rfind("/assets/", 0) == 0 ? "public, max-age=31536000, immutable"
                                                                         : "no-cache"));
  }

  for (const char* missing : {"/missing.js", "/assets/missing.js", "/nope", "/assets/", "/.env",
                              "/assets/app-3f2a.js.gz", "/index.html.gz"}) {
    CAPTURE(missing);
    const Reply r = fetch(ts.port(), missing);
    CHECK(r.status == 404);
    CHECK(r.body.find("SECRET") == std::string::npos);
  }
}

TEST_CASE("precompressed forms go to clients that accept them; ETags answer 304") {
  TempWeb tw;
  const fs::path& web = tw.web;
  TestServer ts([&](casa::server::Config& c) { web_server(c, web); });
  const std::string path = "/assets/app-3f2a.js";

  const Reply gz = fetch(ts.port(), path, {{"Accept-Encoding", "gzip, deflate"}});
  CHECK(gz.body == kAppGz);
  CHECK(gz.header("content-encoding") == "gzip");
  CHECK(gz.header("content-type") == "text/javascript; charset=utf-8");
  CHECK(gz.header("vary") == "Accept-Encoding");

  const Reply br = fetch(ts.port(), path, {{"Accept-Encoding", "gzip, deflate, br"}});
  CHECK(br.body == kAppBr);
  CHECK(br.header("content-encoding") == "br");

  const Reply refused = fetch(ts.port(), path, {{"Accept-Encoding", "gzip;q=0, br;q=0.0"}});
  CHECK(refused.body == kApp);
  CHECK(refused.header("content-encoding").empty());

  const Reply weighted = fetch(ts.port(), path, {{"Accept-Encoding", "br;q=0, GZIP;q=0.5"}});
  CHECK(weighted.header("content-encoding") == "gzip");

  // Each form has its own tag; a matching If-None-Match gets 304 and no body.
  const Reply plain = fetch(ts.port(), path);
  CHECK(plain.header("etag") != gz.header("etag"));
  CHECK(gz.header("etag") != br.header("etag"));
  const Reply again = fetch(ts.port(), path, {{"If-None-Match", plain.header("etag")}});
  CHECK(again.status == 304);
  CHECK(again.body.empty());
  CHECK(again.header("etag") == plain.header("etag"));
  const Reply again_gz = fetch(ts.port(), path, {{"Accept-Encoding", "gzip"}, {"If-None-Match", "\"x\", " + gz.header("etag")}});
  CHECK(again_gz.status == 304);
  const Reply changed = fetch(ts.port(), path, {{"If-None-Match", "\"0000\""}});
  CHECK(changed.status == 200);
  CHECK(changed.body == kApp);
}

TEST_CASE("HEAD gives the headers of GET without the body; other methods get 405") {
  TempWeb tw;
  const fs::path& web = tw.web;
  TestServer ts([&](casa::server::Config& c) { web_server(c, web); });
  // On one connection: HEAD, then GET, then HEAD again: the framing holds.
  const auto replies = exchange(ts.port(), {request(http::verb::head, "/assets/app-3f2a.js"),
                                            request(http::verb::get, "/assets/app-3f2a.js"),
                                            request(http::verb::head, "/", {{"Accept-Encoding", "gzip"}}),
                                            request(http::verb::get, "/healthz")});
  REQUIRE(replies.size() == 4);
  CHECK(replies[0].status == 200);
  CHECK(replies[0].body.empty());
  CHECK(replies[0].header("content-length") == std::to_string(kApp.size()));
  CHECK(replies[0].header("content-type") == "text/javascript; charset=utf-8");
  CHECK(replies[1].body == kApp);
  CHECK(replies[2].status == 200);
  CHECK(replies[2].header("content-encoding") == "gzip");
  CHECK(replies[2].header("content-length") == std::to_string(std::string("gzipped index").size()));
  CHECK(json::parse(replies[3].body)["status"] == "ok");

  for (auto verb : {http::verb::post, http::verb::put, http::verb::delete_, http::verb::options, http::verb::patch}) {
    for (const char* target : {"/", "/assets/app-3f2a.js", "/api/games"}) {
      CAPTURE(target);
      const Reply r = fetch(ts.port(), target, {}, verb);
      CHECK(r.status == 405);
      CHECK(r.header("allow") == "GET, HEAD");
    }
  }
}

TEST_CASE("no request reaches a file outside the web directory") {
  TempWeb tw;
  const fs::path& base = tw.base;
  const fs::path& web = tw.web;
  TestServer ts([&](casa::server::Config& c) { web_server(c, web); });
  // The symlinked file inside the root is served; links out of it are not.
  CHECK(fetch(ts.port(), "/app.js").body == kApp);
  const std::vector<std::string> attempts = {
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/%2e%2e/secret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/..%5csecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/%2fetc/passwd",
      "//etc/passwd",
      "/etc/passwd",
      "/etc/hostname",
      "/leak.txt",
      "/assets/leak2.js",
      "/up/secret.txt",
      "/up/web/index.html",
      "/" + (base / "secret.txt").string(),
      "/secret.txt%00.js",
      "/%",
      "/%zz",
      "/./index.html/../../secret.txt",
      "/join/../../secret.txt",
  };
  for (const auto& target : attempts) {
    CAPTURE(target);
    const Reply r = fetch(ts.port(), target);
    CHECK((r.status == 404 || r.status == 400));
    CHECK(r.body.find("TOP SECRET") == std::string::npos);
    CHECK(r.body.find("root:") == std::string::npos);
  }
}

TEST_CASE("without a web client, / says so") {
  TestServer ts([](casa::server::Config& c) { c.web_dir = "off"; });
  for (const char* target : {"/", "/join/ABC", "/assets/app.js"}) {
    CAPTURE(target);
    const Reply r = fetch(ts.port(), target);
    CHECK(r.status == 404);
    CHECK(r.header("content-type") == "text/plain; charset=utf-8");
    CHECK(r.body.find("web client is not installed") != std::string::npos);
  }
  // The API still answers.
  CHECK(get_json(ts.port(), "/api/games", 200)["games"].size() == test_game_names().size());
}

TEST_CASE("a web directory given but missing stops the server from starting") {
  casa::server::Config c;
  c.port = 0;
  c.address = "127.0.0.1";
  const fs::path dir = temp_dir("web");
  c.db = casa::testing::test_db(dir);
  c.web_dir = (dir / "nowhere").string();
  {
    casa::server::Server server(c);
    CHECK_THROWS(server.start());
  }
  fs::remove_all(dir);
}

TEST_CASE("the default web directory is clients/web/dist under the working directory") {
  const fs::path base = temp_dir("cwd");
  casa::server::Config c;
  const fs::path before = fs::current_path();
  fs::current_path(base);
  CHECK(casa::server::find_web_dir(c).empty());  // nothing there yet (and none beside the test binary)
  fs::create_directories(base / "clients" / "web" / "dist");
  CHECK(fs::equivalent(casa::server::find_web_dir(c), base / "clients" / "web" / "dist"));
  c.web_dir = "off";
  CHECK(casa::server::find_web_dir(c).empty());
  c.web_dir = "/some/where";
  CHECK(casa::server::find_web_dir(c) == "/some/where");
  fs::current_path(before);
  fs::remove_all(base);
}

TEST_CASE("decode_path refuses malformed and dangerous escapes") {
  std::string out;
  CHECK(casa::server::decode_path("a%20b", out));
  CHECK(out == "a b");
  CHECK(casa::server::decode_path("%2e%2E", out));
  CHECK(out == "..");
  CHECK_FALSE(casa::server::decode_path("a%2fb", out));
  CHECK_FALSE(casa::server::decode_path("a%5Cb", out));
  CHECK_FALSE(casa::server::decode_path("a%00", out));
  CHECK_FALSE(casa::server::decode_path("a%2", out));
  CHECK_FALSE(casa::server::decode_path("a%g0", out));
}
