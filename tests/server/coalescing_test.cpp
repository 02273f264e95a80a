// SPDX-License-Identifier: AGPL-3.0-or-later
// The WebSocket frames a session builds in its CoalescingStream are byte for
// byte those Beast's WebSocket stream writes for the same messages, and a
// batch of them leaves in one write.
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/websocket.hpp>

#include <string>
#include <vector>

#include "server/net/coalescing_stream.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using TestStream = beast::test::stream;
using Coalescing = casa::server::CoalescingStream<TestStream>;

// A server-side WebSocket stream over a CoalescingStream, open (handshake
// done) with a client whose raw input `peer` shows every byte the server wrote.
struct Pair {
  asio::io_context io;
  TestStream peer{io};
  websocket::stream<Coalescing> server{Coalescing(TestStream(io))};
  websocket::stream<TestStream&> client{peer};

  Pair() {
    server.next_layer().next_layer().connect(peer);
    server.text(true);
    bool accepted = false, shook = false;
    server.async_accept([&](beast::error_code ec) { accepted = !ec; });
    client.async_handshake("localhost", "/ws", [&](beast::error_code ec) { shook = !ec; });
    io.run();
    io.restart();
    REQUIRE(accepted);
    REQUIRE(shook);
    peer.clear();
  }

  // What the peer receives when the server writes `messages`.
  std::string written_by_beast(const std::vector<std::string>& messages) {
    for (const auto& m : messages) {
      bool ok = false;
      server.async_write(asio::buffer(m), [&](beast::error_code ec, std::size_t) { ok = !ec; });
      io.run();
      io.restart();
      REQUIRE(ok);
    }
    return take();
  }

  std::string gathered(const std::vector<std::string>& messages) {
    auto& out = server.next_layer();
    out.hold();
    for (const auto& m : messages) out.gather_text(m);
    bool ok = false;
    out.release([&](beast::error_code ec) { ok = !ec; });
    io.run();
    io.restart();
    REQUIRE(ok);
    return take();
  }

  std::string take() {
    std::string bytes(peer.str());
    peer.clear();
    return bytes;
  }
};

}  // namespace

TEST_CASE("gathered text frames are the bytes Beast's WebSocket stream writes") {
  Pair pair;
  // Every length form (7-bit, 16-bit, 64-bit) and the 4096-byte fragment limit.
  for (const std::size_t n : {0, 1, 125, 126, 127, 1000, 4095, 4096, 4097, 8192, 8193, 65535, 65536, 70000}) {
    std::string message(n, 'x');
    for (std::size_t i = 0; i < n; ++i) message[i] = static_cast<char>('a' + i % 26);
    INFO("message of " << n << " bytes");
    const std::string beast_bytes = pair.written_by_beast({message});
    CHECK(beast_bytes.size() > n);
    CHECK(pair.gathered({message}) == beast_bytes);
  }
  // A batch is the frames of its messages, in order.
  const std::vector<std::string> batch = {R"({"type":"accepted"})", std::string(5000, 'v'), "{}"};
  const std::string one_by_one = pair.written_by_beast(batch);
  CHECK(pair.gathered(batch) == one_by_one);
}

TEST_CASE("a batch of gathered frames is one write to the next layer") {
  Pair pair;
  auto& tcp = pair.server.next_layer().next_layer();
  const std::size_t writes_before = tcp.nwrite();
  pair.gathered({"one", "two", std::string(300, 't')});
  CHECK(tcp.nwrite() - writes_before == 1);
}
