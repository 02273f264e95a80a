// A stream layer under the WebSocket stream that gathers the bytes of several
// frames into one socket write. A session holds it while it hands its queued
// frames to the WebSocket stream, then releases it: everything gathered goes
// out in one write (one system call, often one TCP segment) instead of one per
// frame. The frames on the wire are exactly those the WebSocket stream wrote,
// in the same order: the protocol does not change.
//
// Invariants:
//  * At most one write to the next layer is in flight; bytes are written in
//    the order the WebSocket stream handed them over.
//  * Outside a hold (a pong, a ping, a close frame), bytes are written at once.
//  * A write handed over always completes at once (posted); a failed socket
//    write fails every later one, and every waiter hears of it.
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
#include <boost/beast/websocket/teardown.hpp>

#include <functional>
#include <memory>
#include <string>
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

  // Ends the hold and writes everything gathered; `done` runs (posted) once
  // it is on the socket, or with the error that stopped it.
  void release(Waiter done) {
    state_->held = false;
    when_written(std::move(done));
  }

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
  struct State {
    CoalescingStream* stream = nullptr;  // null once the stream is gone
    std::string pending;                 // gathered, not yet handed to the socket
    std::string writing;                 // in flight
    std::vector<Waiter> waiters;
    boost::beast::error_code error;
    bool held = false;
    bool in_flight = false;
  };

  void start_write() {
    auto state = state_;
    state->stream = this;
    state->in_flight = true;
    state->writing.swap(state->pending);
    std::string().swap(state->pending);
    boost::asio::async_write(next_, boost::asio::buffer(state->writing),
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
