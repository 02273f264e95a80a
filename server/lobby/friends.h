// SPDX-License-Identifier: AGPL-3.0-or-later
// Friends and their invitations to tables (docs/accounts.md#friends).
//
//  * A player with an account adds another account by its handle; the two are
//    friends once each added the other. Only then does either see whether the
//    other is online and at which tables (public ones, and private ones the
//    viewer may reach anyway), and may invite the other.
//  * An invitation is kept in memory (a restart forgets it, as it forgets a
//    waiting event's) from invite_friend until it is settled: the friend sits
//    down at the table (accepted), declines, the table starts or ends, or the
//    one who invited leaves it. It goes to every open connection of the
//    friend, again at each hello of theirs, and its settling to both sides.
//  * Thread-safe: called from the network threads, the tables' strands and
//    HTTP handlers. Its lock is never held while calling into the lobby.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include "server/net/client.h"
#include "server/store/friend_rows.h"

namespace casa::server {

class Lobby;
class Table;

class Friends {
 public:
  explicit Friends(Lobby& lobby) : lobby_(lobby) {}
  ~Friends();  // waits for the request being answered

  // Runs `job` on the friends' one worker thread, where the HTTP requests
  // are answered (they read and write the store synchronously, never on a
  // network thread). False, and nothing run, past kMaxQueued waiting jobs.
  bool run(std::function<void()> job);
  static constexpr int kMaxQueued = 64;

  // ---- HTTP: /api/account/friends (the caller is authenticated) ----
  // Each returns the JSON body and sets the HTTP status.
  nlohmann::json list(const std::string& player_id, int& status);
  nlohmann::json add(const std::string& player_id, const std::string& handle, int& status);
  nlohmann::json remove(const std::string& player_id, const std::string& handle, int& status);

  // ---- WebSocket ----
  // invite_friend by a welcomed client, for `table` (found and reachable).
  void invite(const std::shared_ptr<Client>& client, Table& table, const std::string& handle,
              const std::optional<nlohmann::json>& id);
  // decline_table_invitation.
  void decline(const std::shared_ptr<Client>& client, const std::string& invitation,
               const std::optional<nlohmann::json>& id);
  // A connection of a player said hello: their open invitations, again.
  void welcomed(const std::shared_ptr<Client>& client);

  // ---- the tables' life (from the lobby, never under its lock) ----
  void seat_changed(const std::string& player_id, const std::string& table, bool seated);
  void table_started(const std::string& table);
  void table_ended(const std::string& table);

  // At most this many friends added per player, and open invitations sent.
  static constexpr std::int64_t kMaxFriends = 200;
  static constexpr std::size_t kMaxInvitations = 20;
  // Friends added (or handles tried): 10 at once, then one a minute, so the
  // list is no way to test many handles.
  static constexpr double kAddBurst = 10;
  static constexpr double kAddRefillSeconds = 60;

 private:
  struct Bucket {
    double tokens = kAddBurst;
    std::chrono::steady_clock::time_point at{};
    bool take();
  };
  void invite_now(const std::shared_ptr<Client>& client, Table& table, const std::string& handle,
                  const std::optional<nlohmann::json>& id);
  // {online, tables}: what `viewer` may see of a friend's whereabouts.
  nlohmann::json presence(const std::string& viewer, const std::string& player_id);
  nlohmann::json entry_json(const std::string& viewer, const friend_rows::Entry& e);
  struct Invitation {
    std::string id;
    std::string table;
    std::string from;
    std::string to;
    Frame frame;  // the table_invitation the friend gets
  };
  // Settles every invitation `match` picks: both sides get
  // table_invitation_closed with `reason` (the reply carries `id` to `replier`).
  template <class Match>
  void close(Match match, const std::string& reason, const std::shared_ptr<Client>& replier = nullptr,
             const std::optional<nlohmann::json>& id = std::nullopt);

  Lobby& lobby_;
  std::mutex mutex_;
  std::map<std::string, Invitation> invitations_;  // by id
  std::map<std::string, Bucket> adds_;              // by player id
  std::atomic<int> queued_{0};
  boost::asio::thread_pool worker_{1};  // last: joined first
};

}  // namespace casa::server
