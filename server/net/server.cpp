// SPDX-License-Identifier: AGPL-3.0-or-later
// The network side: listener, HTTP requests, WebSocket sessions, and the Server
// that runs them. Modelled on Boost.Beast's advanced server example: one session
// object per connection kept alive by shared_from_this, one outstanding write
// with a bounded queue behind it, a timeout on every read.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <spdlog/spdlog.h>

#include <openssl/ssl.h>

#include <atomic>
#include <cstring>
#include <vector>
#include <map>
#include <mutex>
#include <thread>

#include "engine/game.h"
#include "protocol/protocol.h"
#include "server/cluster/cluster.h"
#include "server/net/coalescing_stream.h"
#include "server/net/frame_reader.h"
#include "server/http/accounts.h"
#include "server/http/http.h"
#include "server/ops/log.h"
#include "server/ops/metrics.h"
#include "server/net/server.h"

namespace casa::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using nlohmann::json;

namespace {

using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Counts open connections per address; a Slot gives its place back when the
// last session holding it goes.
class AddressLimiter {
 public:
  explicit AddressLimiter(int limit) : limit_(limit) {}
  struct Slot {
    Slot(AddressLimiter* o, std::string a) : owner(o), address(std::move(a)) {}
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { owner->release(address); }
    AddressLimiter* owner;
    std::string address;
  };
  std::shared_ptr<Slot> acquire(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& n = open_[address];
    if (n >= limit_) return nullptr;
    ++n;
    return std::make_shared<Slot>(this, address);
  }

 private:
  void release(const std::string& address) {
    std::lock_guard lock(mutex_);
    if (--open_[address] <= 0) open_.erase(address);
  }
  int limit_;
  std::mutex mutex_;
  std::map<std::string, int> open_;
};

// The client's address as a trusted reverse proxy tells it: the nearest address
// in Forwarded (for=...) or else X-Forwarded-For that is not itself a trusted
// proxy. `peer` when neither header names a valid address.
std::string forwarded_client(const http::request<http::string_body>& req, const std::string& peer,
                             const std::vector<std::string>& trusted) {
  std::vector<std::string> hops;  // nearest last
  auto split = [](const std::string& list, char sep) {
    std::vector<std::string> out;
    std::string item;
    for (char ch : list + sep) {
      if (ch == sep) {
        out.push_back(item);
        item.clear();
      } else {
        item += ch;
      }
    }
    return out;
  };
  auto trim = [](std::string v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.erase(v.begin());
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
    return v;
  };
  if (auto f = req.find(http::field::forwarded); f != req.end()) {
    for (const auto& element : split(std::string(f->value().data(), f->value().size()), ',')) {
      for (auto pair : split(element, ';')) {
        pair = trim(pair);
        if (pair.size() < 4 || !beast::iequals(pair.substr(0, 4), "for=")) continue;
        std::string node = pair.substr(4);
        if (node.size() >= 2 && node.front() == '"' && node.back() == '"') node = node.substr(1, node.size() - 2);
        if (!node.empty() && node.front() == '[') {  // "[v6]:port"
          node = node.substr(1, node.find(']') == std::string::npos ? std::string::npos : node.find(']') - 1);
        } else if (node.find(':') != node.rfind(':')) {
          // a bare IPv6 address: keep it whole
        } else if (auto colon = node.find(':'); colon != std::string::npos) {
          node = node.substr(0, colon);  // "v4:port"
        }
        hops.push_back(node);
      }
    }
  } else if (auto x = req.find("X-Forwarded-For"); x != req.end()) {
    for (const auto& item : split(std::string(x->value().data(), x->value().size()), ',')) hops.push_back(trim(item));
  }
  std::string client;
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(*it, ec);
    if (ec) break;  // "unknown", an obfuscated name, garbage: trust nothing further
    client = address.to_string();
    if (std::find(trusted.begin(), trusted.end(), client) == trusted.end()) break;
  }
  return client.empty() ? peer : client;
}

// The open WebSocket sessions, so that a drain can tell each to reconnect.
class OpenSessions {
 public:
  void add(const std::shared_ptr<Client>& client) {
    std::lock_guard lock(mutex_);
    open_[client.get()] = client;
  }
  void remove(const Client* client) {
    std::lock_guard lock(mutex_);
    open_.erase(client);
  }
  std::vector<std::shared_ptr<Client>> all() {
    std::vector<std::shared_ptr<Client>> out;
    std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : open_) {
      if (auto c = weak.lock()) out.push_back(std::move(c));
    }
    return out;
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return open_.size();
  }

 private:
  std::mutex mutex_;
  std::map<const Client*, std::weak_ptr<Client>> open_;
};

struct Shared {
  Config config;
  Lobby* lobby = nullptr;
  Store* store = nullptr;
  AddressLimiter* limiter = nullptr;
  HttpContext http;  // what plain HTTP requests need (server/http/http.cpp)
  OpenSessions* sessions = nullptr;
  const std::atomic<bool>* draining = nullptr;  // Server::drain() began
};

// ---- WebSocket session ---------------------------------------------------------

template <class Stream>
class WsSession : public Client, public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  // `early` holds the bytes that came after the upgrade request in the same
  // read: the client's first frames, read as such once the upgrade is done.
  WsSession(Stream&& stream, const Shared& shared, std::shared_ptr<AddressLimiter::Slot> slot,
            std::string early = {})
      : ws_(std::move(stream)),
        shared_(shared),
        slot_(std::move(slot)),
        hello_timer_(ws_.get_executor()),
        close_timer_(ws_.get_executor()),
        write_timer_(ws_.get_executor()),
        early_(std::move(early)),
        address_(slot_ ? slot_->address : "?"),
        reader_(shared.config.max_frame_bytes),
        tokens_(shared.config.rate_burst),
        last_refill_(std::chrono::steady_clock::now()) {
    metrics().websocket_connections.fetch_add(1, std::memory_order_relaxed);
  }
  ~WsSession() override { metrics().websocket_connections.fetch_sub(1, std::memory_order_relaxed); }

  void run(http::request<http::string_body> req) {
    beast::get_lowest_layer(ws_).expires_never();
    // Beast's stream does the opening handshake only: the session reads the
    // frames itself (FrameReader), and so keeps the idle timeout itself too
    // (keep_alive), since Beast's would never see the connection read.
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(shared_.config.handshake_timeout_seconds);
    timeouts.idle_timeout = websocket::stream_base::none();
    timeouts.keep_alive_pings = false;
    ws_.set_option(timeouts);
    ws_.text(true);  // every frame the server sends is JSON text
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "casa-server"); }));
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, this->shared_from_this()));
  }

  using Client::send;
  // Frames from other strands gather in inbox_; one post per batch (not per
  // frame) moves them to the write queue, so the actions of one move reach
  // this session in one hand-off.
  void send(Frame frame) override {
    {
      std::lock_guard lock(inbox_mutex_);
      if (inbox_closed_) return;  // close() was called: nothing follows its last frame
      inbox_.push_back(std::move(frame));
      if (flush_posted_) return;
      flush_posted_ = true;
    }
    asio::post(ws_.get_executor(), [self = this->shared_from_this()] { self->flush_inbox(); });
  }

  // A frame sent before close() still goes out; one sent after it (from any
  // strand, even before the close reaches this session's) does not, so the
  // frame sent just before, such as `reconnect`, is the last the client hears.
  void close() override {
    {
      std::lock_guard lock(inbox_mutex_);
      inbox_closed_ = true;
    }
    asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
      if (self->shared_.draining->load()) self->close_reason_ = websocket::close_reason(websocket::close_code::going_away);
      self->close_after_writes_ = true;
      if (!self->writing_) self->start_close();
    });
  }

  // On the session's strand: stops reading, sends what is queued, then a close
  // frame with this code and reason.
  void close_with(websocket::close_code code, std::string reason) {
    close_reason_ = websocket::close_reason(code, reason);
    close_after_writes_ = true;
    if (!writing_) start_close();
  }

  std::string address() const override { return address_; }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    ws_.set_option(websocket::stream_base::timeout{websocket::stream_base::none(), websocket::stream_base::none(), false});
    spdlog::info("connection from {}", address_);
    shared_.sessions->add(this->shared_from_this());
    if (shared_.draining->load()) {
      // Upgraded just as the drain began, too late to be told to reconnect.
      enqueue(protocol::reconnect("draining", 0));
      close_with(websocket::close_code::going_away, "draining");
      return;
    }
    hello_timer_.expires_after(std::chrono::seconds(shared_.config.handshake_timeout_seconds));
    hello_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
      if (!e && self->player_id.empty() && !self->closed_) {
        // RFC 6455 7.1.7: a close frame (1008) first, then the TCP teardown.
        spdlog::info("connection from {}: no hello in time", self->address_);
        self->close_with(websocket::close_code::policy_error, "no hello in time");
      }
    });
    last_read_ = std::chrono::steady_clock::now();
    keep_alive();
    if constexpr (std::is_same_v<Stream, PlainStream>) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().non_blocking(true, ignored);
    }
    if (!early_.empty()) {
      // Frames the client sent right behind its upgrade request.
      const auto into = reader_.prepare(early_.size());
      std::memcpy(into.data(), early_.data(), early_.size());
      reader_.commit(early_.size());
      std::string().swap(early_);
    }
    do_read();
  }

  void flush_inbox() {
    // The two vectors trade places, each keeping its room: no allocation per
    // batch once they have grown to the batches this session sees.
    {
      std::lock_guard lock(inbox_mutex_);
      batch_.swap(inbox_);
      flush_posted_ = false;
    }
    // All of them queued first: one write carries the whole batch.
    bool open = true;
    for (auto& frame : batch_) {
      if (open && !queue_frame(std::move(frame))) open = false;
    }
    batch_.clear();
    if (open && !writing_) do_write();
  }

  // Hands over the messages already read, then reads the socket when the
  // frame under way is not all here. While a message is with the lobby no
  // read is made: the client waits for its answer (resume calls this again).
  // Once the server sent its close frame, reading goes on to drop what comes
  // until the client's close frame, as Beast's closing handshake does.
  void do_read() {
    if (finished_ || reading_ || tearing_down_ || (closed_ && !close_sent_)) return;
    for (;;) {
      const FrameReader::Step step = reader_.next();
      switch (step.kind) {
        case FrameReader::Kind::more:
          read_socket();
          return;
        case FrameReader::Kind::message:
          if (!on_message(step.payload, step.text)) return;
          break;
        case FrameReader::Kind::ping:
          if (!on_ping(step.payload)) return;
          break;
        case FrameReader::Kind::too_big:
          spdlog::info("connection from {}: frame over {} bytes, closed", address_, shared_.config.max_frame_bytes);
          enqueue(protocol::error({"frame_too_large", "Frames are limited to " +
                                                          std::to_string(shared_.config.max_frame_bytes) + " bytes."},
                                  std::nullopt));
          close_with(websocket::close_code::too_big, "frame too large");
          return;
        case FrameReader::Kind::close:
        case FrameReader::Kind::failed:
          // Beast's answer: a close frame (the peer's code, or the error's),
          // then the TCP teardown; messages are refused from here.
          ws_open_ = false;
          if (!close_sent_) {
            close_sent_ = true;
            ws_.next_layer().write_frame(FrameReader::reply_close(step.close_code));
          }
          tear_down(step.error);
          return;
        case FrameReader::Kind::closed:
          tear_down(step.error);
          return;
      }
    }
  }

  void read_socket() {
    reading_ = true;
    if constexpr (std::is_same_v<Stream, PlainStream>) {
      // Wait until the socket is readable, then read what is there: no read
      // buffer is held while the client is silent (most of the time), and the
      // wait re-arms epoll (EPOLL_CTL_MOD reports data already there), so a
      // message that came before the wait is not missed.
      reader_.release_idle(0);
      beast::get_lowest_layer(ws_).socket().async_wait(
          tcp::socket::wait_read, [self = this->shared_from_this()](beast::error_code ec) { self->on_readable(ec); });
    } else {
      reader_.release_idle(kKeptReadBuffer);
      const auto into = reader_.prepare(reader_.read_size(kReadChunk, kMaxRead));
      ws_.next_layer().async_read_some(
          into, [self = this->shared_from_this()](beast::error_code ec, std::size_t n) { self->on_socket_read(ec, n); });
    }
  }

  void on_readable(beast::error_code ec) {
    if (ec) {
      on_socket_read(ec, 0);
      return;
    }
    auto& socket = beast::get_lowest_layer(ws_).socket();
    const auto into = reader_.prepare(reader_.read_size(kReadChunk, kMaxRead));
    const std::size_t n = socket.read_some(into, ec);  // non-blocking (on_accept)
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      socket.async_wait(tcp::socket::wait_read, [self = this->shared_from_this()](beast::error_code e) {
        self->on_readable(e);
      });
      return;
    }
    on_socket_read(ec, n);
  }

  void on_socket_read(beast::error_code ec, std::size_t n) {
    reading_ = false;
    if (ec) {
      finish(ec);
      return;
    }
    reader_.commit(n);
    last_read_ = std::chrono::steady_clock::now();
    idle_pinged_ = false;
    do_read();
  }

  // The closing handshake's end (RFC 6455 7.1.1): the server closes the TCP
  // connection first; a peer that never closes its side is cut off after the
  // handshake timeout.
  void tear_down(beast::error_code ec) {
    closed_ = true;
    tearing_down_ = true;
    close_timer_.expires_after(std::chrono::seconds(shared_.config.handshake_timeout_seconds));
    close_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
      if (!e && !self->finished_) self->hard_close();
    });
    using websocket::async_teardown;
    async_teardown(beast::role_type::server, ws_.next_layer(),
                   [self = this->shared_from_this(), ec](beast::error_code) { self->finish(ec); });
  }

  // Beast's keep-alive, kept here since the session reads the frames: a
  // connection that sent nothing for half the idle timeout gets an empty ping;
  // if it still sends nothing for another half, it is dropped.
  void keep_alive() {
    if (closed_ || shared_.config.idle_timeout_seconds <= 0) return;
    const auto half = std::chrono::milliseconds(shared_.config.idle_timeout_seconds * 500);
    close_timer_.expires_at((idle_pinged_ ? std::chrono::steady_clock::now() : last_read_) + half);
    close_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
      if (!e) self->on_idle_timer();
    });
  }

  void on_idle_timer() {
    if (closed_ || finished_) return;
    const auto half = std::chrono::milliseconds(shared_.config.idle_timeout_seconds * 500);
    if (std::chrono::steady_clock::now() - last_read_ < half) {
      keep_alive();  // something came since: wait from then
    } else if (!idle_pinged_) {
      idle_pinged_ = true;
      ws_.next_layer().write_frame(FrameReader::reply_ping());
      watch_writes();
      keep_alive();
    } else {
      // RFC 6455 7.1.7: a close frame (1001) first; a peer that does not
      // answer it is cut off after the handshake timeout (start_close).
      spdlog::info("connection from {}: idle, closed", address_);
      close_with(websocket::close_code::going_away, "idle");
    }
  }

  // Over the rate limit far beyond the burst: closed (1008). True when closed.
  bool flooded() {
    if (++over_budget_ <= 10 * shared_.config.rate_burst) return false;
    spdlog::warn("connection from {} flooded; closed", address_);
    metrics().dropped_flood.fetch_add(1, std::memory_order_relaxed);
    close_with(websocket::close_code::policy_error, "too many messages");
    return true;
  }

  // A ping counts as a message for the rate limit. Before `hello` it is not
  // answered (the hello timer runs on); after, only the latest ping is
  // answered while earlier bytes wait for the socket (RFC 6455 5.5.3), so a
  // peer that pings and never reads holds at most one pong here. False when
  // the connection was closed for flooding.
  bool on_ping(std::string_view payload) {
    if (!take_token()) return !flooded();
    if (player_id.empty()) return true;
    pong_.assign(payload.data(), payload.size());
    pong_due_ = true;
    send_pong();
    return true;
  }

  void send_pong() {
    if (!pong_due_ || closed_) return;
    auto& out = ws_.next_layer();
    if (out.idle()) {
      pong_due_ = false;
      out.write_frame(FrameReader::reply_pong(pong_));
      watch_writes();
      return;
    }
    if (pong_waiting_) return;
    pong_waiting_ = true;
    out.when_written([self = this->shared_from_this()](beast::error_code ec) {
      self->pong_waiting_ = false;
      if (!ec) self->send_pong();
    });
  }

  // The write timeout: armed while bytes wait for the socket (at most once
  // per timeout, not per write); a write the peer has not taken for
  // --write-timeout-seconds drops the connection.
  void watch_writes() {
    if (write_timer_armed_ || finished_) return;
    write_timer_armed_ = true;
    write_timer_.expires_after(std::chrono::seconds(shared_.config.write_timeout_seconds));
    write_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
      self->write_timer_armed_ = false;
      if (!e) self->on_write_timer();
    });
  }

  void on_write_timer() {
    auto& out = ws_.next_layer();
    if (finished_ || !out.in_flight()) return;
    const auto limit = std::chrono::seconds(shared_.config.write_timeout_seconds);
    const auto since = out.write_started();
    if (std::chrono::steady_clock::now() - since < limit) {
      write_timer_armed_ = true;
      write_timer_.expires_at(since + limit);
      write_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
        self->write_timer_armed_ = false;
        if (!e) self->on_write_timer();
      });
      return;
    }
    spdlog::warn("connection from {} read nothing for {} s; dropped", address_, shared_.config.write_timeout_seconds);
    metrics().dropped_write_timeout.fetch_add(1, std::memory_order_relaxed);
    reset();
  }

  // More than --max-write-bytes would wait for this peer. With nothing on its
  // way to the socket, the queued messages are dropped and a close frame
  // (1008) goes instead; otherwise the peer is not reading and the
  // connection is cut at once.
  void drop_slow_reader() {
    spdlog::warn("connection from {} reads too slowly; closed", address_);
    metrics().dropped_write_budget.fetch_add(1, std::memory_order_relaxed);
    if (!writing_ && ws_.next_layer().idle() && !closed_) {
      queue_.resize(staged_);
      unstaged_bytes_ = 0;
      close_with(websocket::close_code::policy_error, "reading too slowly");
      return;
    }
    reset();
  }

  bool take_token() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_refill_).count();
    last_refill_ = now;
    tokens_ = std::min(shared_.config.rate_burst, tokens_ + seconds * shared_.config.rate_per_second);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

  // A whole message from the client; false when reading waits (the lobby
  // has it, or the session is closing).
  bool on_message(std::string_view text, bool is_text) {
    if (!is_text) {
      enqueue(protocol::error({"malformed_json", "Send JSON in text frames."}, std::nullopt));
      return true;
    }
    if (!take_token()) {
      if (flooded()) return false;
      enqueue(protocol::error({"rate_limited", "Too many messages; slow down."}, std::nullopt));
      return true;
    }
    auto self = this->shared_from_this();
    shared_.lobby->handle(self, text, [self] { asio::post(self->ws_.get_executor(), [self] { self->do_read(); }); });
    return false;
  }

  void enqueue(std::string frame) { enqueue(make_frame(std::move(frame))); }

  void enqueue(Frame frame) {
    if (queue_frame(std::move(frame)) && !writing_) do_write();
  }

  // False when the frame was dropped: the session is closing, or its reader
  // is too slow (then it is closed).
  bool queue_frame(Frame frame) {
    if (closed_ || close_after_writes_) return false;
    // Everything waiting for this peer stays under the byte budget: frames
    // not yet handed to the socket plus the bytes the socket has not taken.
    if (queue_.size() - queue_head_ >= shared_.config.max_write_queue ||
        unstaged_bytes_ + frame->size() + ws_.next_layer().buffered() > shared_.config.max_write_bytes) {
      drop_slow_reader();
      return false;
    }
    unstaged_bytes_ += frame->size();
    queue_.push_back(std::move(frame));
    return true;
  }

  // Every frame queued goes out in one socket write: their WebSocket frames
  // are built straight into the held CoalescingStream, which then writes them
  // all together. A move's `accepted`, events and `request` to one connection
  // thus cost one system call and no composed write operation per message.
  void do_write() {
    writing_ = true;
    auto& out = ws_.next_layer();
    out.hold();
    // As the WebSocket stream would refuse a message once a close frame went
    // either way (it answers a peer's close on its own).
    const beast::error_code ec = ws_open_ ? beast::error_code{} : beast::error_code{websocket::error::closed};
    if (!ec) {
      for (; staged_ < queue_.size(); ++staged_) {
        unstaged_bytes_ -= queue_[staged_]->size();
        out.gather_text(*queue_[staged_]);
      }
    }
    out.release([self = this->shared_from_this(), ec](beast::error_code written) {
      self->on_write(ec ? ec : written);
    });
    watch_writes();
  }

  void on_write(beast::error_code ec) {
    writing_ = false;
    if (ec) {
      finish(ec);
      return;
    }
    for (; queue_head_ < staged_; ++queue_head_) queue_[queue_head_].reset();
    if (queue_head_ == queue_.size()) {
      // Drained: an idle session keeps no frame and no more than a small array.
      queue_head_ = 0;
      staged_ = 0;
      queue_.clear();
      if (queue_.capacity() > kKeptQueueCapacity) std::vector<Frame>().swap(queue_);
    }
    if (closed_) return;
    if (queue_head_ < queue_.size()) {
      do_write();
    } else if (close_after_writes_) {
      start_close();
    }
  }

  // The server's close frame, then reading on (dropping messages) until the
  // client's close frame, then the teardown: Beast's async_close, on the
  // session's own reader.
  void start_close() {
    if (closed_) return;
    closed_ = true;
    // A peer that never answers the close frame is cut off after the handshake timeout.
    close_timer_.expires_after(std::chrono::seconds(shared_.config.handshake_timeout_seconds));
    close_timer_.async_wait([self = this->shared_from_this()](beast::error_code e) {
      if (!e && !self->finished_) self->hard_close();
    });
    ws_open_ = false;
    close_sent_ = true;
    ws_.next_layer().write_frame(FrameReader::reply_close(close_reason_.code, {close_reason_.reason.data(), close_reason_.reason.size()}));
    reader_.closing();
    // Posted: a message the lobby is reading may still be a view of the reader's buffer.
    if (!reading_) asio::post(ws_.get_executor(), [self = this->shared_from_this()] { self->do_read(); });
  }

  // Drops a peer that does not read: a TCP reset, so that neither this process
  // nor the kernel keeps the bytes it would never take (a FIN would wait
  // behind them).
  void reset() {
    closed_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().set_option(asio::socket_base::linger(true, 0), ignored);
    beast::get_lowest_layer(ws_).close();
  }

  void hard_close() {
    closed_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).close();
  }

  void finish(beast::error_code) {
    hello_timer_.cancel();
    close_timer_.cancel();
    write_timer_.cancel();
    if (finished_) return;
    finished_ = true;
    closed_ = true;
    shared_.sessions->remove(this);
    const LogAbout about({}, player_id);
    spdlog::info("connection from {} closed{}{}", address_, player_id.empty() ? "" : " (player ",
                 player_id.empty() ? "" : player_id + ")");
    shared_.lobby->disconnected(this->shared_from_this());
  }

  websocket::stream<CoalescingStream<Stream>> ws_;
  const Shared& shared_;
  std::shared_ptr<AddressLimiter::Slot> slot_;
  asio::steady_timer hello_timer_;
  asio::steady_timer close_timer_;
  asio::steady_timer write_timer_;
  bool write_timer_armed_ = false;
  std::string early_;          // bytes behind the upgrade request, until on_accept
  std::string pong_;           // the latest ping's payload, answered when pong_due_
  bool pong_due_ = false;
  bool pong_waiting_ = false;  // send_pong waits for the socket to take earlier bytes
  std::size_t unstaged_bytes_ = 0;  // bytes of queue_[staged_..]
  websocket::close_reason close_reason_{websocket::close_code::normal};
  std::string address_;
  // Reads ask for kReadChunk bytes, or the rest of a large frame up to
  // kMaxRead; a read buffer grown past kKeptReadBuffer is let go once empty.
  static constexpr std::size_t kReadChunk = 512;
  static constexpr std::size_t kMaxRead = 64 * 1024;
  static constexpr std::size_t kKeptReadBuffer = 4096;
  static constexpr std::size_t kKeptQueueCapacity = 64;

  FrameReader reader_;
  std::chrono::steady_clock::time_point last_read_;  // the last bytes from the client
  bool reading_ = false;       // a socket read is outstanding
  bool ws_open_ = true;        // no close frame went either way: messages may be sent
  bool close_sent_ = false;    // the server's close frame was written
  bool tearing_down_ = false;  // the closing handshake is done: TCP teardown
  bool idle_pinged_ = false;   // a keep-alive ping went, unanswered so far
  std::mutex inbox_mutex_;
  std::vector<Frame> inbox_;  // guarded by inbox_mutex_
  std::vector<Frame> batch_;  // the session's strand: the inbox being written
  bool flush_posted_ = false;  // guarded by inbox_mutex_
  bool inbox_closed_ = false;  // guarded by inbox_mutex_
  // Frames not yet written are queue_[queue_head_..]; a vector rather than a
  // deque, which would hold a 512-byte block even while empty. Those before
  // staged_ were gathered into the coalescer and wait for its socket write.
  std::vector<Frame> queue_;
  std::size_t queue_head_ = 0;
  std::size_t staged_ = 0;
  bool writing_ = false;
  bool close_after_writes_ = false;
  bool closed_ = false;
  bool finished_ = false;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_;
  double over_budget_ = 0;
};

// ---- HTTP ----------------------------------------------------------------------


// RFC 6455 4.1: the key is 16 random bytes in base64, 24 characters.
bool valid_websocket_key(beast::string_view key) {
  if (key.size() != 24 || key.substr(22) != "==") return false;
  for (std::size_t i = 0; i < 22; ++i) {
    const char c = key[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/') return false;
  }
  return true;
}

// host[:port] in lower case without the scheme's default port.
std::string normal_host(std::string host, beast::string_view scheme) {
  for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto strip = [&](const char* port) {
    const std::size_t n = std::strlen(port);
    if (host.size() > n && host.compare(host.size() - n, n, port) == 0) host.resize(host.size() - n);
  };
  if (scheme.empty() || scheme == "http" || scheme == "ws") strip(":80");
  if (scheme.empty() || scheme == "https" || scheme == "wss") strip(":443");
  return host;
}

// A browser's WebSocket may come from a page of this server (the Origin's
// host:port is the Host the request was sent to) or of an origin listed in
// --allowed-origins ("*": any). A client without an Origin header is not a
// browser and is not asked (the caller lets it through).
bool origin_allowed(beast::string_view origin, beast::string_view host, const std::vector<std::string>& allowed) {
  for (const auto& a : allowed) {
    if (a == "*" || beast::iequals(a, origin)) return true;
  }
  const auto sep = origin.find("://");
  if (sep == beast::string_view::npos || host.empty()) return false;  // "null", garbage
  std::string scheme(origin.substr(0, sep));
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string own = normal_host(std::string(host), "");
  return normal_host(std::string(origin.substr(sep + 3)), scheme) == own;
}

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  // `slot` is null when the peer is a trusted proxy: the WebSocket upgrade then
  // takes the slot of the address the proxy forwards.
  HttpSession(Stream&& stream, const Shared& shared, std::shared_ptr<AddressLimiter::Slot> slot,
              std::string peer = {})
      : stream_(std::move(stream)), shared_(shared), slot_(std::move(slot)), peer_(std::move(peer)) {
    metrics().http_connections.fetch_add(1, std::memory_order_relaxed);
  }
  ~HttpSession() { metrics().http_connections.fetch_sub(1, std::memory_order_relaxed); }

  auto executor() { return beast::get_lowest_layer(stream_).get_executor(); }

  void run() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(shared_.config.handshake_timeout_seconds));
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (!ec) self->do_read();
                              });
    } else {
      do_read();
    }
  }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(8 * 1024);
    parser_->header_limit(8 * 1024);
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(shared_.config.handshake_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return;  // closed, timed out or garbage: drop the connection
    auto req = parser_->release();
    if (auto te = req.find(http::field::transfer_encoding); te != req.end() && !beast::iequals(te->value(), "chunked")) {
      // Only `chunked` alone has a meaning every proxy agrees on; anything else
      // (`xchunked`, `chunked, identity`) would leave the body's end in doubt
      // and the next request smuggled in it (RFC 9112 6.3).
      refuse(http::status::bad_request, req.version(), "bad_request",
             "Transfer-Encoding other than chunked is not accepted.");
      return;
    }
    if (websocket::is_upgrade(req)) {
      if (req.target() != "/ws") {
        http::response<http::string_body> res{http::status::not_found, req.version()};
        res.prepare_payload();
        write(std::move(res), false);
        return;
      }
      if (shared_.draining->load()) {
        // Another node (or this one, restarted) takes the client: HAProxy
        // retries a 503 elsewhere (docker/haproxy.cfg, retry-on).
        http::response<http::string_body> res{http::status::service_unavailable, req.version()};
        res.set(http::field::retry_after, "1");
        res.set(http::field::content_type, "application/json");
        res.body() = R"({"error":"draining"})";
        res.prepare_payload();
        write(std::move(res), false);
        return;
      }
      if (!valid_websocket_key(req[http::field::sec_websocket_key])) {
        refuse(http::status::bad_request, req.version(), "bad_request",
               "Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455 4.1).");
        return;
      }
      if (auto origin = req.find(http::field::origin);
          origin != req.end() && !origin_allowed(origin->value(), req[http::field::host], shared_.config.allowed_origins)) {
        spdlog::info("refused a WebSocket from origin {} (via {})", std::string(origin->value()), peer_);
        refuse(http::status::forbidden, req.version(), "origin_not_allowed",
               "WebSocket connections are accepted only from pages of this server or of --allowed-origins.");
        return;
      }
      if (!slot_) {
        const std::string client = forwarded_client(req, peer_, shared_.config.trusted_proxies);
        slot_ = shared_.limiter->acquire(client);
        if (!slot_) {
          spdlog::warn("refused a connection from {} (via {}): too many open", client, peer_);
          write(http::response<http::string_body>{http::status::service_unavailable, req.version()}, false);
          return;
        }
      }
      // Bytes read past the request are the client's first frames.
      std::string early(static_cast<const char*>(buffer_.data().data()), buffer_.size());
      std::make_shared<WsSession<Stream>>(std::move(stream_), shared_, slot_, std::move(early))->run(std::move(req));
      return;
    }
    const std::string client = forwarded_client(req, peer_, shared_.config.trusted_proxies);
    auto res = answer_http(shared_.http, req, [self = this->shared_from_this()](http::response<http::string_body> later) {
      // Another node's answer (server/http/http.h): written on the session's executor.
      asio::post(self->stream_.get_executor(), [self, later = std::move(later)]() mutable {
        beast::get_lowest_layer(self->stream_).expires_after(std::chrono::seconds(30));
        const bool keep = later.keep_alive();
        self->write(std::move(later), keep);
      });
    }, client);
    if (!res) return;  // answered later
    const bool keep = res->keep_alive();
    write(std::move(*res), keep);
  }

  // An error answer with a JSON body, then the connection closes.
  void refuse(http::status status, unsigned version, const std::string& code, const std::string& message) {
    http::response<http::string_body> res{status, version};
    res.set(http::field::content_type, "application/json");
    res.body() = json{{"error", code}, {"message", message}}.dump();
    res.prepare_payload();
    res.keep_alive(false);
    write(std::move(res), false);
  }

  void write(http::response<http::string_body> res, bool keep) {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      // Browsers that met the server over TLS never try it in the clear again.
      res.set(http::field::strict_transport_security, "max-age=31536000");
    }
    // Complete as it is: a HEAD response carries the length of a body it does not send.
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    http::async_write(stream_, *sp, [self = this->shared_from_this(), sp, keep](beast::error_code ec, std::size_t) {
      if (ec) return;
      if (keep) {
        self->do_read();
      } else {
        beast::error_code ignored;
        beast::get_lowest_layer(self->stream_).socket().shutdown(tcp::socket::shutdown_send, ignored);
      }
    });
  }

  Stream stream_;
  const Shared& shared_;
  std::shared_ptr<AddressLimiter::Slot> slot_;
  std::string peer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

// The plain HTTP side: the catalogue, serialised once, and the web client's files.
void start_http(Shared& shared, const std::vector<std::string>& games) {
  shared.http.config = &shared.config;
  shared.http.lobby = shared.lobby;
  shared.http.store = shared.store;
  shared.http.catalogue = game_catalogue(games, shared.config.testing).dump();
  const auto dir = find_web_dir(shared.config);
  if (dir.empty()) {
    spdlog::info("no web client to serve (--web-dir)");
    return;
  }
  shared.http.web = WebFiles::load(dir);
  spdlog::info("serving the web client from {} ({} files, {} bytes)", shared.http.web->root().string(),
               shared.http.web->size(), shared.http.web->bytes());
}

}  // namespace

// ---- Server ----------------------------------------------------------------------

// One network thread's io_context: its own scheduler lock and its own epoll
// set, run by that thread alone (hence the concurrency hint 1, which lets a
// handler's posts to its own context skip the lock). Posting to it from other
// threads stays safe.
class Shard : public asio::io_context {
 public:
  Shard() : asio::io_context(1) {}
  // Destroys the handlers still queued. A handler on one shard may hold a
  // session or table whose socket or timers belong to another, so every shard
  // drops its handlers before any shard is destroyed.
  void discard_handlers() { shutdown(); }
};

// Mozilla's "intermediate" profile (ssl-config.mozilla.org, version 5.7): TLS
// 1.3, and TLS 1.2 with ECDHE key exchange and AEAD ciphers only (no static
// RSA key exchange, no CBC); the client's preference among them.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// The certificate chain and key of `config` in a context of that profile.
// Throws when a file cannot be read or the key does not match.
std::unique_ptr<ssl::context> tls_context(const Config& config) {
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | SSL_OP_NO_RENEGOTIATION);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  if (SSL_CTX_set_cipher_list(ctx->native_handle(), kTls12Ciphers) != 1) {
    throw std::runtime_error("OpenSSL refused the TLS 1.2 cipher list");
  }
  ctx->use_certificate_chain_file(config.tls_cert);
  ctx->use_private_key_file(config.tls_key, ssl::context::pem);
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
    throw std::runtime_error("--tls-key does not match --tls-cert");
  }
  return ctx;
}

struct Server::Impl {
  Config config;
  GameFactory factory;
  std::vector<std::string> games;
  // Sessions still queued in the io_contexts hold address slots: the limiter
  // must outlive them.
  std::unique_ptr<AddressLimiter> limiter;
  // --threads shards, one thread each. Connections are dealt round robin
  // (accepted on shard 0, then living on theirs); the lobby deals tables the
  // same way. Shard 0 also runs the lobby's own work, the cluster, signals
  // and the drain.
  std::vector<std::unique_ptr<Shard>> shards;
  std::size_t next_shard = 0;  // the acceptor's, on shard 0
  asio::io_context& io() { return *shards.front(); }
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::unique_ptr<Store> store;
  std::unique_ptr<Lobby> lobby;
  std::unique_ptr<Cluster> cluster;  // cluster mode only
  std::unique_ptr<Accounts> accounts;  // /api/account (its worker thread)
  // The TLS context new connections get; SIGHUP replaces it (reload_tls).
  // Replaced ones are kept: connections made with them hold on to them.
  std::unique_ptr<ssl::context> tls;
  std::vector<std::unique_ptr<ssl::context>> retired_tls;
  std::optional<tcp::acceptor> acceptor;
  Shared shared;
  std::vector<std::thread> threads;
  std::mutex stop_mutex;
  std::condition_variable stopped_cv;
  bool stopped = false;
  unsigned short port = 0;
  OpenSessions sessions;
  std::atomic<bool> draining{false};
  std::atomic<bool> tables_idle{false};  // the drain's tables have no commit in flight
  std::optional<asio::steady_timer> drain_timer;
  std::chrono::steady_clock::time_point drain_deadline{};

  // SIGHUP: the certificate and key read again for new connections; open ones
  // keep theirs. A file that cannot be read keeps the old pair.
  void reload_tls() {
    if (!tls) return;
    try {
      auto fresh = tls_context(config);
      retired_tls.push_back(std::move(tls));
      tls = std::move(fresh);
      spdlog::info("TLS certificate reloaded from {}", config.tls_cert);
    } catch (const std::exception& e) {
      spdlog::error("TLS certificate not reloaded, the old one stays: {}", e.what());
    }
  }

  void accept() {
    // The socket lives on the next shard; this handler runs on shard 0, as
    // reload_tls does, so `tls` is read and replaced on one thread.
    auto& shard = *shards[next_shard++ % shards.size()];
    acceptor->async_accept(asio::make_strand(shard), [this](beast::error_code ec, tcp::socket socket) {
      if (ec) {
        if (ec != asio::error::operation_aborted) accept();
        return;
      }
      boost::system::error_code ignored;
      // Every frame is a small interactive message: send it at once rather than
      // let Nagle's algorithm hold it for the next one.
      socket.set_option(tcp::no_delay(true), ignored);
      const auto ep = socket.remote_endpoint(ignored);
      const std::string peer = ignored ? "?" : ep.address().to_string();
      const auto& trusted = config.trusted_proxies;
      const bool proxy = std::find(trusted.begin(), trusted.end(), peer) != trusted.end();
      auto slot = proxy ? nullptr : limiter->acquire(peer);
      if (!slot && !proxy) {
        spdlog::warn("refused a connection from {}: too many open", peer);
        socket.close(ignored);
      } else if (tls) {
        start_on_own_shard(std::make_shared<HttpSession<TlsStream>>(
            TlsStream(beast::tcp_stream(std::move(socket)), *tls), shared, std::move(slot), peer));
      } else {
        start_on_own_shard(
            std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(socket)), shared, std::move(slot), peer));
      }
      accept();
    });
  }

  // Every handler of a session runs on its socket's strand, from the first.
  template <class Session>
  static void start_on_own_shard(std::shared_ptr<Session> session) {
    auto executor = session->executor();
    asio::post(executor, [session = std::move(session)] { session->run(); });
  }
};

Server::Server(Config config, GameFactory factory, std::vector<std::string> games) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  for (int i = 0; i < std::max(1, impl_->config.threads); ++i) impl_->shards.push_back(std::make_unique<Shard>());
  impl_->factory = factory ? std::move(factory) : GameFactory(&create_game);
  impl_->games = games.empty() ? game_names() : std::move(games);
}

Server::~Server() {
  stop();
  for (auto& t : impl_->threads) t.join();
  impl_->threads.clear();
  impl_->cluster.reset();
  if (impl_->lobby) impl_->lobby->stop_notifications();
  impl_->accounts.reset();  // its worker waits for the store
  // The store first: its thread may still post completions to the io_context.
  impl_->store.reset();
  impl_->lobby.reset();
  for (auto& shard : impl_->shards) shard->discard_handlers();
}

void Server::start() {
  auto& m = *impl_;
  protocol::set_error_hook(&count_error);  // errors by code, for /metrics
  m.store = std::make_unique<Store>(
      m.config.db, m.config.durability == "normal" ? Durability::normal : Durability::full,
      WalLimits{m.config.wal_checkpoint_pages});
  std::vector<asio::io_context*> table_shards;
  for (auto& shard : m.shards) table_shards.push_back(shard.get());
  m.lobby = std::make_unique<Lobby>(std::move(table_shards), *m.store, m.config, m.factory, m.games);
  if (!m.config.node_id.empty()) {
    m.cluster = std::make_unique<Cluster>(m.io(), *m.store, *m.lobby, m.config);
    m.lobby->set_cluster(m.cluster.get());
  }
  m.limiter = std::make_unique<AddressLimiter>(m.config.max_connections_per_address);
  m.shared = Shared{m.config, m.lobby.get(), m.store.get(), m.limiter.get(), {}, &m.sessions, &m.draining};
  start_http(m.shared, m.games);
  m.accounts = std::make_unique<Accounts>(*m.lobby, *m.store, m.config);
  m.shared.http.accounts = m.accounts.get();
  m.shared.http.draining = &m.draining;
  m.shared.http.cluster = m.cluster.get();
  if (!m.config.tls_cert.empty()) m.tls = tls_context(m.config);
  m.lobby->recover();
  if (m.cluster) m.cluster->start();
  const auto address = asio::ip::make_address(m.config.address);
  m.acceptor.emplace(m.io());
  tcp::endpoint endpoint(address, static_cast<unsigned short>(m.config.port));
  m.acceptor->open(endpoint.protocol());
  m.acceptor->set_option(asio::socket_base::reuse_address(true));
  m.acceptor->bind(endpoint);
  m.acceptor->listen(asio::socket_base::max_listen_connections);
  m.port = m.acceptor->local_endpoint().port();
  for (auto& shard : m.shards) m.work.push_back(asio::make_work_guard(*shard));
  m.accept();
  for (auto& shard : m.shards) m.threads.emplace_back([&io = *shard] { io.run(); });
}

unsigned short Server::port() const { return impl_->port; }

void Server::wait() {
  asio::signal_set signals(impl_->io(), SIGINT, SIGTERM);
  asio::signal_set hangup(impl_->io(), SIGHUP);
  std::function<void(beast::error_code, int)> on_hangup = [&](beast::error_code ec, int) {
    if (ec) return;
    impl_->reload_tls();
    hangup.async_wait(on_hangup);
  };
  hangup.async_wait(on_hangup);
  // The first signal drains; a second one stops at once.
  std::function<void(beast::error_code, int)> on_signal = [&](beast::error_code ec, int) {
    if (ec) return;
    if (draining()) {
      spdlog::warn("second signal: stopping without waiting for the drain");
      stop();
      return;
    }
    drain();
    signals.async_wait(on_signal);
  };
  signals.async_wait(on_signal);
  std::unique_lock lock(impl_->stop_mutex);
  impl_->stopped_cv.wait(lock, [&] { return impl_->stopped; });
  signals.cancel();
  hangup.cancel();
}

void Server::stop() {
  {
    std::lock_guard lock(impl_->stop_mutex);
    if (impl_->stopped) return;
    impl_->stopped = true;
  }
  impl_->work.clear();
  for (auto& shard : impl_->shards) shard->stop();
  impl_->stopped_cv.notify_all();
}

bool Server::draining() const { return impl_->draining.load(); }

void Server::drain() {
  auto& m = *impl_;
  if (m.draining.exchange(true)) return;
  spdlog::info("draining: {} connections, at most {} s", m.sessions.size(), m.config.drain_seconds);
  m.drain_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(m.config.drain_seconds);
  m.lobby->drain([&m] {
    // Every table stopped with its last commit told: now each client hears,
    // after those frames, that it should come back (to another node, or to
    // this one restarted). The delays spread their return over a second.
    auto clients = m.sessions.all();
    const int n = static_cast<int>(clients.size());
    for (int i = 0; i < n; ++i) {
      clients[static_cast<std::size_t>(i)]->send(protocol::reconnect("draining", i * 1000 / n));
      clients[static_cast<std::size_t>(i)]->close();
    }
    m.tables_idle = true;
    spdlog::info("draining: tables stopped, {} clients told to reconnect", n);
  });
  // Polls rather than counts: a session may close on its own at any moment.
  m.drain_timer.emplace(m.io());
  auto check = std::make_shared<std::function<void()>>();
  *check = [this, &m, weak = std::weak_ptr<std::function<void()>>(check)] {
    const bool done = m.tables_idle && m.sessions.size() == 0;
    if (done || std::chrono::steady_clock::now() >= m.drain_deadline) {
      if (!done) spdlog::warn("draining: {} connections still open after {} s; stopping", m.sessions.size(),
                              m.config.drain_seconds);
      stop();
      return;
    }
    m.drain_timer->expires_after(std::chrono::milliseconds(20));
    m.drain_timer->async_wait([this, check = weak.lock()](beast::error_code ec) {
      if (!ec && check) (*check)();
    });
  };
  asio::post(m.io(), [check] { (*check)(); });
}

Store& Server::store() { return *impl_->store; }
Lobby& Server::lobby() { return *impl_->lobby; }
Cluster* Server::cluster() { return impl_->cluster.get(); }

}  // namespace casa::server
