// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/lobby/notifier.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>

#include "protocol/crypto.h"
#include "server/store/webhook_rows.h"
#include "versioninfo/version.h"

namespace casa::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using asio::ip::tcp;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxUrl = 2000;
constexpr auto kMaxBackoff = std::chrono::hours(1);

bool valid_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> b(bytes);
  random_bytes(b.data(), b.size());
  return to_hex(b.data(), b.size());
}

// What a notification says, in words (the ntfy format's title and text).
struct Words {
  const char* title;
  const char* tags;
  std::string text;
};

Words words_of(const json& payload) {
  const std::string kind = payload.value("kind", "");
  const std::string game = payload.value("game", "");
  const std::string table = payload.value("table", "");
  if (kind == "your_turn") return {"Your turn", "game_die", "It is your turn at " + game + " (table " + table + ")."};
  if (kind == "game_over") return {"Game over", "checkered_flag", "Your game of " + game + " (table " + table + ") is over."};
  if (kind == "invitation") {
    return {"Invitation", "envelope", payload.value("from", "A friend") + " invites you to " + game + " (table " + table + ")."};
  }
  return {"Test", "white_check_mark", "A test notification from casa-server."};
}

}  // namespace

std::optional<std::string> parse_webhook_url(const std::string& url, WebhookUrl& out) {
  if (url.size() > kMaxUrl) return "The URL is longer than 2000 characters.";
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      return "The URL may hold no spaces, control or non-ASCII characters (percent-encode them).";
    }
  }
  std::string rest;
  if (url.rfind("https://", 0) == 0) {
    out.tls = true;
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    out.tls = false;
    rest = url.substr(7);
  } else {
    return "The URL must start with http:// or https://.";
  }
  const auto slash = rest.find_first_of("/?#");
  std::string authority = rest.substr(0, slash);
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (!out.target.empty() && out.target[0] != '/') out.target = "/" + out.target;
  if (auto hash = out.target.find('#'); hash != std::string::npos) out.target.resize(hash);
  if (authority.find('@') != std::string::npos) return "The URL may not carry a user name or password.";
  out.port = out.tls ? "443" : "80";
  if (!authority.empty() && authority[0] == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return "The URL's IPv6 address lacks its ']'.";
    out.host = authority.substr(1, close - 1);
    authority = authority.substr(close + 1);
    boost::system::error_code ec;
    asio::ip::make_address_v6(out.host, ec);
    if (ec) return "The URL's IPv6 address is not one.";
    if (!authority.empty()) {
      if (authority[0] != ':') return "The URL's host is not followed by a port.";
      out.port = authority.substr(1);
    }
  } else {
    const auto colon = authority.find(':');
    out.host = authority.substr(0, colon);
    if (colon != std::string::npos) out.port = authority.substr(colon + 1);
    if (!std::all_of(out.host.begin(), out.host.end(), valid_host_char)) return "The URL's host is not a name.";
  }
  if (out.host.empty()) return "The URL has no host.";
  if (out.port.empty() || out.port.size() > 5 || !std::all_of(out.port.begin(), out.port.end(), ::isdigit) ||
      std::stoi(out.port) < 1 || std::stoi(out.port) > 65535) {
    return "The URL's port is not a number from 1 to 65535.";
  }
  return std::nullopt;
}

std::optional<Network> parse_network(const std::string& cidr) {
  const auto slash = cidr.find('/');
  boost::system::error_code ec;
  Network n;
  n.address = asio::ip::make_address(cidr.substr(0, slash), ec);
  if (ec) return std::nullopt;
  const int max = n.address.is_v4() ? 32 : 128;
  n.prefix = max;
  if (slash != std::string::npos) {
    const std::string p = cidr.substr(slash + 1);
    if (p.empty() || p.size() > 3 || !std::all_of(p.begin(), p.end(), ::isdigit)) return std::nullopt;
    n.prefix = std::stoi(p);
    if (n.prefix > max) return std::nullopt;
  }
  return n;
}

namespace {
// An IPv4 address mapped into IPv6 (::ffff:a.b.c.d) as the IPv4 address it is.
asio::ip::address unmapped(const asio::ip::address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) return asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  return a;
}
}  // namespace

bool in_network(const asio::ip::address& given, const Network& n) {
  const auto a = unmapped(given);
  if (a.is_v4() != n.address.is_v4()) return false;
  std::vector<unsigned char> x, y;
  if (a.is_v4()) {
    const auto bx = a.to_v4().to_bytes();
    const auto by = n.address.to_v4().to_bytes();
    x.assign(bx.begin(), bx.end());
    y.assign(by.begin(), by.end());
  } else {
    const auto bx = a.to_v6().to_bytes();
    const auto by = n.address.to_v6().to_bytes();
    x.assign(bx.begin(), bx.end());
    y.assign(by.begin(), by.end());
  }
  int bits = n.prefix;
  for (std::size_t i = 0; i < x.size() && bits > 0; ++i, bits -= 8) {
    const unsigned mask = bits >= 8 ? 0xffu : (0xffu << (8 - bits)) & 0xffu;
    if ((x[i] & mask) != (y[i] & mask)) return false;
  }
  return true;
}

bool webhook_address_allowed(const asio::ip::address& given, const std::vector<Network>& allowed) {
  const auto a = unmapped(given);
  for (const auto& n : allowed) {
    if (in_network(a, n)) return true;
  }
  // Not public: this host, private and shared networks, link-local (cloud
  // metadata services), multicast, reserved, documentation and benchmark
  // ranges, and the IPv6 prefixes that lead to IPv4 (NAT64, 6to4, Teredo).
  static const std::vector<Network> kNotPublic = [] {
    std::vector<Network> out;
    for (const char* c : {"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
                          "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
                          "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3", "::/128", "::1/128",
                          "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32",
                          "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8"}) {
      out.push_back(*parse_network(c));
    }
    return out;
  }();
  for (const auto& n : kNotPublic) {
    if (in_network(a, n)) return false;
  }
  return true;
}

std::string webhook_signature(const std::string& secret, const std::string& timestamp, const std::string& body) {
  const std::string message = timestamp + "." + body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &length)) {
    throw std::runtime_error("HMAC-SHA256 is not available");
  }
  return "sha256=" + to_hex(mac, length);
}

struct Notifier::Receiver {
  std::string key;  // the webhook's id, or "operator-N"
  std::string player_id;  // empty for the operator's
  std::string url;
  std::string format;
  std::string secret;
  WebhookUrl parsed;
  bool guarded = true;  // a player's: only allowed addresses
};

struct Notifier::Delivery {
  std::string id;
  std::string kind;
  json payload;
  int attempts = 0;
};

struct Notifier::Queue {
  Receiver receiver;
  std::deque<Delivery> pending;
  bool running = false;
  bool forgotten = false;  // the webhook was deleted: its deliveries go no more
};

namespace {

enum class Outcome { delivered, retry, refused };

// One attempt: connect (to an allowed address), send, read the status.
// `why` says what went wrong.
template <class Stream>
asio::awaitable<Outcome> exchange(Stream& stream, beast::tcp_stream& tcp, http::request<http::string_body>& req,
                                  std::chrono::seconds timeout, std::string& why) {
  tcp.expires_after(timeout);
  co_await http::async_write(stream, req, asio::use_awaitable);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024);
  tcp.expires_after(timeout);
  co_await http::async_read(stream, buffer, parser, asio::use_awaitable);
  const unsigned status = parser.get().result_int();
  why = "HTTP " + std::to_string(status);
  if (status >= 200 && status < 300) co_return Outcome::delivered;
  // Busy or failing receivers are tried again; any other answer (404, 410,
  // 400...) will not change by itself.
  if (status >= 500 || status == 408 || status == 429) co_return Outcome::retry;
  co_return Outcome::refused;
}

}  // namespace

Notifier::Notifier(const Config& config, Store& store, std::function<std::string(const std::string&)> name_of)
    : config_(config), store_(store), name_of_(std::move(name_of)) {
  for (const auto& cidr : config_.webhook_allow_networks) {
    auto n = parse_network(cidr);
    if (!n) throw std::runtime_error("webhook-allow-networks: not a network: " + cidr);
    allowed_.push_back(*n);
  }
  int i = 0;
  for (const auto& entry : config_.webhooks) {
    const auto colon = entry.find(':');
    Receiver r;
    r.key = "operator-" + std::to_string(i++);
    r.format = entry.substr(0, colon);
    r.url = colon == std::string::npos ? "" : entry.substr(colon + 1);
    r.secret = config_.webhook_secret;
    r.guarded = false;
    if (r.format != "json" && r.format != "ntfy") {
      throw std::runtime_error("webhooks: '" + entry + "' is not json:URL or ntfy:URL");
    }
    if (auto bad = parse_webhook_url(r.url, r.parsed)) throw std::runtime_error("webhooks: " + r.url + ": " + *bad);
    if (config_.webhook_secret.empty()) throw std::runtime_error("webhooks need a webhook-secret to sign with");
    operator_receivers_.push_back(std::move(r));
  }
  thread_ = std::thread([this] {
    auto guard = asio::make_work_guard(io_);
    while (!stopping_) {
      try {
        io_.run();
        break;
      } catch (const std::exception& e) {
        spdlog::error("notifications: {}", e.what());
      }
    }
  });
}

Notifier::~Notifier() { stop(); }

void Notifier::stop() {
  if (stopping_.exchange(true)) return;
  io_.stop();
  thread_.join();
}

Notifier::Stats Notifier::stats() const { return {delivered_.load(), failed_.load(), given_up_.load(), dropped_.load()}; }

void Notifier::notify(const std::string& player_id, const std::string& kind, json about) {
  asio::post(io_, [this, player_id, kind, about = std::move(about)] { dispatch(player_id, kind, about); });
}

void Notifier::dispatch(const std::string& player_id, const std::string& kind, const json& about,
                        const std::string& only_webhook) {
  // Only what a notification may name: no field of the caller's goes on unseen.
  json payload = {{"kind", kind}, {"time", unix_now()}};
  std::string name;
  try {
    name = name_of_(player_id);
  } catch (const std::exception&) {
  }
  payload["player"] = {{"id", player_id}, {"name", name}};
  for (const char* key : {"table", "game", "from"}) {
    if (about.contains(key) && about[key].is_string()) payload[key] = about[key];
  }
  if (payload.contains("table")) {
    std::string base = config_.public_url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    payload["url"] = base + "/table/" + payload["table"].get<std::string>();
  }
  std::vector<webhook_rows::Webhook> hooks;
  try {
    store_.read([&](Db& db) { hooks = webhook_rows::of_player(db, player_id); });
  } catch (const std::exception& e) {
    spdlog::warn("notifications: the webhooks of {} could not be read: {}", player_id, e.what());
  }
  for (const auto& hook : hooks) {
    if (!only_webhook.empty() && hook.id != only_webhook) continue;
    Receiver r;
    r.key = hook.id;
    r.player_id = hook.player_id;
    r.url = hook.url;
    r.format = hook.format;
    r.secret = hook.secret;
    if (parse_webhook_url(r.url, r.parsed)) continue;
    enqueue(r, Delivery{random_hex(16), kind, payload, 0});
  }
  if (only_webhook.empty()) {
    for (const auto& r : operator_receivers_) enqueue(r, Delivery{random_hex(16), kind, payload, 0});
  }
}

void Notifier::enqueue(const Receiver& receiver, Delivery delivery) {
  auto& queue = queues_[receiver.key];
  if (!queue) queue = std::make_shared<Queue>();
  queue->receiver = receiver;
  queue->forgotten = false;
  if (static_cast<int>(queue->pending.size()) >= std::max(1, config_.webhook_queue)) {
    ++dropped_;
    spdlog::warn("notifications: webhook {} has {} deliveries waiting; a {} is dropped", receiver.key,
                 queue->pending.size(), delivery.kind);
    return;
  }
  delivery.payload["id"] = delivery.id;
  queue->pending.push_back(std::move(delivery));
  if (!queue->running) {
    queue->running = true;
    run(queue);
  }
}

void Notifier::run(std::shared_ptr<Queue> queue) {
  asio::co_spawn(
      io_,
      [this, queue]() -> asio::awaitable<void> {
        auto executor = co_await asio::this_coro::executor;
        const auto timeout = std::chrono::seconds(std::max(1, config_.webhook_timeout_seconds));
        while (!queue->pending.empty() && !stopping_) {
          if (queue->forgotten) {
            queue->pending.clear();
            break;
          }
          Delivery& d = queue->pending.front();
          const Receiver& r = queue->receiver;
          const std::string timestamp = std::to_string(unix_now());
          http::request<http::string_body> req{http::verb::post, r.parsed.target, 11};
          const bool default_port = r.parsed.port == (r.parsed.tls ? "443" : "80");
          const std::string host = r.parsed.host.find(':') != std::string::npos ? "[" + r.parsed.host + "]" : r.parsed.host;
          req.set(http::field::host, default_port ? host : host + ":" + r.parsed.port);
          req.set(http::field::user_agent, std::string("casa-server/") + casa::version());
          req.set(http::field::connection, "close");
          req.set("X-Casa-Delivery", d.id);
          req.set("X-Casa-Event", d.kind);
          req.set("X-Casa-Timestamp", timestamp);
          if (r.format == "ntfy") {
            const Words w = words_of(d.payload);
            req.set(http::field::content_type, "text/plain; charset=utf-8");
            req.set("Title", w.title);
            req.set("Tags", w.tags);
            const std::string url = d.payload.value("url", "");
            if (url.rfind("http", 0) == 0) req.set("Click", url);
            req.body() = w.text;
          } else {
            req.set(http::field::content_type, "application/json");
            req.body() = d.payload.dump();
          }
          req.set("X-Casa-Signature", webhook_signature(r.secret, timestamp, req.body()));
          req.prepare_payload();

          Outcome outcome = Outcome::retry;
          std::string why;
          try {
            tcp::resolver resolver(executor);
            const auto found = co_await resolver.async_resolve(r.parsed.host, r.parsed.port, asio::use_awaitable);
            std::vector<tcp::endpoint> endpoints;
            for (const auto& e : found) {
              if (!r.guarded || webhook_address_allowed(e.endpoint().address(), allowed_)) {
                endpoints.push_back(e.endpoint());
              }
            }
            if (endpoints.empty()) {
              outcome = Outcome::refused;
              why = r.parsed.host + " has no address a player's webhook may reach (webhook-allow-networks)";
            } else if (r.parsed.tls) {
              ssl::context tls(ssl::context::tls_client);
              tls.set_verify_mode(ssl::verify_peer);
              if (config_.webhook_ca_file.empty()) {
                tls.set_default_verify_paths();
              } else {
                tls.load_verify_file(config_.webhook_ca_file);
              }
              beast::ssl_stream<beast::tcp_stream> stream(executor, tls);
              if (!SSL_set_tlsext_host_name(stream.native_handle(), r.parsed.host.c_str())) {
                throw std::runtime_error("SNI refused");
              }
              stream.set_verify_callback(ssl::host_name_verification(r.parsed.host));
              beast::get_lowest_layer(stream).expires_after(timeout);
              co_await beast::get_lowest_layer(stream).async_connect(endpoints, asio::use_awaitable);
              beast::get_lowest_layer(stream).expires_after(timeout);
              co_await stream.async_handshake(ssl::stream_base::client, asio::use_awaitable);
              outcome = co_await exchange(stream, beast::get_lowest_layer(stream), req, timeout, why);
            } else {
              beast::tcp_stream stream(executor);
              stream.expires_after(timeout);
              co_await stream.async_connect(endpoints, asio::use_awaitable);
              outcome = co_await exchange(stream, stream, req, timeout, why);
            }
          } catch (const std::exception& e) {
            why = e.what();
            outcome = Outcome::retry;
          }
          if (stopping_) co_return;
          if (outcome == Outcome::delivered) {
            ++delivered_;
            spdlog::debug("notifications: {} {} delivered to webhook {}", d.kind, d.id, r.key);
            queue->pending.pop_front();
            continue;
          }
          ++failed_;
          ++d.attempts;
          if (outcome == Outcome::refused || d.attempts >= std::max(1, config_.webhook_attempts)) {
            ++given_up_;
            spdlog::warn("notifications: {} {} to webhook {} given up after {} attempt(s): {}", d.kind, d.id, r.key,
                         d.attempts, why);
            queue->pending.pop_front();
            continue;
          }
          auto delay = std::chrono::milliseconds(std::max(1, config_.webhook_backoff_ms));
          for (int i = 1; i < d.attempts && delay < kMaxBackoff; ++i) delay *= 2;
          delay = std::min<std::chrono::milliseconds>(delay, kMaxBackoff);
          spdlog::info("notifications: {} {} to webhook {} failed ({}); again in {} ms", d.kind, d.id, r.key, why,
                       delay.count());
          asio::steady_timer timer(executor, delay);
          co_await timer.async_wait(asio::use_awaitable);
        }
        queue->running = false;
      },
      asio::detached);
}

namespace {
json webhook_json(const webhook_rows::Webhook& h) {
  return {{"id", h.id}, {"url", h.url}, {"format", h.format}, {"created_at", h.created_at}};
}
}  // namespace

json Notifier::list(const std::string& player_id, int& status) {
  std::vector<webhook_rows::Webhook> hooks;
  store_.read([&](Db& db) { hooks = webhook_rows::of_player(db, player_id); });
  json out = json::array();
  for (const auto& h : hooks) out.push_back(webhook_json(h));
  status = 200;
  return {{"webhooks", out}, {"max", config_.max_webhooks_per_player}};
}

json Notifier::create(const std::string& player_id, const json& request, int& status) {
  auto bad = [&](const std::string& message) {
    status = 400;
    return json{{"error", "bad_webhook"}, {"message", message}};
  };
  if (config_.max_webhooks_per_player <= 0) {
    status = 403;
    return {{"error", "webhooks_disabled"}, {"message", "This server takes no webhooks from players."}};
  }
  if (!request.is_object() || !request.contains("url") || !request["url"].is_string()) {
    return bad("Send a JSON object with a url and a format (json or ntfy).");
  }
  const std::string url = request["url"];
  const std::string format = request.value("format", "json");
  if (format != "json" && format != "ntfy") return bad("The format is json or ntfy.");
  WebhookUrl parsed;
  if (auto why = parse_webhook_url(url, parsed)) return bad(*why);
  boost::system::error_code ec;
  const auto literal = asio::ip::make_address(parsed.host, ec);
  if (!ec && !webhook_address_allowed(literal, allowed_)) {
    return bad("The URL's address is not a public one; this server posts to it only if its operator allows it.");
  }
  std::vector<webhook_rows::Webhook> hooks;
  store_.read([&](Db& db) { hooks = webhook_rows::of_player(db, player_id); });
  if (static_cast<int>(hooks.size()) >= config_.max_webhooks_per_player) {
    status = 403;
    return {{"error", "too_many_webhooks"},
            {"message", "A player may have " + std::to_string(config_.max_webhooks_per_player) + " webhooks here."}};
  }
  webhook_rows::Webhook hook{random_hex(12), player_id, url, format, random_token(), unix_now()};
  auto done = std::make_shared<std::promise<bool>>();
  auto stored = done->get_future();
  store_.write([hook](Db& db) { webhook_rows::insert(db, hook); }, [done](bool ok) { done->set_value(ok); });
  if (!stored.get()) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  status = 201;
  json out = webhook_json(hook);
  out["secret"] = hook.secret;
  return out;
}

json Notifier::remove(const std::string& player_id, const std::string& id, int& status) {
  std::vector<webhook_rows::Webhook> hooks;
  store_.read([&](Db& db) { hooks = webhook_rows::of_player(db, player_id); });
  if (std::none_of(hooks.begin(), hooks.end(), [&](const auto& h) { return h.id == id; })) {
    status = 404;
    return {{"error", "not_found"}};
  }
  auto done = std::make_shared<std::promise<bool>>();
  auto stored = done->get_future();
  store_.write([player_id, id](Db& db) { webhook_rows::remove(db, player_id, id); },
               [done](bool ok) { done->set_value(ok); });
  if (!stored.get()) {
    status = 503;
    return {{"error", "storage_unavailable"}};
  }
  asio::post(io_, [this, id] {
    if (auto it = queues_.find(id); it != queues_.end()) {
      it->second->forgotten = true;
      if (!it->second->running) queues_.erase(it);
    }
  });
  status = 200;
  return {{"deleted", id}};
}

json Notifier::test(const std::string& player_id, const std::string& id, int& status) {
  std::vector<webhook_rows::Webhook> hooks;
  store_.read([&](Db& db) { hooks = webhook_rows::of_player(db, player_id); });
  if (std::none_of(hooks.begin(), hooks.end(), [&](const auto& h) { return h.id == id; })) {
    status = 404;
    return {{"error", "not_found"}};
  }
  asio::post(io_, [this, player_id, id] { dispatch(player_id, "test", json::object(), id); });
  status = 202;
  return {{"queued", id}};
}

}  // namespace casa::server
