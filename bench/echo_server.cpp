// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-echo-server: the baseline the game server is measured against.
//
// A plain Boost.Beast asynchronous WebSocket server on one thread that sends
// every message straight back. It does what casa-server must do for each
// message (accept, frame, read, write) and nothing else, so the ratio of the
// two servers' message rates says how much the game logic, JSON and storage
// cost on top of the network stack.
//
// It also answers plain HTTP GET /healthz with "ok" so scripts can wait for it
// the same way they wait for casa-server.
//
// With --fanout, a connection that opens /ws?group=K joins group K, and a
// message from any member goes to every member of its group (the sender
// too), each in one write: a move's traffic at a table of four (one frame in,
// one write to each seat) with nothing else. casa-loadgen --echo --fanout N
// drives it.
//
// Usage: casa-echo-server [--port N] [--address 127.0.0.1] [--fanout]
//   --port 0 picks a free port; the chosen port is printed as "listening on N".
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>

#include <csignal>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cmdline/cmdline.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

class FanoutSession;

// The members of one --fanout group.
struct Group {
  std::vector<std::weak_ptr<FanoutSession>> members;
};
std::map<int, std::shared_ptr<Group>> groups;

// A --fanout connection: every message it reads goes to each member of its
// group, queued behind what that member is still writing.
class FanoutSession : public std::enable_shared_from_this<FanoutSession> {
 public:
  FanoutSession(tcp::socket socket, std::shared_ptr<Group> group) : ws_(std::move(socket)), group_(std::move(group)) {}

  void start(http::request<http::string_body> upgrade) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    group_->members.push_back(weak_from_this());
    ws_.async_accept(upgrade, [self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

  void deliver(const std::shared_ptr<const std::string>& message) {
    queue_.push_back(message);
    if (queue_.size() == 1) write();
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      auto message = std::make_shared<const std::string>(beast::buffers_to_string(self->buffer_.data()));
      self->buffer_.consume(self->buffer_.size());
      for (auto& m : self->group_->members) {
        if (auto member = m.lock()) member->deliver(message);
      }
      self->read();
    });
  }

  void write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->queue_.pop_front();
      if (!self->queue_.empty()) self->write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<Group> group_;
  std::deque<std::shared_ptr<const std::string>> queue_;
};

bool fanout = false;

// One WebSocket connection: reads a message, writes it back, reads the next.
// Only one read and one write are ever outstanding, as Beast requires; the
// echo is strictly request/response so no write queue is needed.
class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket socket) : ws_(std::move(socket)) {}

  void start(http::request<http::string_body> upgrade) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    ws_.async_accept(upgrade, [self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->ws_.text(self->ws_.got_text());
      self->ws_.async_write(self->buffer_.data(),
                            [self](beast::error_code ec2, std::size_t) {
                              if (ec2) return;
                              self->buffer_.consume(self->buffer_.size());
                              self->read();
                            });
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

// Reads the first HTTP request of a connection: an upgrade becomes an
// EchoSession, GET /healthz is answered, anything else gets 404.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  explicit HttpSession(tcp::socket socket) : stream_(std::move(socket)) {}

  void start() {
    stream_.expires_after(std::chrono::seconds(10));
    http::async_read(stream_, buffer_, request_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (!ec) self->dispatch();
                     });
  }

 private:
  void dispatch() {
    if (websocket::is_upgrade(request_)) {
      stream_.expires_never();
      const std::string_view target = request_.target();
      const auto at = target.find("group=");
      if (fanout && at != std::string_view::npos) {
        auto& group = groups[std::atoi(std::string(target.substr(at + 6)).c_str())];
        if (!group) group = std::make_shared<Group>();
        std::make_shared<FanoutSession>(stream_.release_socket(), group)->start(std::move(request_));
        return;
      }
      std::make_shared<EchoSession>(stream_.release_socket())->start(std::move(request_));
      return;
    }
    auto response = std::make_shared<http::response<http::string_body>>();
    response->version(request_.version());
    response->keep_alive(false);
    if (request_.target() == "/healthz") {
      response->result(http::status::ok);
      response->body() = "ok\n";
    } else {
      response->result(http::status::not_found);
      response->body() = "not found\n";
    }
    response->set(http::field::content_type, "text/plain");
    response->prepare_payload();
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code, std::size_t) {
                        beast::error_code ignored;
                        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                      });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
};

class Listener {
 public:
  Listener(asio::io_context& io, tcp::endpoint endpoint) : acceptor_(io) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (!ec) {
        socket.set_option(tcp::no_delay(true));
        std::make_shared<HttpSession>(std::move(socket))->start();
      } else if (ec == asio::error::no_descriptors) {
        // Out of file descriptors: keep listening rather than dying; the
        // client sees its connection refused or timed out.
        std::cerr << "accept: " << ec.message() << "\n";
      }
      if (acceptor_.is_open()) accept();
    });
  }

 private:
  tcp::acceptor acceptor_;
};

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 8090;
  std::string address = "127.0.0.1";
  casa::cmdline::App app{"The floor of a move's network traffic: a WebSocket echo (BENCHMARKS.md).",
                         "casa-echo-server"};
  app.add_option("--port", port, "listen port, 0 for any (8090)");
  app.add_option("--address", address, "listen address (127.0.0.1)");
  app.add_flag("--fanout", fanout,
               "answer each frame with one 360-byte write to each of four connections");
  casa::cmdline::parse(app, argc, argv, 2);

  try {
    asio::io_context io(1);
    Listener listener(io, tcp::endpoint(asio::ip::make_address(address), port));
    listener.accept();
    std::cout << "listening on " << listener.port() << std::endl;

    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int) { io.stop(); });
    io.run();
  } catch (const std::exception& e) {
    std::cerr << "casa-echo-server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
