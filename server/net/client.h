// SPDX-License-Identifier: AGPL-3.0-or-later
// What the lobby and the tables see of a connection: a thread-safe way to send
// it frames and to close it. Sessions (server/net/server.cpp) implement it; tests can
// too. player_id is set by the lobby when `hello` succeeds and only read on the
// connection's own message path afterwards.
//
// A Frame is an immutable serialised message shared by every recipient of the
// same bytes: a table serialises an event once per audience, not once per seat.
#pragma once

#include <memory>
#include <string>

namespace casa::server {

using Frame = std::shared_ptr<const std::string>;

inline Frame make_frame(std::string text) { return std::make_shared<const std::string>(std::move(text)); }

class Client {
 public:
  virtual ~Client() = default;
  // Queues a text frame. Any thread.
  virtual void send(Frame frame) = 0;
  void send(std::string frame) { send(make_frame(std::move(frame))); }
  // Closes the connection after the queued frames. Any thread.
  virtual void close() = 0;
  virtual std::string address() const = 0;
  // True for a connection held by another node of a cluster (docs/cluster.md).
  virtual bool remote() const { return false; }

  std::string player_id;  // empty until welcomed
  // The SHA-256 (hex) of the session token it said hello with (set with
  // player_id): a player has one connection per session (docs/accounts.md).
  std::string session;
  // Protocol features the connection asked for in `hello` and the server
  // granted (docs/protocol.md, "Features"). Set with player_id, read after.
  bool view_patch = false;  // requests may carry view_patch instead of view
  // The lobby's own note of the table this connection's last table-bound
  // message went to, so the next one (a move, usually) finds it without
  // taking the lobby's lock (Lobby::find_table). Read and written only while
  // the lobby handles one of this connection's messages, which it does one
  // at a time.
  std::weak_ptr<void> last_table;
};

}  // namespace casa::server
