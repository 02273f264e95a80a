// SPDX-License-Identifier: AGPL-3.0-or-later
// Duplicate events (docs/events.md): U sides of one game (the game's teams, or
// each seat alone) play the same boards (one seed each) at U tables, the sides
// rotated so that each side holds every seat group of every board once. Each
// rotation plays its boards in order, one ordinary table per board; results are
// scored against the field from the stored results of those tables.
//
// Invariants:
//  * An event's row and every (board, rotation) -> table row are stored before
//    the table itself, so recovery finds every table an event ever opened, and
//    reopens with the same id one whose own row was lost.
//  * While an event runs, its tables refuse spectators and their replays are
//    withheld; a board's scores appear in describe() only once every rotation
//    has finished that board (HTTP callers are anonymous, so "finished by
//    everyone" is the only rule that hides a board from a table still to play it).
//  * Standings are recomputed on every describe() from the stored results.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "server/net/client.h"
#include "server/store/store.h"

namespace casa::server {

class TournamentHost;

struct EventMember {
  std::string player_id;  // a human, or
  std::string bot;        // a server bot
};

struct EventSide {
  std::string name;
  // members[k][i]: who sits in the i-th seat of the side's seat group at rotation k.
  std::vector<std::vector<EventMember>> members;
};

struct EventSpec {
  std::string id;
  std::string game;
  int players = 0;
  nlohmann::json options = nlohmann::json::object();
  int boards = 0;
  std::vector<std::uint64_t> seeds;  // one per board
  std::vector<EventSide> sides;
  std::vector<std::vector<int>> groups;  // the game's seat groups (teams), in the engine's order
  std::string creator;
  bool over = false;
  // tables[b][k]: the table playing board b+1 at rotation k ("" = not opened yet).
  std::vector<std::vector<std::string>> tables;
  std::set<std::string> done;  // its tables that are over or closed
  // Ratings (docs/events.md, "Ratings and invitations"). `rated` asked: its
  // tables open only once every invitation is answered or expired. `consent`:
  // the outcome (every invited player accepted); unset for an event that did
  // not ask, and for one reloaded whose first tables were not stored rated.
  bool rated = false;
  bool inviting = false;  // invitations still waiting: no table opened yet
  std::optional<bool> consent;
};

// An invitation to a rated event, to one player its creator seated.
struct Invitation {
  std::string id;
  std::string event;
  std::string player;
  std::string creator;
  std::string answer;  // "" while it waits; "accepted", "declined", "expired"
  std::chrono::steady_clock::time_point expires;
};

class Tournaments {
 public:
  explicit Tournaments(TournamentHost& host);

  // create_event from a welcomed client: validates, stores, opens board 1 of every rotation.
  void create(const std::shared_ptr<Client>& client, protocol::CreateEvent& body,
              const std::optional<nlohmann::json>& id);
  // After the lobby recovered its tables: loads running events, opens what a
  // crash left unopened, moves on rotations whose board finished meanwhile.
  void recover();
  // Cluster mode, before this node adopts `table` (a takeover): when it belongs
  // to a running event this node does not know yet (created on another node
  // since this one started), or opened since this node loaded the event, the
  // event and its tables are read from the store, so that the table refuses
  // spectators and its end opens the next board as on the event's own node.
  void adopting(const std::string& table);
  // A table finished (over or closed): the next board of its rotation opens.
  void table_finished(const std::string& table, bool over);
  // True while `table` belongs to an event that is not over.
  bool withheld(const std::string& table);
  // False when `table` is withheld and `player_id` does not sit there.
  bool may_watch(const std::string& table, const std::string& player_id);
  // True when `table` is a table of an event (running or over).
  bool has_table(const std::string& table);
  // accept_invitation / decline_invitation from a welcomed client. Only the
  // invited player answers; anyone else is told there is no such invitation.
  void answer(const std::shared_ptr<Client>& client, const std::string& invitation,
              const std::optional<nlohmann::json>& id, bool accept);
  // A player said hello: the invitations waiting for them, again.
  void welcomed(const std::shared_ptr<Client>& client);
  // GET /api/events/{id}; status 200 or 404.
  nlohmann::json describe(const std::string& event, int& status);

 private:
  struct Row {  // a stored (board, rotation) -> table row
    std::string event;
    int board = 0;  // 0-based
    int rotation = 0;
    std::string table;
  };
  // Keeps a loaded event (false when its game is refused now); with mutex_ not held.
  bool install(EventSpec e);
  // The running event `table` belongs to, and all its table rows (none: no such event).
  void read_event_of(const std::string& table, std::optional<EventSpec>& loaded,
                     std::vector<Row>& rows);
  // Records a table row of a known event; with mutex_ held.
  void place(const Row& r);
  struct Slot {
    std::string event;
    int board = 0;  // 0-based
    int rotation = 0;
  };
  // Seats of board b at rotation k.
  std::vector<StoredSeat> seating(const EventSpec& e, int rotation) const;
  // Stores the (board, rotation) row if `table` is empty, then opens the
  // table; returns its id.
  // `counted`: create() already counted the table against the creator.
  std::string open_board(const std::string& event, int board, int rotation, std::string table,
                         bool counted = false);
  // Games of `player`'s running events not played yet, those being stored
  // included; with mutex_ held.
  int unplayed_games(const std::string& player);
  // Opens the next board of a rotation whose table finished, or ends the event.
  void advance(const std::string& event, int board, int rotation, bool over);
  void finish_if_done(EventSpec& e);

  // The `invitation` frame for `inv` (with mutex_ held).
  std::string invitation_frame(const Invitation& inv) const;
  // An invitation got its answer (or expired): both sides are told; once the
  // event's last one is in, its boards open (rated only if all accepted).
  void settle(const std::string& invitation, const std::string& answer,
              const std::shared_ptr<Client>& client, const std::optional<nlohmann::json>& id);
  void expire_later(const std::string& invitation, std::chrono::seconds after);
  // A reloaded event: consent = true when its board-1 table `first_table` was
  // stored rated (its invitations were all accepted before the stop).
  void recall_consent(const std::string& event, const std::string& first_table);

  TournamentHost& host_;
  std::mutex mutex_;
  std::map<std::string, Invitation> invitations_;  // by id, until their event opens
  std::map<std::string, EventSpec> events_;
  std::map<std::string, Slot> by_table_;
  // Rotations that stopped (a table was closed): no further boards.
  std::map<std::string, std::vector<bool>> stopped_;
  // Games of events being stored, by creator (see unplayed_games).
  std::map<std::string, int> storing_games_;
};

}  // namespace casa::server
