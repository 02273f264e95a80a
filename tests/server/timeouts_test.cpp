// SPDX-License-Identifier: AGPL-3.0-or-later
// Connection timeouts: a peer that never finishes its handshake, never says
// hello, or stops answering pings is dropped; a live client is not.
#include <doctest/doctest.h>

#include <array>
#include <functional>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = asio::ip::tcp;

void short_timeouts(casa::server::Config& c) {
  c.handshake_timeout_seconds = 1;
  c.idle_timeout_seconds = 1;
}

// Reads raw bytes (never answering anything) until the server closes the
// socket or `limit` passes; true when it closed. `meanwhile` runs every 100 ms.
bool closed_within(tcp::socket& socket, asio::io_context& io, std::chrono::seconds limit,
                   const std::function<void()>& meanwhile = {}) {
  std::array<char, 4096> buffer{};
  bool closed = false;
  std::function<void()> read = [&] {
    socket.async_read_some(asio::buffer(buffer), [&](boost::system::error_code ec, std::size_t) {
      if (ec) {
        closed = true;
      } else {
        read();
      }
    });
  };
  read();
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!closed && std::chrono::steady_clock::now() < deadline) {
    io.restart();
    io.run_for(std::chrono::milliseconds(100));
    if (meanwhile) meanwhile();
  }
  boost::system::error_code ignored;
  socket.cancel(ignored);
  io.restart();
  io.poll();
  return closed;
}

}  // namespace

TEST_CASE("handshake timeout: a connection that sends nothing is closed") {
  TestServer ts(short_timeouts);
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect({asio::ip::make_address("127.0.0.1"), ts.port()});
  CHECK(closed_within(socket, io, 5s));
}

TEST_CASE("handshake timeout: a WebSocket that never says hello is closed") {
  TestServer ts(short_timeouts);
  asio::io_context io;
  websocket::stream<tcp::socket> ws(io);
  ws.next_layer().connect({asio::ip::make_address("127.0.0.1"), ts.port()});
  ws.handshake("127.0.0.1", "/ws");
  CHECK(closed_within(ws.next_layer(), io, 5s));
}

TEST_CASE("idle timeout: a peer that stops answering pings is dropped, a live client stays") {
  TestServer ts(short_timeouts);
  asio::io_context io;
  websocket::stream<tcp::socket> silent(io);
  silent.next_layer().connect({asio::ip::make_address("127.0.0.1"), ts.port()});
  silent.handshake("127.0.0.1", "/ws");
  silent.text(true);
  silent.write(asio::buffer(json{{"type", "hello"}, {"version", 1}, {"name", "mute"}}.dump()));

  WsClient live(ts.port());
  REQUIRE(live.hello("live")["type"] == "welcome");

  // From here the silent peer reads raw bytes and never answers a ping, while
  // the live client keeps reading (its reads answer the server's pings).
  auto pump_live = [&] { live.recv(std::chrono::milliseconds(100)); };
  CHECK(closed_within(silent.next_layer(), io, 6s, pump_live));

  // Three more idle periods: the live client is still served.
  const auto until = std::chrono::steady_clock::now() + 3s;
  while (std::chrono::steady_clock::now() < until) pump_live();
  CHECK_FALSE(live.closed());
  CHECK(live.call({{"type", "ping"}})["type"] == "pong");
}
