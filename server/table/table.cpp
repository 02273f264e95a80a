// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/table/table.h"

#include <boost/asio/post.hpp>
#include <algorithm>
#include <array>
#include <set>
#include <spdlog/spdlog.h>

#include "engine/bots.h"
#include "protocol/deal_commitment.h"
#include "protocol/protocol.h"
#include "protocol/value_json.h"
#include "server/ops/log.h"
#include "server/ops/metrics.h"
#include "server/store/admin_rows.h"

namespace casa::server {

namespace asio = boost::asio;
using nlohmann::json;
using protocol::Refusal;

namespace {
constexpr std::size_t kMaxDeferred = 256;
constexpr auto kStorageRetry = std::chrono::seconds(1);
// The most events a `history` message carries (docs/protocol.md, "History").
constexpr std::size_t kHistoryEvents = 2000;

// Teams as the engine's view tells them ("teams": [[0,2],[1,3]]), else each
// seat alone.
std::vector<std::vector<int>> teams_of(const Game& game) {
  std::vector<std::vector<int>> teams;
  const Value view = game.view(0);
  if (const Value* t = view.find("teams"); t && t->is_array()) {
    for (const auto& team : t->as_array()) {
      if (!team.is_array()) return {};
      std::vector<int> seats;
      for (const auto& s : team.as_array()) {
        if (!s.is_int() || s.as_int() < 0 || s.as_int() >= game.players()) return {};
        seats.push_back(static_cast<int>(s.as_int()));
      }
      teams.push_back(std::move(seats));
    }
  }
  if (teams.empty()) {
    for (int s = 0; s < game.players(); ++s) teams.push_back({s});
  }
  return teams;
}
}  // namespace

Table::Table(TableHost& host, asio::io_context& io, TableSetup setup, std::unique_ptr<Game> game)
    : host_(host),
      io_(io),
      strand_(asio::make_strand(io)),
      move_timer_(strand_),
      takeover_timer_(strand_),
      dead_timer_(strand_),
      setup_(std::move(setup)),
      game_(std::move(game)),
      seats_(static_cast<std::size_t>(setup_.players)),
      pending_(static_cast<std::size_t>(setup_.players)),
      teams_(teams_of(*game_)),
      bot_rng_(setup_.seed ^ 0x5bd1e9955bd1e995ULL) {
  refresh_summary();
}

template <class F>
void Table::on_strand(F&& f) {
  asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(); });
}

void Table::defer(std::function<void()> f) {
  if (deferred_.size() < kMaxDeferred) deferred_.push_back(std::move(f));
}

// ---- sending -----------------------------------------------------------------

void Table::send_to_seat(Seat seat, const Frame& frame) {
  for (const auto& weak : seats_[static_cast<std::size_t>(seat)].connections) {
    if (auto c = weak.lock()) c->send(frame);
  }
}

void Table::look_up_connection(SeatState& seat) {
  if (seat.player_id.empty()) {
    seat.connections.clear();
  } else {
    const auto live = host_.connections_of(seat.player_id);
    seat.connections.assign(live.begin(), live.end());
  }
}

void Table::refresh_connections() {
  on_strand([this] {
    for (auto& s : seats_) look_up_connection(s);
  });
}

void Table::send_to_all(const Frame& frame) {
  for (Seat s = 0; s < setup_.players; ++s) send_to_seat(s, frame);
  send_to_spectators(frame);
}

void Table::send_to_spectators(const Frame& frame) {
  for (auto it = spectators_.begin(); it != spectators_.end();) {
    if (auto c = it->second.lock()) {
      c->send(frame);
      ++it;
    } else {
      it = spectators_.erase(it);
    }
  }
}

const char* Table::status_name() const {
  switch (status_) {
    case Status::waiting: return "waiting";
    case Status::playing: return "playing";
    case Status::over: return "over";
    case Status::closed: return "closed";
  }
  return "waiting";
}

json Table::seats_json() const {
  json out = json::array();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    json info = {{"seat", s}};
    if (!seats_[s].player_id.empty()) {
      info["kind"] = "player";
      info["player_id"] = seats_[s].player_id;
      info["name"] = host_.name_of(seats_[s].player_id);
      info["connected"] = !seats_[s].away;
      info["away"] = seats_[s].away;
      if (seats_[s].away && seats_[s].takeover_at != Clock::time_point{}) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(seats_[s].takeover_at - Clock::now());
        info["takeover_in_ms"] = std::max<std::int64_t>(0, left.count());
      }
      if (!seats_[s].played_by.empty()) info["played_by"] = seats_[s].played_by;
    } else if (!seats_[s].bot.empty()) {
      info["kind"] = "bot";
      info["bot"] = seats_[s].bot;
      info["name"] = seats_[s].bot;
    } else {
      info["kind"] = "empty";
    }
    out.push_back(std::move(info));
  }
  return out;
}

json Table::table_state(Seat seat) const {
  json state = {{"type", "table_state"},
                {"table", setup_.id},
                {"game", setup_.game},
                {"players", setup_.players},
                {"status", status_name()},
                {"seq", seq_},
                {"seat", seat},
                {"seats", seats_json()},
                {"teams", teams_},
                {"options", setup_.options},
                {"private", setup_.is_private},
                {"move_timeout_seconds", setup_.move_timeout_seconds},
                {"disconnect_policy", policy_json()},
                {"clock", clock_json()},
                {"view", nullptr}};
  if (setup_.rated) state["rated"] = *setup_.rated;
  // Who made the table, under their display name as cleaned at hello: what an
  // invited friend reads first ("Ann invites you").
  if (!setup_.creator.empty()) {
    state["creator"] = {{"player_id", setup_.creator}, {"name", host_.name_of(setup_.creator)}};
  }
  if (seat >= 0) state["invite"] = setup_.invite;
  if (status_ != Status::waiting) state["view"] = protocol::value_to_json(game_->view(seat));
  // The same commitment for every seat and spectator; the seed and salt behind
  // it only once the game is over (docs/fair-play.md).
  if (!setup_.deal_commitment.empty()) {
    state["deal_commitment"] = {{"algorithm", kDealCommitmentAlgorithm}, {"hash", setup_.deal_commitment}};
  }
  if (json deal = deal_reveal(); !deal.is_null()) state["deal"] = std::move(deal);
  if (json chat = chat_json(seat); !chat.is_null()) state["chat"] = std::move(chat);
  return state;
}

bool Table::may_see(const StoredChat& line, Seat viewer) const {
  if (!line.team) return true;
  // Team lines: only the seats of the speaker's team, never a spectator.
  if (viewer < 0) return false;
  for (const auto& t : teams_) {
    const bool speaker = std::find(t.begin(), t.end(), line.seat) != t.end();
    if (speaker) return std::find(t.begin(), t.end(), viewer) != t.end();
  }
  return false;
}

json Table::chat_json(Seat viewer) const {
  json out = json::array();
  for (const auto& line : chat_) {
    if (!may_see(line, viewer)) continue;
    json entry = {{"line", line.line},
                  {"from", line.player_id},
                  {"name", host_.name_of(line.player_id)},
                  {"seat", line.seat},
                  {"team", line.team},
                  {"text", line.text}};
    // Nobody passes for a player by watching under the same name.
    if (line.seat == kSpectator) entry["spectator"] = true;
    out.push_back(std::move(entry));
  }
  return out.empty() ? json() : out;
}

std::string Table::game_over_frame() const {
  return protocol::game_over(setup_.id, seq_, game_->scores(), game_->winners(), deal_reveal());
}

std::string Table::history_frame(Seat viewer) const {
  // The engine is deterministic: the log replayed on a fresh game makes the
  // very events the table made live, each with the audience it had then. A
  // viewer gets an event here only if it was in that audience: a seat its own
  // version, a spectator the public one, so nothing hidden comes back.
  json events = json::array();
  json rounds = json::array();
  std::vector<std::size_t> cuts = {0};  // where a round begins, as an index of events
  if (status_ != Status::waiting) {
    auto created = host_.make_game(setup_);
    std::vector<Event> made;
    std::int64_t seq = 0;
    for (const auto& a : log_) {
      made.clear();
      ++seq;
      if (!created.game || created.game->apply(a.seat, a.action, &made)) {
        spdlog::error("table {}: the log does not replay at seq {}; history cut short", setup_.id, seq);
        break;
      }
      for (const auto& e : made) {
        const bool sees = viewer >= 0 ? (viewer < kMaxSeats && (e.seats & seat_bit(viewer)) != 0) : e.spectators;
        if (!sees) continue;
        json item = {{"seq", seq}, {"event", protocol::value_to_json(e.body)}};
        if (!a.auto_by.empty()) item["auto"] = a.auto_by;
        const std::string type = e.body.get_string("type", "");
        const bool round_end = type == "round_end" || type == "hand_end";
        if (round_end) rounds.push_back(item);
        events.push_back(std::move(item));
        if (round_end) cuts.push_back(events.size());
      }
    }
  }
  // Bounded: all of it when it fits; else from the start of the earliest round
  // from which it fits; else the latest kHistoryEvents events.
  std::size_t from = events.size() > kHistoryEvents ? events.size() - kHistoryEvents : 0;
  for (std::size_t cut : cuts) {
    if (events.size() - std::min(cut, events.size()) <= kHistoryEvents) {
      from = std::min(cut, events.size());
      break;
    }
  }
  json kept = json::array();
  for (std::size_t i = from; i < events.size(); ++i) kept.push_back(std::move(events[i]));
  return protocol::message("history", {{"table", setup_.id},
                                       {"seq", seq_},
                                       {"seat", viewer},
                                       {"omitted", from},
                                       {"events", std::move(kept)},
                                       {"rounds", std::move(rounds)}});
}

json Table::deal_reveal() const {
  if (status_ != Status::over || setup_.deal_salt.empty()) return nullptr;
  // A duplicate event's tables share their seeds with tables that may not have
  // played those deals yet: the reveal waits for the event's end (docs/events.md).
  if (host_.deal_withheld(setup_.id)) return nullptr;
  return {{"seed", std::to_string(setup_.seed)}, {"salt", setup_.deal_salt}};
}

json Table::policy_json() const {
  return {{"grace_seconds", setup_.grace_seconds}, {"takeover", setup_.takeover}};
}

json Table::clock_json() const {
  if (clock_seats_.empty()) return nullptr;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(move_deadline_ - Clock::now());
  return {{"table", setup_.id}, {"seq", seq_}, {"seats", clock_seats_},
          {"remaining_ms", std::max<std::int64_t>(0, left.count())}};
}

void Table::send_state(const std::shared_ptr<Client>& client, Seat seat, bool history) {
  client->send(table_state(seat).dump());
  if (seat >= 0) forget_view(seat);
  // The history is of the table_state's moment, before any request.
  if (history && status_ != Status::waiting) client->send(history_frame(seat));
  if (seat >= 0 && status_ == Status::playing && pending_[static_cast<std::size_t>(seat)].seq >= 0 &&
      !seats_[static_cast<std::size_t>(seat)].player_id.empty()) {
    send_request(seat, client);
  }
}

void Table::state_to_other_devices(Seat seat, const std::shared_ptr<Client>& client) {
  Frame state;
  for (const auto& weak : seats_[static_cast<std::size_t>(seat)].connections) {
    auto c = weak.lock();
    if (!c || c == client) continue;
    if (!state) state = make_frame(table_state(seat).dump());
    c->send(state);
    if (status_ == Status::playing && pending_[static_cast<std::size_t>(seat)].seq >= 0) send_request(seat, c);
  }
}

void Table::send_request(Seat seat, const std::shared_ptr<Client>& only) {
  const auto& p = pending_[static_cast<std::size_t>(seat)];
  std::optional<std::int64_t> deadline;
  if (setup_.move_timeout_seconds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        move_deadline_ - std::chrono::steady_clock::now());
    deadline = std::max<std::int64_t>(0, left.count());
  }
  auto& s = seats_[static_cast<std::size_t>(seat)];
  std::vector<std::shared_ptr<Client>> to;
  if (only) {
    to.push_back(only);
  } else {
    for (const auto& weak : s.connections) {
      if (auto c = weak.lock()) to.push_back(std::move(c));
    }
  }
  if (to.empty()) return;
  // Built once for every connection that takes whole views.
  Frame whole, whole_patchable;
  Value view;
  bool viewed = false;
  std::shared_ptr<Client> patched_client = s.view_client.lock();
  std::shared_ptr<Client> new_base;
  for (const auto& client : to) {
    if (!client->view_patch) {
      // The whole view, written straight into the request's text.
      if (!whole) whole = make_frame(protocol::request(setup_.id, p.seq, seat, p.legal, *game_, deadline));
      client->send(whole);
      if (client == patched_client) patched_client = nullptr;
      continue;
    }
    if (!viewed) {
      view = game_->view(seat);
      viewed = true;
    }
    Value patch;
    if (client == patched_client && make_merge_patch(s.view_base, view, patch)) {
      client->send(make_frame(protocol::request(setup_.id, p.seq, seat, p.legal, nullptr, &patch, deadline)));
      new_base = client;
      continue;
    }
    if (!whole_patchable) {
      whole_patchable = make_frame(protocol::request(setup_.id, p.seq, seat, p.legal, &view, nullptr, deadline));
    }
    client->send(whole_patchable);
    // The first connection that takes patches keeps the base of its next one.
    if (!new_base && (!patched_client || client == patched_client)) new_base = client;
  }
  if (!new_base) {
    // A connection told only part of the seat's connections keeps its base.
    if (!only) forget_view(seat);
    return;
  }
  // What that connection holds now: the base of its next patch.
  s.view_client = new_base;
  s.view_base = std::move(view);
}

void Table::forget_view(Seat seat) {
  auto& s = seats_[static_cast<std::size_t>(seat)];
  s.view_client.reset();
  s.view_base = Value();
}

void Table::refresh_summary() {
  json s = {{"table", setup_.id},
            {"game", setup_.game},
            {"players", setup_.players},
            {"private", setup_.is_private},
            {"status", status_name()},
            {"seats", seats_json()},
            {"options", setup_.options},
            {"move_timeout_seconds", setup_.move_timeout_seconds},
            {"disconnect_policy", policy_json()}};
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(s);
  summary_status_ = status_name();
  // A full table is about to start: it is no longer open to join.
  listed_ = !setup_.is_private && status_ == Status::waiting && !all_seated();
}

json Table::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

const char* Table::summary_status() const {
  std::lock_guard lock(summary_mutex_);
  return summary_status_;
}

bool Table::listed() const {
  std::lock_guard lock(summary_mutex_);
  return listed_;
}

void Table::broadcast_update() {
  refresh_summary();
  send_update();
}

void Table::send_update() {
  send_to_all(make_frame(protocol::message("table_update", {{"table", setup_.id}, {"status", status_name()},
                                                            {"seats", seats_json()}})));
}

Seat Table::seat_of(const std::string& player_id) const {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].player_id == player_id) return static_cast<Seat>(s);
  }
  return kSpectator;
}

bool Table::all_seated() const {
  for (const auto& s : seats_) {
    if (s.empty()) return false;
  }
  return true;
}

bool Table::admits(const std::string& player_id) const {
  if (!setup_.is_private || player_id == setup_.creator) return true;
  std::lock_guard lock(admitted_mutex_);
  return admitted_.count(player_id) > 0;
}

void Table::admit(const std::string& player_id) {
  std::lock_guard lock(admitted_mutex_);
  admitted_.insert(player_id);
}

StoredSeat Table::stored_seat(Seat s) const {
  const auto& seat = seats_[static_cast<std::size_t>(s)];
  return {seat.player_id, seat.bot, seat.left_game};
}

// ---- lifecycle ---------------------------------------------------------------

void Table::open(std::vector<StoredSeat> seats, std::shared_ptr<Client> creator,
                 std::function<void(bool)> after) {
  // At once, not on the strand: a seated player's first message may come
  // before the table is stored.
  for (const auto& s : seats) {
    if (!s.player_id.empty()) admit(s.player_id);
  }
  on_strand([this, seats = std::move(seats), creator = std::move(creator), after = std::move(after)] {
    // Every new table draws its own salt, also when its setup (and seed) was
    // copied from another table: a commitment never links two tables.
    setup_.deal_salt = new_deal_salt();
    setup_.deal_commitment = deal_commitment_hash(setup_.deal_salt, setup_.seed);
    StoredTable row;
    row.id = setup_.id;
    row.game = setup_.game;
    row.players = setup_.players;
    row.options = setup_.options.dump();
    row.seed = setup_.seed;
    row.is_private = setup_.is_private;
    row.invite = setup_.invite;
    row.creator = setup_.creator;
    row.move_timeout_seconds = setup_.move_timeout_seconds;
    row.grace_seconds = setup_.grace_seconds;
    row.takeover = setup_.takeover;
    row.rated = setup_.rated;
    row.deal_salt = setup_.deal_salt;
    row.deal_commitment = setup_.deal_commitment;
    row.seats = seats;
    for (std::size_t s = 0; s < seats.size() && s < seats_.size(); ++s) {
      seats_[s].player_id = seats[s].player_id;
      seats_[s].bot = seats[s].bot;
    }
    committing_ = true;
    host_.store().save_table(row, [self = shared_from_this(), creator, after](bool ok) {
      self->committing_ = false;
      if (!ok) {
        self->host_.forget_table(self->setup_.id);
        after(false);
        return;
      }
      for (auto& s : self->seats_) {
        if (s.player_id.empty()) continue;
        self->host_.seat_changed(s.player_id, self->setup_.id, true);
        // Listed among the player's tables first: a later reconnect tells this table.
        self->look_up_connection(s);
      }
      // The creator hears of the table's connection changes even unseated:
      // its absence can close the table while it waits.
      self->host_.seat_changed(self->setup_.creator, self->setup_.id, true);
      self->update_presence();
      self->refresh_summary();
      after(true);
      if (creator) {
        const Seat at = self->seat_of(creator->player_id);
        self->send_state(creator, at);
        if (at >= 0) self->state_to_other_devices(at, creator);
      }
      if (self->all_seated()) {
        self->start();
      } else {
        self->check_dead();
      }
      self->drain_deferred();
    }, strand_);
  });
}

void Table::drain_deferred() {
  while (!committing_ && !deferred_.empty()) {
    auto f = std::move(deferred_.front());
    deferred_.pop_front();
    f();
  }
}

std::optional<std::string> Table::restore(const StoredTable& stored) {
  for (std::size_t s = 0; s < seats_.size() && s < stored.seats.size(); ++s) {
    seats_[s].player_id = stored.seats[s].player_id;
    seats_[s].bot = stored.seats[s].bot;
    seats_[s].left_game = stored.seats[s].left_game;
    // Seated before the restart (or on the node that ran it before): still
    // let in by the table's id, for resync, chat, rematch.
    if (!stored.seats[s].player_id.empty()) admit(stored.seats[s].player_id);
  }
  for (const auto& a : stored.actions) {
    if (a.seq != seq_ + 1) return "gap in the log at seq " + std::to_string(a.seq);
    json parsed = json::parse(a.action, nullptr, false);
    Action action;
    if (parsed.is_discarded()) return "unreadable action at seq " + std::to_string(a.seq);
    if (auto err = game_->decode_action(protocol::json_to_value(parsed), action)) {
      return "seq " + std::to_string(a.seq) + ": " + err->message;
    }
    if (auto err = game_->apply(a.seat, action, nullptr)) {
      return "seq " + std::to_string(a.seq) + ": " + err->message;
    }
    log_.push_back({a.seat, action, a.auto_by});
    ++seq_;
  }
  chat_.assign(stored.chat.begin(), stored.chat.end());
  if (all_seated()) {
    status_ = game_->is_over() ? Status::over : Status::playing;
  }
  // Nobody can tell whom the game_over of a game that ended before the
  // restart reached: every seated player gets it when they come back.
  if (status_ == Status::over) {
    for (auto& seat : seats_) seat.owes_game_over = !seat.player_id.empty();
  }
  refresh_summary();
  // Nobody is connected after a restart: every seated player is away from
  // now on, so grace periods and dead-table limits count from the restart.
  on_strand([this] {
    update_presence();
    refresh_summary();
    if (status_ == Status::playing) issue_requests();
    check_dead();
  });
  return std::nullopt;
}

void Table::start() {
  status_ = Status::playing;
  const LogAbout about(setup_.id);
  // Not the seed: whoever reads the log would know every hand (it is logged,
  // and published, when the game is over).
  spdlog::info("table {} starts: {} for {}", setup_.id, setup_.game, setup_.players);
  ++dead_generation_;  // a creator's absence no longer matters
  dead_timer_.cancel();
  update_presence();
  refresh_summary();
  for (Seat s = 0; s < setup_.players; ++s) {
    const auto& seat = seats_[static_cast<std::size_t>(s)];
    if (!seat.player_id.empty()) host_.send_to_player(seat.player_id, make_frame(table_state(s).dump()));
    forget_view(s);
  }
  for (auto& [pid, weak] : spectators_) {
    if (auto c = weak.lock()) c->send(table_state(kSpectator).dump());
  }
  issue_requests();
  check_dead();
}

// ---- presence: away seats, takeover, dead tables -------------------------------

std::string Table::bot_for(Seat s) const {
  const auto& seat = seats_[static_cast<std::size_t>(s)];
  if (!seat.bot.empty()) return seat.bot;
  if (seat.played_by.empty()) return "";
  // Robots keep the game going for those still at the table; when every human
  // is away they wait too (and the table may be closed as abandoned).
  for (const auto& other : seats_) {
    if (!other.player_id.empty() && !other.away) return seat.played_by;
  }
  return "";
}

std::string Table::auto_reason(Seat s) const {
  const auto& seat = seats_[static_cast<std::size_t>(s)];
  if (!seat.bot.empty()) return seat.left_game ? "left" : "";
  return seat.played_by.empty() ? "" : "away";
}

bool Table::update_presence() {
  const auto now = Clock::now();
  bool changed = false;
  std::optional<Clock::time_point> next;
  for (auto& seat : seats_) {
    if (seat.player_id.empty()) continue;
    const auto since = host_.away_since(seat.player_id);
    if (!since) {
      changed = changed || seat.away || !seat.played_by.empty();
      seat.away = false;
      seat.played_by.clear();
      seat.takeover_at = {};
      continue;
    }
    changed = changed || !seat.away;
    seat.away = true;
    if (status_ != Status::playing || !setup_.takes_over()) {
      changed = changed || seat.takeover_at != Clock::time_point{};
      seat.takeover_at = {};
      continue;
    }
    if (!seat.played_by.empty()) continue;
    const auto at = *since + std::chrono::seconds(setup_.grace_seconds);
    if (at <= now) {
      const LogAbout about(setup_.id, seat.player_id);
      spdlog::info("table {}: {} is away; the {} bot plays for them", setup_.id, seat.player_id,
                   setup_.takeover);
      seat.played_by = setup_.takeover;
      seat.takeover_at = {};
      changed = true;
    } else {
      changed = changed || seat.takeover_at != at;
      seat.takeover_at = at;
      next = next ? std::min(*next, at) : at;
    }
  }
  ++takeover_generation_;
  takeover_timer_.cancel();
  if (next) {
    takeover_timer_.expires_at(*next);
    takeover_timer_.async_wait([self = shared_from_this(), generation = takeover_generation_](
                                   const boost::system::error_code& ec) {
      if (!ec && generation == self->takeover_generation_) self->refresh_presence();
    });
  }
  return changed;
}

void Table::refresh_presence() {
  if (update_presence()) broadcast_update();
  // After any commit in flight, so that the timer and bots see a settled seq.
  when_idle([this] {
    if (status_ != Status::playing) return;
    arm_timer();  // a seat a bot plays for needs no move timer, a returning one does
    schedule_bots();
  });
  check_dead();
}

void Table::check_dead() {
  ++dead_generation_;
  dead_timer_.cancel();
  const auto& config = host_.config();
  std::optional<Clock::time_point> deadline;
  std::string reason;
  if (status_ == Status::waiting) {
    if (config.creator_gone_seconds <= 0) return;
    const auto since = host_.away_since(setup_.creator);
    if (!since) return;
    deadline = *since + std::chrono::seconds(config.creator_gone_seconds);
    reason = "creator_gone";
  } else if (status_ == Status::playing) {
    if (config.abandoned_table_seconds <= 0) return;
    Clock::time_point last_seen{};
    bool any_human = false;
    for (const auto& seat : seats_) {
      if (seat.player_id.empty()) continue;
      const auto since = host_.away_since(seat.player_id);
      if (!since) return;  // someone is here
      any_human = true;
      last_seen = std::max(last_seen, *since);
    }
    if (!any_human) return;  // only bots: they finish the game
    deadline = last_seen + std::chrono::seconds(config.abandoned_table_seconds);
    reason = "abandoned";
  } else {
    return;
  }
  if (*deadline <= Clock::now()) {
    when_idle([this, reason] {
      if (status_ != Status::waiting && status_ != Status::playing) return;
      if (reason == "creator_gone") {
        close(reason, "The table's creator has been away too long; the table is closed.");
      } else {
        close(reason, "Every player has been away too long; the table is closed.");
      }
    });
    return;
  }
  dead_timer_.expires_at(*deadline);
  dead_timer_.async_wait([self = shared_from_this(), generation = dead_generation_](
                             const boost::system::error_code& ec) {
    if (!ec && generation == self->dead_generation_) self->check_dead();
  });
}

void Table::abandon(std::function<void(std::vector<std::shared_ptr<Client>>)> done) {
  on_strand([this, done = std::move(done)] {
    // Closed in memory only: the new owner runs the table from the stored log.
    abandoned_ = true;
    status_ = Status::closed;
    stop_play();
    deferred_.clear();
    std::vector<std::shared_ptr<Client>> clients;
    for (const auto& s : seats_) {
      for (const auto& weak : s.connections) {
        if (auto c = weak.lock()) clients.push_back(std::move(c));
      }
    }
    for (auto& [pid, weak] : spectators_) {
      if (auto c = weak.lock()) clients.push_back(std::move(c));
    }
    spectators_.clear();
    done(std::move(clients));
  });
}

void Table::stop_play() {
  ++timer_generation_;
  move_timer_.cancel();
  clock_seats_.clear();
  ++takeover_generation_;
  takeover_timer_.cancel();
  ++dead_generation_;
  dead_timer_.cancel();
  for (auto& p : pending_) p = Pending{};
}

void Table::close(const std::string& reason, const std::string& message) {
  const LogAbout about(setup_.id);
  spdlog::info("table {} closed: {}", setup_.id, reason);
  status_ = Status::closed;
  stop_play();
  // Nothing was promised about a closed table: if this write is lost, the
  // table comes back after a restart and is judged again.
  host_.store().close_table(setup_.id, nullptr);
  send_to_all(make_frame(protocol::message(
      "table_closed", {{"table", setup_.id}, {"reason", reason}, {"message", message}})));
  for (const auto& s : seats_) {
    if (!s.player_id.empty()) host_.seat_changed(s.player_id, setup_.id, false);
  }
  host_.seat_changed(setup_.creator, setup_.id, false);
  refresh_summary();
  host_.table_finished(shared_from_this(), {});
}

// Sends a request to each seat to act whose legal actions changed (a request
// whose choices are the same stays valid, so simultaneous deciders are not
// disturbed by each other's moves), then lets bots and the move timer act.
void Table::issue_requests() {
  if (abandoned_) return;
  arm_timer();  // first: requests carry the deadline
  const SeatMask to_act = game_->to_act();
  for (Seat s = 0; s < setup_.players; ++s) {
    auto& p = pending_[static_cast<std::size_t>(s)];
    if (!(to_act & seat_bit(s))) {
      p.seq = -1;
      p.legal.clear();
      continue;
    }
    game_->legal_actions(s, legal_buffer_);
    std::vector<Value> legal;
    legal.reserve(legal_buffer_.size());
    for (const auto& a : legal_buffer_) legal.push_back(game_->encode_action(a));
    if (p.seq >= 0 && legal == p.legal) continue;
    p.seq = seq_;
    p.legal = std::move(legal);
    if (seats_[static_cast<std::size_t>(s)].bot.empty()) send_request(s);
  }
  schedule_bots();
}

void Table::schedule_bots() {
  if (abandoned_) return;
  const SeatMask to_act = game_->to_act();
  for (Seat s = 0; s < setup_.players; ++s) {
    if (!(to_act & seat_bit(s)) || bot_for(s).empty()) continue;
    const std::int64_t at = seq_;
    on_strand([this, s, at] {
      when_idle([this, s, at] {
        if (seq_ != at || status_ != Status::playing || !(game_->to_act() & seat_bit(s))) return;
        const std::string bot = bot_for(s);  // the player may be back by now
        if (bot.empty()) return;
        if (is_search_bot(bot) && think_on_pool(s, at, auto_reason(s))) return;  // table_bots.cpp
        const Action action = choose_bot_action(*game_, s, bot, bot_rng_);
        submit(s, action, nullptr, std::nullopt, auto_reason(s));
      });
    });
  }
}

void Table::arm_timer() {
  ++timer_generation_;
  move_timer_.cancel();
  const auto before = clock_seats_;
  clock_seats_.clear();
  if (setup_.move_timeout_seconds <= 0 || status_ != Status::playing) return;
  const SeatMask to_act = game_->to_act();
  std::vector<Seat> humans;
  for (Seat s = 0; s < setup_.players; ++s) {
    if ((to_act & seat_bit(s)) && bot_for(s).empty()) humans.push_back(s);
  }
  if (humans.empty()) return;
  // A timer already running for the same seats and decision keeps its deadline
  // (a player coming back or a bot taking over changes nothing for the others).
  const bool same = humans == before && clock_seq_ == seq_ && move_deadline_ > Clock::now();
  clock_seats_ = std::move(humans);
  clock_seq_ = seq_;
  if (!same) {
    move_deadline_ = Clock::now() + std::chrono::seconds(setup_.move_timeout_seconds);
    json clock = clock_json();
    clock["type"] = "clock";
    send_to_all(make_frame(clock.dump()));
  }
  move_timer_.expires_at(move_deadline_);
  const auto generation = timer_generation_;
  move_timer_.async_wait([self = shared_from_this(), generation](const boost::system::error_code& ec) {
    if (ec || generation != self->timer_generation_) return;
    self->when_idle([self, generation] {
      if (generation != self->timer_generation_ || self->status_ != Status::playing) return;
      const SeatMask to_act = self->game_->to_act();
      for (Seat s = 0; s < self->setup_.players; ++s) {
        if ((to_act & seat_bit(s)) && self->bot_for(s).empty()) {
          const std::string bot = self->setup_.timer_bot();
          const LogAbout about(self->setup_.id);
          spdlog::info("table {}: seat {} ran out of time; the {} bot plays for it", self->setup_.id, s, bot);
          // A search runs on the bot pool; when the pool is saturated, the robot.
          if (is_search_bot(bot) && self->think_on_pool(s, self->seq_, "timer")) return;
          const Action action = choose_bot_action(*self->game_, s, "robot", self->bot_rng_);
          self->submit(s, action, nullptr, std::nullopt, "timer");
          return;
        }
      }
    });
  });
}

// ---- actions -----------------------------------------------------------------

void Table::act(std::shared_ptr<Client> client, std::int64_t seq, Value action_value, Reply id) {
  const Clock::time_point received = Clock::now();  // for the move->event latency (/metrics)
  on_strand([this, client = std::move(client), seq, action_value = std::move(action_value), id = std::move(id),
             received]() mutable {
    when_idle([this, client = std::move(client), seq, action_value = std::move(action_value), id = std::move(id),
               received] {
      auto refuse = [&](std::string code, std::string message, std::optional<std::int64_t> at = {}) {
        client->send(protocol::error({std::move(code), std::move(message)}, id, setup_.id, at));
      };
      const Seat seat = seat_of(client->player_id);
      if (seat == kSpectator) return refuse("not_seated", "You do not sit at this table.");
      if (status_ == Status::waiting) return refuse("not_started", "The game has not started yet.");
      if (status_ == Status::over) return refuse("game_over", "The game is over.");
      if (status_ == Status::closed) return refuse("game_over", "The table was closed.");
      auto& p = pending_[static_cast<std::size_t>(seat)];
      if (!(game_->to_act() & seat_bit(seat)) || p.seq < 0) {
        return refuse("not_your_turn", "Your seat has nothing to decide now.");
      }
      if (seq != p.seq) {
        return refuse("stale_seq", "Answer your latest request (seq " + std::to_string(p.seq) + ").", seq_);
      }
      Action action;
      if (auto err = game_->decode_action(action_value, action)) {
        return refuse(err->code.empty() ? "malformed_action" : err->code, err->message);
      }
      action_received_ = received;
      submit(seat, action, client, id);
    });
  });
}

void Table::freeze(std::function<void()> idle) {
  on_strand([this, idle = std::move(idle)]() mutable {
    frozen_ = true;
    move_timer_.cancel();
    // Not when_idle: its bounded queue may be full, and `idle` must run.
    if (committing_) {
      deferred_.push_back(std::move(idle));
    } else {
      idle();
    }
  });
}

void Table::submit(Seat seat, const Action& action, std::shared_ptr<Client> actor, Reply id,
                   const std::string& auto_by) {
  if (frozen_) {
    // Nothing applied, nothing stored: the player resends it to the node that
    // runs the table next (after `reconnect` and a resume).
    if (actor) {
      actor->send(protocol::error({"draining", "The server is shutting down; reconnect and send it again."},
                                  id, setup_.id));
    }
    return;
  }
  std::vector<Event> events;
  if (auto err = game_->apply(seat, action, &events)) {
    if (actor) {
      static const std::set<std::string> known = {"not_your_turn", "illegal_action", "malformed_action",
                                                  "game_over"};
      const std::string code = known.count(err->code) ? err->code : "illegal_action";
      actor->send(protocol::error({code, err->message}, id, setup_.id));
    } else {
      const LogAbout about(setup_.id);
      spdlog::error("table {}: a bot's action was refused: {}", setup_.id, err->message);
    }
    return;
  }
  ++seq_;
  // Members in key order, as the log has always stored them (value_to_json(...).dump()).
  StoredAction row{seq_, seat, {}, auto_by};
  append_json_sorted(row.action, game_->encode_action(action));
  // The score sheet: a round (or hand) ends with a public round_end / hand_end event.
  std::vector<StoredRound> rounds;
  for (const auto& e : events) {
    if (!e.spectators) continue;
    const std::string type = e.body.get_string("type", "");
    if (type != "round_end" && type != "hand_end") continue;
    rounds.push_back({json(game_->scores()).dump(), protocol::value_to_json(e.body).dump()});
  }
  std::optional<StoredResult> result;
  if (game_->is_over()) {
    result.emplace();
    result->scores = game_->scores();
    for (Seat w : game_->winners()) result->winners.push_back(w);
    for (Seat s = 0; s < setup_.players; ++s) result->seats.push_back(stored_seat(s));
    result->teams = teams_;  // the sides, for ratings
  }
  committing_ = true;
  // The outcome comes back on this strand, with the rest of its group
  // commit's outcomes for this loop (one hand-off per batch, server/store/store.h).
  host_.store().append_action(
      setup_.id, row, std::move(rounds), std::move(result),
      [self = shared_from_this(), seat, action, events = std::move(events), actor, id, auto_by](bool ok) mutable {
        self->committed(ok, seat, action, std::move(events), actor, id, std::move(auto_by));
      },
      strand_);
}

void Table::committed(bool ok, Seat seat, Action action, std::vector<Event> events,
                      std::shared_ptr<Client> actor, Reply id, std::string auto_by) {
  committing_ = false;
  if (!ok) {
    // Nothing was stored: forget the action as if it never came.
    --seq_;
    rebuild_game();
    const LogAbout about(setup_.id);
    spdlog::error("table {}: could not store seq {}; move refused", setup_.id, seq_ + 1);
    if (actor) {
      actor->send(protocol::error({"storage_unavailable", "The move could not be stored; try again."}, id,
                                  setup_.id));
    } else {
      // A bot or the move timer: try again later.
      auto retry = std::make_shared<asio::steady_timer>(strand_, kStorageRetry);
      retry->async_wait([self = shared_from_this(), retry](const boost::system::error_code& ec) {
        if (!ec) self->schedule_bots();
      });
    }
    drain_deferred();
    return;
  }
  log_.push_back({seat, action, auto_by});
  metrics().moves.fetch_add(1, std::memory_order_relaxed);
  if (actor) actor->send(protocol::accepted(setup_.id, seq_, id));
  for (const auto& e : events) {
    const Frame frame = make_frame(protocol::event(setup_.id, seq_, e.body, auto_by));
    for (Seat s = 0; s < setup_.players && s < kMaxSeats; ++s) {
      if (e.seats & seat_bit(s)) send_to_seat(s, frame);
    }
    if (e.spectators) {
      for (auto& [pid, weak] : spectators_) {
        if (auto c = weak.lock()) c->send(frame);
      }
    }
  }
  if (actor && action_received_ != Clock::time_point{}) {
    metrics().move_latency.observe(Clock::now() - action_received_);
  }
  action_received_ = {};
  if (game_->is_over()) {
    finish();
  } else {
    issue_requests();
  }
  drain_deferred();
}

void Table::rebuild_game() {
  auto created = host_.make_game(setup_);
  if (!created.game) {
    const LogAbout about(setup_.id);
    spdlog::critical("table {}: cannot rebuild the game", setup_.id);
    return;
  }
  for (const auto& a : log_) created.game->apply(a.seat, a.action, nullptr);
  game_ = std::move(created.game);
}

void Table::finish() {
  status_ = Status::over;
  stop_play();
  std::vector<Seat> winners = game_->winners();
  const LogAbout about(setup_.id);
  spdlog::info("table {} ends after {} actions; winners {}", setup_.id, seq_, json(winners).dump());
  // A player away now is owed the game_over: the table stays among their
  // tables, so that coming back (hello with the token) brings it. One look at
  // each player's connection decides both whether it is sent the game_over and
  // whether the player is owed it: sending first and asking afterwards whether
  // the player is connected let one who resumed in between get neither.
  const Frame over = make_frame(game_over_frame());
  std::vector<std::string> owed;
  for (auto& s : seats_) {
    if (s.player_id.empty()) continue;
    // The lobby's word, not the seat's cached connection: a player who dropped
    // while the last commit was stored is owed the game_over even if this
    // table has not heard of it yet.
    const auto connections = host_.connections_of(s.player_id);
    s.connections.assign(connections.begin(), connections.end());
    // A connection that resumed during the last commit still waits for its
    // table_state (player_connection): the game_over comes after it.
    s.owes_game_over = connections.empty() || s.resuming > 0;
    if (s.owes_game_over) {
      owed.push_back(s.player_id);
    } else {
      for (const auto& c : connections) c->send(over);
      host_.seat_changed(s.player_id, setup_.id, false);
    }
  }
  send_to_spectators(over);
  if (std::find(owed.begin(), owed.end(), setup_.creator) == owed.end()) {
    host_.seat_changed(setup_.creator, setup_.id, false);
  }
  refresh_summary();
  host_.table_finished(shared_from_this(), std::move(owed));
}

// ---- lobby requests ------------------------------------------------------------

void Table::join(std::shared_ptr<Client> client, std::optional<int> wanted, Reply id) {
  on_strand([this, client = std::move(client), wanted, id] {
    when_idle([this, client, wanted, id] {
      auto refuse = [&](std::string code, std::string message) {
        client->send(protocol::error({std::move(code), std::move(message)}, id, setup_.id));
      };
      if (status_ != Status::waiting) return refuse("already_started", "The table has started.");
      if (seat_of(client->player_id) != kSpectator) return refuse("already_seated", "You already sit here.");
      Seat seat = kSpectator;
      if (wanted) {
        if (*wanted >= setup_.players) return refuse("bad_seat", "There is no such seat at this table.");
        if (!seats_[static_cast<std::size_t>(*wanted)].empty()) return refuse("seat_taken", "That seat is taken.");
        seat = *wanted;
      } else {
        for (Seat s = 0; s < setup_.players && seat == kSpectator; ++s) {
          if (seats_[static_cast<std::size_t>(s)].empty()) seat = s;
        }
        if (seat == kSpectator) return refuse("table_full", "Every seat is taken.");
      }
      seats_[static_cast<std::size_t>(seat)].player_id = client->player_id;
      admit(client->player_id);
      committing_ = true;
      host_.store().save_seat(setup_.id, seat, stored_seat(seat), [self = shared_from_this(), client, seat, id](bool ok) {
        self->committing_ = false;
        if (!ok) {
          self->seats_[static_cast<std::size_t>(seat)] = {};
          client->send(protocol::error({"storage_unavailable", "The seat could not be stored."}, id, self->setup_.id));
        } else {
          // A spectator who sits down stops spectating.
          std::erase_if(self->spectators_, [&](const auto& sp) { return sp.first == client->player_id; });
          self->host_.seat_changed(client->player_id, self->setup_.id, true);
          self->look_up_connection(self->seats_[static_cast<std::size_t>(seat)]);
          // The lobby sees the new seat before the player hears of it, so a
          // list_tables sent after "joined" never shows the old table.
          self->refresh_summary();
          client->send(protocol::reply("joined", {{"table", self->setup_.id}, {"seat", seat}}, id));
          self->send_update();
          self->send_state(client, seat);
          self->state_to_other_devices(seat, client);
          if (self->all_seated()) self->start();
        }
        self->drain_deferred();
      }, strand_);
    });
  });
}

void Table::leave(std::shared_ptr<Client> client, Reply id) {
  on_strand([this, client = std::move(client), id] {
    when_idle([this, client, id] {
      const Seat seat = seat_of(client->player_id);
      const bool spectating = std::erase_if(spectators_, [&](const auto& sp) { return sp.first == client->player_id; }) > 0;
      if (seat == kSpectator || status_ == Status::over) {
        if (!spectating && seat == kSpectator) {
          client->send(protocol::error({"not_seated", "You are not at this table."}, id, setup_.id));
        } else {
          client->send(protocol::reply("left", {{"table", setup_.id}}, id));
        }
        return;
      }
      const SeatState before = seats_[static_cast<std::size_t>(seat)];
      if (status_ == Status::waiting) {
        seats_[static_cast<std::size_t>(seat)] = {};
      } else {
        // The robot finishes the game; its moves are marked "left".
        seats_[static_cast<std::size_t>(seat)] = {};
        seats_[static_cast<std::size_t>(seat)].bot = "robot";
        seats_[static_cast<std::size_t>(seat)].left_game = true;
      }
      committing_ = true;
      host_.store().save_seat(setup_.id, seat, stored_seat(seat), [self = shared_from_this(), client, seat, before, id](bool ok) {
        self->committing_ = false;
        if (!ok) {
          self->seats_[static_cast<std::size_t>(seat)] = before;
          client->send(protocol::error({"storage_unavailable", "Leaving could not be stored."}, id, self->setup_.id));
          self->drain_deferred();
          return;
        }
        self->host_.seat_changed(client->player_id, self->setup_.id, false);
        bool any_human = false;
        for (const auto& s : self->seats_) any_human = any_human || !s.player_id.empty();
        const bool abandoned = self->status_ == Status::waiting && !any_human;
        // The creator left a table others wait at: nobody can add bots any more.
        const bool creator_gone = self->status_ == Status::waiting && any_human &&
                                  client->player_id == self->setup_.creator &&
                                  self->host_.config().creator_gone_seconds > 0;
        // As for joining: the lobby is up to date before the reply goes out.
        if (abandoned) self->host_.forget_table(self->setup_.id);
        self->refresh_summary();
        client->send(protocol::reply("left", {{"table", self->setup_.id}}, id));
        self->send_update();
        if (self->status_ == Status::playing) {
          self->pending_[static_cast<std::size_t>(seat)] = Pending{};
          self->issue_requests();
          self->check_dead();
        } else if (abandoned) {
          ++self->dead_generation_;  // gone already: nothing left to close
          self->dead_timer_.cancel();
          self->host_.seat_changed(self->setup_.creator, self->setup_.id, false);
          self->host_.store().delete_table(self->setup_.id, nullptr);
        } else if (creator_gone) {
          self->close("creator_gone", "The table's creator left; the table is closed.");
        }
        self->drain_deferred();
      }, strand_);
    });
  });
}

// The state a spectate or a resync sends waits for the commit in flight: until
// it is stored, the game holds a move that may yet be refused (a store failure,
// a lost lease), and a state showing it would show the cards of a position that
// never happened, some of them hidden in the one that did.
void Table::spectate(std::shared_ptr<Client> client, Reply id, bool history) {
  on_strand([this, client = std::move(client), id, history] {
    when_idle([this, client, id, history] {
      const Seat seat = seat_of(client->player_id);
      if (seat != kSpectator) {
        client->send(protocol::error({"already_seated", "You sit at this table."}, id, setup_.id));
        return;
      }
      std::erase_if(spectators_, [&](const auto& sp) { return sp.first == client->player_id; });
      spectators_.emplace_back(client->player_id, client);
      client->send(protocol::reply("spectating", {{"table", setup_.id}}, id));
      send_state(client, kSpectator, history);
    });
  });
}

void Table::add_bot(std::shared_ptr<Client> client, int seat, std::string bot, Reply id) {
  on_strand([this, client = std::move(client), seat, bot = std::move(bot), id] {
    when_idle([this, client, seat, bot, id] {
      auto refuse = [&](std::string code, std::string message) {
        client->send(protocol::error({std::move(code), std::move(message)}, id, setup_.id));
      };
      if (client->player_id != setup_.creator) return refuse("not_creator", "Only the table's creator adds bots.");
      if (status_ != Status::waiting) return refuse("already_started", "The table has started.");
      if (seat >= setup_.players) return refuse("bad_seat", "There is no such seat at this table.");
      if (!seats_[static_cast<std::size_t>(seat)].empty()) return refuse("seat_taken", "That seat is taken.");
      if (!is_bot_name(bot)) return refuse("bad_field", "No such bot.");
      seats_[static_cast<std::size_t>(seat)].bot = bot;
      committing_ = true;
      host_.store().save_seat(setup_.id, seat, stored_seat(seat), [self = shared_from_this(), client, seat, bot, id](bool ok) {
        self->committing_ = false;
        if (!ok) {
          self->seats_[static_cast<std::size_t>(seat)] = {};
          client->send(protocol::error({"storage_unavailable", "The bot could not be stored."}, id, self->setup_.id));
        } else {
          self->refresh_summary();
          client->send(protocol::reply("bot_added", {{"table", self->setup_.id}, {"seat", seat}, {"bot", bot}}, id));
          self->send_update();
          if (self->all_seated()) self->start();
        }
        self->drain_deferred();
      }, strand_);
    });
  });
}

void Table::chat(std::shared_ptr<Client> client, std::string text, bool team, Reply id) {
  on_strand([this, client = std::move(client), text = std::move(text), team, id] {
    const Seat seat = seat_of(client->player_id);
    bool spectating = false;
    for (const auto& sp : spectators_) spectating = spectating || sp.first == client->player_id;
    if (seat == kSpectator && (team || !spectating)) {
      client->send(protocol::error({"not_seated", "You do not sit at this table."}, id, setup_.id));
      return;
    }
    // Like a move, the line is shown to nobody before it is stored. It does
    // not wait for a move being stored (nor a move for it): the store commits
    // in the order of submission, and tells in that order.
    StoredChat line{0, client->player_id, seat, team, text};
    host_.store().append_chat(
        setup_.id, line,
        [self = shared_from_this(), line, client, id](bool ok, std::int64_t n) mutable {
          line.line = n;
          self->chat_committed(ok, std::move(line), client, id);
        },
        strand_);
  });
}

void Table::chat_committed(bool ok, StoredChat line, const std::shared_ptr<Client>& client,
                           Reply id) {
  if (!ok) {
    client->send(protocol::error(
        {"storage_unavailable", "The chat line could not be stored; try again."}, id, setup_.id));
    return;
  }
  json body = {{"table", setup_.id},
               {"line", line.line},
               {"from", line.player_id},
               {"name", host_.name_of(line.player_id)},
               {"seat", line.seat},
               {"team", line.team},
               {"text", line.text}};
  if (line.seat == kSpectator) body["spectator"] = true;
  const Frame frame = make_frame(protocol::message("chat", std::move(body)));
  chat_.push_back(std::move(line));
  while (chat_.size() > kChatKept) chat_.pop_front();
  const StoredChat& said = chat_.back();
  if (!said.team) {
    send_to_all(frame);
    return;
  }
  for (Seat s = 0; s < setup_.players; ++s) {
    if (may_see(said, s)) send_to_seat(s, frame);
  }
}

void Table::resync(std::shared_ptr<Client> client, Reply, bool history) {
  on_strand([this, client = std::move(client), history] {
    when_idle([this, client, history] {  // after the commit in flight: see spectate
      const Seat seat = seat_of(client->player_id);
      send_state(client, seat, history);
      if (status_ != Status::over) return;
      // The end of the game, as stored: also for a game that ended just before
      // a restart, which the player may never have been told of.
      client->send(game_over_frame());
      if (seat >= 0 && seats_[static_cast<std::size_t>(seat)].owes_game_over) {
        seats_[static_cast<std::size_t>(seat)].owes_game_over = false;
        host_.seat_changed(client->player_id, setup_.id, false);
      }
    });
  });
}

void Table::player_connection(std::string player_id, bool connected, std::shared_ptr<Client> resumed) {
  on_strand([this, player_id = std::move(player_id), connected, resumed = std::move(resumed)] {
    const Seat seat = seat_of(player_id);
    for (auto& s : seats_) {
      if (s.player_id == player_id) look_up_connection(s);
    }
    if (status_ == Status::closed) return;
    if (status_ == Status::over) {
      // Back after the game ended without them: the final state and the result.
      // Also when not owed the game_over: a hello that came as the game ended
      // is handled here after finish(), which may have counted the new
      // connection as present; it has had no table_state since it connected.
      if (!connected || seat == kSpectator) return;
      seats_[static_cast<std::size_t>(seat)].owes_game_over = false;
      tell_player(player_id, resumed, make_frame(table_state(seat).dump()));
      forget_view(seat);
      tell_player(player_id, resumed, make_frame(game_over_frame()));
      host_.seat_changed(player_id, setup_.id, false);
      return;
    }
    if (seat == kSpectator) {  // the unseated creator
      check_dead();
      return;
    }
    // A table_update always goes out: `connected` changed even when the
    // policy has nothing to say.
    update_presence();
    broadcast_update();
    check_dead();
    // After any commit in flight (a bot may be moving for this seat right now):
    // the state and request the player gets are those after it, never a
    // request that the move being stored is about to make stale.
    auto& back = seats_[static_cast<std::size_t>(seat)];
    if (connected) ++back.resuming;
    when_idle([this, player_id, seat, connected, resumed] {
      auto& s = seats_[static_cast<std::size_t>(seat)];
      if (connected && s.resuming > 0) --s.resuming;
      if (connected && status_ != Status::closed) {
        // The reconnected player gets the full picture and their pending request.
        tell_player(player_id, resumed, make_frame(table_state(seat).dump()));
        forget_view(seat);
        if (status_ == Status::playing && pending_[static_cast<std::size_t>(seat)].seq >= 0) send_request(seat, resumed);
        // The game ended with the commit this waited for: finish() left the
        // game_over owed, to come after this state.
        if (status_ == Status::over && s.owes_game_over) {
          s.owes_game_over = false;
          tell_player(player_id, resumed, make_frame(game_over_frame()));
          host_.seat_changed(player_id, setup_.id, false);
        }
      }
      if (status_ != Status::playing) return;
      arm_timer();
      schedule_bots();
    });
  });
}

void Table::tell_player(const std::string& player_id, const std::shared_ptr<Client>& only, const Frame& frame) {
  if (only) {
    only->send(frame);
  } else {
    host_.send_to_player(player_id, frame);
  }
}

void Table::rematch(std::shared_ptr<Client> client, Reply id) {
  on_strand([this, client = std::move(client), id] { when_idle([this, client, id] {
    const Seat seat = seat_of(client->player_id);
    if (seat == kSpectator) {
      client->send(protocol::error({"not_seated", "You did not sit at this table."}, id, setup_.id));
      return;
    }
    if (status_ != Status::over) {
      client->send(protocol::error({"not_over", "The game is not over."}, id, setup_.id));
      return;
    }
    if (!rematch_table_.empty()) {
      client->send(protocol::reply(
          "rematch_created", {{"table", setup_.id}, {"new_table", rematch_table_}, {"invite", rematch_invite_}}, id));
      return;
    }
    // Bots the creator added carry over; the seats of the other humans, and of
    // players who left (now the robot's), are open again.
    std::vector<StoredSeat> seats(seats_.size());
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      if (!seats_[s].bot.empty() && seats_[s].player_id.empty() && !seats_[s].left_game) {
        seats[s].bot = seats_[s].bot;
      }
    }
    seats[static_cast<std::size_t>(seat)].player_id = client->player_id;
    seats[static_cast<std::size_t>(seat)].bot.clear();
    committing_ = true;  // later rematch requests wait for this one
    const auto refusal = host_.create_rematch(setup_, client->player_id, seats, [self = shared_from_this(), client, id](std::shared_ptr<Table> table) {
      asio::post(self->strand_, [self, client, id, table] {
        self->committing_ = false;
        if (!table) {
          client->send(protocol::error({"storage_unavailable", "The rematch could not be stored."}, id, self->setup_.id));
          self->drain_deferred();
          return;
        }
        self->rematch_table_ = table->id();
        self->rematch_invite_ = table->setup().invite;
        client->send(protocol::reply("rematch_created",
                                     {{"table", self->setup_.id}, {"new_table", self->rematch_table_},
                                      {"invite", self->rematch_invite_}},
                                     id));
        const Frame offer = make_frame(protocol::message(
            "rematch_offer", {{"table", self->setup_.id}, {"new_table", self->rematch_table_},
                              {"invite", self->rematch_invite_}, {"by", client->player_id}}));
        for (const auto& s : self->seats_) {
          if (!s.player_id.empty() && s.player_id != client->player_id) self->host_.send_to_player(s.player_id, offer);
        }
        table->resync(client, std::nullopt);
        self->drain_deferred();
      });
    });
    if (refusal) {
      // A rematch is a new table of the one who asks: it counts against their limit.
      committing_ = false;
      client->send(protocol::error(*refusal, id, setup_.id));
      drain_deferred();
    }
  }); });
}

void Table::admin_close(std::string message) {
  boost::asio::post(strand_, [self = shared_from_this(), message = std::move(message)] {
    self->when_idle([self, message] {
      if (self->status_ == Status::over || self->status_ == Status::closed) return;
      self->close("admin", message);
      // After close()'s own write (status 'closed'), in the same order.
      self->host_.store().write(
          [id = self->setup_.id, message](Db& db) { admin_rows::set_closed_reason(db, id, message); }, nullptr);
    });
  });
}

}  // namespace casa::server
