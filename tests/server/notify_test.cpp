// SPDX-License-Identifier: AGPL-3.0-or-later
// Notifications outside the page (docs/accounts.md, "Notifications"): webhooks
// delivered to a local HTTP receiver on loopback, once each and in order per
// webhook, retried after the receiver fails and then recovers, every one
// signed (the receiver checks the HMAC itself, with OpenSSL), none carrying
// more than the table, the game and the player; the player's /api/account/
// webhooks; the addresses a player's webhook may not reach.
#include <doctest/doctest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "server/lobby/lobby.h"
#include "server/lobby/notifier.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

namespace {

// A webhook receiver on 127.0.0.1: records every request; while `failing` is
// set, answers requests to /hook alternately 503 and by closing the
// connection without an answer.
class Receiver {
 public:
  struct Hit {
    std::string path;
    std::map<std::string, std::string> headers;
    std::string body;
    bool answered_ok = false;
  };
  std::atomic<bool> failing{false};

  Receiver() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { serve(); });
  }
  ~Receiver() {
    stop_ = true;
    boost::system::error_code ec;
    // Wakes the accept with a connection of its own.
    boost::asio::ip::tcp::socket poke(io_);
    poke.connect(acceptor_.local_endpoint(), ec);
    thread_.join();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port()) + path; }

  std::vector<Hit> hits() {
    std::lock_guard lock(mutex_);
    return hits_;
  }
  // Waits until `pred(hits)` holds (false after 20 s).
  bool wait(const std::function<bool(const std::vector<Hit>&)>& pred) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, 20s, [&] { return pred(hits_); });
  }

 private:
  void serve() {
    int failures = 0;
    while (!stop_) {
      boost::asio::ip::tcp::socket socket(io_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) continue;
      boost::beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(socket, buffer, req, ec);
      if (ec) continue;
      Hit hit;
      hit.path = std::string(req.target());
      for (const auto& field : req) hit.headers[std::string(field.name_string())] = std::string(field.value());
      hit.body = req.body();
      const bool fail = failing && hit.path == "/hook";
      if (fail && failures++ % 2 == 1) {
        record(hit);
        socket.close(ec);  // the receiver "crashes" mid-request
        continue;
      }
      hit.answered_ok = !fail;
      record(hit);
      http::response<http::string_body> res{fail ? http::status::service_unavailable : http::status::ok, 11};
      res.body() = fail ? "down" : "ok";
      res.prepare_payload();
      http::write(socket, res, ec);
      socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    }
  }
  void record(const Hit& hit) {
    {
      std::lock_guard lock(mutex_);
      hits_.push_back(hit);
    }
    cv_.notify_all();
  }

  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Hit> hits_;
};

// The receiver's own check of a delivery's signature (not the server's code).
bool signed_with(const Receiver::Hit& hit, const std::string& secret) {
  const auto ts = hit.headers.find("X-Casa-Timestamp");
  const auto sig = hit.headers.find("X-Casa-Signature");
  if (ts == hit.headers.end() || sig == hit.headers.end()) return false;
  const std::string message = ts->second + "." + hit.body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &n);
  static const char* hex = "0123456789abcdef";
  std::string expected = "sha256=";
  for (unsigned i = 0; i < n; ++i) {
    expected += hex[mac[i] >> 4];
    expected += hex[mac[i] & 15];
  }
  // Within five minutes of now, as docs/accounts.md tells receivers to check.
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  const long long at = std::stoll(ts->second);
  return sig->second == expected && at > now - 300 && at <= now + 5;
}

std::pair<int, json> call(unsigned short port, http::verb verb, const std::string& target, const std::string& token,
                          const json& body = nullptr) {
  auto [status, text] = http_call(port, verb, target, token, body.is_null() ? "" : body.dump());
  return {status, json::parse(text, nullptr, false)};
}

// Goes away from `table` (drops the connection) and waits until the server
// noticed: a spectator is told the seat is away.
void drop_and_wait(std::unique_ptr<WsClient>& player, WsClient& spectator, const std::string& table, int seat) {
  player.reset();
  const auto away = spectator.find(
      [&](const json& m) {
        return m["type"] == "table_update" && m["table"] == table &&
               m["seats"][static_cast<std::size_t>(seat)].value("away", false);
      },
      5s, [](const json&) { return false; });
  REQUIRE(away.has_value());
}

json webhook(unsigned short port, const std::string& token, const std::string& url, const std::string& format) {
  auto [status, body] = call(port, http::verb::post, "/api/account/webhooks", token, {{"url", url}, {"format", format}});
  CHECK_MESSAGE(status == 201, body.dump());
  return body;
}

}  // namespace

TEST_CASE("webhooks: your turn and game over reach an away player's webhooks once each, in order, signed, "
          "retried until the receiver recovers, with nothing hidden") {
  Receiver receiver;
  TestServer ts([](casa::server::Config& c) {
    c.webhook_allow_networks = {"127.0.0.0/8"};
    c.webhook_backoff_ms = 10;
    c.webhook_attempts = 50;
    c.public_url = "https://casa.example/";
  });
  auto ann = std::make_unique<WsClient>(ts.port());
  WsClient bob(ts.port());
  ann->hello("ann");
  bob.hello("bob");
  const std::string ann_id = ann->player_id;
  const std::string ann_token = ann->token();

  const json hook = webhook(ts.port(), ann_token, receiver.url("/hook"), "json");
  REQUIRE(hook["secret"].is_string());
  CHECK(hook["secret"].get<std::string>().size() == 64);
  const json topic = webhook(ts.port(), ann_token, receiver.url("/topic"), "ntfy");
  // Listed without their secrets; another player sees none of them.
  auto [listed_status, listed] = call(ts.port(), http::verb::get, "/api/account/webhooks", ann_token);
  CHECK(listed_status == 200);
  REQUIRE(listed["webhooks"].size() == 2);
  for (const auto& w : listed["webhooks"]) {
    CHECK_FALSE(w.contains("secret"));
    if (w["id"] == hook["id"]) CHECK(w["url"] == receiver.url("/hook"));
    else CHECK(w == json{{"id", topic["id"]}, {"url", receiver.url("/topic")}, {"format", "ntfy"}, {"created_at", topic["created_at"]}});
  }
  CHECK_FALSE(listed.dump().find(hook["secret"].get<std::string>()) != std::string::npos);
  CHECK(call(ts.port(), http::verb::get, "/api/account/webhooks", bob.token()).second["webhooks"].empty());

  receiver.failing = true;
  // Ann makes a table and goes away; Bob joins: it is Ann's turn (the bids are
  // simultaneous) while she has no connection.
  const std::string table = create(*ann, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 1}}},
                                          {"disconnect_policy", {{"grace_seconds", 60}, {"takeover", "none"}}}})["table"];
  WsClient cat(ts.port());
  cat.hello("cat");
  cat.call({{"type", "spectate"}, {"table", table}});
  drop_and_wait(ann, cat, table, 0);
  bob.call({{"type", "join"}, {"table", table}});
  auto request_of = [&](WsClient& c) {
    auto m = c.find([&](const json& x) { return x["type"] == "request" && x["table"] == table; }, 5s, {});
    REQUIRE(m.has_value());
    return *m;
  };
  auto act = [&](WsClient& c, const json& request) {
    CHECK(c.call({{"type", "action"}, {"table", table}, {"seq", request["seq"]}, {"action", request["legal"][0]}})["type"] ==
          "accepted");
  };
  act(bob, request_of(bob));
  // Ann comes back, bids and leads (no notification: she is connected), then goes again.
  auto ann2 = std::make_unique<WsClient>(ts.port());
  CHECK(ann2->hello("", ann_token)["resumed"] == true);
  act(*ann2, request_of(*ann2));
  act(*ann2, request_of(*ann2));
  const json bob_plays = request_of(bob);
  ann2.reset();
  REQUIRE(bob.find([&](const json& m) { return m["type"] == "table_update" && m["seats"][0].value("away", false); },
                   5s, {}).has_value());
  // Bob's card ends the game while Ann is away: she is told it is over.
  act(bob, bob_plays);
  REQUIRE(bob.find([&](const json& m) { return m["type"] == "game_over"; }, 5s, {}).has_value());

  // The ntfy webhook is not held up by the failing one: both its deliveries arrive.
  auto at = [](const std::vector<Receiver::Hit>& hits, const std::string& path) {
    std::vector<Receiver::Hit> out;
    for (const auto& h : hits) {
      if (h.path == path) out.push_back(h);
    }
    return out;
  };
  REQUIRE(receiver.wait([&](const auto& hits) { return at(hits, "/topic").size() >= 2; }));
  REQUIRE(receiver.wait([&](const auto& hits) { return at(hits, "/hook").size() >= 4; }));
  receiver.failing = false;
  REQUIRE(receiver.wait([&](const auto& hits) {
    int ok = 0;
    for (const auto& h : at(hits, "/hook")) ok += h.answered_ok;
    return ok >= 2;
  }));
  // A test delivery queued last: once it is in, nothing queued before it is left to come.
  auto [tested, test_body] = call(ts.port(), http::verb::post,
                                  "/api/account/webhooks/" + hook["id"].get<std::string>() + "/test", ann_token);
  CHECK(tested == 202);
  REQUIRE(receiver.wait([&](const auto& hits) {
    for (const auto& h : at(hits, "/hook")) {
      if (h.answered_ok && h.headers.at("X-Casa-Event") == "test") return true;
    }
    return false;
  }));

  const auto hook_hits = at(receiver.hits(), "/hook");
  std::vector<std::string> kinds, ids;
  int failed = 0;
  for (const auto& h : hook_hits) {
    CAPTURE(h.body);
    CHECK(signed_with(h, hook["secret"]));
    CHECK_FALSE(signed_with(h, topic["secret"]));
    CHECK(h.headers.at("Content-Type") == "application/json");
    const json body = json::parse(h.body);
    CHECK(body["id"] == h.headers.at("X-Casa-Delivery"));
    CHECK(body["kind"] == h.headers.at("X-Casa-Event"));
    if (!h.answered_ok) {
      ++failed;
      // Until the first delivery got through, nothing after it was tried.
      CHECK(body["kind"] == "your_turn");
      continue;
    }
    kinds.push_back(body["kind"]);
    ids.push_back(body["id"]);
    if (body["kind"] == "test") continue;
    // Exactly these fields: the table, the game, the player, a link. No card.
    std::set<std::string> keys;
    for (const auto& [k, v] : body.items()) keys.insert(k);
    CHECK(keys == std::set<std::string>{"id", "kind", "time", "player", "table", "game", "url"});
    CHECK(body["table"] == table);
    CHECK(body["game"] == "fake-trick");
    CHECK(body["url"] == "https://casa.example/table/" + table);
    CHECK(body["player"] == json{{"id", ann_id}, {"name", "ann"}});
  }
  CHECK(failed >= 4);
  CHECK(kinds == std::vector<std::string>{"your_turn", "game_over", "test"});
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 3);

  const auto topic_hits = at(receiver.hits(), "/topic");
  REQUIRE(topic_hits.size() == 2);
  CHECK(topic_hits[0].headers.at("Title") == "Your turn");
  CHECK(topic_hits[0].headers.at("Tags") == "game_die");
  CHECK(topic_hits[1].headers.at("Title") == "Game over");
  for (const auto& h : topic_hits) {
    CHECK(signed_with(h, topic["secret"]));
    CHECK(h.headers.at("Click") == "https://casa.example/table/" + table);
    CHECK(h.body.find(table) != std::string::npos);
    CHECK(h.body.find("fake-trick") != std::string::npos);
  }
  CHECK(topic_hits[0].body == "It is your turn at fake-trick (table " + table + ").");
  // The notifier counts a delivery once it read the answer the receiver recorded.
  auto stats = ts.server->lobby().notifier().stats();
  for (int i = 0; i < 400 && stats.delivered < 5; ++i) {
    std::this_thread::sleep_for(10ms);
    stats = ts.server->lobby().notifier().stats();
  }
  CHECK(stats.delivered == 5);
  CHECK(stats.given_up == 0);
  CHECK(stats.dropped == 0);
}

TEST_CASE("webhooks: only for the token's player, only to public addresses; the operator's get everything") {
  Receiver receiver;
  TestServer ts([&](casa::server::Config& c) {
    c.webhooks = {"json:" + receiver.url("/op")};
    c.webhook_secret = "operator-secret";
    c.max_webhooks_per_player = 2;
    c.webhook_backoff_ms = 10;
    c.webhook_attempts = 3;
  });
  auto ann = std::make_unique<WsClient>(ts.port());
  WsClient bob(ts.port());
  ann->hello("ann");
  bob.hello("bob");
  const std::string token = ann->token();
  const std::string path = "/api/account/webhooks";

  CHECK(call(ts.port(), http::verb::get, path, "").first == 401);
  CHECK(call(ts.port(), http::verb::get, path, std::string(64, 'a')).first == 401);
  CHECK(call(ts.port(), http::verb::put, path, token).first == 405);
  for (const std::string& url : {receiver.url("/hook"), std::string("http://[::1]:8080/"), std::string("http://10.1.2.3/"),
                                std::string("http://169.254.169.254/latest/meta-data"), std::string("http://0.0.0.0/"),
                                std::string("http://[::ffff:127.0.0.1]/"), std::string("ftp://example.com/"),
                                std::string("http://user:pw@example.com/"), std::string("http://exa mple.com/"),
                                std::string("http:///x"), std::string("http://example.com:99999/")}) {
    CAPTURE(url);
    auto [status, body] = call(ts.port(), http::verb::post, path, token, {{"url", url}});
    CHECK(status == 400);
    CHECK(body["error"] == "bad_webhook");
  }
  CHECK(call(ts.port(), http::verb::post, path, token, {{"url", "https://example.com/"}, {"format", "xml"}}).first == 400);
  CHECK(call(ts.port(), http::verb::post, path, token, json::array()).first == 400);
  CHECK(call(ts.port(), http::verb::get, path, token).second["webhooks"].empty());

  // A name is looked up at delivery: "localhost" is loopback, not reached.
  const json named = webhook(ts.port(), token, "http://localhost:" + std::to_string(receiver.port()) + "/named", "json");
  webhook(ts.port(), token, "http://localhost:" + std::to_string(receiver.port()) + "/second", "ntfy");
  auto [full, full_body] = call(ts.port(), http::verb::post, path, token, {{"url", "https://example.org/"}});
  CHECK(full == 403);
  CHECK(full_body["error"] == "too_many_webhooks");
  CHECK(call(ts.port(), http::verb::post, path + "/" + named["id"].get<std::string>() + "/test", token).first == 202);
  auto& notifier = ts.server->lobby().notifier();
  bool refused = false;
  for (int i = 0; i < 400 && !refused; ++i) {
    refused = notifier.stats().given_up >= 1;
    if (!refused) std::this_thread::sleep_for(25ms);
  }
  CHECK(refused);

  // Bob can neither see nor delete nor test Ann's webhooks.
  const std::string named_path = path + "/" + named["id"].get<std::string>();
  CHECK(call(ts.port(), http::verb::delete_, named_path, bob.token()).first == 404);
  CHECK(call(ts.port(), http::verb::post, named_path + "/test", bob.token()).first == 404);
  CHECK(call(ts.port(), http::verb::get, path, token).second["webhooks"].size() == 2);
  CHECK(call(ts.port(), http::verb::delete_, named_path, token).first == 200);
  CHECK(call(ts.port(), http::verb::get, path, token).second["webhooks"].size() == 1);

  // The operator's webhook (trusted: loopback is fine) hears of every player's turn.
  const std::string table = create(*ann, {{"game", "fake-trick"}, {"players", 2}, {"options", {{"hand", 1}}},
                                          {"disconnect_policy", {{"grace_seconds", 60}, {"takeover", "none"}}}})["table"];
  const std::string ann_id = ann->player_id;
  WsClient cat(ts.port());
  cat.hello("cat");
  cat.call({{"type", "spectate"}, {"table", table}});
  drop_and_wait(ann, cat, table, 0);
  bob.call({{"type", "join"}, {"table", table}});
  REQUIRE(receiver.wait([](const auto& hits) { return !hits.empty(); }));
  const auto hits = receiver.hits();
  for (const auto& h : hits) CHECK(h.path == "/op");  // never /named nor /second
  const json body = json::parse(hits[0].body);
  CHECK(signed_with(hits[0], "operator-secret"));
  CHECK(body["kind"] == "your_turn");
  CHECK(body["player"]["id"] == ann_id);
  CHECK(body["url"] == "/table/" + table);
}

TEST_CASE("webhooks: which addresses a player's webhook may reach, and how URLs are read") {
  using casa::server::parse_network;
  using casa::server::webhook_address_allowed;
  auto ip = [](const char* s) { return boost::asio::ip::make_address(s); };
  const std::vector<casa::server::Network> none;
  for (const char* denied : {"127.0.0.1", "127.9.9.9", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1",
                             "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::",
                             "::ffff:127.0.0.1", "::ffff:10.0.0.1", "fe80::1", "fd00::1", "64:ff9b::a00:1", "2002:a00:1::1"}) {
    CAPTURE(denied);
    CHECK_FALSE(webhook_address_allowed(ip(denied), none));
  }
  for (const char* open : {"8.8.8.8", "172.32.0.1", "1.1.1.1", "::ffff:8.8.8.8", "2606:4700::1111"}) {
    CAPTURE(open);
    CHECK(webhook_address_allowed(ip(open), none));
  }
  const std::vector<casa::server::Network> loopback = {*parse_network("127.0.0.0/8"), *parse_network("::1")};
  CHECK(webhook_address_allowed(ip("127.0.0.1"), loopback));
  CHECK(webhook_address_allowed(ip("::ffff:127.0.0.2"), loopback));
  CHECK(webhook_address_allowed(ip("::1"), loopback));
  CHECK_FALSE(webhook_address_allowed(ip("10.0.0.1"), loopback));
  CHECK_FALSE(parse_network("10.0.0.0/33"));
  CHECK_FALSE(parse_network("ten/8"));

  casa::server::WebhookUrl u;
  REQUIRE_FALSE(casa::server::parse_webhook_url("https://ntfy.example:8443/casa?x=1#frag", u));
  CHECK(u.tls);
  CHECK(u.host == "ntfy.example");
  CHECK(u.port == "8443");
  CHECK(u.target == "/casa?x=1");
  REQUIRE_FALSE(casa::server::parse_webhook_url("http://[2001:db8::1]/", u));
  CHECK(u.host == "2001:db8::1");
  CHECK(u.port == "80");
  REQUIRE_FALSE(casa::server::parse_webhook_url("http://example.com", u));
  CHECK(u.target == "/");
  CHECK(casa::server::parse_webhook_url("javascript:alert(1)", u));
  CHECK(casa::server::parse_webhook_url("http://example.com:0/", u));
  CHECK(casa::server::parse_webhook_url("http://exa\nmple.com/", u));
}

TEST_CASE("webhooks: an operator webhook without a secret, or a bad network, stops the server from starting") {
  const auto dir = temp_dir("hooks");
  casa::server::Config c;
  c.db = test_db(dir);
  c.port = 0;
  c.address = "127.0.0.1";
  c.web_dir = "off";
  c.webhooks = {"json:https://hooks.example/casa"};
  CHECK_THROWS(casa::server::Server(c, &create_test_game, test_game_names()).start());
  c.webhook_secret = "s";
  c.webhooks = {"xml:https://hooks.example/casa"};
  CHECK_THROWS(casa::server::Server(c, &create_test_game, test_game_names()).start());
  c.webhooks = {};
  c.webhook_allow_networks = {"everything"};
  CHECK_THROWS(casa::server::Server(c, &create_test_game, test_game_names()).start());
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("webhooks: a friend invited while away on every device hears of it, not while online") {
  Receiver receiver;
  TestServer ts([&](casa::server::Config& c) {
    c.webhooks = {"json:" + receiver.url("/op")};
    c.webhook_secret = "operator-secret";
    c.webhook_backoff_ms = 10;
  });
  WsClient anna(ts.port());
  auto bert = std::make_unique<WsClient>(ts.port());
  REQUIRE(anna.hello("Anna")["type"] == "welcome");
  REQUIRE(bert->hello("Bert")["type"] == "welcome");
  const std::string bert_id = bert->player_id;
  for (const auto& [token, handle] : {std::pair{anna.token(), "Anna"}, std::pair{bert->token(), "Bert"}}) {
    auto [status, body] = call(ts.port(), http::verb::post, "/api/account/claim", token,
                               {{"handle", handle}, {"password", "correct horse"}});
    REQUIRE_MESSAGE(status == 200, body.dump());
  }
  REQUIRE(call(ts.port(), http::verb::post, "/api/account/friends", anna.token(), {{"handle", "Bert"}}).first == 200);
  REQUIRE(call(ts.port(), http::verb::post, "/api/account/friends", bert->token(), {{"handle", "Anna"}}).first == 200);
  const std::string anna_token = anna.token();
  auto invitations_in = [](const std::vector<Receiver::Hit>& hits) {
    std::vector<json> out;
    for (const auto& h : hits) {
      const json body = json::parse(h.body, nullptr, false);
      if (body.is_object() && body.value("kind", "") == "invitation") out.push_back(body);
    }
    return out;
  };

  // Online: the page shows the invitation, no webhook.
  const std::string first = create(anna, {{"game", "fake-trick"}, {"players", 2}, {"private", true}})["table"];
  const json online = anna.call({{"type", "invite_friend"}, {"table", first}, {"handle", "Bert"}});
  REQUIRE_MESSAGE(online["type"] == "friend_invited", online.dump());
  CHECK(online["online"] == true);

  // Away on every device: the webhook tells Bert.
  bert.reset();
  bool offline = false;
  for (int i = 0; i < 100 && !offline; ++i) {
    auto [status, list] = call(ts.port(), http::verb::get, "/api/account/friends", anna_token);
    REQUIRE(status == 200);
    for (const auto& f : list["friends"])
      if (f["handle"] == "Bert" && f.value("online", true) == false) offline = true;
    if (!offline) std::this_thread::sleep_for(50ms);
  }
  REQUIRE(offline);
  const std::string second = create(anna, {{"game", "fake-trick"}, {"players", 2}, {"private", true}})["table"];
  const json away = anna.call({{"type", "invite_friend"}, {"table", second}, {"handle", "Bert"}});
  REQUIRE_MESSAGE(away["type"] == "friend_invited", away.dump());
  CHECK(away["online"] == false);
  REQUIRE(receiver.wait([&](const std::vector<Receiver::Hit>& hits) { return !invitations_in(hits).empty(); }));

  const auto told = invitations_in(receiver.hits());
  REQUIRE(told.size() == 1);  // the first, while online, told no one outside the page
  const json& body = told[0];
  CHECK(body["table"] == second);
  CHECK(body["game"] == "fake-trick");
  CHECK(body["player"]["id"] == bert_id);
  // Who invites, and nothing that lets anyone else in: no invite code.
  std::set<std::string> keys;
  for (const auto& [k, v] : body.items()) keys.insert(k);
  CHECK(keys == std::set<std::string>{"id", "kind", "time", "player", "table", "game", "url", "from"});
  CHECK(body["from"] == "Anna");
  for (const auto& h : receiver.hits()) CHECK(signed_with(h, "operator-secret"));
}
