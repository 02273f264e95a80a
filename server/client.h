// What the lobby and the tables see of a connection: a thread-safe way to send
// it frames and to close it. Sessions (server/net.cpp) implement it; tests can
// too. player_id is set by the lobby when `hello` succeeds and only read on the
// connection's own message path afterwards.
#pragma once

#include <memory>
#include <string>

namespace casa::server {

class Client {
 public:
  virtual ~Client() = default;
  // Queues a text frame. Any thread.
  virtual void send(std::string frame) = 0;
  // Closes the connection after the queued frames. Any thread.
  virtual void close() = 0;
  virtual std::string address() const = 0;

  std::string player_id;  // empty until welcomed
};

}  // namespace casa::server
