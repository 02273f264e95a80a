// SPDX-License-Identifier: AGPL-3.0-or-later
// The session reads the client's frames itself (server/net/frame_reader.h): a live
// server takes a message however TCP cuts it, answers a ping in the middle of
// one, and never leaves a connection waiting whenever the next message comes
// (right after the answer, before it, or a little later).
#include <doctest/doctest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <thread>

#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;
using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// A masked client frame (RFC 6455 5.2), FIN set unless `fin` is false.
std::string client_frame(unsigned op, const std::string& payload, bool fin = true) {
  std::string f;
  f.push_back(static_cast<char>((fin ? 0x80 : 0) | op));
  const std::size_t n = payload.size();
  if (n <= 125) {
    f.push_back(static_cast<char>(0x80 | n));
  } else {
    f.push_back(static_cast<char>(0x80 | 126));
    f.push_back(static_cast<char>(n >> 8));
    f.push_back(static_cast<char>(n & 0xFF));
  }
  const char key[4] = {0x11, 0x5a, 0x7f, 0x23};
  f.append(key, 4);
  for (std::size_t i = 0; i < n; ++i) f.push_back(static_cast<char>(payload[i] ^ key[i % 4]));
  return f;
}

}  // namespace

TEST_CASE("read path: a message cut at every byte boundary, a ping inside it, is read whole") {
  TestServer ts;
  const std::string hello = json{{"type", "hello"}, {"version", 1}, {"name", "cut"}}.dump();
  // After the hello (a ping before it gets no pong: docs/security.md), a ping,
  // then a message in two fragments: the session answers the ping (Beast's
  // client reads the pong) and then the message.
  const std::string message = json{{"type", "ping"}, {"id", 7}}.dump();
  const std::string input =
      client_frame(0x9, "p") + client_frame(0x1, message.substr(0, 10), false) + client_frame(0x0, message.substr(10));
  for (std::size_t k = 1; k < input.size(); ++k) {
    CAPTURE(k);
    asio::io_context io;
    websocket::stream<tcp::socket> ws(io);
    ws.next_layer().connect({asio::ip::make_address("127.0.0.1"), ts.port()});
    ws.handshake("127.0.0.1", "/ws");
    ws.next_layer().set_option(tcp::no_delay(true));
    bool ponged = false;
    ws.control_callback([&](websocket::frame_type kind, beast::string_view payload) {
      if (kind == websocket::frame_type::pong && payload == "p") ponged = true;
    });
    const std::string hello_frame = client_frame(0x1, hello);
    asio::write(ws.next_layer(), asio::buffer(hello_frame));
    beast::flat_buffer welcome;
    ws.read(welcome);
    REQUIRE(json::parse(beast::buffers_to_string(welcome.data()))["type"] == "welcome");
    asio::write(ws.next_layer(), asio::buffer(input.data(), k));
    std::this_thread::sleep_for(1ms);  // the rest in a later read
    asio::write(ws.next_layer(), asio::buffer(input.data() + k, input.size() - k));
    beast::flat_buffer buffer;
    ws.read(buffer);
    const json answer = json::parse(beast::buffers_to_string(buffer.data()));
    CHECK(answer["type"] == "pong");
    CHECK(answer["id"] == 7);
    CHECK(ponged);
    ws.close(websocket::close_code::normal);
  }
}

TEST_CASE("read path: the next message at every moment never stalls a connection") {
  TestServer ts([](casa::server::Config& c) {
    c.rate_per_second = 1e6;  // this client is fast on purpose
    c.rate_burst = 1e6;
  });
  WsClient c(ts.port());
  REQUIRE(c.hello("eager")["type"] == "welcome");
  // Right after each answer, many times over.
  for (int i = 0; i < 300; ++i) REQUIRE(c.call({{"type", "ping"}}, 2s)["type"] == "pong");
  // Before the answer: two and three in flight at once.
  for (int i = 0; i < 100; ++i) {
    const int n = 2 + i % 2;
    for (int j = 0; j < n; ++j) c.send({{"type", "ping"}});
    for (int j = 0; j < n; ++j) REQUIRE(c.expect("pong", 2s)["type"] == "pong");
  }
  // A little after the answer, at spread delays.
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(50 * i));
    REQUIRE(c.call({{"type", "ping"}}, 2s)["type"] == "pong");
  }
  CHECK_FALSE(c.closed());
}
