// SPDX-License-Identifier: AGPL-3.0-or-later
// The session's WebSocket frame reader (server/net/frame_reader.h) and Beast's
// server stream, the reader it replaced, fed the same client bytes: what each
// hands over (messages), writes back (pong, close frame) and how it stops.
// Shared by the reader's tests (tests/server/frame_reader_test.cpp) and its
// fuzz target (fuzz/fuzz_frames.cpp), so that both compare against one
// reference.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "server/net/frame_reader.h"

namespace casa::test {

struct FrameOutcome {
  std::vector<std::pair<std::string, bool>> messages;  // payload, text
  std::string written;                                 // what the server wrote back
  boost::beast::error_code error;                      // how reading ended ({}: still reading)

  bool operator==(const FrameOutcome& o) const {
    return messages == o.messages && written == o.written && error == o.error;
  }
};

// What Beast's server stream makes of `input` (opening handshake done, no
// message limit, as the server ran it). It reads in pieces of at most 512
// bytes, as the session did, so that a frame announcing a huge length does not
// make the reference allocate it.
inline FrameOutcome beast_reads(const std::string& input) {
  namespace beast = boost::beast;
  boost::asio::io_context io;
  beast::test::stream peer(io);
  beast::websocket::stream<beast::test::stream> server(io);
  server.next_layer().connect(peer);
  server.read_message_max(0);
  beast::websocket::stream<beast::test::stream&> client(peer);
  bool accepted = false;
  server.async_accept([&](beast::error_code ec) { accepted = !ec; });
  client.async_handshake("localhost", "/ws", [](beast::error_code) {});
  io.run();
  io.restart();
  if (!accepted) throw std::runtime_error("the reference stream refused the opening handshake");
  peer.clear();

  FrameOutcome out;
  beast::flat_buffer buffer;
  std::function<void()> read = [&] {
    server.async_read_some(buffer, 512, [&](beast::error_code ec, std::size_t) {
      if (ec) {
        out.error = ec;
        return;
      }
      if (server.is_message_done()) {
        out.messages.emplace_back(beast::buffers_to_string(buffer.data()), server.got_text());
        buffer.consume(buffer.size());
      }
      read();
    });
  };
  read();
  boost::asio::write(peer, boost::asio::buffer(input));
  while (io.poll() > 0) {
  }
  out.written = std::string(peer.str());
  return out;
}

// What the session's reader makes of `input`, delivered in reads that end at
// `cuts` (then the rest), with the session's answers: a pong for a ping, a
// close frame for a close or an error.
inline FrameOutcome reader_reads(const std::string& input, const std::vector<std::size_t>& cuts,
                                 std::size_t max = std::size_t{1} << 40) {
  using casa::server::FrameReader;
  FrameReader reader(max);
  FrameOutcome out;
  std::size_t at = 0;
  std::vector<std::size_t> ends = cuts;
  ends.push_back(input.size());
  for (std::size_t end : ends) {
    const std::size_t n = end - at;
    auto into = reader.prepare(n);
    if (n) std::memcpy(into.data(), input.data() + at, n);
    reader.commit(n);
    at = end;
    for (;;) {
      const auto step = reader.next();
      if (step.kind == FrameReader::Kind::more) break;
      switch (step.kind) {
        case FrameReader::Kind::message:
          out.messages.emplace_back(std::string(step.payload), step.text);
          continue;
        case FrameReader::Kind::ping:
          out.written += FrameReader::reply_pong(step.payload);
          continue;
        case FrameReader::Kind::close:
        case FrameReader::Kind::failed:
          out.written += FrameReader::reply_close(step.close_code);
          out.error = step.error;
          return out;
        default:
          out.error = step.error;
          return out;
      }
    }
  }
  return out;
}

}  // namespace casa::test
