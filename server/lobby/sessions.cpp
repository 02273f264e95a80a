// SPDX-License-Identifier: AGPL-3.0-or-later
// The lobby's side of accounts (docs/accounts.md): which session token hash
// resumes which player, revoked sessions' connections closed, and the names
// no new guest may take. The HTTP API (server/http/accounts.cpp) stores first,
// then tells the lobby here.
#include <algorithm>

#include "protocol/protocol.h"
#include "server/lobby/lobby.h"
#include "server/table/table.h"

namespace casa::server {

std::string Lobby::player_of_session(const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  auto it = by_token_.find(token_hash);
  return it == by_token_.end() ? std::string() : it->second;
}

void Lobby::session_added(const std::string& token_hash, const std::string& player_id) {
  std::lock_guard lock(mutex_);
  by_token_[token_hash] = player_id;
}

void Lobby::sessions_revoked(const std::vector<std::string>& token_hashes, const protocol::Refusal& why) {
  std::vector<std::shared_ptr<Client>> closing;
  {
    std::lock_guard lock(mutex_);
    for (const auto& hash : token_hashes) {
      auto it = by_token_.find(hash);
      if (it == by_token_.end()) continue;
      auto player = players_.find(it->second);
      by_token_.erase(it);
      if (player == players_.end()) continue;
      for (const auto& l : player->second.links) {
        if (l.session != hash) continue;
        if (auto c = l.client.lock(); c && !c->remote()) closing.push_back(std::move(c));
      }
    }
  }
  // Closing runs disconnected(), which takes the lock again and tells the tables.
  for (const auto& c : closing) {
    c->send(protocol::error(why, std::nullopt));
    c->close();
  }
}

bool Lobby::session_connected(const std::string& token_hash) {
  std::lock_guard lock(mutex_);
  auto it = by_token_.find(token_hash);
  if (it == by_token_.end()) return false;
  auto player = players_.find(it->second);
  if (player == players_.end()) return false;
  return std::any_of(player->second.links.begin(), player->second.links.end(),
                     [&](const Link& l) { return l.session == token_hash && !l.client.expired(); });
}

void Lobby::account_claimed(const std::string& player_id, const std::string& handle, const std::string& skeleton) {
  std::lock_guard lock(mutex_);
  if (auto it = players_.find(player_id); it != players_.end()) it->second.name = handle;
  if (!skeleton.empty()) reserved_names_.insert(skeleton);
}

bool Lobby::name_reserved(const std::string& skeleton) {
  if (skeleton.empty()) return false;
  std::lock_guard lock(mutex_);
  return reserved_names_.count(skeleton) > 0;
}

}  // namespace casa::server
