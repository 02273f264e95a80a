// SPDX-License-Identifier: AGPL-3.0-or-later
// Notifications outside the page: webhooks (docs/accounts.md, "Notifications";
// docs/server.md for the operator's settings).
//
// Invariants:
//  * notify() only posts to the notifier's own thread and event loop: a table
//    that calls it never waits for a receiver, the network or the store.
//  * Every delivery goes to one receiver (a player's webhook, or one of the
//    operator's), through that receiver's queue: one delivery at a time, in
//    the order notify() was called, each sent until the receiver answers 2xx
//    or its attempts run out (webhook-attempts, with exponential backoff),
//    and never once more after a 2xx. A queue holds at most webhook-queue
//    deliveries; past that a new one is dropped and logged.
//  * A delivery carries only what the notification names (kind, table, game,
//    the inviter's name, the table's link, the player's id and name): never a
//    card nor anything a seat may not see.
//  * Every delivery is signed: X-Casa-Signature is "sha256=" and the hex
//    HMAC-SHA256, with the receiver's secret, of X-Casa-Timestamp, ".", and
//    the body.
//  * A player's webhook connects only to public addresses, or to those in
//    webhook-allow-networks (the address checked is the one connected to, so
//    a name that resolves differently later gains nothing). The operator's
//    webhooks are trusted.
//  * The queues live in memory: deliveries still queued when the server
//    stops are lost (webhooks are a nudge, the game's state is the truth).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/ops/config.h"
#include "server/store/store.h"
#include "server/table/host.h"

namespace casa::server {

// An http(s) URL a webhook posts to.
struct WebhookUrl {
  bool tls = false;
  std::string host;    // a name or an address (IPv6 without brackets)
  std::string port;    // "80" / "443" unless given
  std::string target;  // path and query, "/" at least
};
// Parses `url`; returns why it cannot be a webhook's, or nullopt.
std::optional<std::string> parse_webhook_url(const std::string& url, WebhookUrl& out);

// A network in CIDR notation ("127.0.0.0/8", "::1/128", or an address alone).
struct Network {
  boost::asio::ip::address address;
  int prefix = 0;
};
std::optional<Network> parse_network(const std::string& cidr);
bool in_network(const boost::asio::ip::address& a, const Network& n);
// Whether a player's webhook may connect to `a`: a public address, or one in `allowed`.
bool webhook_address_allowed(const boost::asio::ip::address& a, const std::vector<Network>& allowed);

// The X-Casa-Signature of a delivery: "sha256=" and the lowercase hex
// HMAC-SHA256 with `secret` of `timestamp` + "." + `body`.
std::string webhook_signature(const std::string& secret, const std::string& timestamp, const std::string& body);

class Notifier : public Notices {
 public:
  // `name_of`: a player's name (called on the notifier's thread). Throws
  // std::runtime_error on a bad operator webhook or network in `config`.
  Notifier(const Config& config, Store& store, std::function<std::string(const std::string&)> name_of);
  ~Notifier() override;

  void notify(const std::string& player_id, const std::string& kind, nlohmann::json about) override;
  // Stops the thread: nothing more is delivered (before the store goes).
  void stop();

  // ---- a player's webhooks (HTTP /api/account/webhooks) ----
  // Each sets `status` (200, 201, 400, 403, 404, 503) and returns the body.
  nlohmann::json list(const std::string& player_id, int& status);
  // {"url", "format"}: the new webhook with its secret (the only time it is shown).
  nlohmann::json create(const std::string& player_id, const nlohmann::json& request, int& status);
  nlohmann::json remove(const std::string& player_id, const std::string& id, int& status);
  // Queues a "test" delivery to the player's webhook `id`.
  nlohmann::json test(const std::string& player_id, const std::string& id, int& status);

  struct Stats {
    std::int64_t delivered = 0;  // answered 2xx
    std::int64_t failed = 0;     // attempts that failed (each retry counts)
    std::int64_t given_up = 0;   // deliveries dropped after their last attempt or refused for good
    std::int64_t dropped = 0;    // not queued: the receiver's queue was full
  };
  Stats stats() const;

 private:
  struct Receiver;
  struct Queue;
  struct Delivery;
  // On the notifier's thread from here on.
  void dispatch(const std::string& player_id, const std::string& kind, const nlohmann::json& about,
                const std::string& only_webhook = {});
  void enqueue(const Receiver& receiver, Delivery delivery);
  void run(std::shared_ptr<Queue> queue);

  Config config_;
  Store& store_;
  std::function<std::string(const std::string&)> name_of_;
  std::vector<Network> allowed_;
  std::vector<Receiver> operator_receivers_;
  boost::asio::io_context io_;
  std::map<std::string, std::shared_ptr<Queue>> queues_;  // by receiver key; the thread's alone
  std::atomic<std::int64_t> delivered_{0}, failed_{0}, given_up_{0}, dropped_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace casa::server
