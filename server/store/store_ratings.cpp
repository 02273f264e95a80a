// SPDX-License-Identifier: AGPL-3.0-or-later
// The ratings side of the store: a finished game's rating update (run inside
// the transaction that stores its result), the rebuild from stored results,
// and the leaderboard and profile reads. The arithmetic is server/store/ratings.h;
// the rules of play are docs/ratings.md.
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "server/store/ratings.h"
#include "server/store/store.h"

namespace casa::server {

namespace {

// A seat's rating identity: the person (also when a bot finished the game for
// a player who left: the result is theirs), else the server bot's kind.
std::string rated_id(const std::string& player_id, const std::string& bot) {
  if (!player_id.empty()) return player_id;
  if (!bot.empty()) return "bot:" + bot;
  return {};
}

}  // namespace

const char* const kPlayerDisplayName =
    "(p.name || CASE WHEN (SELECT COUNT(*) FROM players q WHERE q.name = p.name AND q.rowid < "
    "p.rowid) > 0 "
    "THEN '#' || (1 + (SELECT COUNT(*) FROM players q WHERE q.name = p.name AND q.rowid < "
    "p.rowid)) "
    "ELSE '' END)";

namespace {

std::string display_name(const std::string& id, const std::string& person_name) {
  if (id.rfind("bot:", 0) == 0) return id.substr(4) + " (bot)";
  return person_name;
}

ratings::Rating load_rating(Db& db, const std::string& player, const std::string& game) {
  auto& q =
      db.prepare("SELECT rating, deviation, volatility FROM ratings WHERE player = ? AND game = ?");
  q.bind(1, player).bind(2, game);
  ratings::Rating r;
  if (q.step()) r = {q.real_at(0), q.real_at(1), q.real_at(2)};
  q.run();
  return r;
}

}  // namespace

// A game is rated when its table says so, or, by default, when every seat holds
// a person at the end. Solo games (one seat) go to the solo table instead. Each
// side's result orders winners first, then by score (partners share a score).
void rate_finished_game(Db& db, const std::string& table) {
  auto& t =
      db.prepare("SELECT game, players, rated, teams FROM tables WHERE id = ? AND status = 'over'");
  t.bind(1, table);
  if (!t.step()) {
    t.run();
    return;
  }
  const std::string game = t.text_at(0);
  const int players = static_cast<int>(t.int_at(1));
  const bool rated_set = !t.null_at(2);
  const bool rated_flag = t.int_at(2) != 0;
  const std::string teams_json = t.text_at(3);
  t.run();
  if (players < 2 || teams_json.empty() || (rated_set && !rated_flag)) return;

  std::vector<std::string> ids(static_cast<std::size_t>(players));
  std::vector<int> scores(static_cast<std::size_t>(players), 0);
  std::vector<bool> winner(static_cast<std::size_t>(players), false);
  bool all_people = true;
  // A bot account (docs/accounts.md) counts as a bot here: its games are kept
  // apart like those of the server's bots.
  auto& r = db.prepare(
      "SELECT r.seat, r.player_id, r.bot, r.score, r.winner, COALESCE(a.is_bot, 0) FROM results r "
      "LEFT JOIN accounts a ON a.player_id = r.player_id WHERE r.table_id = ?");
  r.bind(1, table);
  while (r.step()) {
    const auto seat = r.int_at(0);
    if (seat < 0 || seat >= players) continue;
    const auto s = static_cast<std::size_t>(seat);
    ids[s] = rated_id(r.text_at(1), r.text_at(2));
    all_people = all_people && !r.null_at(1) && r.int_at(5) == 0;
    scores[s] = static_cast<int>(r.int_at(3));
    winner[s] = r.int_at(4) != 0;
  }
  if (!rated_set && !all_people) return;  // games with bots: unrated unless asked
  std::map<std::string, int> index;
  for (std::size_t s = 0; s < ids.size(); ++s) {
    if (ids[s].empty() || !index.emplace(ids[s], static_cast<int>(s)).second)
      return;  // empty or repeated seat
  }

  std::vector<ratings::Side> sides;
  // Sides the store cannot read leave the game unrated rather than fail the
  // transaction that stores its result.
  const auto teams = nlohmann::json::parse(teams_json, nullptr, false);
  if (!teams.is_array()) return;
  for (const auto& team : teams) {
    if (!team.is_array()) return;
    ratings::Side side;
    for (const auto& seat : team) {
      if (!seat.is_number_integer()) return;
      const int s = seat.get<int>();
      if (s < 0 || s >= players) return;
      side.members.push_back(s);
    }
    if (side.members.empty()) continue;
    const auto first = static_cast<std::size_t>(side.members.front());
    // Winners first, then by score: |scores| stay far below 1e9.
    side.result = (winner[first] ? 1e9 : 0.0) + scores[first];
    sides.push_back(std::move(side));
  }
  if (sides.size() < 2) return;

  std::vector<ratings::Rating> before;
  for (const auto& id : ids) before.push_back(load_rating(db, id, game));
  const auto after = ratings::rate_game(before, sides);
  for (std::size_t s = 0; s < ids.size(); ++s) {
    db.prepare(
          "INSERT INTO ratings (player, game, rating, deviation, volatility, games) VALUES (?1, "
          "?2, ?3, ?4, ?5, 1) "
          "ON CONFLICT (player, game) DO UPDATE SET rating = ?3, deviation = ?4, volatility = ?5, "
          "games = ratings.games + 1")
        .bind(1, ids[s])
        .bind(2, game)
        .bind_real(3, after[s].rating)
        .bind_real(4, after[s].deviation)
        .bind_real(5, after[s].volatility)
        .run();
    db.prepare(
          "INSERT INTO rating_changes (table_id, player, before, after, deviation) "
          "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, player) DO UPDATE SET "
          "before = excluded.before, after = excluded.after, deviation = excluded.deviation")
        .bind(1, table)
        .bind(2, ids[s])
        .bind_real(3, before[s].rating)
        .bind_real(4, after[s].rating)
        .bind_real(5, after[s].deviation)
        .run();
  }
}

int Store::rebuild_ratings() {
  auto done = std::make_shared<std::promise<bool>>();
  auto rated = std::make_shared<int>(0);
  write(
      [rated](Db& db) {
        db.exec("DELETE FROM ratings");
        db.exec("DELETE FROM rating_changes");
        std::vector<std::string> order;
        auto& q = db.prepare("SELECT table_id FROM finished_games ORDER BY n");
        while (q.step()) order.push_back(q.text_at(0));
        for (const auto& table : order) rate_finished_game(db, table);
        auto& c = db.prepare("SELECT COUNT(DISTINCT table_id) FROM rating_changes");
        *rated = c.step() ? static_cast<int>(c.int_at(0)) : 0;
        c.run();
      },
      [done](bool ok) { done->set_value(ok); });
  return done->get_future().get() ? *rated : -1;
}

std::vector<StoredRating> Store::rating_board(const std::string& game, int limit) {
  auto reader = reading();
  Db& db = reader.db;
  auto& q =
      db.prepare(std::string("SELECT r.player, ") + kPlayerDisplayName +
                       ", r.game, r.rating, r.deviation, r.volatility, r.games FROM ratings r "
                       "LEFT JOIN players p ON p.id = r.player WHERE r.game = ?1 "
                       "ORDER BY r.rating DESC, r.deviation ASC, r.player ASC LIMIT ?2");
  q.bind(1, game).bind(2, std::int64_t{limit});
  std::vector<StoredRating> out;
  while (q.step()) {
    out.push_back({q.text_at(0), display_name(q.text_at(0), q.text_at(1)), q.text_at(2),
                   q.real_at(3), q.real_at(4), q.real_at(5), static_cast<int>(q.int_at(6))});
  }
  return out;
}

std::vector<SoloRecord> Store::solo_board(const std::string& game, int limit) {
  auto reader = reading();
  Db& db = reader.db;
  auto& q = db.prepare(
      std::string("SELECT r.player_id, ") + kPlayerDisplayName +
      ", COUNT(*) AS games, SUM(r.winner) AS wins, MAX(r.score) AS best FROM results r "
      "JOIN tables t ON t.id = r.table_id JOIN players p ON p.id = r.player_id "
      "WHERE t.game = ?1 AND t.players = 1 GROUP BY r.player_id, p.id "
      "ORDER BY wins DESC, best DESC, games ASC, r.player_id ASC LIMIT ?2");
  q.bind(1, game).bind(2, std::int64_t{limit});
  std::vector<SoloRecord> out;
  while (q.step()) {
    out.push_back({q.text_at(0), q.text_at(1), game, static_cast<int>(q.int_at(2)),
                   static_cast<int>(q.int_at(3)), static_cast<int>(q.int_at(4))});
  }
  return out;
}

std::optional<PlayerProfile> Store::player_profile(const std::string& id, int recent) {
  auto reader = reading();
  Db& db = reader.db;
  PlayerProfile profile;
  profile.id = id;
  const bool bot = id.rfind("bot:", 0) == 0;
  if (bot) {
    profile.name = display_name(id, "");
  } else {
    auto& p = db.prepare(std::string("SELECT ") + kPlayerDisplayName +
                               " FROM players p WHERE p.id = ?");
    p.bind(1, id);
    if (!p.step()) {
      p.run();
      return std::nullopt;
    }
    profile.name = p.text_at(0);
    p.run();
  }
  auto& r = db.prepare(
      "SELECT game, rating, deviation, volatility, games FROM ratings WHERE player = ? ORDER BY "
      "game");
  r.bind(1, id);
  while (r.step()) {
    profile.ratings.push_back({id, profile.name, r.text_at(0), r.real_at(1), r.real_at(2),
                               r.real_at(3), static_cast<int>(r.int_at(4))});
  }
  if (bot && profile.ratings.empty()) return std::nullopt;
  if (!bot) {
    // LC-8.3: in Solo the one seat plays against the Robot and wins with 4 or more
    // points; the stored winner flag says which.
    auto& s = db.prepare(
        "SELECT t.game, COUNT(*), SUM(r.winner), MAX(r.score) FROM results r JOIN tables t ON t.id "
        "= r.table_id "
        "WHERE r.player_id = ? AND t.players = 1 GROUP BY t.game ORDER BY t.game");
    s.bind(1, id);
    while (s.step()) {
      profile.solo.push_back({"", "", s.text_at(0), static_cast<int>(s.int_at(1)),
                              static_cast<int>(s.int_at(2)), static_cast<int>(s.int_at(3))});
    }
  }
  // Recent finished games: table, game, seat, score, result, rating change.
  // Never a card: hands live only in the action log, served by the replay.
  auto& g = db.prepare(
      "SELECT t.id, t.game, t.players, r.seat, r.score, r.winner, c.before, c.after, "
      "t.finished_at, "
      "c.table_id IS NOT NULL FROM results r JOIN tables t ON t.id = r.table_id "
      "LEFT JOIN rating_changes c ON c.table_id = r.table_id AND c.player = ?1 "
      "WHERE (r.player_id = ?1 OR (r.player_id IS NULL AND 'bot:' || r.bot = ?1)) "
      "ORDER BY t.finished_at DESC, t.rowid DESC LIMIT ?2");
  g.bind(1, id).bind(2, std::int64_t{recent});
  while (g.step()) {
    PlayedGame p;
    p.table_id = g.text_at(0);
    p.game = g.text_at(1);
    p.players = static_cast<int>(g.int_at(2));
    p.seat = static_cast<int>(g.int_at(3));
    p.score = static_cast<int>(g.int_at(4));
    p.winner = g.int_at(5) != 0;
    p.rating_before = g.real_at(6);
    p.rating_after = g.real_at(7);
    p.finished_at = g.int_at(8);
    p.rated = g.int_at(9) != 0;
    profile.recent.push_back(std::move(p));
  }
  return profile;
}

}  // namespace casa::server
