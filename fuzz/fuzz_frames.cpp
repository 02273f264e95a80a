// The session's WebSocket frame reader (server/frame_reader.h) against Beast's
// stream, the reader it replaced: whatever bytes a client sends, cut into reads
// wherever the input says, the reader hands over the same messages, writes the
// same answers (pong, close frame) and ends with the same error as Beast's
// server stream given the same bytes. Any difference aborts.
//
// Input: the first byte picks the read size (1-255 bytes, 0: one read), the
// rest is what the client sends after the opening handshake.
#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "server/frame_reader.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using casa::server::FrameReader;

struct Outcome {
  std::vector<std::pair<std::string, bool>> messages;
  std::string written;
  beast::error_code error;
  bool operator==(const Outcome& o) const {
    return messages == o.messages && written == o.written && error == o.error;
  }
};

Outcome beast_reads(const std::string& input) {
  asio::io_context io;
  beast::test::stream peer(io);
  websocket::stream<beast::test::stream> server(io);
  server.next_layer().connect(peer);
  server.read_message_max(0);
  websocket::stream<beast::test::stream&> client(peer);
  bool accepted = false;
  server.async_accept([&](beast::error_code ec) { accepted = !ec; });
  client.async_handshake("localhost", "/ws", [](beast::error_code) {});
  io.run();
  io.restart();
  if (!accepted) std::abort();
  peer.clear();
  Outcome out;
  beast::flat_buffer buffer;
  // In pieces, as the session read before: a frame announcing a huge length
  // must not make the reference allocate it.
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
  asio::write(peer, asio::buffer(input));
  while (io.poll() > 0) {
  }
  out.written = std::string(peer.str());
  return out;
}

Outcome reader_reads(const std::string& input, std::size_t piece) {
  FrameReader reader(std::size_t{1} << 40);
  Outcome out;
  for (std::size_t at = 0; at < input.size() || at == 0;) {
    const std::size_t n = std::min(piece ? piece : input.size(), input.size() - at);
    auto into = reader.prepare(n);
    if (n) std::memcpy(into.data(), input.data() + at, n);
    reader.commit(n);
    at += n;
    for (;;) {
      const auto step = reader.next();
      if (step.kind == FrameReader::Kind::more) break;
      if (step.kind == FrameReader::Kind::message) {
        out.messages.emplace_back(std::string(step.payload), step.text);
      } else if (step.kind == FrameReader::Kind::ping) {
        out.written += FrameReader::reply_pong(step.payload);
      } else {
        if (step.kind == FrameReader::Kind::close || step.kind == FrameReader::Kind::failed) {
          out.written += FrameReader::reply_close(step.close_code);
        }
        out.error = step.error;
        return out;
      }
    }
    if (n == 0) break;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  Outcome expected = beast_reads(input);
  const Outcome got = reader_reads(input, data[0]);
  // The one place the reader is stricter than Beast: Beast checks that a text
  // message's UTF-8 is complete only when its last frame carries bytes, so a
  // message ending in half a character, then an empty final frame, gets
  // through. The reader fails the connection there (RFC 6455 8.1, 1007).
  for (std::size_t i = 0; i < expected.messages.size(); ++i) {
    const auto& [text, is_text] = expected.messages[i];
    if (is_text && !beast::websocket::detail::check_utf8(text.data(), text.size())) {
      expected.messages.resize(i);
      if (got.error != websocket::error::bad_frame_payload || got.messages != expected.messages ||
          got.written.size() < 4 || got.written.compare(got.written.size() - 4, 4, "\x88\x02\x03\xef") != 0) {
        std::fprintf(stderr, "frame reader let half a UTF-8 character through\n");
        std::abort();
      }
      return 0;
    }
  }
  if (!(got == expected)) {
    std::fprintf(stderr, "frame reader differs from Beast: %zu vs %zu messages, %zu vs %zu bytes written, %s vs %s\n",
                 got.messages.size(), expected.messages.size(), got.written.size(), expected.written.size(),
                 got.error.message().c_str(), expected.error.message().c_str());
    std::abort();
  }
  return 0;
}
