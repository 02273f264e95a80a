// SPDX-License-Identifier: AGPL-3.0-or-later
// The session's WebSocket frame reader (server/net/frame_reader.h) against Beast's
// stream, the reader it replaced: whatever bytes a client sends, cut into reads
// wherever the input says, the reader hands over the same messages, writes the
// same answers (pong, close frame) and ends with the same error as Beast's
// server stream given the same bytes. Any difference aborts.
//
// Input: the first byte picks the read size (1-255 bytes, 0: one read), the
// rest is what the client sends after the opening handshake.
#include <boost/beast/websocket.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tests/server/frame_reference.h"

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using casa::test::FrameOutcome;

// The read size the input asks for, as cuts: every `piece` bytes (0: one read).
std::vector<std::size_t> cuts_every(std::size_t piece, std::size_t size) {
  std::vector<std::size_t> cuts;
  if (piece == 0) return cuts;
  for (std::size_t at = piece; at < size; at += piece) cuts.push_back(at);
  return cuts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  FrameOutcome expected = casa::test::beast_reads(input);
  const FrameOutcome got = casa::test::reader_reads(input, cuts_every(data[0], input.size()));
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
  // The two other places where it is stricter: a close code above 4999, which
  // Beast takes (RFC 6455 7.4: none is defined), and a 64-bit length with its
  // top bit set, on which Beast waits for more bytes (RFC 6455 5.2). The reader
  // hands over the same messages, then fails the connection with 1002.
  // (Beast may also read into such a frame's payload and stop on something else
  // there: then the input has the masked 127 length marker, 0xFF, before a byte
  // with its top bit set.)
  const bool top_bit_length =
      got.error == websocket::error::bad_size && expected.error != websocket::error::bad_size &&
      input.find_first_of('\xff') != std::string::npos && [&] {
        for (std::size_t i = 0; i + 1 < input.size(); ++i)
          if (static_cast<unsigned char>(input[i]) == 0xff && (static_cast<unsigned char>(input[i + 1]) & 0x80)) return true;
        return false;
      }();
  if ((got.error == websocket::error::bad_close_code && expected.error == websocket::error::closed) ||
      top_bit_length) {
    const std::string_view protocol_error = "\x88\x02\x03\xea";
    const std::string_view written = got.written;
    if (got.messages != expected.messages || !written.ends_with(protocol_error) ||
        expected.written.compare(0, written.size() - 4, written.substr(0, written.size() - 4)) != 0) {
      std::fprintf(stderr, "frame reader failed a close code or length differently from Beast's stream\n");
      std::abort();
    }
    return 0;
  }
  if (!(got == expected)) {
    std::fprintf(stderr, "frame reader differs from Beast: %zu vs %zu messages, %zu vs %zu bytes written, %s vs %s\n",
                 got.messages.size(), expected.messages.size(), got.written.size(), expected.written.size(),
                 got.error.message().c_str(), expected.error.message().c_str());
    std::abort();
  }
  return 0;
}
