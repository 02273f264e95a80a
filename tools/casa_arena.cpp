// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-arena: plays duplicate matches between two bots and measures them.
//
//   casa-arena --game G --players N [--options JSON] --a BOT --b BOT
//              [--deals N] [--seed S] [--jobs J] [--json FILE] [--quiet] [--no-timing]
//
// BOT is random | robot | strong[:key=value,...] (engine/strong.h) |
// exec:COMMAND (an external program speaking JSON lines, docs/arena.md).
//
// Duplicate: every deal (one seed) is played once per side of the table, the
// bots changing seats, so that each bot holds every hand of the deal once. With
// one side only (La Casa Solo) each bot plays the deal in that seat.
//
// Results do not depend on --jobs: every game has its own seeds, and the summary
// is built in deal order. Progress goes to stderr, the summary to stdout (and
// --json FILE).
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cmdline/cmdline.h"
#include "engine/bots.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/strong.h"
#include "protocol/value_json.h"
#include "versioninfo/version.h"

namespace {

using casa::Action;
using casa::Game;
using casa::Seat;
using casa::Value;
using nlohmann::json;

constexpr int kMaxActionsPerGame = 1'000'000;  // a guard against a game that never ends

struct Args {
  std::string game = "la-casa";
  int players = 4;
  std::string options = "{}";
  std::string a = "strong";
  std::string b = "robot";
  long deals = 50;
  std::uint64_t seed = 1;
  int jobs = 1;
  std::string json_path;
  bool quiet = false;
  bool timing = true;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "casa-arena: " << why << "\n"
            << "Run 'casa-arena --help' for its usage.\n";
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  casa::cmdline::App app{"Duplicate matches between two bots, measured (docs/arena.md).",
                         "casa-arena"};
  app.set_version_flag("--version", casa::version_line("casa-arena"));
  app.footer("BOT: random | robot | strong[:key=value,...] | exec:COMMAND");
  app.add_option("--game", a.game, "the game (la-casa)");
  app.add_option("--players", a.players, "players at the table (4)");
  app.add_option("--options", a.options, "the table's options, a JSON object ({})");
  app.add_option("--a", a.a, "bot A (strong)");
  app.add_option("--b", a.b, "bot B (robot)");
  app.add_option("--deals", a.deals, "how many deals, each played once per side (50)");
  app.add_option("--seed", a.seed, "the first deal's seed (1)");
  app.add_option("--jobs", a.jobs, "games played at once on this many threads (1)");
  app.add_option("--json", a.json_path, "also write the summary to this file");
  app.add_flag("--quiet", a.quiet, "no progress line on stderr");
  app.add_flag_function(
      "--no-timing", [&a](std::int64_t) { a.timing = false; },
      "leave out the time figures, the only ones that vary between runs");
  casa::cmdline::parse(app, argc, argv, 2);
  if (a.deals < 1) usage("--deals must be at least 1");
  if (a.jobs < 1 || a.jobs > 256) usage("--jobs must be from 1 to 256");
  return a;
}

// A bot as the command line names it.
struct BotSpec {
  enum Kind { kRandom, kRobot, kStrong, kExec } kind = kRobot;
  casa::StrongOptions strong;
  bool timed = false;  // strong with ms= and no iterations=: searches by the clock
  std::string command;
  std::string text;
};

BotSpec parse_bot(const std::string& text) {
  BotSpec b;
  b.text = text;
  if (text == "random") {
    b.kind = BotSpec::kRandom;
  } else if (text == "robot") {
    b.kind = BotSpec::kRobot;
  } else if (text == "strong" || text.rfind("strong:", 0) == 0) {
    b.kind = BotSpec::kStrong;
    const std::string spec = text.size() > 6 ? text.substr(7) : "";
    if (auto err = casa::parse_strong_options(spec, b.strong)) usage(err->message);
    b.timed = b.strong.iterations == 0;
  } else if (text.rfind("exec:", 0) == 0 && text.size() > 5) {
    b.kind = BotSpec::kExec;
    b.command = text.substr(5);
  } else {
    usage("unknown bot '" + text + "'");
  }
  return b;
}

// An external bot: a child process fed one JSON line per request on its stdin,
// answering one JSON line on its stdout.
class ExternalBot {
 public:
  explicit ExternalBot(const std::string& command) : command_(command) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      close(to_child[0]);
      close(to_child[1]);
      close(from_child[0]);
      close(from_child[1]);
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ExternalBot(const ExternalBot&) = delete;
  ExternalBot& operator=(const ExternalBot&) = delete;
  ~ExternalBot() {
    if (in_) fclose(in_);  // EOF: the bot's cue to exit
    if (out_) fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }

  void send(const json& message) {
    const std::string line = message.dump() + "\n";
    if (fwrite(line.data(), 1, line.size(), in_) != line.size() || fflush(in_) != 0)
      fail("stopped reading its input");
  }

  json receive() {
    std::string line;
    int c;
    while ((c = fgetc(out_)) != EOF && c != '\n') line.push_back(static_cast<char>(c));
    if (c == EOF && line.empty()) fail("closed its output without answering");
    json reply = json::parse(line, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
      fail("answered something that is not a JSON object: " + line);
    return reply;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("external bot '" + command_ + "' " + why);
  }

 private:
  std::string command_;
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

// The time a timed strong bot searches by, and the arena's per-search figures:
// the CPU time of the calling thread, so that a busy machine slows a match
// down without weakening the bots (a 200 ms budget is 200 ms on one core).
std::int64_t thread_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  casa::Rng r(a ^ (b * 0x9E3779B97F4A7C15ULL));
  return r.next();
}

// One bot playing some seats of one game.
class Player {
 public:
  Player(const BotSpec& spec, ExternalBot* external, std::uint64_t seed)
      : spec_(spec), external_(external), rng_(seed), seed_(seed) {}

  long searches = 0;
  long iterations = 0;
  double search_seconds = 0;

  Action choose(const Game& game, Seat seat) {
    ++decisions_;
    switch (spec_.kind) {
      case BotSpec::kRandom:
        return casa::choose_bot_action(game, seat, "random", rng_);
      case BotSpec::kRobot:
        return casa::choose_bot_action(game, seat, "robot", rng_);
      case BotSpec::kStrong: {
        casa::StrongOptions o = spec_.strong;
        o.seed = mix(o.seed ^ seed_, decisions_);
        casa::StrongStats stats;
        const std::int64_t start = thread_cpu_us();
        const Action a = spec_.timed ? casa::strong_action(game, seat, o, thread_cpu_us, &stats)
                                     : casa::strong_action(game, seat, o, {}, &stats);
        if (stats.choices > 1) {  // a real search, not a forced move
          ++searches;
          iterations += stats.iterations;
          search_seconds += static_cast<double>(thread_cpu_us() - start) / 1e6;
        }
        return a;
      }
      case BotSpec::kExec:
        return ask_external(game, seat);
    }
    return casa::choose_bot_action(game, seat, "random", rng_);
  }

 private:
  Action ask_external(const Game& game, Seat seat) {
    std::vector<Action> legal;
    game.legal_actions(seat, legal);
    json list = json::array();
    for (const Action& a : legal) list.push_back(casa::to_json(game.encode_action(a)));
    external_->send(json{{"type", "request"},
                         {"game", std::string(game.name())},
                         {"players", game.players()},
                         {"seat", seat},
                         {"view", casa::to_json(game.view(seat))},
                         {"legal", list}});
    const json reply = external_->receive();
    if (reply.contains("index") && reply["index"].is_number_integer()) {
      const auto i = reply["index"].get<long long>();
      if (i >= 0 && i < static_cast<long long>(legal.size()))
        return legal[static_cast<std::size_t>(i)];
      external_->fail("answered an index outside the legal list: " + reply.dump());
    }
    if (reply.contains("action")) {
      Action a;
      if (auto err = game.decode_action(casa::from_json(reply["action"]), a))
        external_->fail("answered an action the game does not know (" + err->message +
                        "): " + reply.dump());
      for (const Action& l : legal)
        if (l == a) return a;
      external_->fail("answered an action that is not legal now: " + reply.dump());
    }
    external_->fail("answered neither \"action\" nor \"index\": " + reply.dump());
  }

  const BotSpec& spec_;
  ExternalBot* external_;
  casa::Rng rng_;
  std::uint64_t seed_;
  std::uint64_t decisions_ = 0;
};

// The sides of the table, from the "teams" every view carries.
std::vector<std::vector<Seat>> read_teams(const Game& game) {
  std::vector<std::vector<Seat>> teams;
  const Value view = game.view(casa::kSpectator);
  const Value* t = view.is_object() ? view.find("teams") : nullptr;
  if (t && t->is_array()) {
    for (const Value& members : t->as_array()) {
      std::vector<Seat> side;
      for (const Value& m : members.as_array()) side.push_back(static_cast<Seat>(m.as_int()));
      teams.push_back(side);
    }
  }
  if (teams.empty())
    for (Seat s = 0; s < game.players(); ++s) teams.push_back({s});
  return teams;
}

// One game of the match: which side bot A holds (with one side: which bot plays).
struct GameResult {
  long deal = 0;
  int rotation = 0;
  double a_points = 0;  // 1 A won, 0.5 both or neither side of the pairing won, 0 B won
  bool a_won = false;
  bool b_won = false;
  double score_diff = 0;  // A's score minus B's (mean over B's sides)
  long actions = 0;
  double a_seconds = 0;  // thinking time of A's decisions (wall clock)
  long a_decisions = 0;
  long a_searches = 0;  // decisions with a choice, when A is the strong bot
  long a_iterations = 0;
  double a_search_seconds = 0;
};

struct Match {
  Args args;
  Value options;
  BotSpec a, b;
  std::vector<std::vector<Seat>> teams;
  bool solo = false;
  int rotations = 0;
};

// Plays deal `deal` with A on side `rotation` (solo: rotation 0 = A plays, 1 = B).
GameResult play_game(const Match& m, long deal, int rotation, ExternalBot* ext_a,
                     ExternalBot* ext_b) {
  const std::uint64_t game_seed = mix(m.args.seed, static_cast<std::uint64_t>(deal));
  auto created = casa::create_game(m.args.game, m.args.players, m.options, game_seed);
  Game& game = *created.game;
  // A and B get their own seeds, the same whichever seats they hold.
  Player pa(m.a, ext_a, mix(game_seed, 0xA));
  Player pb(m.b, ext_b, mix(game_seed, 0xB));
  std::vector<bool> seat_is_a(static_cast<std::size_t>(game.players()), false);
  if (m.solo) {
    if (rotation == 0) seat_is_a.assign(seat_is_a.size(), true);
  } else {
    for (Seat s : m.teams[static_cast<std::size_t>(rotation)])
      seat_is_a[static_cast<std::size_t>(s)] = true;
  }
  GameResult r;
  r.deal = deal;
  r.rotation = rotation;
  while (!game.is_over() && r.actions < kMaxActionsPerGame) {
    const casa::SeatMask mask = game.to_act();
    if (!mask) break;
    for (Seat s = 0; s < game.players(); ++s) {
      if (!(mask & casa::seat_bit(s))) continue;
      const bool is_a = seat_is_a[static_cast<std::size_t>(s)];
      const auto start = std::chrono::steady_clock::now();
      const Action action = is_a ? pa.choose(game, s) : pb.choose(game, s);
      if (is_a) {
        r.a_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ++r.a_decisions;
      }
      if (auto err = game.apply(s, action, nullptr))
        throw std::runtime_error("a bot chose an action the game refused: " + err->message);
      ++r.actions;
      break;  // simultaneous seats: one at a time, the mask is read again
    }
  }
  r.a_searches = pa.searches;
  r.a_iterations = pa.iterations;
  r.a_search_seconds = pa.search_seconds;
  const std::vector<int> scores = game.scores();
  // External bots hear how each game they played ended; they answer nothing.
  const json over{{"type", "game_over"}, {"scores", scores}, {"winners", game.winners()}};
  const bool a_played = !m.solo || rotation == 0, b_played = !m.solo || rotation == 1;
  if (ext_a && a_played) ext_a->send(over);
  if (ext_b && b_played) ext_b->send(over);
  std::vector<bool> winner(static_cast<std::size_t>(game.players()), false);
  for (Seat w : game.winners())  // La Casa Solo names the Robot, who holds no seat
    if (w >= 0 && w < game.players()) winner[static_cast<std::size_t>(w)] = true;
  if (m.solo) {
    // The side of this game is whoever played it; compare with the other game
    // of the deal when the summary is built.
    r.a_won = winner[0];
    r.score_diff = scores.empty() ? 0 : scores[0];
    return r;
  }
  // A against each of B's sides: ahead if it won and that side did not, behind
  // in the opposite case, otherwise by the scores. With two sides this is the
  // game's result; with more it is the share of B's sides that A finished ahead of.
  const auto& a_side = m.teams[static_cast<std::size_t>(rotation)];
  const bool a_won = winner[static_cast<std::size_t>(a_side[0])];
  const int a_score = scores[static_cast<std::size_t>(a_side[0])];
  double points = 0, b_score = 0;
  int b_sides = 0;
  for (std::size_t t = 0; t < m.teams.size(); ++t) {
    if (static_cast<int>(t) == rotation) continue;
    const Seat first = m.teams[t][0];
    const bool b_won = winner[static_cast<std::size_t>(first)];
    const int score = scores[static_cast<std::size_t>(first)];
    r.b_won = r.b_won || b_won;
    points += a_won != b_won    ? (a_won ? 1.0 : 0.0)
              : score < a_score ? 1.0
              : score > a_score ? 0.0
                                : 0.5;
    b_score += score;
    ++b_sides;
  }
  r.a_won = a_won;
  r.a_points = b_sides ? points / b_sides : 0.5;
  r.score_diff = a_score - (b_sides ? b_score / b_sides : 0);
  return r;
}

// Wilson score interval for k successes in n trials, 95 %.
std::pair<double, double> wilson(double k, double n) {
  if (n <= 0) return {0, 1};
  constexpr double z = 1.959963984540054;
  const double p = k / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// The Elo difference that predicts score fraction p (clamped away from 0 and 1).
double elo(double p) {
  p = std::min(std::max(p, 1e-4), 1 - 1e-4);
  return 400 * std::log10(p / (1 - p));
}

double round_to(double x, int digits) {
  const double f = std::pow(10.0, digits);
  return std::round(x * f) / f;
}

json summarize(const Match& m, const std::vector<GameResult>& results) {
  json out{{"game", m.args.game},
           {"players", m.args.players},
           {"options", json::parse(m.args.options)},
           {"a", m.a.text},
           {"b", m.b.text},
           {"seed", m.args.seed},
           {"deals", m.args.deals},
           {"games", results.size()}};
  long actions = 0, a_decisions = 0, a_searches = 0, a_iterations = 0;
  double a_seconds = 0, a_search_seconds = 0;
  for (const auto& r : results) {
    actions += r.actions;
    a_decisions += r.a_decisions;
    a_seconds += r.a_seconds;
    a_searches += r.a_searches;
    a_iterations += r.a_iterations;
    a_search_seconds += r.a_search_seconds;
  }
  out["actions"] = actions;
  // The only figures that vary from run to run; --no-timing leaves them out.
  if (m.args.timing) {
    out["a_decisions"] = a_decisions;
    out["a_ms_per_decision"] =
        round_to(a_decisions ? 1000 * a_seconds / static_cast<double>(a_decisions) : 0, 3);
    if (a_searches) {
      const auto n = static_cast<double>(a_searches);
      out["a_searches"] = a_searches;
      out["a_cpu_ms_per_search"] = round_to(1000 * a_search_seconds / n, 3);
      out["a_iterations_per_search"] = round_to(static_cast<double>(a_iterations) / n, 1);
      out["a_cpu_us_per_iteration"] = round_to(
          a_iterations ? 1e6 * a_search_seconds / static_cast<double>(a_iterations) : 0, 2);
    }
  }
  if (m.solo) {
    // Each deal: game 0 played by A, game 1 by B, in the one seat.
    double a_wins = 0, b_wins = 0, a_only = 0, b_only = 0, diff = 0;
    const double n = static_cast<double>(m.args.deals);
    for (std::size_t i = 0; i + 1 < results.size(); i += 2) {
      const bool wa = results[i].a_won, wb = results[i + 1].a_won;
      a_wins += wa;
      b_wins += wb;
      a_only += wa && !wb;
      b_only += wb && !wa;
      diff += results[i].score_diff - results[i + 1].score_diff;
    }
    const auto [alo, ahi] = wilson(a_wins, n);
    const auto [blo, bhi] = wilson(b_wins, n);
    out["mode"] = "solo";
    out["a_win_rate"] = round_to(a_wins / n, 4);
    out["a_win_rate_ci95"] = {round_to(alo, 4), round_to(ahi, 4)};
    out["b_win_rate"] = round_to(b_wins / n, 4);
    out["b_win_rate_ci95"] = {round_to(blo, 4), round_to(bhi, 4)};
    // Deals one bot won and the other lost: the paired comparison.
    out["deals_only_a_won"] = a_only;
    out["deals_only_b_won"] = b_only;
    const double decided = a_only + b_only;
    const double p = decided > 0 ? a_only / decided : 0.5;
    const auto [lo, hi] = wilson(a_only, decided);
    out["win_rate"] = round_to(p, 4);
    out["win_rate_ci95"] = {round_to(lo, 4), round_to(hi, 4)};
    out["elo"] = round_to(elo(p), 1);
    out["elo_ci95"] = {round_to(elo(lo), 1), round_to(elo(hi), 1)};
    out["mean_score_diff"] = round_to(diff / n, 4);
    return out;
  }
  double points = 0, wins = 0, losses = 0, draws = 0, diff = 0, first = 0;
  for (const auto& r : results) {
    points += r.a_points;
    wins += r.a_points == 1.0;
    losses += r.a_points == 0.0;
    draws += r.a_points > 0.0 && r.a_points < 1.0;
    diff += r.score_diff;
    first += r.a_won;
  }
  const double n = static_cast<double>(results.size());
  const double p = points / n;
  const auto [lo, hi] = wilson(points, n);
  out["mode"] = "duplicate";
  out["sides"] = m.teams.size();
  out["a_wins"] = wins;
  out["a_losses"] = losses;
  out["draws"] = draws;
  // Draws count half. With more than two sides, a game's points are the share of
  // B's sides A finished ahead of (wins/losses: ahead of / behind them all), and
  // a_won_game_rate is how often A's side won the game (by chance: 1/sides).
  const auto [flo, fhi] = wilson(first, n);
  out["a_won_game_rate"] = round_to(first / n, 4);
  out["a_won_game_rate_ci95"] = {round_to(flo, 4), round_to(fhi, 4)};
  out["win_rate"] = round_to(p, 4);
  out["win_rate_ci95"] = {round_to(lo, 4), round_to(hi, 4)};
  out["elo"] = round_to(elo(p), 1);
  out["elo_ci95"] = {round_to(elo(lo), 1), round_to(elo(hi), 1)};
  out["mean_score_diff"] = round_to(diff / n, 4);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Match m;
  m.args = parse_args(argc, argv);
  const json opts = json::parse(m.args.options, nullptr, false);
  if (opts.is_discarded() || !opts.is_object()) usage("--options must be a JSON object");
  m.options = casa::from_json(opts);
  m.a = parse_bot(m.args.a);
  m.b = parse_bot(m.args.b);
  {
    auto probe = casa::create_game(m.args.game, m.args.players, m.options, m.args.seed);
    if (!probe.game) usage(probe.error->message);
    m.teams = read_teams(*probe.game);
  }
  m.solo = m.teams.size() == 1;
  m.rotations = m.solo ? 2 : static_cast<int>(m.teams.size());
  const long total = m.args.deals * m.rotations;

  std::vector<GameResult> results(static_cast<std::size_t>(total));
  std::atomic<long> next{0};
  std::atomic<long> done{0};
  std::mutex progress;
  std::string failure;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    std::unique_ptr<ExternalBot> ext_a, ext_b;
    try {
      if (m.a.kind == BotSpec::kExec) ext_a = std::make_unique<ExternalBot>(m.a.command);
      if (m.b.kind == BotSpec::kExec) ext_b = std::make_unique<ExternalBot>(m.b.command);
      for (long i; (i = next.fetch_add(1)) < total;) {
        GameResult r = play_game(m, i / m.rotations, static_cast<int>(i % m.rotations), ext_a.get(),
                                 ext_b.get());
        results[static_cast<std::size_t>(i)] = r;
        const long d = ++done;
        if (!m.args.quiet) {
          std::lock_guard lock(progress);
          const double secs =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          std::fprintf(stderr, "\rcasa-arena: %ld/%ld games, %.0f s", d, total, secs);
          std::fflush(stderr);
        }
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(progress);
      if (failure.empty()) failure = e.what();
      next = total;  // stop the others
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < m.args.jobs; ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!m.args.quiet) std::fprintf(stderr, "\n");
  if (!failure.empty()) {
    std::cerr << "casa-arena: " << failure << "\n";
    return 1;
  }
  const json summary = summarize(m, results);
  std::cout << summary.dump(2) << "\n";
  if (!m.args.json_path.empty()) {
    std::ofstream f(m.args.json_path);
    f << summary.dump(2) << "\n";
    if (!f) {
      std::cerr << "casa-arena: cannot write " << m.args.json_path << "\n";
      return 1;
    }
  }
  return 0;
}
