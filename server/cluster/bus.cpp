// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/cluster/bus.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <chrono>

namespace casa::server {

namespace {
constexpr const char* kRelayPrefix = "relay:";
}

Bus::Bus(boost::asio::io_context& io, std::string conninfo, std::string node_id, Handler on_message,
         std::function<void()> on_reconnect)
    : io_(io),
      conninfo_(std::move(conninfo)),
      node_(std::move(node_id)),
      on_message_(std::move(on_message)),
      on_reconnect_(std::move(on_reconnect)),
      retry_(io) {}

Bus::~Bus() { stop(); }

void Bus::start() {
  auto conn = std::make_shared<PgConn>(conninfo_);
  conn->exec("LISTEN " + pg_quote_ident(channel(node_)));
  listen_on(std::move(conn));
  sender_ = std::thread([this] { sender_loop(); });
  receiver_ = std::thread([this] { receiver_loop(); });
}

void Bus::stop() {
  if (stopped_.exchange(true)) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  inbox_wake_.notify_all();
  if (sender_.joinable()) sender_.join();
  if (receiver_.joinable()) receiver_.join();
  if (connector_.joinable()) connector_.join();
  alive_.reset();
  retry_.cancel();
  if (socket_) {
    boost::system::error_code ignored;
    socket_->cancel(ignored);
    socket_->close(ignored);
  }
}

void Bus::listen_on(std::shared_ptr<PgConn> conn) {
  listener_ = std::move(conn);
  // The descriptor gets its own copy of the socket: closing it must not close
  // libpq's.
  socket_ = std::make_unique<boost::asio::posix::stream_descriptor>(io_, ::dup(listener_->socket()));
  watch();
}

void Bus::watch() {
  socket_->async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
    if (stopped_) return;
    if (ec) {
      reconnect_later();
      return;
    }
    readable();
  });
}

void Bus::readable() {
  if (!listener_->consume()) {
    spdlog::warn("cluster bus: lost the connection to the database; listening again shortly");
    reconnect_later();
    return;
  }
  std::size_t dropped = 0;
  {
    std::lock_guard lock(mutex_);
    while (auto n = listener_->next_notification()) {
      if (inbox_.size() >= kMaxQueued) {
        ++dropped;
        continue;
      }
      inbox_.push_back(std::move(n->second));
    }
  }
  inbox_wake_.notify_one();
  if (dropped > 0) spdlog::warn("cluster bus: {} messages dropped (the receiver is {} behind)", dropped, kMaxQueued);
  watch();
}

void Bus::reconnect_later() {
  if (stopped_) return;
  if (socket_) {
    boost::system::error_code ignored;
    socket_->close(ignored);
  }
  retry_.expires_after(std::chrono::seconds(1));
  retry_.async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    if (connector_.joinable()) connector_.join();  // the previous attempt, over
    connector_ = std::thread([this, alive = std::weak_ptr<char>(alive_)] {
      std::shared_ptr<PgConn> conn;
      std::string why;
      try {
        conn = std::make_shared<PgConn>(conninfo_);
        conn->exec("LISTEN " + pg_quote_ident(channel(node_)));
      } catch (const std::exception& e) {
        conn.reset();
        why = e.what();
      }
      if (alive.expired()) return;
      boost::asio::post(io_, [this, alive, conn, why] {
        if (alive.expired() || stopped_) return;
        if (!conn) {
          spdlog::warn("cluster bus: {}", why);
          reconnect_later();
          return;
        }
        listen_on(conn);
        if (on_reconnect_) on_reconnect_();
      });
    });
  });
}

void Bus::send(const std::string& to, std::string payload) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    if (outbox_.size() >= kMaxQueued) {
      // The database has not taken a message for a while (out of reach):
      // this one is lost, as at most once allows; its client resyncs.
      spdlog::warn("cluster bus: message to {} dropped ({} waiting to be sent)", to, outbox_.size());
      return;
    }
    outbox_.emplace_back(to, std::move(payload));
  }
  wake_.notify_one();
}

void Bus::receiver_loop() {
  std::unique_ptr<PgConn> conn;
  for (;;) {
    std::string payload;
    {
      std::unique_lock lock(mutex_);
      inbox_wake_.wait(lock, [&] { return stopping_ || !inbox_.empty(); });
      if (stopping_) return;
      payload = std::move(inbox_.front());
      inbox_.pop_front();
    }
    if (payload.rfind(kRelayPrefix, 0) == 0) {
      try {
        if (!conn || !conn->ok()) conn = std::make_unique<PgConn>(conninfo_);
        const auto rows = conn->exec("DELETE FROM cluster_relay WHERE id = $1 RETURNING payload",
                                     {payload.substr(std::char_traits<char>::length(kRelayPrefix))});
        if (rows.empty() || !rows[0].at(0)) continue;
        payload = *rows[0][0];
        ++relayed_;
      } catch (const std::exception& e) {
        conn.reset();
        spdlog::warn("cluster bus: relayed message lost: {}", e.what());
        continue;
      }
    }
    // One post per message, in order: the io_context runs them in that order.
    boost::asio::post(io_, [this, alive = std::weak_ptr<char>(alive_), payload = std::move(payload)]() mutable {
      if (alive.expired() || stopped_) return;
      received_.fetch_add(1, std::memory_order_relaxed);
      try {
        on_message_(std::move(payload));
      } catch (const std::exception& e) {
        spdlog::warn("cluster bus: message dropped: {}", e.what());
      }
    });
  }
}

void Bus::sender_loop() {
  std::unique_ptr<PgConn> conn;
  for (;;) {
    std::deque<std::pair<std::string, std::string>> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !outbox_.empty(); });
      if (stopping_ && outbox_.empty()) return;
      batch.swap(outbox_);
    }
    for (auto& [to, payload] : batch) {
      // One attempt, and one more on a fresh connection: a message that still
      // fails is dropped (at most once), and logged.
      for (int attempt = 0; attempt < 2; ++attempt) {
        try {
          if (!conn || !conn->ok()) conn = std::make_unique<PgConn>(conninfo_);
          if (payload.size() > kMaxNotifyBytes) {
            const auto rows = conn->exec("INSERT INTO cluster_relay (payload) VALUES ($1) RETURNING id", {payload});
            conn->exec("SELECT pg_notify($1, $2)", {channel(to), kRelayPrefix + rows.at(0).at(0).value_or("")});
            ++relayed_;
          } else {
            conn->exec("SELECT pg_notify($1, $2)", {channel(to), payload});
          }
          sent_.fetch_add(1, std::memory_order_relaxed);
          break;
        } catch (const std::exception& e) {
          conn.reset();
          if (attempt == 1) spdlog::warn("cluster bus: message to {} lost: {}", to, e.what());
        }
      }
    }
  }
}

}  // namespace casa::server
