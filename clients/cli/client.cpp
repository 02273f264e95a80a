// SPDX-License-Identifier: AGPL-3.0-or-later
#include "clients/cli/client.h"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <utility>

#include "clients/cli/event.h"

namespace casa::cli {
namespace {

constexpr int kProtocolVersion = 1;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string text(const Json& m, const char* key) {
  const auto it = m.find(key);
  if (it == m.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Errors that only concern one move: the table goes on and a fresh state fixes it.
bool is_move_error(const std::string& code) {
  return code == "stale_seq" || code == "not_your_turn" || code == "illegal_action" ||
         code == "malformed_action" || code == "rate_limited";
}

bool away(const Json& seat) { return seat.value("away", false) || !seat.value("connected", true); }

// What a move the server made for a seat says about it (`auto` of the event).
std::string auto_note(const std::string& why) {
  if (why == "timer") return " [auto: time ran out, robot chose]";
  if (why == "away") return " [auto: player away, played by robot]";
  if (why == "left") return " [auto: player left, played by robot]";
  return " [auto: " + why + "]";
}

std::string closed_reason(const std::string& reason) {
  if (reason == "abandoned") return "abandoned";
  if (reason == "creator_gone") return "its creator is gone";
  if (reason == "admin") return "closed by the operators";
  return reason;
}

}  // namespace

Client::Client(ClientOptions options, std::ostream& out, std::ostream& log)
    : options_(std::move(options)),
      out_(out),
      log_(log),
      now_ms_(steady_ms),
      rng_state_(options_.seed) {}

Json Client::hello() {
  Json m = {{"type", "hello"}, {"version", kProtocolVersion}};
  // Requests may then say only what changed in the view (docs/protocol.md, Features).
  m["features"] = Json::array({"view_patch"});
  if (!options_.name.empty()) m["name"] = options_.name;
  hello_had_token_ = !options_.token.empty();
  if (hello_had_token_) m["token"] = options_.token;
  return m;
}

void Client::on_message(const Json& m) {
  if (!m.is_object()) return;
  const std::string type = text(m, "type");
  if (type == "welcome") return on_welcome(m);
  if (type == "request") return on_request(m);
  if (type == "error") return on_error(m);
  if (type == "game_over") return on_game_over(m);
  if (type == "table_state") return on_table_state(m);
  if (type == "table_update") return on_table_update(m);
  if (type == "event") return on_event(m);
  if (type == "event_created") return on_event_created(m);
  if (type == "clock") return on_clock(m);
  if (type == "table_closed") return on_table_closed(m);
  if (type == "left") return on_left(m);
  if (type == "reconnect") {
    // The server is going away (a restart, or this node of several stops): the
    // socket closes next; connect again after the pause it asks for and resume.
    reconnect_after_ms_ = std::max(0, m.value("after_ms", 0));
    log_ << "The server is restarting; reconnecting.\n";
    return;
  }
  if (type == "table_created") {
    const std::string table = text(m, "table");
    tables_[table].game = options_.game;
    tables_[table].invite = text(m, "invite");
    follow(table);
    log_ << "Table " << table << " created; invite code " << text(m, "invite") << "\n";
    if (!options_.fill.empty())
      for (int seat = 1; seat < options_.players; ++seat)
        send({{"type", "add_bot"}, {"table", table}, {"seat", seat}, {"bot", options_.fill}});
    return;
  }
  if (type == "tables") {
    if (m.value("tables", Json::array()).empty()) out_ << "No open tables.\n";
    for (const auto& t : m.value("tables", Json::array())) {
      int taken = 0;
      for (const auto& s : t.value("seats", Json::array())) taken += text(s, "kind") != "empty";
      out_ << text(t, "table") << "  " << text(t, "game") << "  " << taken << "/"
           << text(t, "players") << " seated  " << text(t, "status") << "  options "
           << t.value("options", Json::object()).dump() << "\n";
    }
    return finish(kExitOk);
  }
  if (type == "joined" || type == "spectating") {
    const std::string table = text(m, "table");
    if (joining_rematch_ || options_.command == Command::kJoin ||
        options_.command == Command::kWatch)
      follow(table);
    log_ << (type == "joined" ? "Joined table " + table + " at seat " + text(m, "seat")
                              : "Watching table " + table)
         << "\n";
    return;
  }
  if (type == "rematch_created") {
    const std::string table = text(m, "new_table");
    log_ << "Rematch of " << text(m, "table") << ": table " << table << ", invite code "
         << text(m, "invite") << "\n";
    follow(table);
    // Whoever asked first sits at the new table already; the others join it.
    send({{"type", "resync"}, {"table", table}});
    return;
  }
  if (type == "chat") {
    const std::string table = text(m, "table");
    if (!followed(table)) return;
    show_chat(table, m);
    return;
  }
  if (type == "rematch_offer") {
    const std::string table = text(m, "table");
    say(table, "Rematch offered: casa join " + text(m, "invite"));
    return;
  }
  // accepted, bot_added, pong: nothing to show.
}

void Client::on_welcome(const Json& m) {
  const std::string token = text(m, "token");
  if (!token.empty() && token != options_.token) {
    options_.token = token;
    new_token_ = token;
  }
  welcomed_ = true;
  player_id_ = text(m, "player_id");
  log_ << "Connected as " << text(m, "name") << " (" << text(m, "player_id") << ")"
       << (m.value("resumed", false) ? ", resumed" : "") << "\n";
  // After a reconnect the server re-sends the state of our tables by itself.
  if (started_) return;
  started_ = true;
  switch (options_.command) {
    case Command::kPlay: {
      Json create = {{"type", "create_table"},
                     {"game", options_.game},
                     {"players", options_.players},
                     {"options", options_.options}};
      if (options_.private_table) create["private"] = true;
      if (!options_.disconnect_policy.is_null())
        create["disconnect_policy"] = options_.disconnect_policy;
      if (options_.move_timeout_seconds >= 0)
        create["move_timeout_seconds"] = options_.move_timeout_seconds;
      if (options_.correspondence) create["correspondence"] = true;
      send(std::move(create));
      break;
    }
    case Command::kJoin: {
      Json join = {{"type", "join"}, {"invite", options_.invite}};
      if (options_.seat >= 0) join["seat"] = options_.seat;
      send(std::move(join));
      break;
    }
    case Command::kWatch:
      send({{"type", "spectate"}, {"invite", options_.invite}});
      break;
    case Command::kList: {
      Json list = {{"type", "list_tables"}};
      if (!options_.list_game.empty()) list["game"] = options_.list_game;
      send(std::move(list));
      break;
    }
    case Command::kRematch:
      send({{"type", "rematch"}, {"table", options_.rematch_table}});
      break;
    case Command::kEventCreate: {
      Json create = {{"type", "create_event"},
                     {"game", options_.game},
                     {"players", options_.players},
                     {"options", options_.options}};
      if (options_.event_boards > 0) create["boards"] = options_.event_boards;
      create["sides"] = sides_for(options_.event_sides, player_id_);
      send(std::move(create));
      break;
    }
    case Command::kEventJoin: {
      event_rotations_ = rotations_of(options_.event_info, player_id_);
      if (event_rotations_.empty()) {
        return finish(kExitServerError,
                      "you (" + text(m, "name") + ", player id " + player_id_ +
                          ") do not sit in event " + options_.event +
                          ": its creator names each player by id (`me` or p… in --side), so give "
                          "them yours");
      }
      std::string at;
      for (const int k : event_rotations_) at += (at.empty() ? "" : ", ") + std::to_string(k + 1);
      log_ << "Event " << options_.event << ": you sit at table"
           << (event_rotations_.size() > 1 ? "s " : " ") << at << " of each board; every board is "
           << "played here as it opens.\n";
      // The server sends the state of each unfinished table of ours by itself
      // (a player named in an event sits at its tables already).
      event_next();
      break;
    }
    case Command::kResume:
      // The server sends the state of each unfinished table by itself; a fresh
      // player has none.
      if (!m.value("resumed", false)) on_settled();
      break;
  }
}

// ---- Which tables this run follows ----

void Client::follow(const std::string& table) {
  if (table.empty() || followed(table)) return;
  followed_.insert(table);
  if (table_.empty()) table_ = table;
}

void Client::unfollow(const std::string& table) {
  followed_.erase(table);
  pending_.erase(table);
  if (followed_.empty() && (started_ || settled_)) finish(kExitOk);
}

// A table of the token this run does not follow: named once, never played.
void Client::mention(const std::string& table) {
  TableInfo& t = tables_[table];
  if (t.mentioned || options_.command == Command::kResume) return;
  t.mentioned = true;
  for (const auto& line :
       wrap_line("Your table " + table + " (" + (t.game.empty() ? "a game" : t.game) +
                 ") is also unfinished; `casa resume " + table + "` plays it."))
    log_ << line << "\n";
}

std::string Client::tag(const std::string& table) const {
  return followed_.size() > 1 || options_.follow_all ? "[" + table + "] " : "";
}

void Client::say(const std::string& table, const std::string& line) {
  if (!chatty()) return;
  const std::string prefix = tag(table);
  // A line that comes while the prompt waits (another seat's move in a phase
  // where several act at once, a chat line) goes below it, and the prompt is
  // shown again under it, so that what the person types stays on its line.
  const bool under_prompt = interactive() && !prompt_again_.empty();
  if (under_prompt) screen() << "\n";
  for (const auto& piece : wrap_line(line, kScreenWidth - columns(prefix)))
    screen() << prefix << piece << "\n";
  if (under_prompt) screen() << prompt_again_ << std::flush;
}

std::string Client::game_of(const std::string& table) const {
  const auto it = tables_.find(table);
  return it == tables_.end() || it->second.game.empty() ? options_.game : it->second.game;
}

Seating Client::seating(const std::string& table) const {
  Seating s;
  const auto it = tables_.find(table);
  if (it == tables_.end()) {
    s.players = static_cast<std::size_t>(std::max(0, options_.players));
    return s;
  }
  if (it->second.view.is_object()) s = seating_of(it->second.view);
  if (s.players == 0) {
    Json shape = {{"players", it->second.players}, {"teams", it->second.teams}};
    const Seating t = seating_of(shape);
    s.players = t.players;
    s.sides = t.sides;
  }
  if (s.players == 0) s.players = static_cast<std::size_t>(std::max(0, options_.players));
  s.me = it->second.seat;
  return s;
}

std::int64_t Client::time_left_ms(const std::string& table) const {
  const auto p = pending_.find(table);
  const auto t = tables_.find(table);
  if (p == pending_.end()) return -1;
  // A clock for this very decision is the freshest word; else the request's deadline.
  if (t != tables_.end() && t->second.clock.is_object() &&
      t->second.clock.value("seq", std::int64_t{-1}) == p->second.seq) {
    const Json seats = t->second.clock.value("seats", Json::array());
    if (std::find(seats.begin(), seats.end(), Json(t->second.seat)) != seats.end())
      return t->second.clock.value("remaining_ms", std::int64_t{0}) - (now() - t->second.clock_ms);
  }
  if (p->second.deadline_ms >= 0) return p->second.deadline_ms - (now() - p->second.received_ms);
  return -1;
}

// ---- Table messages ----

void Client::on_table_state(const Json& m) {
  const std::string table = text(m, "table");
  TableInfo& t = tables_[table];
  t.game = text(m, "game");
  t.status = text(m, "status");
  if (m.contains("invite")) t.invite = text(m, "invite");
  t.seat = m.value("seat", -1);
  t.players = m.value("players", 0);
  t.teams = m.value("teams", Json());
  t.options = m.value("options", Json::object());
  t.disconnect_policy = m.value("disconnect_policy", Json());
  t.move_timeout_seconds = m.value("move_timeout_seconds", 0);
  t.seats = m.value("seats", Json::array());
  t.seats_ms = now();
  t.view = m.value("view", Json());
  if (m.contains("clock") && m["clock"].is_object()) {
    t.clock = m["clock"];
    t.clock_ms = now();
  }
  if (t.status == "over" || t.status == "closed") t.over = true;
  if (const auto c = m.find("deal_commitment"); c != m.end() && c->is_object())
    t.deal_commitment = c->value("hash", std::string());

  if (options_.command == Command::kResume && !followed(table)) {
    // casa resume TABLE (by id or invite code), or --all.
    const bool named = !options_.resume_table.empty() &&
                       (table == options_.resume_table || t.invite == options_.resume_table);
    if ((named || options_.follow_all) && !t.over) follow(table);
  }
  if (options_.command == Command::kEventJoin && !followed(table) && !t.over && event_table(table))
    follow(table);
  if (!followed(table)) return mention(table);
  if (options_.command == Command::kRematch && t.seat < 0 && t.status == "waiting" &&
      !joining_rematch_) {
    // The rematch was made by another player: take our seat at it.
    joining_rematch_ = true;
    send({{"type", "join"}, {"table", table}});
    return;
  }
  if (!chatty()) return;
  if (!t.shown) show_roster(table);
  // The table's recent chat (after a restart or on resume): each numbered line once.
  for (const auto& line : m.value("chat", Json::array())) show_chat(table, line);
  show_state(table);
}

void Client::show_chat(const std::string& table, const Json& m) {
  TableInfo& t = tables_[table];
  if (const int line = m.value("line", 0); line > 0) {
    if (line <= t.chat_line) return;
    t.chat_line = line;
  }
  // Appended, not "[" + string: GCC 12 at -O3 warns (-Wrestrict, a false positive).
  std::string line = "[";
  if (m.value("team", false)) line += "team ";
  line += text(m, "name");
  // A spectator may take a player's name: the line says who wrote it.
  if (m.value("spectator", false)) line += " (spectator)";
  line += "] ";
  line += text(m, "text");
  say(table, line);
}

// The table once: what it is, its settings and who sits where.
void Client::show_roster(const std::string& table) {
  TableInfo& t = tables_[table];
  t.shown = true;
  std::string line = "Table " + table + " · " + t.game + " · " + std::to_string(t.players) +
                     (t.players == 1 ? " player" : " players") + " · " + t.status;
  if (!t.invite.empty()) line += " · invite " + t.invite;
  say(table, line);
  if (t.options.is_object() && !t.options.empty())
    say(table, "Options: " + render_inline(t.game, t.options));
  std::string rules;
  if (t.move_timeout_seconds > 0)
    rules = "Move timer: " + clock_text(std::int64_t{t.move_timeout_seconds} * 1000) + ".";
  if (t.disconnect_policy.is_object()) {
    const std::string takeover = t.disconnect_policy.value("takeover", std::string("robot"));
    const int grace = t.disconnect_policy.value("grace_seconds", 0);
    rules += std::string(rules.empty() ? "" : " ") + "A player away: " +
             (takeover == "none" ? std::string("their seat waits for them.")
                                 : takeover + " plays their seat after " +
                                       clock_text(std::int64_t{grace} * 1000) + ".");
  }
  if (!rules.empty()) say(table, rules);
  // Noted now, checked after the end with casa verify (docs/fair-play.md).
  // (Two lines: with a table tag the hash still fits 80 columns.)
  if (!t.deal_commitment.empty()) {
    say(table, "Deal commitment (SHA-256), to compare after the game:");
    say(table, "  " + t.deal_commitment);
  }
  std::string seats = "Seats:";
  for (const auto& s : t.seats)
    seats += (seats == "Seats:" ? " " : " · ") + std::to_string(s.value("seat", -1)) + " " +
             render_seat(s, t.seat);
  say(table, seats);
}

// The state of play when no decision of ours is on its way (that shows its own screen).
void Client::show_state(const std::string& table) {
  const TableInfo& t = tables_.at(table);
  if (t.status == "waiting") {
    int taken = 0;
    for (const auto& s : t.seats) taken += text(s, "kind") != "empty";
    say(table, "Waiting for players: " + std::to_string(taken) + " of " +
                   std::to_string(t.players) + " seats taken." +
                   (t.invite.empty() ? "" : " Friends join with: casa join " + t.invite));
    return;
  }
  if (!t.view.is_object()) return;
  const Json to_act = t.view.value("to_act", Json::array());
  if (t.status == "playing" && t.seat >= 0 &&
      std::find(to_act.begin(), to_act.end(), Json(t.seat)) != to_act.end())
    return;  // our request comes next, with the screen
  ScreenContext context;
  context.table = tag(table).empty() ? "" : table;
  context.seats = t.seats;
  context.seats_age_ms = now() - t.seats_ms;
  const std::string prefix = tag(table);
  context.width -= columns(prefix);
  for (const auto& line : render_screen(t.view, Json::array(), context))
    screen() << prefix << line << "\n";
}

void Client::on_table_update(const Json& m) {
  const std::string table = text(m, "table");
  TableInfo& t = tables_[table];
  const Json before = t.seats;
  const std::string status_before = t.status;
  t.status = text(m, "status");
  t.seats = m.value("seats", Json::array());
  t.seats_ms = now();
  if (!followed(table) || !chatty()) return;
  if (t.status != status_before && t.status == "playing") say(table, "The game starts.");
  // Only what changed, seat by seat.
  for (const auto& s : t.seats) {
    const int seat = s.value("seat", -1);
    Json old;
    if (before.is_array())
      for (const auto& b : before)
        if (b.value("seat", -2) == seat) old = b;
    if (old == s) continue;
    const std::string who = "seat " + std::to_string(seat) + ": ";
    const std::string name = text(s, "name");
    const bool same_player = old.is_object() && text(old, "player_id") == text(s, "player_id") &&
                             text(s, "kind") == "player";
    if (same_player && s.contains("played_by") && !old.contains("played_by")) {
      say(table, who + text(s, "played_by") + " now plays for " + name + " (away)");
    } else if (same_player && away(s) && !away(old)) {
      std::string line = who + name + " is away";
      if (s.contains("takeover_in_ms") && s["takeover_in_ms"].is_number_integer())
        line += "; robot takes over in " + clock_text(s["takeover_in_ms"].get<std::int64_t>());
      say(table, line);
    } else if (same_player && !away(s) && !s.contains("played_by") &&
               (away(old) || old.contains("played_by"))) {
      say(table, who + name + " is back");
    } else if (!same_player || text(old, "name") != name) {
      say(table, who + render_seat(s, t.seat));
    }
  }
}

void Client::on_event(const Json& m) {
  const std::string table = text(m, "table");
  if (!followed(table) || !chatty()) return;
  const Json& event = m.value("event", Json::object());
  const std::string game = game_of(table);
  // The game's end is told by game_over, in full.
  if (text(event, "type") == "game_over") return;
  const std::string note = m.contains("auto") ? auto_note(text(m, "auto")) : "";
  const std::vector<std::string> summary = render_summary(game, event, seating(table));
  if (!summary.empty()) {
    say(table, "* " + summary[0] + note);
    for (std::size_t i = 1; i < summary.size(); ++i) say(table, summary[i]);
    return;
  }
  say(table, "* " + render_event(game, event, seating(table)) + note);
}

void Client::on_clock(const Json& m) {
  const std::string table = text(m, "table");
  TableInfo& t = tables_[table];
  t.clock = m;
  t.clock_ms = now();
  const auto p = pending_.find(table);
  // A timer that started after our screen was shown: say it once.
  if (p != pending_.end() && !p->second.timer_shown && interactive() && followed(table)) {
    const std::int64_t left = time_left_ms(table);
    if (left >= 0) {
      p->second.timer_shown = true;
      say(table, "You have " + clock_text(left) + " to choose.");
    }
  }
}

void Client::on_table_closed(const Json& m) {
  const std::string table = text(m, "table");
  TableInfo& t = tables_[table];
  t.over = true;
  t.status = "closed";
  if (!followed(table)) return;
  const std::string line = "Table " + table + " was closed (" + closed_reason(text(m, "reason")) +
                           "): " + text(m, "message");
  // Said even when a bot plays: the run ends because of it.
  for (const auto& piece : wrap_line(line, kScreenWidth - columns(tag(table))))
    screen() << tag(table) << piece << "\n";
  followed_.erase(table);
  pending_.erase(table);
  if (options_.command == Command::kEventJoin) {
    event_over_.insert(table);
    if (followed_.empty()) event_next();
    return;
  }
  if (followed_.empty()) finish(kExitServerError, "the table was closed");
}

void Client::on_left(const Json& m) {
  const std::string table = text(m, "table");
  if (!followed(table)) return;
  const TableInfo& t = tables_[table];
  screen() << tag(table) << "You left table " << table
           << (t.status == "playing" ? "; the robot plays your seat from now on." : ".") << "\n";
  unfollow(table);
}

// ---- casa resume: list and pick ----

bool Client::wants_settle() const {
  return options_.command == Command::kResume && welcomed_ && !settled_;
}

void Client::on_settled() {
  if (settled_) return;
  settled_ = true;
  if (options_.command != Command::kResume) return;
  if (!options_.resume_table.empty()) {
    if (followed_.empty())
      finish(kExitServerError,
             "no unfinished table " + options_.resume_table + " of yours (try: casa resume)");
    return;
  }
  if (options_.follow_all) {
    if (followed_.empty()) {
      out_ << "No unfinished tables.\n";
      finish(kExitOk);
    }
    return;
  }
  list_resumable();
}

void Client::list_resumable() {
  resumable_.clear();
  for (const auto& [table, t] : tables_)
    if (!t.over) resumable_.push_back(table);
  if (resumable_.empty()) {
    out_ << "No unfinished tables.\n";
    return finish(kExitOk);
  }
  out_ << "Your unfinished tables:\n";
  for (std::size_t i = 0; i < resumable_.size(); ++i) {
    const TableInfo& t = tables_.at(resumable_[i]);
    std::string line =
        "  " + std::to_string(i + 1) + ") " + resumable_[i] + " · " + t.game + " · " + t.status;
    if (t.seat >= 0) line += " · you are seat " + std::to_string(t.seat);
    if (t.request.is_object()) {
      line += " · your turn";
    } else if (t.view.is_object()) {
      const Json to_act = t.view.value("to_act", Json::array());
      if (!to_act.empty())
        line += " · waiting for " + render_inline(t.game, to_act).insert(0, "seat ");
    }
    if (t.view.is_object() && t.view.contains("round")) line += " · round " + text(t.view, "round");
    out_ << line << "\n";
  }
  if (options_.list_only) return finish(kExitOk);
  if (!interactive()) {
    // A client bot cannot choose: it needs the table named or --all.
    return finish(kExitUsage, "casa resume with --bot needs a table or --all");
  }
  picking_ = true;
  out_ << "Pick a table (1-" << resumable_.size() << "), 'all' to follow them all, or 'quit'> "
       << std::flush;
}

void Client::on_pick(const std::string& line) {
  std::vector<std::string> picked;
  if (line == "all") {
    options_.follow_all = true;
    picked = resumable_;
  } else {
    std::size_t number = 0;
    try {
      std::size_t used = 0;
      number = std::stoul(line, &used);
      if (used != line.size()) number = 0;
    } catch (const std::exception&) {
      number = 0;
    }
    if (number < 1 || number > resumable_.size()) {
      out_ << "Please type a number from 1 to " << resumable_.size() << ", or 'all'> "
           << std::flush;
      return;
    }
    picked.push_back(resumable_[number - 1]);
  }
  picking_ = false;
  for (const auto& table : picked) follow(table);
  for (const auto& table : picked) {
    show_roster(table);
    show_state(table);
    // The request that came while the list was shown.
    if (tables_[table].request.is_object()) on_request(tables_[table].request);
  }
}

// ---- Decisions ----

void Client::on_request(const Json& message) {
  const std::string table = text(message, "table");
  // A view_patch applies to the view last received for the table: from here
  // on the request holds the whole view, as if the server had sent it.
  Json m = message;
  if (const auto patch = m.find("view_patch"); patch != m.end()) {
    const auto known = tables_.find(table);
    Json view = known != tables_.end() && known->second.view.is_object() ? known->second.view : Json::object();
    view.merge_patch(*patch);
    m.erase("view_patch");
    m["view"] = std::move(view);
  }
  PendingRequest request{m.value("seq", std::int64_t{0}),
                         m.value("legal", Json::array()),
                         m.value("view", Json()),
                         m.value("deadline_ms", std::int64_t{-1}),
                         now(),
                         false,
                         ++requests_seen_};
  if (!request.legal.is_array() || request.legal.empty()) return;
  TableInfo& t = tables_[table];
  t.request = m;
  if (request.view.is_object()) t.view = request.view;
  if (!followed(table)) return mention(table);
  request.timer_shown = request.deadline_ms >= 0;
  pending_[table] = std::move(request);
  const PendingRequest& r = pending_[table];
  if (interactive()) {
    prompt();
    return use_typed();
  }
  if (options_.verbose) {
    ScreenContext context;
    context.table = table;
    for (const auto& line : render_screen(r.view, r.legal, context)) log_ << line << "\n";
  }
  std::size_t choice = 0;
  if (options_.bot == "random") choice = splitmix64(rng_state_) % r.legal.size();
  answer(table, choice);
}

void Client::answer(const std::string& table, std::size_t choice) {
  const auto it = pending_.find(table);
  if (it == pending_.end() || choice >= it->second.legal.size()) return;
  if (options_.verbose || interactive())
    screen() << tag(table) << "> " << render_action(game_of(table), it->second.legal[choice])
             << "\n";
  send({{"type", "action"},
        {"table", table},
        {"seq", it->second.seq},
        {"action", it->second.legal[choice]}});
  pending_.erase(it);
  tables_[table].request = Json();
}

// The decision screen: fits 80x24 (docs/cli.md), the table named when several are followed.
std::string Client::oldest_pending() const {
  std::string oldest;
  std::uint64_t order = 0;
  for (const auto& [table, r] : pending_)
    if (oldest.empty() || r.order < order) {
      oldest = table;
      order = r.order;
    }
  return oldest;
}

void Client::prompt() {
  prompt_again_.clear();
  if (pending_.empty()) return;
  const std::string table = oldest_pending();
  PendingRequest& r = pending_.at(table);
  const TableInfo& t = tables_[table];
  ScreenContext context;
  const std::string prefix = tag(table);
  context.table = prefix.empty() ? "" : table;
  context.width -= columns(prefix);
  context.seats = t.seats;
  context.seats_age_ms = now() - t.seats_ms;
  context.time_left_ms = time_left_ms(table);
  if (context.time_left_ms >= 0) r.timer_shown = true;
  const std::string range = r.legal.size() == 1 ? "1" : "1-" + std::to_string(r.legal.size());
  context.prompt =
      helped_ ? "Your move (" + range + ", or help)> "
              : "Your move (" + range + "; or say TEXT, team TEXT, view, leave, quit, help)> ";
  helped_ = true;
  bool complete = true;
  const std::vector<std::string> lines = render_screen(r.view, r.legal, context, &complete);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out_ << prefix << lines[i];
    if (i + 1 < lines.size()) out_ << "\n";
  }
  out_ << std::flush;
  prompt_again_ = prefix + "Your move (" + range + ", or help)> ";
}

std::string Client::current_table() const {
  if (!pending_.empty()) return oldest_pending();
  if (followed_.count(table_)) return table_;
  return followed_.empty() ? table_ : *followed_.begin();
}

// The commands besides a number; true when the line was one.
bool Client::command_line(const std::string& line) {
  const std::string table = current_table();
  if (line == "quit" || line == "q") {
    for (const auto& followed_table : followed_)
      if (tables_[followed_table].status == "playing" && tables_[followed_table].seat >= 0)
        for (const std::string& said :
             {std::string("The game goes on without you: a robot plays your seat while you are "
                          "away."),
              "`casa resume " + followed_table + "` takes it back."})
          for (const auto& piece : wrap_line(said, kScreenWidth - columns(tag(followed_table))))
            log_ << tag(followed_table) << piece << "\n";
    finish(kExitOk, "");
    return true;
  }
  if (line == "help" || line == "?") {
    out_ << "Type the number of a choice. Other commands:\n"
         << "  say TEXT    chat to the table        team TEXT   chat to your partners\n"
         << "  view        everything about the table now\n"
         << "  choices     all the choices again\n"
         << "  leave       leave the table; a robot plays your seat for the rest of the game\n"
         << "  quit        stop this program; your seat waits (casa resume comes back)\n";
    prompt();
    return true;
  }
  if (line == "view") {
    const auto it = tables_.find(table);
    if (it != tables_.end() && it->second.view.is_object()) out_ << render_view(it->second.view);
    prompt();
    return true;
  }
  if (line == "choices") {
    const auto p = pending_.find(table);
    if (p != pending_.end())
      for (std::size_t i = 0; i < p->second.legal.size(); ++i)
        out_ << "  " << (i + 1) << ") " << render_action(game_of(table), p->second.legal[i])
             << "\n";
    prompt();
    return true;
  }
  if (line == "leave" || line.rfind("leave ", 0) == 0) {
    const std::string which = line == "leave" ? table : line.substr(6);
    if (which.empty() || !followed(which)) {
      out_ << "No table " << which << " here.\n";
      return true;
    }
    send({{"type", "leave"}, {"table", which}});
    return true;
  }
  for (const char* verb : {"say ", "team "}) {
    const std::string v = verb;
    if (line.rfind(v, 0) == 0 && !table.empty()) {
      Json chat = {{"type", "chat"}, {"table", table}, {"text", line.substr(v.size())}};
      if (v == "team ") chat["team"] = true;
      send(std::move(chat));
      return true;
    }
  }
  return false;
}

void Client::on_line(const std::string& raw) {
  prompt_again_.clear();  // the Enter key ended the prompt's line
  std::string line = raw;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (picking_) {
    if (line == "quit" || line == "q") return finish(kExitOk);
    if (!line.empty()) on_pick(line);
    return;
  }
  if (line.empty()) return prompt();
  if (command_line(line)) return;
  // Choices typed ahead (or piped in) wait for the request they answer.
  typed_.push_back(line);
  use_typed();
}

void Client::on_input_closed() {
  input_closed_ = true;
  if (picking_) return finish(kExitOk);
  use_typed();
}

void Client::use_typed() {
  while (!pending_.empty() && !typed_.empty()) {
    const std::string line = typed_.front();
    typed_.pop_front();
    const std::string table = oldest_pending();
    const std::size_t count = pending_.at(table).legal.size();
    std::size_t number = 0;
    try {
      std::size_t used = 0;
      number = std::stoul(line, &used);
      if (used != line.size()) number = 0;
    } catch (const std::exception&) {
      number = 0;
    }
    if (number < 1 || number > count) {
      out_ << "Please type a number from 1 to " << count << ".\n";
    } else {
      answer(table, number - 1);
    }
    prompt();
  }
  if (input_closed_ && !pending_.empty() && typed_.empty())
    finish(kExitServerError, "the input ended before the game did");
}

void Client::on_error(const Json& m) {
  const std::string code = text(m, "code");
  const std::string message = text(m, "message");
  if (code == "bad_token" && hello_had_token_) {
    // The token belongs to another server (or an erased database): start afresh.
    log_ << "The saved token is unknown to this server; connecting as a new player.\n";
    options_.token.clear();
    send(hello());
    return;
  }
  if (code == "already_seated" && options_.command == Command::kJoin) {
    // Joining a table we sit at already: take it up again.
    for (const auto& [table, t] : tables_)
      if (table == options_.invite || t.invite == options_.invite) {
        follow(table);
        show_roster(table);
        show_state(table);
        if (t.request.is_object()) on_request(t.request);
        return;
      }
  }
  if (code == "already_seated" && joining_rematch_) return;
  // Refused unread as the server drains: the `reconnect` that follows brings us
  // back, and the resumed table sends its request again.
  if (code == "draining") return;
  if (is_move_error(code) && !followed_.empty()) {
    const std::string table = m.contains("table") ? text(m, "table") : current_table();
    log_ << tag(table) << "Move refused (" << code << "): " << message << "\n";
    // A stale seq means a newer request is on its way. Anything else (also a
    // message the rate limit dropped, which the error does not name): ask for the
    // table's state again, with the pending request if the move is still ours.
    if (code != "stale_seq") send({{"type", "resync"}, {"table", table}});
    return;
  }
  if (code == "bad_field" && started_ && options_.command != Command::kList && !followed_.empty() &&
      interactive()) {
    log_ << "Refused: " << message << "\n";  // e.g. an over-long chat line
    return;
  }
  finish(kExitServerError, "server error " + code + ": " + message);
}

void Client::on_game_over(const Json& m) {
  const std::string table = text(m, "table");
  TableInfo& t = tables_[table];
  t.over = true;
  t.status = "over";
  t.request = Json();
  if (!followed(table)) return;
  pending_.erase(table);
  finished_table_ = table;
  // The end in words first (on the screen), then the one JSON line for scripts.
  const std::string prefix = tag(table);
  screen() << "\n" << prefix << "Game over at table " << table << " (" << game_of(table) << ").\n";
  for (const auto& line : render_game_end(game_of(table), m.value("scores", Json::array()),
                                          m.value("winners", Json::array()), seating(table)))
    screen() << prefix << line << "\n";
  if (t.seat >= 0 && options_.command != Command::kEventJoin)
    screen() << prefix << "Play again: casa rematch " << table << "\n";
  if (!t.deal_commitment.empty() && m.contains("deal"))
    screen() << prefix << "Check the deal: casa verify " << table << "\n";
  screen() << std::flush;
  Json result = {{"table", table},
                 {"game", game_of(table)},
                 {"scores", m.value("scores", Json::array())},
                 {"winners", m.value("winners", Json::array())}};
  out_ << result.dump() << "\n" << std::flush;
  followed_.erase(table);
  if (options_.command == Command::kEventJoin) {
    event_over_.insert(table);
    if (followed_.empty()) event_next();
    return;
  }
  if (followed_.empty()) finish(kExitOk);
}

// ---- Duplicate events (docs/events.md) ----

void Client::on_event_created(const Json& m) {
  const std::string event = text(m, "event");
  std::string tables;
  for (const auto& t : m.value("tables", Json::array()))
    tables += (tables.empty() ? "" : ", ") + t.get<std::string>();
  for (const std::string& line :
       {"Event " + event + " created: " + text(m, "rotations") +
            " tables play each board (board 1: " + tables + ").",
        "Each player named in it plays their tables with: casa event join " + event,
        "Standings: casa event standings " + event + " --follow"})
    for (const auto& piece : wrap_line(line)) log_ << piece << "\n";
  Json result = {{"event", event},
                 {"rotations", m.value("rotations", 0)},
                 {"tables", m.value("tables", Json::array())}};
  out_ << result.dump() << "\n" << std::flush;
  finish(kExitOk);
}

void Client::refresh_event() {
  if (!options_.fetch_event) return;
  Json fresh = options_.fetch_event();
  if (fresh.is_object() && fresh.contains("tables")) options_.event_info = std::move(fresh);
}

bool Client::event_table(const std::string& table) {
  auto known = [&] {
    for (const auto& t : options_.event_info.value("tables", Json::array()))
      if (t.value("table", Json()) == Json(table) &&
          event_rotations_.count(t.value("rotation", -1)))
        return true;
    return false;
  };
  if (known()) return true;
  // A table opened since we last asked: the event's next board, or not ours.
  refresh_event();
  return known();
}

// No table is followed (the run starts, or a board just ended): follow the
// event's open tables where we sit, wait for the next board, or end.
void Client::event_next() {
  if (!followed_.empty()) return;
  refresh_event();
  const Json& event = options_.event_info;
  if (!more_to_play(event, event_rotations_, event_over_)) {
    std::ostream& where = screen();
    where << "\nYour tables of event " << options_.event << " are all played"
          << (event.value("status", std::string()) == "over" ? "; the event is over."
                                                             : "; others still play.")
          << "\n";
    for (const auto& line : render_standings(event)) where << line << "\n";
    where << std::flush;
    return finish(kExitOk);
  }
  for (const auto& table : open_tables(event, event_rotations_, event_over_)) {
    if (followed(table)) continue;
    follow(table);
    // Its state came already (before we knew it was ours): ask for it again.
    if (const auto it = tables_.find(table); it != tables_.end() && !it->second.status.empty())
      send({{"type", "resync"}, {"table", table}});
  }
  if (followed_.empty())
    log_ << "Event " << options_.event << ": waiting for your next board to open.\n";
}

void Client::finish(int code, const std::string& message) {
  if (exit_code_) return;
  if (!message.empty()) log_ << "casa: " << message << "\n";
  exit_code_ = code;
}

void Client::send(Json message) { outgoing_.push_back(std::move(message)); }

std::deque<Json> Client::take_outgoing() { return std::exchange(outgoing_, {}); }

std::optional<std::string> Client::take_new_token() { return std::exchange(new_token_, {}); }

}  // namespace casa::cli
