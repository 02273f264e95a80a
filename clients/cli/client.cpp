#include "clients/cli/client.h"

#include <ostream>
#include <utility>

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

// Errors that only concern one move: the table goes on and a fresh state fixes it.
bool is_move_error(const std::string& code) {
  return code == "stale_seq" || code == "not_your_turn" || code == "illegal_action" ||
         code == "malformed_action" || code == "rate_limited";
}

std::string seat_infos(const Json& seats, const Json& me) {
  std::string out;
  if (!seats.is_array()) return out;
  for (const auto& s : seats) {
    out += "  seat " + text(s, "seat") + ": ";
    const std::string kind = text(s, "kind");
    if (kind == "player")
      out += text(s, "name") + (s.value("connected", true) ? "" : " (away)");
    else if (kind == "bot")
      out += "bot " + text(s, "bot");
    else
      out += "(empty)";
    if (me.is_number_integer() && s.value("seat", -2) == me.get<int>()) out += " <- you";
    out += "\n";
  }
  return out;
}

}  // namespace

Client::Client(ClientOptions options, std::ostream& out, std::ostream& log)
    : options_(std::move(options)), out_(out), log_(log), rng_state_(options_.seed) {}

Json Client::hello() {
  Json m = {{"type", "hello"}, {"version", kProtocolVersion}};
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
  if (type == "table_created") {
    table_ = text(m, "table");
    games_[table_] = options_.game;
    log_ << "Table " << table_ << " created; invite code " << text(m, "invite") << "\n";
    if (!options_.fill.empty())
      for (int seat = 1; seat < options_.players; ++seat)
        send({{"type", "add_bot"}, {"table", table_}, {"seat", seat}, {"bot", options_.fill}});
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
    if (table_.empty()) table_ = text(m, "table");
    log_ << (type == "joined" ? "Joined table " + table_ + " at seat " + text(m, "seat")
                              : "Watching table " + table_)
         << "\n";
    return;
  }
  if (type == "table_state") {
    const std::string table = text(m, "table");
    games_[table] = text(m, "game");
    if (table_.empty()) table_ = table;
    if (chatty()) {
      screen() << "Table " << table << " (" << text(m, "game") << ", " << text(m, "status") << ")"
               << (m.contains("invite") ? ", invite " + text(m, "invite") : "") << "\n"
               << seat_infos(m.value("seats", Json::array()), m.value("seat", Json()));
      if (m.contains("view") && !m["view"].is_null()) screen() << render_view(m["view"]);
    }
    return;
  }
  if (type == "table_update") {
    if (chatty())
      screen() << "Table " << text(m, "table") << " is " << text(m, "status") << "\n"
               << seat_infos(m.value("seats", Json::array()), Json());
    return;
  }
  if (type == "event") {
    if (chatty()) {
      const Json& event = m.value("event", Json::object());
      screen() << "* " << render_event(game_of(text(m, "table")), event) << "\n";
    }
    return;
  }
  if (type == "chat") {
    screen() << "[" << (m.value("team", false) ? "team " : "") << text(m, "name") << "] "
             << text(m, "text") << "\n";
    return;
  }
  if (type == "rematch_offer") {
    screen() << "Rematch offered: casa join " << text(m, "invite") << "\n";
    return;
  }
  // accepted, bot_added, left, pong: nothing to show.
}

void Client::on_welcome(const Json& m) {
  const std::string token = text(m, "token");
  if (!token.empty() && token != options_.token) {
    options_.token = token;
    new_token_ = token;
  }
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
  }
}

void Client::on_request(const Json& m) {
  const std::string table = text(m, "table");
  PendingRequest request{m.value("seq", std::int64_t{0}), m.value("legal", Json::array()),
                         m.value("view", Json())};
  if (!request.legal.is_array() || request.legal.empty()) return;
  pending_[table] = std::move(request);
  const PendingRequest& r = pending_[table];
  if (interactive()) {
    prompt();
    return use_typed();
  }
  if (options_.verbose) log_ << render_view(r.view);
  std::size_t choice = 0;
  if (options_.bot == "random") choice = splitmix64(rng_state_) % r.legal.size();
  answer(table, choice);
}

void Client::answer(const std::string& table, std::size_t choice) {
  const auto it = pending_.find(table);
  if (it == pending_.end() || choice >= it->second.legal.size()) return;
  if (options_.verbose || interactive())
    screen() << "> " << render_action(game_of(table), it->second.legal[choice]) << "\n";
  send({{"type", "action"},
        {"table", table},
        {"seq", it->second.seq},
        {"action", it->second.legal[choice]}});
  pending_.erase(it);
}

void Client::prompt() {
  if (pending_.empty()) return;
  const auto& [table, r] = *pending_.begin();
  out_ << "\n" << render_view(r.view) << "Your move";
  if (pending_.size() > 1) out_ << " at table " << table;
  out_ << ":\n";
  const std::string game = game_of(table);
  for (std::size_t i = 0; i < r.legal.size(); ++i)
    out_ << "  " << (i + 1) << ") " << render_action(game, r.legal[i]) << "\n";
  out_ << "Type a number (or: say TEXT, team TEXT, quit)> " << std::flush;
}

void Client::on_line(const std::string& raw) {
  std::string line = raw;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.empty()) return prompt();
  if (line == "quit" || line == "q") return finish(kExitOk, "");
  for (const char* verb : {"say ", "team "}) {
    const std::string v = verb;
    if (line.rfind(v, 0) == 0 && !table_.empty()) {
      Json chat = {{"type", "chat"}, {"table", table_}, {"text", line.substr(v.size())}};
      if (v == "team ") chat["team"] = true;
      return send(std::move(chat));
    }
  }
  // Choices typed ahead (or piped in) wait for the request they answer.
  typed_.push_back(line);
  use_typed();
}

void Client::on_input_closed() {
  input_closed_ = true;
  use_typed();
}

void Client::use_typed() {
  while (!pending_.empty() && !typed_.empty()) {
    const std::string line = typed_.front();
    typed_.pop_front();
    const std::size_t count = pending_.begin()->second.legal.size();
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
      answer(pending_.begin()->first, number - 1);
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
  if (is_move_error(code) && !table_.empty()) {
    log_ << "Move refused (" << code << "): " << message << "\n";
    const std::string table = m.contains("table") ? text(m, "table") : table_;
    // A stale seq means a newer request is on its way. Anything else (also a
    // message the rate limit dropped, which the error does not name): ask for the
    // table's state again, with the pending request if the move is still ours.
    if (code != "stale_seq") send({{"type", "resync"}, {"table", table}});
    return;
  }
  if (code == "bad_field" && started_ && options_.command != Command::kList && !table_.empty() &&
      interactive()) {
    log_ << "Refused: " << message << "\n";  // e.g. an over-long chat line
    return;
  }
  finish(kExitServerError, "server error " + code + ": " + message);
}

void Client::on_game_over(const Json& m) {
  const std::string table = text(m, "table");
  if (!table_.empty() && table != table_) return;
  pending_.erase(table);
  Json result = {{"table", table},
                 {"game", game_of(table)},
                 {"scores", m.value("scores", Json::array())},
                 {"winners", m.value("winners", Json::array())}};
  if (interactive()) out_ << "\nGame over.\n";
  out_ << result.dump() << "\n" << std::flush;
  finish(kExitOk);
}

void Client::finish(int code, const std::string& message) {
  if (exit_code_) return;
  if (!message.empty()) log_ << "casa: " << message << "\n";
  exit_code_ = code;
}

void Client::send(Json message) { outgoing_.push_back(std::move(message)); }

std::deque<Json> Client::take_outgoing() { return std::exchange(outgoing_, {}); }

std::optional<std::string> Client::take_new_token() { return std::exchange(new_token_, {}); }

std::string Client::game_of(const std::string& table) const {
  const auto it = games_.find(table);
  return it == games_.end() ? options_.game : it->second;
}

}  // namespace casa::cli
