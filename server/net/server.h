// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-server as a library: the listener (HTTP + WebSocket, optionally TLS), the
// lobby, the tables and the store, run on a pool of threads. main.cpp and the
// in-process tests both drive it through this class.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server/ops/config.h"
#include "server/lobby/lobby.h"

namespace casa::server {

class Cluster;

class Server {
 public:
  // `factory` and `games` default to the engine's registry; tests add games.
  explicit Server(Config config, GameFactory factory = {}, std::vector<std::string> games = {});
  ~Server();

  // Opens the database, recovers unfinished tables, binds and starts serving.
  // Throws std::runtime_error on failure.
  void start();
  unsigned short port() const;
  // Blocks until stop() (or a signal, when installed by main).
  void wait();
  void stop();
  // Stops gracefully (docs/server.md, "Stopping"): /healthz turns 503, new
  // WebSocket sessions are refused, the tables finish the commits in flight and
  // stop, every client gets `reconnect` after what was acknowledged to it, and
  // then stop() once every connection closed or --drain-seconds passed. Any
  // thread; a second call does nothing.
  void drain();
  bool draining() const;

  Store& store();
  Lobby& lobby();
  // Null unless in cluster mode (--node-id with a PostgreSQL --db).
  Cluster* cluster();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace casa::server
