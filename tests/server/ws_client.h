// SPDX-License-Identifier: AGPL-3.0-or-later
// A synchronous WebSocket test client: one outstanding read always, messages
// queued as they arrive, every one kept in `log` (for schema and leak scans).
// Single-threaded: its io_context runs only inside its own calls.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace casa::testing {

using nlohmann::json;

class WsClient {
 public:
  using Headers = std::vector<std::pair<std::string, std::string>>;
  // `headers` go into the upgrade request (e.g. X-Forwarded-For).
  explicit WsClient(unsigned short port, const Headers& headers = {}) : ws_(io_) {
    namespace asio = boost::asio;
    boost::beast::get_lowest_layer(ws_).connect(
        asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    if (!headers.empty()) {
      ws_.set_option(boost::beast::websocket::stream_base::decorator(
          [headers](boost::beast::websocket::request_type& req) {
            for (const auto& [name, value] : headers) req.set(name, value);
          }));
    }
    ws_.handshake("127.0.0.1", "/ws");
    ws_.read_message_max(16 * 1024 * 1024);
    start_read();
  }
  ~WsClient() {
    boost::beast::error_code ec;
    boost::beast::get_lowest_layer(ws_).socket().close(ec);
  }

  void send_text(const std::string& text) {
    transcript.emplace_back(">>", text);
    // The write may outlive this call (we stop waiting once the connection is
    // closed): its handler must not point into this stack frame, nor the buffer.
    struct Write {
      std::string text;
      bool done = false;
      boost::beast::error_code result;
    };
    auto write = std::make_shared<Write>();
    write->text = text;
    ws_.text(true);
    ws_.async_write(boost::asio::buffer(write->text), [write](boost::beast::error_code ec, std::size_t) {
      write->done = true;
      write->result = ec;
    });
    while (!write->done) {
      io_.restart();
      io_.run_one_for(std::chrono::seconds(5));
      if (!write->done && closed_) break;
    }
    if (write->result) closed_ = true;
  }
  void send(const json& message) { send_text(message.dump()); }
  // One binary frame.
  void send_binary(const std::string& bytes) {
    bool done = false;
    ws_.binary(true);
    ws_.async_write(boost::asio::buffer(bytes), [&](boost::beast::error_code, std::size_t) { done = true; });
    while (!done) {
      io_.restart();
      io_.run_one_for(std::chrono::seconds(5));
      if (!done && closed_) break;
    }
    ws_.text(true);
  }
  // The close frame the server sent (code 0 when none came).
  const boost::beast::websocket::close_reason& close_reason() const { return ws_.reason(); }

  // The next message, or nullopt after `timeout` or when the connection closed.
  std::optional<json> recv(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (inbox_.empty() && !closed_) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) break;
      io_.restart();
      io_.run_one_for(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    }
    if (inbox_.empty()) return std::nullopt;
    json m = std::move(inbox_.front());
    inbox_.pop_front();
    return m;
  }

  // Skips messages until one of type `type` (returned) or timeout (throws).
  json expect(const std::string& type, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      auto m = recv(now < deadline ? std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
                                   : std::chrono::milliseconds(0));
      if (!m) throw std::runtime_error("no '" + type + "' message came");
      if ((*m)["type"] == type) return *m;
    }
  }

  // Sends a request with an id and returns the reply with that id.
  json call(json message, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    message["id"] = ++next_id_;
    send(message);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto now = std::chrono::steady_clock::now();
      auto m = recv(now < deadline ? std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
                                   : std::chrono::milliseconds(0));
      if (!m) throw std::runtime_error("no reply to " + message.dump());
      if (m->contains("id") && (*m)["id"] == next_id_) {
        restore_skipped();
        return *m;
      }
      pushed_back_.push_back(*m);
    }
  }
  // The first message satisfying `pred` within `timeout`, or nullopt; the
  // messages before it that satisfy `keep` (all, when it is empty) stay queued
  // for later recv(), the others are dropped.
  std::optional<json> find(const std::function<bool(const json&)>& pred, std::chrono::milliseconds timeout,
                           const std::function<bool(const json&)>& keep = {}) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::optional<json> found;
    while (!found) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) break;
      auto m = recv(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
      if (!m) break;
      if (pred(*m)) {
        found = std::move(m);
      } else if (!keep || keep(*m)) {
        pushed_back_.push_back(std::move(*m));
      }
    }
    restore_skipped();
    return found;
  }
  // Messages skipped by call(), put back in front for later recv().
  void restore_skipped() {
    while (!pushed_back_.empty()) {
      inbox_.push_front(std::move(pushed_back_.back()));
      pushed_back_.pop_back();
    }
  }

  // hello; returns the welcome.
  json hello(const std::string& name, const std::string& token = "") {
    json m = {{"type", "hello"}, {"version", 1}};
    if (!name.empty()) m["name"] = name;
    if (!token.empty()) m["token"] = token;
    json w = call(m);
    if (w["type"] == "welcome") {
      player_id = w["player_id"];
      token_ = w["token"];
    }
    return w;
  }

  bool closed() {
    // Give pending reads a chance to notice.
    io_.restart();
    io_.poll();
    return closed_;
  }
  // Waits up to `timeout` for the server to close the connection.
  bool wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!closed_ && std::chrono::steady_clock::now() < deadline) {
      io_.restart();
      io_.run_one_for(std::chrono::milliseconds(50));
      inbox_.clear();
    }
    return closed_;
  }

  std::vector<json> log;  // every message received
  std::vector<std::pair<std::string, std::string>> transcript;  // (">>" sent | "<<" received, frame)
  std::string player_id;
  const std::string& token() const { return token_; }

 private:
  void start_read() {
    ws_.async_read(buffer_, [this](boost::beast::error_code ec, std::size_t) {
      if (ec) {
        closed_ = true;
        return;
      }
      std::string text = boost::beast::buffers_to_string(buffer_.data());
      transcript.emplace_back("<<", text);
      json m = json::parse(text, nullptr, false);
      buffer_.consume(buffer_.size());
      log.push_back(m);
      inbox_.push_back(std::move(m));
      start_read();
    });
  }

  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<json> inbox_;
  std::vector<json> pushed_back_;
  bool closed_ = false;
  int next_id_ = 0;
  std::string token_;
};

// One plain HTTP request, with a bearer token and a JSON body when given;
// returns (status, body).
inline std::pair<int, std::string> http_call(unsigned short port, boost::beast::http::verb verb, const std::string& target,
                                             const std::string& token = "", const std::string& body = "") {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  stream.expires_after(std::chrono::seconds(20));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
  return {static_cast<int>(res.result_int()), res.body()};
}

// One plain HTTP GET; returns (status, body).
inline std::pair<int, std::string> http_get(unsigned short port, const std::string& target) {
  return http_call(port, boost::beast::http::verb::get, target);
}

}  // namespace casa::testing
