// SPDX-License-Identifier: AGPL-3.0-or-later
// The frames a client sends (RFC 6455 5.2), read by the session itself instead
// of through Beast's WebSocket read operation: the bytes read from the socket
// land in this reader's buffer, each data frame's payload is unmasked in place
// and joined there to the message it belongs to, and a complete message is
// handed over as a view of that buffer.
//
// It takes and refuses what Beast's stream (server role, no compression, no
// message limit of its own) takes and refuses, with the same error codes and
// the same close codes, so that a client sees the same answers as before: the header checks in Beast's order (reserved bits, opcodes,
// continuation, fragmented or oversized control frames, the mask a client must
// set, non-canonical lengths), text checked as UTF-8 as it arrives, a close
// frame's code and reason validated. One difference, stricter: Beast checks
// that a text message ends on a whole UTF-8 character only when its last frame
// carries bytes; here an empty last frame does not hide half a character (RFC
// 6455 8.1: the connection fails, 1007); a close code above 4999 and a 64-bit
// length with its top bit set fail (1002), where Beast takes the first and
// waits on the second. Control frames are handed over whole, so
// the session answers them (pong, close) as Beast did; `reply_*` build the
// server's frames for that.
//
// The message limit is the server's own: a message whose payload passes
// `max_message` is reported as `too_big` as soon as one byte over it has
// arrived, whatever its frames announce.
//
// Invariants:
//  * Bytes are [0, end_): [msg_begin_, msg_end_) is the message being joined
//    (payload, unmasked), [parse_, end_) bytes not yet parsed; msg_end_ <= parse_.
//  * A message handed over stays valid until the next call of next() or
//    prepare(); nothing else moves the bytes.
//  * Once closing() was called, data frames are read and dropped, pings are not
//    answered, and any close frame (valid or not) ends the reading, as Beast's
//    close handshake does.
//  * release_idle() frees a buffer that holds nothing, so an idle connection
//    keeps none.
#pragma once

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/websocket/detail/frame.hpp>
#include <boost/beast/websocket/detail/utf8_checker.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

namespace casa::server {

class FrameReader {
 public:
  enum class Kind {
    more,      // the frame under way is not all here: read more
    message,   // `payload` is a whole message (`text` or binary)
    ping,      // `payload` is the ping's; answer with reply_pong()
    close,     // the peer's close frame; `close_code` is what to answer
    too_big,   // the message passed max_message
    failed,    // a protocol error: `error` as Beast names it; answer with a
               // close frame of `close_code` (unless closing), then tear down
    closed,    // closing: the peer's close frame (or a bad frame) came; tear down
  };
  struct Step {
    Kind kind = Kind::more;
    std::string_view payload;
    bool text = false;
    boost::beast::error_code error;
    std::uint16_t close_code = 0;
  };

  explicit FrameReader(std::size_t max_message) : max_(max_message) {}

  // Room for at least `n` more bytes at the end of what was read; the bytes
  // read there are then added with commit().
  boost::asio::mutable_buffer prepare(std::size_t n) {
    if (cap_ - end_ < n) {
      compact();
      if (cap_ - end_ < n) {
        const std::size_t cap = std::max(end_ + n, cap_ + cap_ / 2);
        auto bigger = std::make_unique<char[]>(cap);
        if (end_) std::memcpy(bigger.get(), buf_.get(), end_);
        buf_ = std::move(bigger);
        cap_ = cap;
      }
    }
    return {buf_.get() + end_, n};
  }
  void commit(std::size_t n) { end_ += n; }

  // How much the next read should ask for: the rest of the frame under way
  // (at least `least`), so a large message takes few reads, but never more
  // than `most` at a time.
  std::size_t read_size(std::size_t least, std::size_t most) const {
    std::size_t want = least;
    if (in_frame_ && remain_ > end_ - parse_) {
      want = std::max<std::uint64_t>(want, std::min<std::uint64_t>(remain_ - (end_ - parse_) + kMaxHeader, most));
    }
    return want;
  }

  // Frees the buffer when it holds nothing (no message under way, no bytes
  // unparsed), or shrinks it to `keep` bytes when it grew past that.
  void release_idle(std::size_t keep) {
    if (parse_ != end_ || msg_end_ != msg_begin_ || delivered_) return;
    parse_ = end_ = msg_begin_ = msg_end_ = 0;
    if (cap_ > keep) {
      buf_.reset();
      cap_ = 0;
    }
  }
  std::size_t capacity() const { return cap_; }
  bool buffered() const { return parse_ != end_; }

  // From now on data frames are dropped and a close frame ends the reading.
  void closing() { closing_ = true; }

  // Parses what was read as far as it goes.
  Step next() {
    if (delivered_ || closing_) {
      msg_begin_ = msg_end_ = parse_;
      delivered_ = false;
    }
    for (;;) {
      if (!in_frame_) {
        Step s;
        if (!read_header(s)) return s;
        if (s.kind != Kind::more) return s;  // a control frame or an error
        if (!in_frame_) continue;           // an empty frame that ends nothing
      }
      Step s = read_payload();
      if (s.kind != Kind::more || in_frame_) return s;
    }
  }

  // The server's pong for a ping with this payload, as Beast writes it.
  static std::string reply_pong(std::string_view payload) { return control_frame(kOpPong, payload); }
  // The server's keep-alive ping (empty, as Beast's idle ping).
  static std::string reply_ping() { return control_frame(kOpPing, {}); }
  // The server's close frame: the code (none: an empty frame), then the reason.
  static std::string reply_close(std::uint16_t code, std::string_view reason = {}) {
    if (code == boost::beast::websocket::close_code::none) return control_frame(kOpClose, {});
    std::string body;
    body.push_back(static_cast<char>(code >> 8));
    body.push_back(static_cast<char>(code & 0xFF));
    body.append(reason);
    return control_frame(kOpClose, body);
  }

 private:
  using opcode = boost::beast::websocket::detail::opcode;
  using error = boost::beast::websocket::error;
  static constexpr unsigned char kOpClose = 0x8;
  static constexpr unsigned char kOpPing = 0x9;
  static constexpr unsigned char kOpPong = 0xA;
  static constexpr std::size_t kMaxHeader = 14;

  static std::string control_frame(unsigned char op, std::string_view payload) {
    std::string f;
    f.push_back(static_cast<char>(0x80 | op));
    f.push_back(static_cast<char>(payload.size()));  // control payloads are <= 125 bytes
    f.append(payload);
    return f;
  }

  Step fail(boost::beast::error_code ec, std::uint16_t code) {
    Step s;
    s.kind = closing_ ? Kind::closed : Kind::failed;
    s.error = ec;
    s.close_code = code;
    parse_ = end_;  // nothing after a bad frame is read
    in_frame_ = false;
    return s;
  }

  // Beast's parse_fh, check for check. False with s.kind == more when the
  // header is not all here; true with s.kind == more when a data frame's
  // payload follows (in_frame_); otherwise s says what came.
  bool read_header(Step& s) {
    const auto* p = reinterpret_cast<const unsigned char*>(buf_.get()) + parse_;
    const std::size_t avail = end_ - parse_;
    if (avail < 2) return false;
    const unsigned len7 = p[1] & 0x7F;
    std::size_t need = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
    const bool mask = (p[1] & 0x80) != 0;
    if (mask) need += 4;
    if (avail - 2 < need) return false;
    const auto op = static_cast<opcode>(p[0] & 0x0F);
    const bool fin = (p[0] & 0x80) != 0;
    const bool rsv = (p[0] & 0x70) != 0;
    using boost::beast::websocket::close_code;
    const bool control = boost::beast::websocket::detail::is_control(op);
    switch (op) {
      case opcode::binary:
      case opcode::text:
        if (cont_) return (s = fail(error::bad_data_frame, close_code::protocol_error)), true;
        if (rsv) return (s = fail(error::bad_reserved_bits, close_code::protocol_error)), true;
        break;
      case opcode::cont:
        if (!cont_) return (s = fail(error::bad_continuation, close_code::protocol_error)), true;
        if (rsv) return (s = fail(error::bad_reserved_bits, close_code::protocol_error)), true;
        break;
      default:
        if (boost::beast::websocket::detail::is_reserved(op)) {
          return (s = fail(error::bad_opcode, close_code::protocol_error)), true;
        }
        if (!fin) return (s = fail(error::bad_control_fragment, close_code::protocol_error)), true;
        if (len7 > 125) return (s = fail(error::bad_control_size, close_code::protocol_error)), true;
        if (rsv) return (s = fail(error::bad_reserved_bits, close_code::protocol_error)), true;
        break;
    }
    if (!mask) return (s = fail(error::bad_unmasked_frame, close_code::protocol_error)), true;
    if (control && avail - 2 < need + len7) return false;  // a control frame is taken whole
    std::uint64_t len = len7;
    const unsigned char* q = p + 2;
    if (len7 == 126) {
      len = (std::uint64_t{q[0]} << 8) | q[1];
      q += 2;
      if (len < 126) return (s = fail(error::bad_size, close_code::protocol_error)), true;
    } else if (len7 == 127) {
      len = 0;
      for (int i = 0; i < 8; ++i) len = (len << 8) | q[i];
      q += 8;
      // RFC 6455 5.2: the most significant bit of a 64-bit length must be 0.
      if (len >> 63) return (s = fail(error::bad_size, close_code::protocol_error)), true;
      if (len < 65536) return (s = fail(error::bad_size, close_code::protocol_error)), true;
    }
    std::memcpy(key_, q, 4);
    key_at_ = 0;
    parse_ += 2 + need;
    if (control) {
      char* payload = buf_.get() + parse_;
      unmask(payload, len7);
      parse_ += len7;
      return control_step(s, op, std::string_view(payload, len7)), true;
    }
    if (op != opcode::cont) {
      size_ = 0;
      text_ = op == opcode::text;
    } else if (size_ > std::numeric_limits<std::uint64_t>::max() - len) {
      return (s = fail(error::message_too_big, close_code::too_big)), true;
    }
    cont_ = !fin;
    fin_ = fin;
    remain_ = len;
    // An empty frame that is not the last is skipped, as Beast skips it.
    in_frame_ = !(len == 0 && !fin);
    return true;
  }

  void control_step(Step& s, opcode op, std::string_view payload) {
    using boost::beast::websocket::close_code;
    if (op == opcode::pong || (op == opcode::ping && closing_)) return;  // s stays `more`: read on
    if (op == opcode::ping) {
      s.kind = Kind::ping;
      s.payload = payload;
      return;
    }
    boost::beast::websocket::close_reason cr;
    boost::beast::error_code ec;
    boost::beast::websocket::detail::read_close(cr, boost::asio::const_buffer(payload.data(), payload.size()), ec);
    // RFC 6455 7.4: no code above 4999 is defined (Beast lets them through).
    if (!ec && cr.code > 4999) ec = error::bad_close_code;
    if (ec) {
      s = fail(ec, close_code::protocol_error);
      return;
    }
    parse_ = end_;
    s.kind = closing_ ? Kind::closed : Kind::close;
    s.error = error::closed;
    s.close_code = cr.code == close_code::none ? std::uint16_t{close_code::normal} : std::uint16_t(cr.code);
  }

  Step read_payload() {
    Step s;
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(remain_, end_ - parse_));
    // Never look past the first byte over the limit: a message too big is
    // refused as that, whatever its later bytes hold.
    const std::size_t joined = msg_end_ - msg_begin_;
    if (!closing_ && max_ - std::min(max_, joined) + 1 < n) n = max_ - std::min(max_, joined) + 1;
    char* at = buf_.get() + parse_;
    unmask(at, n);
    parse_ += n;
    remain_ -= n;
    if (!closing_) {
      if (msg_end_ != parse_ - n) std::memmove(buf_.get() + msg_end_, at, n);
      if (text_ && !utf8_.write(reinterpret_cast<const std::uint8_t*>(buf_.get() + msg_end_), n)) {
        return fail(error::bad_frame_payload, boost::beast::websocket::close_code::bad_payload);
      }
      msg_end_ += n;
      size_ += n;
      if (msg_end_ - msg_begin_ > max_) {
        s.kind = Kind::too_big;
        closing_ = true;
        return s;
      }
    }
    if (remain_ > 0) return s;  // more
    in_frame_ = false;
    if (!fin_ || closing_) return s;  // more
    if (text_ && !utf8_.finish()) {
      return fail(error::bad_frame_payload, boost::beast::websocket::close_code::bad_payload);
    }
    s.kind = Kind::message;
    s.payload = std::string_view(buf_.get() + msg_begin_, msg_end_ - msg_begin_);
    s.text = text_;
    delivered_ = true;
    return s;
  }

  void unmask(char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<char>(p[i] ^ key_[(key_at_ + i) & 3]);
    key_at_ = (key_at_ + n) & 3;
  }

  // Moves the message under way and the unparsed bytes to the front.
  void compact() {
    if (delivered_) return;  // the message handed over stays where it is
    const std::size_t m = msg_end_ - msg_begin_;
    if (msg_begin_ != 0 && m) std::memmove(buf_.get(), buf_.get() + msg_begin_, m);
    const std::size_t r = end_ - parse_;
    if (parse_ != m && r) std::memmove(buf_.get() + m, buf_.get() + parse_, r);
    msg_begin_ = 0;
    msg_end_ = m;
    parse_ = m;
    end_ = m + r;
  }

  std::size_t max_;
  std::unique_ptr<char[]> buf_;
  std::size_t cap_ = 0;
  std::size_t end_ = 0;
  std::size_t parse_ = 0;
  std::size_t msg_begin_ = 0;
  std::size_t msg_end_ = 0;
  std::uint64_t remain_ = 0;  // payload bytes of the frame under way not yet read
  std::uint64_t size_ = 0;    // payload of the message so far (Beast's rd_size)
  boost::beast::websocket::detail::utf8_checker utf8_;
  unsigned char key_[4] = {};
  unsigned key_at_ = 0;
  bool in_frame_ = false;  // a data frame's header was read, its payload not all
  bool fin_ = false;
  bool cont_ = false;      // a message awaits its continuation frames
  bool text_ = false;
  bool delivered_ = false;
  bool closing_ = false;
};

}  // namespace casa::server
