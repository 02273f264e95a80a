// SPDX-License-Identifier: AGPL-3.0-or-later
// A stream layer under the WebSocket stream that gathers the bytes of several
// frames into one socket write. A session holds it while it hands its queued
// frames to the WebSocket stream, then releases it: everything gathered goes
// out in one write (one system call, often one TCP segment) instead of one per
// frame. The frames on the wire are exactly those the WebSocket stream wrote,
// in the same order: the protocol does not change.
//
// The session also hands it whole text messages (gather_text): their frames
// are built here, as the WebSocket stream builds a server's frames (RFC 6455
// 5.2: unmasked, no compression, split into frames of at most
// kMaxFramePayload bytes like Beast's auto-fragmenting), without the stream's
// per-message write machinery. Control frames (ping, pong, close) come whole
// from the session (write_frame), which reads the client's frames itself
// (server/net/frame_reader.h); each lands whole between two messages.
//
// Invariants:
//  * At most one write to the next layer is in flight; bytes are written in
//    the order the WebSocket stream handed them over.
//  * Outside a hold (a pong, a ping, a close frame), bytes are written at once.
//  * A write handed over always completes at once (posted); a failed socket
//    write fails every later one, and every waiter hears of it.
//  * On a plain TCP socket, bytes the socket takes at once are written
//    without an asynchronous operation (start_write); the rest, or a
//    failure, goes through one as before.
//  * An idle connection keeps no buffer: both are released after each write.
//  * Teardown (the end of a WebSocket close) waits until everything gathered
//    was written.
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/teardown.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace casa::server {

template <class Next>
class CoalescingStream {
 public:
  using executor_type = typename Next::executor_type;
  using next_layer_type = Next;
  using Waiter = std::function<void(boost::beast::error_code)>;

  explicit CoalescingStream(Next&& next) : next_(std::move(next)), state_(std::make_shared<State>()) {}
  CoalescingStream(CoalescingStream&&) = default;
  ~CoalescingStream() {
    if (state_) state_->stream = nullptr;  // a write still in flight finds nobody to continue
  }

  Next& next_layer() { return next_; }
  const Next& next_layer() const { return next_; }
  executor_type get_executor() noexcept { return next_.get_executor(); }

  template <class Buffers, class Token>
  auto async_read_some(const Buffers& buffers, Token&& token) {
    return next_.async_read_some(buffers, std::forward<Token>(token));
  }

  template <class Buffers, class Token>
  auto async_write_some(const Buffers& buffers, Token&& token) {
    return boost::asio::async_initiate<Token, void(boost::beast::error_code, std::size_t)>(
        [this](auto handler, const Buffers& b) {
          const boost::beast::error_code ec = state_->error;
          std::size_t n = 0;
          if (!ec) {
            n = boost::asio::buffer_size(b);
            const auto at = state_->pending.size();
            state_->pending.resize(at + n);
            boost::asio::buffer_copy(boost::asio::buffer(state_->pending.data() + at, n), b);
            if (!state_->held && !state_->in_flight) start_write();
          }
          boost::asio::post(get_executor(), boost::beast::bind_front_handler(std::move(handler), ec, n));
        },
        token, buffers);
  }

  // Gathers what the WebSocket stream writes from now on, until release().
  void hold() { state_->held = true; }

  // The largest payload of one frame: Beast's default write buffer, at which
  // its stream splits a server's message into several frames.
  static constexpr std::size_t kMaxFramePayload = 4096;

  // Adds the frames of one text message to what is held (call between hold()
  // and release()). Nothing is added once a socket write has failed.
  void gather_text(std::string_view message) {
    auto& out = state_->pending;
    if (state_->error) return;
    out.reserve(out.size() + message.size() + 10 * (1 + message.size() / kMaxFramePayload));
    bool first = true;
    do {
      const std::size_t n = std::min(message.size(), kMaxFramePayload);
      const bool fin = n == message.size();
      append_frame_header(out, fin, first ? kOpText : kOpContinuation, n);
      out.append(message.data(), n);
      message.remove_prefix(n);
      first = false;
    } while (!message.empty());
  }

  // Adds a frame the session built whole (a pong, a ping, a close frame)
  // after everything handed over before it; written at once outside a hold.
  // Nothing is added once a socket write has failed.
  void write_frame(std::string_view frame) {
    if (state_->error) return;
    state_->pending.append(frame);
    if (!state_->held && !state_->in_flight) start_write();
  }

  // Ends the hold and writes everything gathered; `done` runs (posted) once
  // it is on the socket, or with the error that stopped it.
  void release(Waiter done) {
    state_->held = false;
    when_written(std::move(done));
  }

  // Bytes gathered and not yet taken by the socket (what a peer that does not
  // read makes the server hold for it).
  std::size_t buffered() const { return state_->pending.size() + state_->writing.size(); }
  // Nothing in flight and nothing gathered: a frame written now goes out at once.
  bool idle() const { return !state_->in_flight && state_->pending.empty(); }
  bool in_flight() const { return state_->in_flight; }
  // When the write now in flight was handed to the socket.
  std::chrono::steady_clock::time_point write_started() const { return state_->write_started; }

  // `done` runs (posted) once nothing gathered is left to write.
  void when_written(Waiter done) {
    auto& s = *state_;
    if (!s.in_flight && !s.pending.empty() && !s.error) start_write();
    if (!s.in_flight) {
      boost::asio::post(get_executor(), [done = std::move(done), ec = s.error] { done(ec); });
      return;
    }
    s.waiters.push_back(std::move(done));
  }

 private:
  static constexpr unsigned char kOpContinuation = 0x0;
  static constexpr unsigned char kOpText = 0x1;

  // RFC 6455 5.2: FIN, opcode, then the payload length in 7 bits, or 126 and
  // 16 bits, or 127 and 64 bits (network order); no mask bit from a server.
  static void append_frame_header(std::string& out, bool fin, unsigned char op, std::size_t n) {
    char h[10];
    std::size_t len = 2;
    h[0] = static_cast<char>((fin ? 0x80 : 0x00) | op);
    if (n <= 125) {
      h[1] = static_cast<char>(n);
    } else if (n <= 0xFFFF) {
      h[1] = 126;
      h[2] = static_cast<char>(n >> 8);
      h[3] = static_cast<char>(n & 0xFF);
      len = 4;
    } else {
      h[1] = 127;
      for (int i = 0; i < 8; ++i) h[2 + i] = static_cast<char>((static_cast<std::uint64_t>(n) >> (56 - 8 * i)) & 0xFF);
      len = 10;
    }
    out.append(h, len);
  }

  struct State {
    CoalescingStream* stream = nullptr;  // null once the stream is gone
    std::string pending;                 // gathered, not yet handed to the socket
    std::string writing;                 // in flight
    std::vector<Waiter> waiters;
    boost::beast::error_code error;
    bool held = false;
    bool in_flight = false;
    std::chrono::steady_clock::time_point write_started{};
  };

  void start_write() {
    auto state = state_;
    state->stream = this;
    state->write_started = std::chrono::steady_clock::now();
    std::size_t sent = 0;
    if constexpr (std::is_same_v<Next, boost::beast::tcp_stream>) {
      // A plain TCP socket (non-blocking, server/net/server.cpp) usually takes
      // a move's few kilobytes at once: written here, with no asynchronous
      // operation, no completion to run and no buffer kept. Only what the
      // socket did not take (it is full, or failed) goes the asynchronous way,
      // which reports a failure as before.
      auto& socket = next_.socket();
      if (socket.non_blocking()) {
        boost::beast::error_code ec;
        sent = socket.write_some(boost::asio::buffer(state->pending), ec);
        if (ec) sent = 0;
        if (sent == state->pending.size()) {
          std::string().swap(state->pending);
          return;
        }
      }
    }
    state->in_flight = true;
    state->writing.swap(state->pending);
    std::string().swap(state->pending);
    boost::asio::async_write(next_, boost::asio::buffer(state->writing.data() + sent, state->writing.size() - sent),
                             [state](boost::beast::error_code ec, std::size_t) { on_written(state, ec); });
  }

  static void on_written(const std::shared_ptr<State>& state, boost::beast::error_code ec) {
    state->in_flight = false;
    std::string().swap(state->writing);
    if (ec) {
      state->error = ec;
      std::string().swap(state->pending);
    }
    if (!ec && state->stream && !state->pending.empty() && !state->held) {
      state->stream->start_write();
      return;
    }
    if (state->in_flight || (!state->pending.empty() && !ec)) return;
    auto waiters = std::move(state->waiters);
    state->waiters.clear();
    for (auto& w : waiters) w(state->error);
  }

  Next next_;
  std::shared_ptr<State> state_;
};

// The WebSocket close ends with a teardown of the next layer: only after the
// close frame (and anything before it) left.
template <class Next, class Handler>
void async_teardown(boost::beast::role_type role, CoalescingStream<Next>& stream, Handler&& handler) {
  auto h = std::make_shared<std::decay_t<Handler>>(std::forward<Handler>(handler));
  stream.when_written([role, &stream, h](boost::beast::error_code) {
    using boost::beast::websocket::async_teardown;
    async_teardown(role, stream.next_layer(), std::move(*h));
  });
}

template <class Next>
void teardown(boost::beast::role_type role, CoalescingStream<Next>& stream, boost::beast::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

}  // namespace casa::server
