// SPDX-License-Identifier: AGPL-3.0-or-later
// The cluster bus (docs/cluster.md): messages between nodes over PostgreSQL
// LISTEN/NOTIFY. Each node LISTENs on its own channel, casa_<node id>, on a
// dedicated connection whose socket the io_context watches; sends go out in
// order from one sender thread on a second connection. A payload too big for one
// notification is stored in cluster_relay and only its id is notified; the
// receiver reads and deletes it on a thread of its own (third connection), so
// that the event loop never waits on the database: every message received goes
// through that thread, in order, and is handed to the io_context from there.
// Both queues are bounded (kMaxQueued): past that a message is dropped and
// logged, as one lost on the network would be.
//
// Delivery is at most once, in order per sender and receiver, and only while the
// receiver listens: what a node misses while its connection is down is lost (its
// clients recover with resync). `on_reconnect` says when that happened.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/store/pg.h"

namespace casa::server {

class Bus {
 public:
  using Handler = std::function<void(std::string payload)>;
  // Payloads longer than this go through cluster_relay (NOTIFY takes < 8000 bytes).
  static constexpr std::size_t kMaxNotifyBytes = 7000;
  // Messages waiting to be sent, and received ones waiting for their relay
  // read: at most this many each.
  static constexpr std::size_t kMaxQueued = 20000;

  Bus(boost::asio::io_context& io, std::string conninfo, std::string node_id, Handler on_message,
      std::function<void()> on_reconnect = {});
  ~Bus();

  // LISTENs and starts watching. Throws when the database cannot be reached.
  void start();
  void stop();

  // Queues `payload` for node `to`. Any thread.
  void send(const std::string& to, std::string payload);

  static std::string channel(const std::string& node) { return "casa_" + node; }
  const std::string& node() const { return node_; }
  // Messages received and sent through the relay (tests, figures).
  std::uint64_t relayed() const { return relayed_.load(); }
  // Messages handed to this node, and sent by it (notified; a send that failed
  // twice is not counted): /metrics.
  std::uint64_t received() const { return received_.load(std::memory_order_relaxed); }
  std::uint64_t sent() const { return sent_.load(std::memory_order_relaxed); }

 private:
  // Listens on `conn` (connected, LISTEN sent) and watches its socket.
  void listen_on(std::shared_ptr<PgConn> conn);
  void watch();
  void readable();
  void reconnect_later();
  void sender_loop();
  void receiver_loop();

  boost::asio::io_context& io_;
  std::string conninfo_;
  std::string node_;
  Handler on_message_;
  std::function<void()> on_reconnect_;

  std::shared_ptr<PgConn> listener_;
  std::unique_ptr<boost::asio::posix::stream_descriptor> socket_;
  boost::asio::steady_timer retry_;
  std::atomic<bool> stopped_{false};

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<std::string, std::string>> outbox_;
  bool stopping_ = false;
  std::thread sender_;
  std::deque<std::string> inbox_;  // under mutex_: notified, for the receiver thread
  std::condition_variable inbox_wake_;
  std::thread receiver_;
  // Connects again off the io_context (a connect to an unreachable server
  // waits for its timeout, which must not stall the connections and tables of
  // the event loop); its outcome is posted back. One attempt at a time.
  std::thread connector_;
  // Reset when the bus is destroyed: a posted outcome arriving later is dropped.
  std::shared_ptr<char> alive_ = std::make_shared<char>();
  std::atomic<std::uint64_t> relayed_{0};
  std::atomic<std::uint64_t> received_{0};
  std::atomic<std::uint64_t> sent_{0};
};

}  // namespace casa::server
