// SPDX-License-Identifier: AGPL-3.0-or-later
// What a client that sends and never reads can make the server hold
// (docs/security.md#network): the bytes queued for one connection stay under
// --max-write-bytes, whatever it sends (pings, list_tables), and such a
// connection is closed. Measured on a real casa_test_server process: its
// resident memory (/proc/PID/status) against a bound of the documented
// per-connection budget times the connections, plus what it held before.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "tests/server/child_server.h"
#include "tests/server/support.h"

using namespace casa::testing;
using nlohmann::json;

namespace {

constexpr long kBudget = 1024 * 1024;  // --max-write-bytes' default (docs/server.md)

// A field of /proc/PID/status in bytes (VmRSS, VmHWM).
long proc_status_bytes(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1)) * 1024;
  }
  return -1;
}

// A WebSocket client on a bare socket: it writes frames and reads only when
// told to, so the server's answers pile up as they would for an attacker.
class RawClient {
 public:
  explicit RawClient(unsigned short port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    // A small receive buffer: the kernel holds little, the server the rest.
    int small = 16 * 1024;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    const std::string upgrade =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    REQUIRE(send_all(upgrade));
    std::string head;
    char ch = 0;
    while (head.find("\r\n\r\n") == std::string::npos && ::recv(fd_, &ch, 1, 0) == 1) head += ch;
    REQUIRE(head.rfind("HTTP/1.1 101", 0) == 0);
  }
  ~RawClient() {
    if (fd_ >= 0) ::close(fd_);
  }

  // A masked frame (mask key 0: the payload goes as it is).
  static std::string frame(unsigned char opcode, const std::string& payload) {
    std::string f;
    f += static_cast<char>(0x80 | opcode);
    if (payload.size() <= 125) {
      f += static_cast<char>(0x80 | payload.size());
    } else {
      REQUIRE(payload.size() <= 0xFFFF);
      f += static_cast<char>(0x80 | 126);
      f += static_cast<char>(payload.size() >> 8);
      f += static_cast<char>(payload.size() & 0xFF);
    }
    f += std::string(4, '\0');
    return f + payload;
  }

  // The server closed its side (FIN or RST came), seen without reading what
  // it sent.
  bool server_closed() const {
    tcp_info info{};
    socklen_t n = sizeof info;
    if (::getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &info, &n) != 0) return true;
    return info.tcpi_state != TCP_ESTABLISHED;
  }

  bool send_all(const std::string& bytes) {
    std::size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return false;
      at += static_cast<std::size_t>(n);
    }
    return true;
  }

  // Reads (now at last) until the server closes the connection or `seconds`
  // pass without a byte; true when it closed. `tail` keeps the last bytes read.
  bool read_until_closed(int seconds, std::string* tail = nullptr) {
    timeval tv{seconds, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::vector<char> buffer(64 * 1024);
    for (;;) {
      const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), 0);
      if (n == 0) return true;
      if (n < 0) return errno == ECONNRESET || errno == EPIPE;
      if (tail) {
        tail->append(buffer.data(), static_cast<std::size_t>(n));
        if (tail->size() > 4096) tail->erase(0, tail->size() - 4096);
      }
    }
  }

 private:
  int fd_ = -1;
};

std::string hello_frame(const std::string& name) {
  return RawClient::frame(0x1, json{{"type", "hello"}, {"version", 1}, {"name", name}}.dump());
}

// A counter of /metrics (0 when absent).
double metric(unsigned short port, const std::string& name) {
  const auto [status, text] = http_get(port, "/metrics");
  REQUIRE(status == 200);
  const auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? 0 : std::stod(text.substr(at + name.size() + 2));
}

// Waits, without reading, until the server has closed every client or its
// peak memory passed `limit` (or 60 s passed: a server that does neither).
void wait_closed_or_over(const std::vector<std::unique_ptr<RawClient>>& clients, pid_t pid, long limit) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && proc_status_bytes(pid, "VmHWM") <= limit) {
    bool open = false;
    for (const auto& c : clients) open = open || (c && !c->server_closed());
    if (!open) return;
    usleep(20 * 1000);
  }
}

// Sends `burst` to each client `rounds` times; a client whose send fails was
// closed by the server and is let go.
void send_rounds(std::vector<std::unique_ptr<RawClient>>& clients, const std::string& burst, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    bool any = false;
    for (auto& c : clients) {
      if (c && !c->send_all(burst)) c.reset();
      any = any || c;
    }
    if (!any) return;
  }
}

// The peak resident memory a child server may reach: what it held before the
// attack, plus the budget for each attacking connection, plus 8 MB for the
// allocator's slack and the connections' own state.
long bound(pid_t pid, int connections) {
  const long before = std::max(proc_status_bytes(pid, "VmHWM"), proc_status_bytes(pid, "VmRSS"));
  return before + connections * kBudget + 8 * 1024 * 1024;
}

}  // namespace

TEST_CASE("ping flood: pongs to a peer that never reads stay under the byte budget; the rate limit closes it") {
  const auto dir = temp_dir("flood-ping");
  // The message budget at its defaults: pings count towards it.
  const auto server = spawn_server(test_db(dir), {"--rate-per-second", "20", "--rate-burst", "40",
                                                  "--handshake-timeout-seconds", "2"});
  constexpr int kConnections = 4;
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < kConnections; ++i) {
    clients.push_back(std::make_unique<RawClient>(server.port));
    REQUIRE(clients.back()->send_all(hello_frame("pinger" + std::to_string(i))));
  }
  const long limit = bound(server.pid, kConnections);
  // 16 MB of 125-byte pings per connection, never reading: the server that
  // answered each at once held about as much again in pongs.
  const std::string ping = RawClient::frame(0x9, std::string(125, 'p'));
  std::string burst;
  for (int i = 0; i < 256; ++i) burst += ping;
  send_rounds(clients, burst, 16 * 1024 * 1024 / static_cast<int>(burst.size()));
  wait_closed_or_over(clients, server.pid, limit);
  const long peak = proc_status_bytes(server.pid, "VmHWM");
  CHECK_MESSAGE(peak <= limit, "peak " << peak / 1024 << " kB over the bound " << limit / 1024 << " kB");
  // Every flooding connection is closed, its last frame a close frame 1008.
  for (auto& c : clients) {
    if (!c) continue;
    CHECK(c->server_closed());
    std::string tail;
    CHECK(c->read_until_closed(5, &tail));
    CHECK(tail.find("\x03\xf0too many messages") != std::string::npos);
  }
  CHECK(metric(server.port, "casa_connections_dropped_total{reason=\"flood\"}") == kConnections);
  kill9(server);
}

TEST_CASE("ping flood without a rate limit: one pong held at most, and the write timeout drops the peer") {
  const auto dir = temp_dir("flood-pong");
  // spawn_server lifts the message budget: only the byte budget and the write
  // timeout stand between the pings and the server's memory.
  const auto server = spawn_server(test_db(dir), {"--write-timeout-seconds", "2"});
  constexpr int kConnections = 4;
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < kConnections; ++i) {
    clients.push_back(std::make_unique<RawClient>(server.port));
    REQUIRE(clients.back()->send_all(hello_frame("pinger" + std::to_string(i))));
  }
  const long limit = bound(server.pid, kConnections);
  const std::string ping = RawClient::frame(0x9, std::string(125, 'p'));
  std::string burst;
  for (int i = 0; i < 256; ++i) burst += ping;
  send_rounds(clients, burst, 16 * 1024 * 1024 / static_cast<int>(burst.size()));
  wait_closed_or_over(clients, server.pid, limit);
  const long peak = proc_status_bytes(server.pid, "VmHWM");
  CHECK_MESSAGE(peak <= limit, "peak " << peak / 1024 << " kB over the bound " << limit / 1024 << " kB");
  for (auto& c : clients) {
    if (c) CHECK(c->server_closed());
  }
  CHECK(metric(server.port, "casa_connections_dropped_total{reason=\"write_timeout\"}") == kConnections);
  kill9(server);
}

TEST_CASE("list_tables to a peer that never reads: the queue is bounded in bytes, not messages") {
  const auto dir = temp_dir("flood-list");
  const auto server = spawn_server(test_db(dir), {"--max-tables-per-player", "1000", "--durability", "normal"});
  // 200 open tables: each list_tables answer is tens of kilobytes.
  {
    WsClient host(server.port);
    host.hello("host");
    for (int i = 0; i < 200; ++i) {
      REQUIRE(create(host, {{"game", "la-casa"}, {"players", 4}})["type"] == "table_created");
    }
  }
  WsClient probe(server.port);
  probe.hello("probe");
  const std::size_t answer = probe.call({{"type", "list_tables"}}).dump().size();
  CHECK(answer > 20 * 1024);

  constexpr int kConnections = 2;
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < kConnections; ++i) {
    clients.push_back(std::make_unique<RawClient>(server.port));
    REQUIRE(clients.back()->send_all(hello_frame("lister" + std::to_string(i))));
  }
  const long limit = bound(server.pid, kConnections);
  // 1000 requests each (under the old 1024-message queue): tens of megabytes
  // of answers if the server queued them all.
  const std::string ask = RawClient::frame(0x1, json{{"type", "list_tables"}}.dump());
  std::string burst;
  for (int i = 0; i < 50; ++i) burst += ask;
  send_rounds(clients, burst, 20);
  wait_closed_or_over(clients, server.pid, limit);
  const long peak = proc_status_bytes(server.pid, "VmHWM");
  CHECK_MESSAGE(peak <= limit, "peak " << peak / 1024 << " kB over the bound " << limit / 1024 << " kB");
  for (auto& c : clients) {
    if (c) CHECK(c->server_closed());
  }
  CHECK(metric(server.port, "casa_connections_dropped_total{reason=\"write_budget\"}") == kConnections);
  // The others are served as before.
  CHECK(probe.call({{"type", "list_tables"}})["type"] == "tables");
  kill9(server);
}
