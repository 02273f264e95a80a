// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/lobby/friends.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>

#include "protocol/crypto.h"
#include "protocol/protocol.h"
#include "server/lobby/lobby.h"
#include "server/ops/log.h"
#include "server/store/account_rows.h"
#include "server/store/friend_rows.h"
#include "server/table/table.h"
#include "server/store/write_and_wait.h"

namespace casa::server {

using nlohmann::json;
using protocol::Refusal;

namespace {

json error_body(const std::string& code, const std::string& message) {
  return {{"error", code}, {"message", message}};
}

// Whether `player_id` sits at the table `summary` describes.
bool seated_at(const json& summary, const std::string& player_id) {
  if (!summary.contains("seats")) return false;
  for (const auto& seat : summary["seats"]) {
    if (seat.value("player_id", "") == player_id) return true;
  }
  return false;
}

bool has_empty_seat(const json& summary) {
  if (!summary.contains("seats")) return false;
  for (const auto& seat : summary["seats"]) {
    if (seat.value("kind", "") == "empty") return true;
  }
  return false;
}

}  // namespace

bool Friends::Bucket::take() {
  const auto now = std::chrono::steady_clock::now();
  if (at != std::chrono::steady_clock::time_point{}) {
    tokens = std::min(kAddBurst, tokens + std::chrono::duration<double>(now - at).count() / kAddRefillSeconds);
  }
  at = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

Friends::~Friends() {
  worker_.stop();
  worker_.join();
}

bool Friends::run(std::function<void()> job) {
  if (queued_.fetch_add(1) >= kMaxQueued) {
    queued_.fetch_sub(1);
    return false;
  }
  boost::asio::post(worker_, [this, job = std::move(job)] {
    queued_.fetch_sub(1);
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("friends: a request failed: {}", e.what());
    }
  });
  return true;
}

// ---- the list ---------------------------------------------------------------------

json Friends::presence(const std::string& viewer, const std::string& player_id) {
  json tables = json::array();
  for (const auto& table : lobby_.tables_of(player_id)) {
    const json summary = table->summary();
    const std::string status = summary.value("status", "");
    if (status != "waiting" && status != "playing") continue;
    if (!seated_at(summary, player_id)) continue;
    // A private table only to whoever may reach it by its id anyway.
    const bool is_private = summary.value("private", false);
    if (is_private && !table->admits(viewer)) continue;
    tables.push_back({{"table", table->id()},
                      {"game", summary.value("game", "")},
                      {"players", summary.value("players", 0)},
                      {"status", status},
                      {"private", is_private}});
  }
  return {{"online", lobby_.is_connected(player_id)}, {"tables", std::move(tables)}};
}

json Friends::entry_json(const std::string& viewer, const friend_rows::Entry& e) {
  json out = {{"player_id", e.player_id}, {"handle", e.handle}, {"name", e.name}, {"mutual", e.mutual},
              {"since", e.since}};
  if (e.mutual) out.update(presence(viewer, e.player_id));
  return out;
}

json Friends::list(const std::string& player_id, int& status) {
  std::vector<friend_rows::Entry> added, requests;
  try {
    lobby_.store().read([&](Db& db) {
      added = friend_rows::added_by(db, player_id);
      requests = friend_rows::requests_to(db, player_id);
    });
  } catch (const std::exception& e) {
    spdlog::warn("friends: the store could not be read: {}", e.what());
    status = 503;
    return error_body("storage_unavailable", "The friends list cannot be read now.");
  }
  json friends = json::array(), asking = json::array();
  for (const auto& e : added) friends.push_back(entry_json(player_id, e));
  for (const auto& e : requests) {
    if (e.handle.empty()) continue;  // no account any more: cannot be added back
    asking.push_back({{"player_id", e.player_id}, {"handle", e.handle}, {"name", e.name}, {"since", e.since}});
  }
  status = 200;
  return {{"friends", std::move(friends)}, {"requests", std::move(asking)}};
}

json Friends::add(const std::string& player_id, const std::string& handle, int& status) {
  {
    std::lock_guard lock(mutex_);
    if (!adds_[player_id].take()) {
      status = 429;
      return error_body("rate_limited", "Too many friends added at once; try again in a minute.");
    }
  }
  std::optional<account_rows::Account> mine, theirs;
  std::int64_t count = 0;
  try {
    lobby_.store().read([&](Db& db) {
      mine = account_rows::by_player(db, player_id);
      if (!mine) return;
      theirs = account_rows::by_handle(db, handle);
      count = friend_rows::count(db, player_id);
    });
  } catch (const std::exception& e) {
    spdlog::warn("friends: the store could not be read: {}", e.what());
    status = 503;
    return error_body("storage_unavailable", "Friends cannot be added now.");
  }
  if (!mine) {
    status = 409;
    return error_body("not_claimed", "Claim your name as an account to add friends.");
  }
  if (!theirs) {
    status = 404;
    return error_body("no_such_player", "No account has that handle.");
  }
  if (theirs->player_id == player_id) {
    status = 400;
    return error_body("bad_handle", "That is your own handle.");
  }
  if (count >= kMaxFriends) {
    status = 409;
    return error_body("too_many_friends", "Your friends list is full; remove someone first.");
  }
  const std::string friend_id = theirs->player_id;
  const bool ok = write_and_wait(lobby_.store(), 
      [player_id, friend_id, now = Store::now()](Db& db) { friend_rows::add(db, player_id, friend_id, now); });
  if (!ok) {
    status = 503;
    return error_body("storage_unavailable", "Friends cannot be added now.");
  }
  std::vector<friend_rows::Entry> added;
  try {
    lobby_.store().read([&](Db& db) { added = friend_rows::added_by(db, player_id); });
  } catch (const std::exception&) {
  }
  status = 200;
  for (const auto& e : added) {
    if (e.player_id == friend_id) return entry_json(player_id, e);
  }
  return {{"player_id", friend_id}, {"handle", theirs->handle}, {"name", theirs->handle}, {"mutual", false}};
}

json Friends::remove(const std::string& player_id, const std::string& handle, int& status) {
  std::optional<account_rows::Account> theirs;
  try {
    lobby_.store().read([&](Db& db) { theirs = account_rows::by_handle(db, handle); });
  } catch (const std::exception&) {
    status = 503;
    return error_body("storage_unavailable", "Friends cannot be removed now.");
  }
  if (!theirs) {
    status = 404;
    return error_body("not_a_friend", "No one with that handle is on your friends list.");
  }
  auto removed = std::make_shared<bool>(false);
  const bool ok = write_and_wait(lobby_.store(), [player_id, friend_id = theirs->player_id, removed](Db& db) {
    *removed = friend_rows::remove(db, player_id, friend_id);
  });
  if (!ok) {
    status = 503;
    return error_body("storage_unavailable", "Friends cannot be removed now.");
  }
  if (!*removed) {
    status = 404;
    return error_body("not_a_friend", "No one with that handle is on your friends list.");
  }
  status = 200;
  return {{"handle", theirs->handle}, {"removed", true}};
}

// ---- invitations ------------------------------------------------------------------

void Friends::invite(const std::shared_ptr<Client>& client, Table& table, const std::string& handle,
                     const std::optional<json>& id) {
  // The store is read on the worker, never on this network thread.
  const bool queued = run([this, client, t = table.shared_from_this(), handle, id] { invite_now(client, *t, handle, id); });
  if (!queued) client->send(protocol::error({"busy", "The server is busy; send it again in a moment."}, id));
}

void Friends::invite_now(const std::shared_ptr<Client>& client, Table& table, const std::string& handle,
                         const std::optional<json>& id) {
  const std::string& me = client->player_id;
  auto refuse = [&](const std::string& code, const std::string& message) {
    client->send(protocol::error({code, message}, id));
  };
  std::optional<account_rows::Account> mine, theirs;
  bool mutual = false;
  try {
    lobby_.store().read([&](Db& db) {
      mine = account_rows::by_player(db, me);
      if (!mine) return;
      theirs = account_rows::by_handle(db, handle);
      if (theirs) mutual = friend_rows::mutual(db, me, theirs->player_id);
    });
  } catch (const std::exception& e) {
    spdlog::warn("friends: the store could not be read: {}", e.what());
    refuse("storage_unavailable", "Invitations cannot be sent now.");
    return;
  }
  if (!mine) return refuse("not_claimed", "Claim your name as an account to invite friends.");
  // The same answer for no such handle and for someone who is not a friend
  // both ways: an invitation tells no one whether a handle exists.
  if (!theirs || !mutual || theirs->player_id == me) {
    return refuse("no_such_friend", "You can invite only a friend who added you back.");
  }
  const json summary = table.summary();
  if (!seated_at(summary, me)) return refuse("not_seated", "Sit at the table to invite a friend to it.");
  if (summary.value("status", "") != "waiting" || !has_empty_seat(summary)) {
    return refuse("table_started", "The table has no free seat any more.");
  }
  if (seated_at(summary, theirs->player_id)) return refuse("already_seated", "Your friend sits at this table.");

  const bool is_private = summary.value("private", false);
  json body = {{"table", table.id()},
               {"game", summary.value("game", "")},
               {"players", summary.value("players", 0)},
               {"private", is_private},
               {"from", {{"player_id", me}, {"name", lobby_.name_of(me)}, {"handle", mine->handle}}}};
  // What lets the friend in: a private table is joined by its invite code.
  if (is_private && !table.setup().invite.empty()) body["invite"] = table.setup().invite;

  std::string invitation;
  Frame frame;
  {
    std::lock_guard lock(mutex_);
    std::size_t open = 0;
    for (const auto& [key, inv] : invitations_) {
      if (inv.from == me && inv.to == theirs->player_id && inv.table == table.id()) invitation = key;
      if (inv.from == me) ++open;
    }
    if (invitation.empty()) {
      if (open >= kMaxInvitations) {
        refuse("too_many_invitations", "Too many of your invitations wait for an answer.");
        return;
      }
      invitation = "f" + random_token().substr(0, 16);
      body["invitation"] = invitation;
      invitations_[invitation] =
          Invitation{invitation, table.id(), me, theirs->player_id,
                     make_frame(protocol::reply("table_invitation", body, std::nullopt))};
    }
    frame = invitations_[invitation].frame;
  }
  {
    const LogAbout about(table.id(), me);
    spdlog::info("player {} invites player {} to table {}", me, theirs->player_id, table.id());
  }
  // The table may have started (or ended) between the check above and the
  // invitation's insert, without seeing it: then it is settled at once.
  const std::string now_status = table.summary().value("status", "");
  if (now_status != "waiting") {
    close([&](const Invitation& inv) { return inv.id == invitation; }, now_status == "playing" ? "started" : "ended");
    return refuse("table_started", "The table has no free seat any more.");
  }
  const bool online = lobby_.is_connected(theirs->player_id);
  lobby_.send_to_player(theirs->player_id, frame);
  // Away on every device: their webhooks tell them (the page shows the
  // invitation at their next hello). The table, the game and who invites only.
  if (!online) {
    lobby_.notify(theirs->player_id, "invitation",
                  {{"table", table.id()}, {"game", summary.value("game", "")}, {"from", mine->handle}});
  }
  client->send(protocol::reply(
      "friend_invited",
      {{"invitation", invitation}, {"table", table.id()}, {"handle", theirs->handle}, {"online", online}}, id));
}

void Friends::decline(const std::shared_ptr<Client>& client, const std::string& invitation,
                      const std::optional<json>& id) {
  bool found = false;
  {
    std::lock_guard lock(mutex_);
    auto it = invitations_.find(invitation);
    found = it != invitations_.end() && it->second.to == client->player_id;
  }
  if (!found) {
    client->send(protocol::error(
        {"no_such_invitation", "No invitation with that id waits for you (answered, over, or gone with a restart)."},
        id));
    return;
  }
  close([&](const Invitation& inv) { return inv.id == invitation && inv.to == client->player_id; }, "declined",
        client, id);
}

void Friends::welcomed(const std::shared_ptr<Client>& client) {
  std::vector<Frame> frames;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, inv] : invitations_) {
      if (inv.to == client->player_id) frames.push_back(inv.frame);
    }
  }
  for (const auto& f : frames) client->send(f);
}

void Friends::seat_changed(const std::string& player_id, const std::string& table, bool seated) {
  if (seated) {
    close([&](const Invitation& inv) { return inv.table == table && inv.to == player_id; }, "accepted");
  } else {
    close([&](const Invitation& inv) { return inv.table == table && inv.from == player_id; }, "left");
  }
}

void Friends::table_started(const std::string& table) {
  close([&](const Invitation& inv) { return inv.table == table; }, "started");
}

void Friends::table_ended(const std::string& table) {
  close([&](const Invitation& inv) { return inv.table == table; }, "ended");
}

template <class Match>
void Friends::close(Match match, const std::string& reason, const std::shared_ptr<Client>& replier,
                    const std::optional<json>& id) {
  std::vector<Invitation> settled;
  {
    std::lock_guard lock(mutex_);
    for (auto it = invitations_.begin(); it != invitations_.end();) {
      if (match(it->second)) {
        settled.push_back(std::move(it->second));
        it = invitations_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& inv : settled) {
    const json body = {{"invitation", inv.id}, {"table", inv.table}, {"reason", reason}};
    if (replier) replier->send(protocol::reply("table_invitation_closed", body, id));
    const Frame frame = make_frame(protocol::reply("table_invitation_closed", body, std::nullopt));
    lobby_.send_to_player(inv.to, frame);
    lobby_.send_to_player(inv.from, frame);
  }
}

}  // namespace casa::server
