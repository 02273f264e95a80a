// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/tournaments/tournaments.h"

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>
#include <set>

#include "engine/bots.h"
#include "protocol/crypto.h"
#include "protocol/protocol.h"
#include "server/store/event_rows.h"
#include "server/tournaments/host.h"
#include "server/ops/log.h"
#include "server/ops/names.h"
#include "server/table/table.h"

namespace casa::server {

using nlohmann::json;

namespace {

std::int64_t now_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

// The seat groups of a game: its view's "teams" (partners), else each seat alone.
std::vector<std::vector<int>> seat_groups(const Game& game) {
  std::vector<std::vector<int>> groups;
  const Value view = game.view(0);
  if (const Value* t = view.find("teams"); t && t->is_array()) {
    for (const auto& team : t->as_array()) {
      std::vector<int> seats;
      if (team.is_array()) {
        for (const auto& s : team.as_array()) {
          if (s.is_int()) seats.push_back(static_cast<int>(s.as_int()));
        }
      }
      groups.push_back(std::move(seats));
    }
  }
  if (groups.empty()) {
    for (int s = 0; s < game.players(); ++s) groups.push_back({s});
  }
  return groups;
}

json member_json(const EventMember& m) {
  return m.bot.empty() ? json{{"player_id", m.player_id}} : json{{"bot", m.bot}};
}

json sides_json(const std::vector<EventSide>& sides) {
  json out = json::array();
  for (const auto& side : sides) {
    json tables = json::array();
    for (const auto& at : side.members) {
      json row = json::array();
      for (const auto& m : at) row.push_back(member_json(m));
      tables.push_back(std::move(row));
    }
    out.push_back({{"name", side.name}, {"tables", std::move(tables)}});
  }
  return out;
}

std::vector<EventSide> sides_from_json(const json& j) {
  std::vector<EventSide> sides;
  for (const auto& s : j) {
    EventSide side;
    side.name = s.value("name", "");
    for (const auto& at : s["tables"]) {
      std::vector<EventMember> row;
      for (const auto& m : at) row.push_back({m.value("player_id", ""), m.value("bot", "")});
      side.members.push_back(std::move(row));
    }
    sides.push_back(std::move(side));
  }
  return sides;
}

// An event from its stored row.
EventSpec event_from_row(const event_rows::EventRow& row) {
  EventSpec e;
  e.id = row.id;
  e.game = row.game;
  e.players = static_cast<int>(row.players);
  e.options = json::parse(row.options, nullptr, false);
  e.boards = static_cast<int>(row.boards);
  for (const auto& s : json::parse(row.seeds)) e.seeds.push_back(std::stoull(s.get<std::string>()));
  e.sides = sides_from_json(json::parse(row.sides));
  e.creator = row.creator;
  return e;
}

// The setup of a stored event's first board: enough to build a game and read
// its seats (recovery, and an event's page).
TableSetup first_board(const EventSpec& e) {
  TableSetup setup;
  setup.game = e.game;
  setup.players = e.players;
  setup.options = e.options;
  setup.seed = e.seeds.empty() ? 0 : e.seeds[0];
  return setup;
}

}  // namespace

Tournaments::Tournaments(TournamentHost& host) : host_(host) {}

// Rotation k puts side s in seat group (s + k) mod U, its i-th member in the
// group's i-th seat: over the U rotations every side holds every group once.
std::vector<StoredSeat> Tournaments::seating(const EventSpec& e, int rotation) const {
  const int sides = static_cast<int>(e.sides.size());
  std::vector<StoredSeat> seats(static_cast<std::size_t>(e.players));
  for (int s = 0; s < sides; ++s) {
    const auto& group = e.groups[static_cast<std::size_t>((s + rotation) % sides)];
    const auto& members =
        e.sides[static_cast<std::size_t>(s)].members[static_cast<std::size_t>(rotation)];
    for (std::size_t i = 0; i < group.size() && i < members.size(); ++i) {
      seats[static_cast<std::size_t>(group[i])] = {members[i].player_id, members[i].bot, false};
    }
  }
  return seats;
}

// ---- create_event ------------------------------------------------------------

void Tournaments::create(const std::shared_ptr<Client>& client, protocol::CreateEvent& body,
                    const std::optional<json>& id) {
  auto refuse = [&](std::string code, std::string message) {
    client->send(protocol::error({std::move(code), std::move(message)}, id));
  };
  EventSpec e;
  e.game = body.game;
  e.players = body.players;
  e.options = std::move(body.options);
  e.boards = body.boards;
  e.creator = client->player_id;
  e.rated = body.rated;
  const int max_boards = host_.config().max_event_boards;
  if (e.boards < 1 || e.boards > max_boards)
    return refuse("bad_field", "boards must be from 1 to " + std::to_string(max_boards) + ".");
  TableSetup setup;
  setup.game = e.game;
  setup.players = e.players;
  setup.options = e.options;
  if (auto refusal = host_.check_options(setup)) return refuse(refusal->code, refusal->message);
  if (const auto& seeds = body.seeds) {
    if (!host_.config().testing)
      return refuse("bad_option", "Fixed seeds are for test servers only.");
    if (static_cast<int>(seeds->size()) != e.boards)
      return refuse("bad_field", "seeds must list one seed per board.");
    e.seeds = *seeds;
  } else {
    for (int b = 0; b < e.boards; ++b) e.seeds.push_back(random_seed());
  }
  setup.seed = e.seeds[0];
  auto created = host_.make_game(setup);
  if (!created.game) {
    const std::string code = created.error ? created.error->code : "bad_option";
    return refuse(
        code == "unknown_game" ? "no_such_game" : (code == "bad_players" ? code : "bad_option"),
        created.error ? created.error->message : "The engine refused the table.");
  }
  e.groups = seat_groups(*created.game);
  const std::size_t rotations = e.groups.size();
  const std::size_t group_size = e.groups[0].size();
  const auto& sides = body.sides;
  if (sides.size() != rotations) {
    return refuse("bad_field", "This game has " + std::to_string(rotations) +
                                   " sides: sides must list " + std::to_string(rotations) +
                                   " entrants.");
  }
  const auto bots = bot_names();
  for (const auto& s : sides) {
    EventSide side;
    if (s.name) {
      // Shown to every player of the event: the same rules as a player's name.
      auto name = clean_display_text(*s.name, false);
      if (name.refusal) return refuse(name.refusal->code, "A side's name: " + name.refusal->message);
      side.name = std::move(name.text);
    }
    std::vector<std::vector<protocol::EventMember>> per_table;
    if (s.tables) {
      if (s.tables->size() != rotations) {
        return refuse("bad_field", "A side's tables must list its members at each of the " +
                                       std::to_string(rotations) + " tables.");
      }
      per_table = *s.tables;
    } else if (s.members) {
      per_table.assign(rotations, *s.members);
    } else {
      return refuse("bad_field", "A side needs members or tables.");
    }
    for (const auto& row : per_table) {
      if (row.size() != group_size) {
        return refuse("bad_field",
                      "A side has " + std::to_string(group_size) + " member(s) at each table.");
      }
      std::vector<EventMember> members;
      for (const auto& m : row) {
        EventMember member{m.player_id, m.bot};
        if (member.player_id.empty() == member.bot.empty()) {
          return refuse("bad_field", "A member is either a bot or a player_id.");
        }
        if (!member.bot.empty() && std::find(bots.begin(), bots.end(), member.bot) == bots.end()) {
          return refuse("bad_field", "There is no bot called '" + member.bot + "'.");
        }
        if (!member.player_id.empty() && !host_.known_player(member.player_id)) {
          return refuse("no_such_player", "There is no player " + member.player_id + ".");
        }
        members.push_back(std::move(member));
      }
      side.members.push_back(std::move(members));
    }
    if (side.name.empty()) {
      for (const auto& m : side.members[0]) {
        if (!side.name.empty()) side.name += " & ";
        side.name += m.bot.empty() ? host_.name_of(m.player_id) : m.bot;
      }
    }
    e.sides.push_back(std::move(side));
  }
  // One human, one seat per table.
  for (std::size_t k = 0; k < rotations; ++k) {
    std::set<std::string> humans;
    for (const auto& side : e.sides) {
      for (const auto& m : side.members[k]) {
        if (!m.player_id.empty() && !humans.insert(m.player_id).second) {
          return refuse("bad_field", "A player sits twice at one table.");
        }
      }
    }
  }
  // A rated event asks everyone it seats besides its creator, and waits.
  std::vector<std::string> invited;
  if (e.rated) {
    std::set<std::string> seen;
    for (const auto& side : e.sides) {
      for (const auto& at : side.members) {
        for (const auto& m : at) {
          if (!m.player_id.empty() && m.player_id != e.creator && seen.insert(m.player_id).second)
            invited.push_back(m.player_id);
        }
      }
    }
    e.inviting = !invited.empty();
    if (!e.inviting) e.consent = true;  // the creator alone: their own consent
  }
  // What one message may cost: its tables open at once (one per rotation), so
  // they count against --max-tables-per-player like any other table, and all
  // its games against --max-event-games-per-player.
  const int games = e.boards * static_cast<int>(rotations);
  const int max_games = host_.config().max_event_games_per_player;
  {
    std::lock_guard lock(mutex_);
    if (unplayed_games(e.creator) + games > max_games) {
      return refuse("too_many_event_games",
                    "Your unfinished events would have more than " + std::to_string(max_games) +
                        " games to play (boards x tables).");
    }
    if (auto refusal = host_.reserve_tables(e.creator, static_cast<int>(rotations))) {
      return refuse(refusal->code, refusal->message);
    }
    storing_games_[e.creator] += games;
  }
  e.id = std::string("e").append(random_token(), 0, 10);
  e.tables.assign(static_cast<std::size_t>(e.boards), std::vector<std::string>(rotations));
  json seeds = json::array();
  for (auto s : e.seeds) seeds.push_back(std::to_string(s));
  const std::string options = e.options.dump();
  const std::string sides_text = sides_json(e.sides).dump();
  event_rows::EventRow row{e.id, e.game, e.players, options, e.boards, seeds.dump(), sides_text, e.creator, "running"};
  host_.store().write(
      [row = std::move(row)](Db& db) { event_rows::insert_event(db, row, now_seconds()); },
      host_.on_io([this, e, client, id, games, invited](bool ok) mutable {
        {
          std::lock_guard lock(mutex_);
          if ((storing_games_[e.creator] -= games) <= 0) storing_games_.erase(e.creator);
          if (ok) {
            stopped_[e.id].assign(e.sides.size(), false);
            events_[e.id] = e;
          }
        }
        if (!ok) {
          host_.release_tables(e.creator, static_cast<int>(e.sides.size()));
          client->send(
              protocol::error({"storage_unavailable", "The event could not be stored."}, id));
          return;
        }
        const std::string event = e.id;
        const int boards = e.boards;
        const int rotations = static_cast<int>(e.sides.size());

        spdlog::info("event {} created: {} boards, {} tables", event, boards, rotations);
        if (!invited.empty()) {
          // Its tables wait for the answers (still counted against the creator).
          json list = json::array();
          std::vector<std::pair<std::string, std::string>> frames;  // player, frame
          {
            std::lock_guard lock(mutex_);
            const auto expires = std::chrono::steady_clock::now() +
                                 std::chrono::seconds(host_.config().invitation_seconds);
            for (const auto& player : invited) {
              Invitation inv{std::string("i").append(random_token(), 0, 10), event, player, e.creator, "",
                             expires};
              list.push_back({{"invitation", inv.id}, {"player_id", player}});
              frames.emplace_back(player, invitation_frame(inv));
              invitations_[inv.id] = inv;
              expire_later(inv.id, std::chrono::seconds(host_.config().invitation_seconds));
            }
          }
          spdlog::info("event {} waits for {} invitation(s)", event, invited.size());
          client->send(protocol::reply("event_created",
                                       {{"event", event},
                                        {"rotations", rotations},
                                        {"tables", json::array()},
                                        {"invitations", std::move(list)}},
                                       id));
          for (const auto& [player, frame] : frames) host_.send_to_player(player, make_frame(frame));
          return;
        }
        json tables = json::array();
        for (int k = 0; k < rotations; ++k) tables.push_back(open_board(event, 0, k, "", true));
        client->send(protocol::reply(
            "event_created",
            {{"event", event}, {"rotations", rotations}, {"tables", std::move(tables)}}, id));
      }));
}

int Tournaments::unplayed_games(const std::string& player) {
  int n = 0;
  if (auto it = storing_games_.find(player); it != storing_games_.end()) n += it->second;
  for (const auto& [id, e] : events_) {
    if (e.over || e.creator != player) continue;
    n += e.boards * static_cast<int>(e.sides.size()) - static_cast<int>(e.done.size());
  }
  return n;
}

std::string Tournaments::open_board(const std::string& event, int board, int rotation,
                               std::string table, bool counted) {
  TableSetup setup;
  std::vector<StoredSeat> seats;
  std::optional<bool> consent;
  const bool fresh = table.empty();
  {
    std::lock_guard lock(mutex_);
    auto& e = events_.at(event);
    if (fresh) table = host_.reserve_table_id();
    e.tables[static_cast<std::size_t>(board)][static_cast<std::size_t>(rotation)] = table;
    by_table_[table] = {event, board, rotation};
    setup.id = table;
    setup.game = e.game;
    setup.players = e.players;
    setup.options = e.options;
    setup.seed = e.seeds[static_cast<std::size_t>(board)];
    setup.is_private = true;
    setup.creator = e.creator;
    seats = seating(e, rotation);
    consent = e.consent;
  }
  // Seating someone in a rated game takes their consent: an event that asked
  // for it (`rated`) is rated only if everyone it invited accepted; one that
  // did not, or whose consent is not known (reloaded before its first tables
  // were stored), is unrated wherever it seats anyone but its creator
  // (docs/events.md, "Ratings and invitations").
  if (consent) {
    setup.rated = *consent;
  } else {
    for (const auto& seat : seats) {
      if (!seat.player_id.empty() && seat.player_id != setup.creator) setup.rated = false;
    }
  }
  auto open = [this, setup, seats, counted](bool ok) {
    if (!ok) {
      const LogAbout about(setup.id);
      spdlog::error("event table {} could not be stored; it opens after a restart", setup.id);
      if (counted) host_.release_tables(setup.creator, 1);
      return;
    }
    host_.open_event_table(setup, seats, counted);
  };
  if (!fresh) {
    open(true);
    return table;
  }
  host_.store().write(
      [row = event_rows::BoardRow{event, board, rotation, table}](Db& db) { event_rows::insert_board(db, row); },
      host_.on_io(open));
  return table;
}

// ---- invitations -------------------------------------------------------------

void Tournaments::recall_consent(const std::string& event, const std::string& first_table) {
  // Invitations live in memory; what they decided is kept in the event's
  // first tables: stored rated only when everyone invited accepted.
  bool rated = false;
  host_.store().read([&](Db& db) { rated = event_rows::table_rated(db, first_table); });
  if (!rated) return;
  std::lock_guard lock(mutex_);
  if (auto it = events_.find(event); it != events_.end()) it->second.consent = true;
}

std::string Tournaments::invitation_frame(const Invitation& inv) const {
  const auto e = events_.find(inv.event);
  const auto left = std::chrono::duration_cast<std::chrono::seconds>(inv.expires - std::chrono::steady_clock::now());
  json body = {{"type", "invitation"},
               {"invitation", inv.id},
               {"event", inv.event},
               {"from", {{"player_id", inv.creator}, {"name", host_.name_of(inv.creator)}}},
               {"game", e != events_.end() ? e->second.game : ""},
               {"players", e != events_.end() ? e->second.players : 2},
               {"boards", e != events_.end() ? e->second.boards : 1},
               {"expires_in_seconds", std::max<std::int64_t>(0, left.count())}};
  return body.dump();
}

void Tournaments::welcomed(const std::shared_ptr<Client>& client) {
  std::vector<std::string> frames;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [iid, inv] : invitations_) {
      if (inv.player == client->player_id && inv.answer.empty()) frames.push_back(invitation_frame(inv));
    }
  }
  for (auto& f : frames) client->send(make_frame(std::move(f)));
}

void Tournaments::answer(const std::shared_ptr<Client>& client, const std::string& iid, const std::optional<json>& id,
                    bool accept) {
  {
    std::lock_guard lock(mutex_);
    auto it = invitations_.find(iid);
    // Someone else's invitation is "no such invitation" to them: nobody
    // answers for another player, nor learns whom an invitation is for.
    if (it == invitations_.end() || it->second.player != client->player_id) {
      client->send(protocol::error({"no_such_invitation", "You have no such invitation."}, id));
      return;
    }
    if (!it->second.answer.empty()) {
      client->send(protocol::error(
          {"invitation_closed", "This invitation was already answered (" + it->second.answer + ")."}, id));
      return;
    }
  }
  settle(iid, accept ? "accepted" : "declined", client, id);
}

void Tournaments::expire_later(const std::string& invitation, std::chrono::seconds after) {
  auto timer = std::make_shared<boost::asio::steady_timer>(host_.io(), after);
  timer->async_wait([this, timer, invitation](const boost::system::error_code& ec) {
    if (!ec) settle(invitation, "expired", nullptr, std::nullopt);
  });
}

void Tournaments::settle(const std::string& invitation, const std::string& answer, const std::shared_ptr<Client>& client,
                    const std::optional<json>& id) {
  Invitation inv;
  std::optional<bool> consent;  // set once the event's last invitation is in
  int rotations = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = invitations_.find(invitation);
    if (it == invitations_.end() || !it->second.answer.empty()) return;  // answered before it expired
    it->second.answer = answer;
    inv = it->second;
    bool all_in = true, all_accepted = true;
    for (const auto& [iid, other] : invitations_) {
      if (other.event != inv.event) continue;
      all_in = all_in && !other.answer.empty();
      all_accepted = all_accepted && other.answer == "accepted";
    }
    if (all_in) {
      consent = all_accepted;
      for (auto i = invitations_.begin(); i != invitations_.end();) {
        i = i->second.event == inv.event ? invitations_.erase(i) : std::next(i);
      }
      auto e = events_.find(inv.event);
      if (e != events_.end()) {
        e->second.inviting = false;
        e->second.consent = consent;
        rotations = static_cast<int>(e->second.sides.size());
      }
    }
  }
  {
    const LogAbout about({}, inv.player);
    spdlog::info("invitation {} to event {}: {} by {}", inv.id, inv.event, answer, inv.player);
  }
  json told = {{"invitation", inv.id}, {"event", inv.event}, {"player_id", inv.player}, {"answer", answer}};
  if (consent) told["rated"] = *consent;
  if (client) {
    client->send(protocol::reply("invitation_answered", told, id));
  } else {
    host_.send_to_player(inv.player, make_frame(protocol::reply("invitation_answered", told, std::nullopt)));
  }
  host_.send_to_player(inv.creator, make_frame(protocol::reply("invitation_answered", told, std::nullopt)));
  if (!consent) return;
  spdlog::info("event {} opens, {}", inv.event, *consent ? "rated" : "unrated");
  // The tables create() counted against the creator open now.
  for (int k = 0; k < rotations; ++k) open_board(inv.event, 0, k, "", true);
}

// ---- progress ------------------------------------------------------------------

void Tournaments::table_finished(const std::string& table, bool over) {
  Slot slot;
  {
    std::lock_guard lock(mutex_);
    auto it = by_table_.find(table);
    if (it == by_table_.end()) return;
    slot = it->second;
  }
  advance(slot.event, slot.board, slot.rotation, over);
}

void Tournaments::advance(const std::string& event, int board, int rotation, bool over) {
  {
    std::lock_guard lock(mutex_);
    auto it = events_.find(event);
    if (it == events_.end()) return;
    EventSpec& e = it->second;
    e.done.insert(e.tables[static_cast<std::size_t>(board)][static_cast<std::size_t>(rotation)]);
    // A closed table stops its rotation: its later boards are not played.
    if (!over) stopped_[event][static_cast<std::size_t>(rotation)] = true;
    if (!over || board + 1 >= e.boards) {
      finish_if_done(e);
      return;
    }
  }
  open_board(event, board + 1, rotation, "");
}

// Called with mutex_ held.
void Tournaments::finish_if_done(EventSpec& e) {
  if (e.over) return;
  const auto& stopped = stopped_[e.id];
  for (std::size_t k = 0; k < e.sides.size(); ++k) {
    const std::string& last = e.tables.back()[k];
    if (!stopped[k] && (last.empty() || !e.done.count(last))) return;
  }
  e.over = true;
  spdlog::info("event {} is over", e.id);
  host_.store().write([event = e.id](Db& db) { event_rows::finish_event(db, event, now_seconds()); }, nullptr);
}

bool Tournaments::withheld(const std::string& table) {
  {
    std::lock_guard lock(mutex_);
    auto it = by_table_.find(table);
    if (it != by_table_.end()) {
      auto e = events_.find(it->second.event);
      return e != events_.end() && !e->second.over;
    }
  }
  if (!host_.clustered()) return false;
  // Cluster mode: an event another node runs; the store knows.
  bool running = false;
  host_.store().read([&](Db& db) { running = event_rows::running_event_of(db, table).has_value(); });
  return running;
}

bool Tournaments::may_watch(const std::string& table, const std::string& player_id) {
  std::lock_guard lock(mutex_);
  auto it = by_table_.find(table);
  if (it == by_table_.end()) return true;
  auto e = events_.find(it->second.event);
  if (e == events_.end() || e->second.over) return true;
  for (const auto& seat : seating(e->second, it->second.rotation)) {
    if (!seat.player_id.empty() && seat.player_id == player_id) return true;
  }
  return false;
}

bool Tournaments::has_table(const std::string& table) {
  std::lock_guard lock(mutex_);
  return by_table_.count(table) > 0;
}

// ---- recovery --------------------------------------------------------------------

bool Tournaments::install(EventSpec e) {
  auto created = host_.make_game(first_board(e));
  if (!created.game) {
    spdlog::error("event {} cannot be resumed: its game is refused", e.id);
    return false;
  }
  e.groups = seat_groups(*created.game);
  e.tables.assign(static_cast<std::size_t>(e.boards), std::vector<std::string>(e.sides.size()));
  std::lock_guard lock(mutex_);
  stopped_[e.id].assign(e.sides.size(), false);
  events_[e.id] = std::move(e);
  return true;
}

void Tournaments::place(const Row& r) {
  auto it = events_.find(r.event);
  if (it == events_.end()) return;
  auto& tables = it->second.tables;
  if (r.board < 0 || r.board >= static_cast<int>(tables.size()) || r.rotation < 0 ||
      r.rotation >= static_cast<int>(tables[static_cast<std::size_t>(r.board)].size()))
    return;
  tables[static_cast<std::size_t>(r.board)][static_cast<std::size_t>(r.rotation)] = r.table;
  by_table_[r.table] = {r.event, r.board, r.rotation};
}

void Tournaments::recover() {
  std::vector<EventSpec> loaded;
  std::vector<Row> rows;
  host_.store().read([&](Db& db) {
    for (const auto& row : event_rows::running_events(db)) loaded.push_back(event_from_row(row));
    for (auto& r : event_rows::running_boards(db)) rows.push_back({r.event, r.board, r.rotation, r.table});
  });
  for (auto& e : loaded) install(std::move(e));
  for (const auto& r : rows) {
    std::lock_guard lock(mutex_);
    place(r);
  }
  for (const auto& r : rows) {
    if (r.board == 0) recall_consent(r.event, r.table);
  }
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, e] : events_) ids.push_back(id);
  }
  for (const auto& event : ids) {
    std::vector<std::vector<std::string>> tables;
    {
      std::lock_guard lock(mutex_);
      tables = events_[event].tables;
    }
    const int rotations = static_cast<int>(tables.empty() ? 0 : tables[0].size());
    for (int k = 0; k < rotations; ++k) {
      int last = -1;
      for (int b = 0; b < static_cast<int>(tables.size()); ++b) {
        if (!tables[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)].empty()) last = b;
      }
      if (last < 0) {
        open_board(event, 0, k, "");
        continue;
      }
      {
        std::lock_guard lock(mutex_);
        for (int b = 0; b < last; ++b)
          events_[event].done.insert(
              tables[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)]);
      }
      const std::string& table =
          tables[static_cast<std::size_t>(last)][static_cast<std::size_t>(k)];
      auto stored = host_.store().load_table(table);
      if (!stored) {
        open_board(event, last, k, table);  // its row was stored, the table was not
      } else if (stored->status == "over" || stored->status == "closed") {
        advance(event, last, k, stored->status == "over");
      }
      // Otherwise the lobby resumed it like any other table.
    }
    std::lock_guard lock(mutex_);
    finish_if_done(events_[event]);
  }
  spdlog::info("recovered {} running events", ids.size());
}

void Tournaments::read_event_of(const std::string& table, std::optional<EventSpec>& loaded,
                           std::vector<Row>& rows) {
  host_.store().read([&](Db& db) {
    const auto event = event_rows::running_event_of(db, table);
    if (!event) return;
    const auto row = event_rows::event(db, *event);
    if (!row) return;
    loaded = event_from_row(*row);
    for (auto& r : event_rows::boards_of(db, *event)) rows.push_back({r.event, r.board, r.rotation, r.table});
  });
}

void Tournaments::adopting(const std::string& table) {
  {
    std::lock_guard lock(mutex_);
    if (by_table_.count(table)) return;
  }
  std::optional<EventSpec> loaded;
  std::vector<Row> rows;
  try {
    read_event_of(table, loaded, rows);
  } catch (const std::exception& ex) {
    const LogAbout about(table);
    spdlog::error("event of table {} cannot be read: {}", table, ex.what());
    return;
  }
  if (!loaded || rows.empty()) return;  // not an event's table, or its event is over
  bool known = false;
  {
    std::lock_guard lock(mutex_);
    known = events_.count(loaded->id) > 0;
  }
  if (!known && !install(std::move(*loaded))) return;
  for (const auto& r : rows) {
    if (r.board == 0) recall_consent(r.event, r.table);
  }
  std::lock_guard lock(mutex_);
  for (const auto& r : rows) place(r);
  // The earlier boards of each rotation are over: only its last can still be
  // played (the same account recover() keeps).
  auto& e = events_[rows.front().event];
  for (std::size_t k = 0; k < e.sides.size(); ++k) {
    int last = -1;
    for (int b = 0; b < e.boards; ++b) {
      if (!e.tables[static_cast<std::size_t>(b)][k].empty()) last = b;
    }
    for (int b = 0; b < last; ++b) e.done.insert(e.tables[static_cast<std::size_t>(b)][k]);
  }
  const LogAbout about(table);
  spdlog::info("table {} belongs to event {}: loaded from the store", table, e.id);
}

// ---- GET /api/events/{id} --------------------------------------------------------

json Tournaments::describe(const std::string& event, int& status) {
  EventSpec e;
  {
    std::lock_guard lock(mutex_);
    if (auto it = events_.find(event); it != events_.end()) e = it->second;
  }
  std::string status_text = e.over ? "over" : "running";
  if (e.id.empty()) {
    // Not in memory: finished events are read from the store.
    std::vector<std::tuple<int, int, std::string>> rows;
    host_.store().read([&](Db& db) {
      const auto row = event_rows::event(db, event);
      if (!row) return;
      e = event_from_row(*row);
      status_text = row->status;
      for (auto& r : event_rows::boards_of(db, event)) rows.emplace_back(r.board, r.rotation, r.table);
    });
    if (e.id.empty()) {
      status = 404;
      return {{"error", "no_such_event"}};
    }
    auto created = host_.make_game(first_board(e));
    if (created.game) e.groups = seat_groups(*created.game);
    e.tables.assign(static_cast<std::size_t>(e.boards), std::vector<std::string>(e.sides.size()));
    for (const auto& [b, k, t] : rows)
      e.tables[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)] = t;
    e.over = status_text == "over";
  }
  const std::size_t rotations = e.sides.size();
  status = 200;
  json out = {{"event", e.id},         {"game", e.game},     {"players", e.players},
              {"options", e.options},  {"boards", e.boards}, {"rotations", rotations},
              {"status", status_text}, {"groups", e.groups}, {"sides", sides_json(e.sides)}};
  // Each table's stored status and final scores.
  struct Played {
    std::string status;
    json scores;  // null unless over
  };
  std::vector<std::vector<Played>> played(static_cast<std::size_t>(e.boards),
                                          std::vector<Played>(rotations));
  json tables = json::array();
  for (int b = 0; b < e.boards; ++b) {
    for (std::size_t k = 0; k < rotations; ++k) {
      const std::string& id = e.tables[static_cast<std::size_t>(b)][k];
      Played& p = played[static_cast<std::size_t>(b)][k];
      p.status = "not_started";
      if (!id.empty()) {
        if (auto stored = host_.store().load_table(id)) {
          // An event table starts when it is stored (every seat is filled); the
          // store marks it playing only with its first move.
          p.status = stored->status == "waiting" ? "playing" : stored->status;
          if (p.status == "over") p.scores = json::parse(stored->scores, nullptr, false);
        } else {
          p.status = "waiting";
        }
      }
      json seating = json::array();  // the side in each seat
      for (int seat = 0; seat < e.players; ++seat) {
        for (std::size_t s = 0; s < rotations; ++s) {
          const auto& group = e.groups[(s + k) % rotations];
          if (std::find(group.begin(), group.end(), seat) != group.end()) seating.push_back(s);
        }
      }
      tables.push_back({{"board", b + 1},
                        {"rotation", k},
                        {"table", id.empty() ? json() : json(id)},
                        {"status", p.status},
                        {"seating", std::move(seating)}});
    }
  }
  out["tables"] = std::move(tables);
  // Scoring against the field (docs/events.md): the score of group g at a
  // table is its first seat's final score; side s at rotation k, in group
  // g = (s+k) mod U, scores on the board the sum over the other rotations k'
  // that finished it of (its score in g at k) - (the score in g at k').
  std::vector<long long> totals(rotations, 0), raw(rotations, 0);
  std::vector<int> counted(rotations, 0);
  json boards = json::array();
  for (int b = 0; b < e.boards; ++b) {
    const auto& row = played[static_cast<std::size_t>(b)];
    bool finished = true;
    for (const auto& p : row) finished = finished && (p.status == "over" || p.status == "closed");
    json board = {{"board", b + 1}, {"revealed", finished || e.over}};
    if (!(finished || e.over)) {
      boards.push_back(std::move(board));
      continue;
    }
    board["seed"] = std::to_string(e.seeds[static_cast<std::size_t>(b)]);
    auto group_score = [&](std::size_t k, std::size_t g) -> std::optional<long long> {
      const json& scores = row[k].scores;
      if (!scores.is_array()) return std::nullopt;
      return scores[static_cast<std::size_t>(e.groups[g][0])].get<long long>();
    };
    json results = json::array();
    for (std::size_t k = 0; k < rotations; ++k) {
      results.push_back({{"rotation", k},
                         {"table", e.tables[static_cast<std::size_t>(b)][k]},
                         {"status", row[k].status},
                         {"scores", row[k].scores}});
    }
    board["results"] = std::move(results);
    json diffs = json::array();
    for (std::size_t s = 0; s < rotations; ++s) {
      for (std::size_t k = 0; k < rotations; ++k) {
        const std::size_t g = (s + k) % rotations;
        const auto own = group_score(k, g);
        if (!own) continue;
        long long difference = 0;
        int compared = 0;
        for (std::size_t other = 0; other < rotations; ++other) {
          if (other == k) continue;
          if (auto theirs = group_score(other, g)) {
            difference += *own - *theirs;
            ++compared;
          }
        }
        diffs.push_back({{"side", s},
                         {"rotation", k},
                         {"group", g},
                         {"score", *own},
                         {"compared", compared},
                         {"difference", difference}});
        totals[s] += difference;
        raw[s] += *own;
        ++counted[s];
      }
    }
    board["differences"] = std::move(diffs);
    boards.push_back(std::move(board));
  }
  out["results"] = std::move(boards);
  std::vector<std::size_t> order(rotations);
  for (std::size_t s = 0; s < rotations; ++s) order[s] = s;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return totals[a] > totals[b]; });
  json standings = json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t s = order[i];
    std::size_t rank = i + 1;
    if (i > 0 && totals[order[i - 1]] == totals[s])
      rank = standings.back()["rank"].get<std::size_t>();
    standings.push_back({{"rank", rank},
                         {"side", s},
                         {"name", e.sides[s].name},
                         {"total", totals[s]},
                         {"points", raw[s]},
                         {"hands", counted[s]}});
  }
  out["standings"] = std::move(standings);
  if (e.over) {
    json seeds = json::array();
    for (auto s : e.seeds) seeds.push_back(std::to_string(s));
    out["seeds"] = std::move(seeds);
  }
  return out;
}

}  // namespace casa::server
