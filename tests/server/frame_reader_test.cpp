// SPDX-License-Identifier: AGPL-3.0-or-later
// The session's frame reader (server/net/frame_reader.h) against Beast's WebSocket
// stream, the reader it replaced: for each kind of client frame, good and bad,
// the same bytes give the same messages, the same answers written back (pong,
// close frame with its code) and the same error, whether they arrive in one
// read, split in two at every byte boundary, or one byte at a time.
#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "server/net/frame_reader.h"
#include "tests/server/frame_reference.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using casa::server::FrameReader;

using Outcome = casa::test::FrameOutcome;
using casa::test::beast_reads;
using casa::test::reader_reads;

std::string hex(const std::string& s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

}  // namespace

// Found by doctest through the type's namespace, to print an outcome that differs.
namespace casa::test {
std::ostream& operator<<(std::ostream& os, const FrameOutcome& o) {
  os << "messages:";
  for (const auto& [m, text] : o.messages) os << " [" << (text ? "text " : "binary ") << m.size() << "B]";
  return os << " written: " << hex(o.written) << " error: " << o.error.message();
}
}  // namespace casa::test

namespace {

// A client frame: FIN, RSV bits, opcode, then the length in the form asked
// (0: the shortest, 126: 16 bits, 127: 64 bits), the mask key, the payload.
std::string frame(unsigned op, const std::string& payload, bool fin = true, bool mask = true, unsigned rsv = 0,
                  int len_form = 0) {
  std::string f;
  f.push_back(static_cast<char>((fin ? 0x80 : 0) | (rsv << 4) | op));
  const std::uint64_t n = payload.size();
  const int form = len_form ? len_form : n <= 125 ? 0 : n <= 0xFFFF ? 126 : 127;
  const char m = mask ? static_cast<char>(0x80) : 0;
  if (form == 0) {
    f.push_back(static_cast<char>(m | static_cast<char>(n)));
  } else if (form == 126) {
    f.push_back(static_cast<char>(m | 126));
    f.push_back(static_cast<char>(n >> 8));
    f.push_back(static_cast<char>(n & 0xFF));
  } else {
    f.push_back(static_cast<char>(m | 127));
    for (int i = 7; i >= 0; --i) f.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  }
  const unsigned char key[4] = {0x37, 0xfa, 0x21, 0x3d};
  if (mask) f.append(reinterpret_cast<const char*>(key), 4);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    f.push_back(mask ? static_cast<char>(payload[i] ^ static_cast<char>(key[i % 4])) : payload[i]);
  }
  return f;
}

std::string close_payload(std::uint16_t code, const std::string& reason = {}) {
  std::string p;
  p.push_back(static_cast<char>(code >> 8));
  p.push_back(static_cast<char>(code & 0xFF));
  return p + reason;
}

Outcome check_like_beast(const std::string& input) {
  const Outcome expected = beast_reads(input);
  CHECK(reader_reads(input, {}) == expected);
  for (std::size_t k = 1; k < input.size(); ++k) {
    // Every boundary of the headers and the first and last bytes of a large
    // payload; in between, every 997th (each run reads the whole input).
    if (k > 300 && k + 300 < input.size() && k % 997 != 0) continue;
    const Outcome split = reader_reads(input, {k});
    if (!(split == expected)) {
      CAPTURE(k);
      CHECK(split == expected);
    }
  }
  std::vector<std::size_t> bytes;
  for (std::size_t k = 1; k < input.size(); ++k) bytes.push_back(k);
  CHECK(reader_reads(input, bytes) == expected);
  return expected;
}

const std::string kMove = R"({"type":"action","table":"t1","seq":3,"action":{"play":"5C"}})";

}  // namespace

TEST_CASE("frame reader: good frames give Beast's messages, at every split") {
  SUBCASE("one text frame") { check_like_beast(frame(1, kMove)); }
  SUBCASE("two messages and a trailing half frame") { check_like_beast(frame(1, kMove) + frame(1, "{}") + frame(1, "abc").substr(0, 4)); }
  SUBCASE("binary") { check_like_beast(frame(2, std::string("\x01\x02\xff", 3))); }
  SUBCASE("empty text message") { check_like_beast(frame(1, "") + frame(1, "x")); }
  SUBCASE("fragments") { check_like_beast(frame(1, "{\"ty", false) + frame(0, "pe\":", false) + frame(0, "1}")); }
  SUBCASE("empty non-final fragments") { check_like_beast(frame(1, "", false) + frame(0, "", false) + frame(0, "ok")); }
  SUBCASE("16-bit length") { check_like_beast(frame(1, std::string(300, 'a'))); }
  SUBCASE("64-bit length") { check_like_beast(frame(2, std::string(70000, 'b')) + frame(1, "after")); }
  SUBCASE("UTF-8 split across fragments") { check_like_beast(frame(1, "caf\xc3", false) + frame(0, "\xa9 \xe2\x82\xac")); }
  SUBCASE("ping answered with its payload, between and inside messages") {
    check_like_beast(frame(9, "p1") + frame(1, "a", false) + frame(9, "") + frame(0, "b") + frame(9, std::string(125, 'z')));
  }
  SUBCASE("pong ignored") { check_like_beast(frame(10, "x") + frame(1, "m")); }
}

TEST_CASE("frame reader: the client's close frame is answered as Beast answers it") {
  SUBCASE("code and reason") { check_like_beast(frame(8, close_payload(1000, "bye")) + frame(1, "ignored")); }
  SUBCASE("empty close") { check_like_beast(frame(8, "")); }
  SUBCASE("going away") { check_like_beast(frame(1, "m") + frame(8, close_payload(1001))); }
  SUBCASE("private code") { check_like_beast(frame(8, close_payload(4000, "x"))); }
  SUBCASE("one byte") { check_like_beast(frame(8, "\x03")); }
  SUBCASE("reserved code") { check_like_beast(frame(8, close_payload(1005))); }
  SUBCASE("code out of range") { check_like_beast(frame(8, close_payload(999))); }
  SUBCASE("reason not UTF-8") { check_like_beast(frame(8, close_payload(1000, "\xff"))); }
}

TEST_CASE("frame reader: bad frames fail with Beast's error and close code") {
  SUBCASE("unmasked") { check_like_beast(frame(1, "hi", true, false)); }
  SUBCASE("unmasked control") { check_like_beast(frame(9, "hi", true, false)); }
  SUBCASE("reserved data opcode") { check_like_beast(frame(3, "hi")); }
  SUBCASE("reserved control opcode") { check_like_beast(frame(0xB, "hi")); }
  SUBCASE("fragmented ping") { check_like_beast(frame(9, "hi", false)); }
  SUBCASE("control frame over 125 bytes") { check_like_beast(frame(9, std::string(126, 'p'))); }
  SUBCASE("RSV1 on text (no compression)") { check_like_beast(frame(1, "hi", true, true, 4)); }
  SUBCASE("RSV2 on a continuation") { check_like_beast(frame(1, "a", false) + frame(0, "b", true, true, 2)); }
  SUBCASE("RSV3 on a ping") { check_like_beast(frame(9, "a", true, true, 1)); }
  SUBCASE("continuation with no message") { check_like_beast(frame(0, "b")); }
  SUBCASE("new message before the last ended") { check_like_beast(frame(1, "a", false) + frame(1, "b")); }
  SUBCASE("16-bit length for a short payload") { check_like_beast(frame(1, "short", true, true, 0, 126)); }
  SUBCASE("64-bit length for a 16-bit payload") { check_like_beast(frame(1, std::string(200, 'x'), true, true, 0, 127)); }
  SUBCASE("invalid UTF-8") { check_like_beast(frame(1, "ok") + frame(1, "a\xff" "b") + frame(1, "never")); }
  SUBCASE("UTF-8 cut at the message's end") { check_like_beast(frame(1, "caf\xc3")); }
  SUBCASE("overlong UTF-8 in a fragment") { check_like_beast(frame(1, "x", false) + frame(0, "\xc0\xaf")); }
  SUBCASE("binary is not checked as UTF-8") { check_like_beast(frame(2, "\xff\xfe")); }
}

TEST_CASE("frame reader: the server's message limit counts the joined payload") {
  using Kind = FrameReader::Kind;
  auto last_kind = [](const std::string& input, std::size_t max) {
    FrameReader reader(max);
    auto into = reader.prepare(input.size());
    std::memcpy(into.data(), input.data(), input.size());
    reader.commit(input.size());
    FrameReader::Step step;
    do step = reader.next();
    while (step.kind == Kind::message);
    return step.kind;
  };
  CHECK(last_kind(frame(1, std::string(100, 'a')), 100) == Kind::more);
  CHECK(last_kind(frame(1, std::string(101, 'a')), 100) == Kind::too_big);
  CHECK(last_kind(frame(1, std::string(60, 'a'), false) + frame(0, std::string(41, 'a')), 100) == Kind::too_big);
  // Over the limit before the bad byte: too big, not bad UTF-8.
  CHECK(last_kind(frame(1, std::string(101, 'a') + "\xff"), 100) == Kind::too_big);
  // Announced but not sent: refused once a byte over the limit came.
  CHECK(last_kind(frame(1, std::string(70000, 'a')).substr(0, 14 + 50), 100) == Kind::more);
  CHECK(last_kind(frame(1, std::string(70000, 'a')).substr(0, 14 + 101), 100) == Kind::too_big);
}

TEST_CASE("frame reader: while closing, messages and pings are dropped until the close frame") {
  FrameReader reader(1 << 20);
  const std::string input = frame(1, "late") + frame(9, "p") + frame(2, "bin") + frame(8, close_payload(1000));
  reader.closing();
  auto into = reader.prepare(input.size());
  std::memcpy(into.data(), input.data(), input.size());
  reader.commit(input.size());
  const auto step = reader.next();
  CHECK(step.kind == FrameReader::Kind::closed);
  CHECK(step.error == websocket::error::closed);
}

TEST_CASE("frame reader: a read buffer is let go once empty, so an idle connection keeps none") {
  FrameReader reader(1 << 20);
  const std::string input = frame(1, std::string(9000, 'a'));
  auto into = reader.prepare(input.size());
  std::memcpy(into.data(), input.data(), input.size());
  reader.commit(input.size());
  CHECK(reader.next().kind == FrameReader::Kind::message);
  CHECK(reader.next().kind == FrameReader::Kind::more);
  CHECK(reader.capacity() >= 9000);
  reader.release_idle(4096);
  CHECK(reader.capacity() == 0);
}

TEST_CASE("frame reader: half a UTF-8 character before an empty last fragment fails (1007), where Beast let it through") {
  const std::string input = frame(1, "caf\xc3", false) + frame(0, "");
  // Beast checks that the UTF-8 is complete only when the last frame carries bytes.
  const Outcome beast = beast_reads(input);
  REQUIRE(beast.messages.size() == 1);
  CHECK(beast.messages[0].first == "caf\xc3");
  // The reader fails the connection, as RFC 6455 8.1 asks.
  const Outcome reader = reader_reads(input, {});
  CHECK(reader.messages.empty());
  CHECK(reader.error == websocket::error::bad_frame_payload);
  CHECK(reader.written == FrameReader::reply_close(websocket::close_code::bad_payload));
}

TEST_CASE("frame reader: close codes above 4999 fail (1002) and are not echoed, where Beast echoed them") {
  for (const std::uint16_t code : {std::uint16_t{5000}, std::uint16_t{65535}}) {
    const std::string input = frame(8, close_payload(code, "x"));
    // Beast took them for valid codes and sent them back.
    CHECK(beast_reads(input).written == FrameReader::reply_close(code));
    // RFC 6455 7.4: no code above 4999 is defined; the connection fails.
    const Outcome reader = reader_reads(input, {});
    CHECK(reader.error == websocket::error::bad_close_code);
    CHECK(reader.written == FrameReader::reply_close(websocket::close_code::protocol_error));
  }
  // The highest defined code is still echoed.
  CHECK(reader_reads(frame(8, close_payload(4999, "x")), {}).written == FrameReader::reply_close(4999));
}

TEST_CASE("frame reader: a 64-bit length with its top bit set fails at once (1002)") {
  // The header alone: no payload byte has to arrive for the refusal.
  std::string input = "\x81\xff";
  input += '\x80';
  input += std::string(7, '\0');
  input += std::string(4, '\0');  // mask key
  const Outcome reader = reader_reads(input, {}, 1 << 16);
  CHECK(reader.messages.empty());
  CHECK(reader.error == websocket::error::bad_size);
  CHECK(reader.written == FrameReader::reply_close(websocket::close_code::protocol_error));
}
