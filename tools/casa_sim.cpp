// SPDX-License-Identifier: AGPL-3.0-or-later
// casa-sim: the engine on the command line, without a server.
//
//   casa-sim play  --game G --players N [--options JSON] [--seed S] [--deck JSON]
//                  [--dealer D] [--challenge NAME] [--rounds R] [--no-views] [--auto]
//   casa-sim bench --game G --players N [--options JSON] --games N [--seed S]
//
// See docs/engine-cli.md.
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cmdline/cmdline.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "protocol/value_json.h"
#include "versioninfo/version.h"

namespace {

using casa::Action;
using casa::Game;
using casa::Seat;
using casa::Value;
using nlohmann::json;

struct Args {
  std::string command;
  std::string game = "la-casa";
  int players = 4;
  std::string options = "{}";
  std::string deck;
  std::string challenge;
  int dealer = -1;
  int rounds = 0;
  std::uint64_t seed = 1;
  long games = 1000;
  bool views = true;
  bool automatic = false;  // --auto: play the first legal action instead of reading stdin
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "casa-sim: " << why << "\n"
            << "Run 'casa-sim --help' for its usage.\n";
  std::exit(2);
}

// The table options every command takes.
void add_game_options(CLI::App& app, Args& a) {
  app.add_option("--game", a.game, "the game (la-casa)");
  app.add_option("--players", a.players, "players at the table (4)");
  app.add_option("--options", a.options, "the table's options, a JSON object ({})");
  app.add_option("--seed", a.seed, "the deal's seed (1)");
}

Args parse_args(int argc, char** argv) {
  Args a;
  casa::cmdline::App app{
      "The rules engine on the command line, without a server (docs/engine-cli.md).", "casa-sim"};
  app.set_version_flag("--version", casa::version_line("casa-sim"));
  CLI::App* play = app.add_subcommand(
      "play", "one game: reads {\"seat\":N,\"action\":{...}} lines on stdin, prints JSON lines");
  add_game_options(*play, a);
  play->add_option("--deck", a.deck, "a stacked deck, a JSON list of card ids (testing)");
  play->add_option("--dealer", a.dealer, "the first dealer's seat (testing)");
  play->add_option("--challenge", a.challenge, "the Challenge of the first round (testing)");
  play->add_option("--rounds", a.rounds, "rounds to play (testing)");
  play->add_flag_function(
      "--no-views", [&a](std::int64_t) { a.views = false; }, "leave out each seat's view");
  play->add_flag("--auto", a.automatic, "the lowest seat to act plays its first legal action");
  CLI::App* bench =
      app.add_subcommand("bench", "random games; prints one JSON object of figures and a checksum");
  add_game_options(*bench, a);
  bench->add_option("--games", a.games, "games to play (1000)");
  casa::cmdline::parse(app, argc, argv, 2);
  if (!play->parsed() && !bench->parsed()) casa::cmdline::fail(app, "missing command", 2);
  a.command = play->parsed() ? "play" : "bench";
  return a;
}

Value parse_options(const Args& a) {
  json opts = json::parse(a.options, nullptr, false);
  if (opts.is_discarded() || !opts.is_object()) usage("--options must be a JSON object");
  if (!a.deck.empty()) {
    json deck = json::parse(a.deck, nullptr, false);
    if (deck.is_discarded() || !deck.is_array()) usage("--deck must be a JSON list of card ids");
    opts["deck"] = deck;
  }
  // Shorthands for the testing options every game accepts.
  if (a.dealer >= 0) opts["dealer"] = a.dealer;
  if (!a.challenge.empty()) opts["challenge"] = a.challenge;
  if (a.rounds > 0) opts["rounds"] = a.rounds;
  return casa::from_json(opts);
}

std::unique_ptr<Game> make_game(const Args& a, const Value& options, std::uint64_t seed) {
  auto created = casa::create_game(a.game, a.players, options, seed);
  if (!created.game) {
    std::cout << json{{"type", "error"},
                      {"code", created.error->code},
                      {"message", created.error->message}}
              << std::endl;
    std::exit(1);
  }
  return std::move(created.game);
}

std::vector<Seat> seats_of(casa::SeatMask mask) {
  std::vector<Seat> out;
  for (Seat s = 0; s < casa::kMaxSeats; ++s)
    if (mask & casa::seat_bit(s)) out.push_back(s);
  return out;
}

void print_turn(const Game& game, bool with_views) {
  json line{{"type", "turn"}};
  std::vector<Action> legal;
  json acting = json::object();
  for (Seat s : seats_of(game.to_act())) {
    game.legal_actions(s, legal);
    json list = json::array();
    for (const auto& action : legal) list.push_back(casa::to_json(game.encode_action(action)));
    acting[std::to_string(s)] = list;
  }
  line["to_act"] = acting;
  if (with_views) {
    json views = json::object();
    for (Seat s = 0; s < game.players(); ++s) views[std::to_string(s)] = casa::to_json(game.view(s));
    views["spectator"] = casa::to_json(game.view(casa::kSpectator));
    line["views"] = views;
  }
  std::cout << line << "\n";
}

void print_events(const std::vector<casa::Event>& events) {
  for (const auto& e : events) {
    json line{{"type", "event"}, {"to", seats_of(e.seats)}, {"spectators", e.spectators},
              {"event", casa::to_json(e.body)}};
    std::cout << line << "\n";
  }
}

int play(const Args& a) {
  const Value options = parse_options(a);
  auto game = make_game(a, options, a.seed);
  std::cout << json{{"type", "start"}, {"game", a.game}, {"players", a.players},
                    {"seed", a.seed}, {"options", casa::to_json(options)}}
            << "\n";
  print_turn(*game, a.views);
  std::string text;
  std::vector<casa::Event> events;
  std::vector<Action> legal;
  // --auto: the lowest seat to act plays its first legal action, written as the
  // line a player would send, so both ways run through the same code below.
  auto next_line = [&]() -> bool {
    if (!a.automatic) return static_cast<bool>(std::getline(std::cin, text));
    const std::vector<Seat> acting = seats_of(game->to_act());
    if (acting.empty()) return false;
    game->legal_actions(acting.front(), legal);
    if (legal.empty()) return false;
    text = json{{"seat", acting.front()}, {"action", casa::to_json(game->encode_action(legal.front()))}}
               .dump();
    return true;
  };
  while (!game->is_over() && next_line()) {
    if (text.empty()) continue;
    auto error_line = [](const std::string& code, const std::string& message) {
      std::cout << json{{"type", "error"}, {"code", code}, {"message", message}} << "\n";
    };
    json input = json::parse(text, nullptr, false);
    if (input.is_discarded() || !input.is_object() || !input.contains("seat") ||
        !input["seat"].is_number_integer() || !input.contains("action")) {
      error_line("malformed", "Each line must be {\"seat\":N,\"action\":{...}}.");
      continue;
    }
    Action action;
    if (auto err = game->decode_action(casa::from_json(input["action"]), action)) {
      error_line(err->code, err->message);
      continue;
    }
    events.clear();
    if (auto err = game->apply(input["seat"].get<int>(), action, &events)) {
      error_line(err->code, err->message);
      continue;
    }
    print_events(events);
    if (!game->is_over()) print_turn(*game, a.views);
    std::cout.flush();
  }
  if (game->is_over()) {
    std::cout << json{{"type", "over"},
                      {"scores", game->scores()},
                      {"winners", game->winners()},
                      {"state", casa::to_json(game->full_state())}}
              << "\n";
  }
  return 0;
}

// Plays random games (each acting seat picks uniformly among its legal actions)
// and prints one JSON object of figures. The checksum folds every chosen action
// and the final scores, so equal seeds give equal checksums.
int bench(const Args& a) {
  const Value options = parse_options(a);
  casa::Rng chooser(a.seed ^ 0x5DEECE66DULL);
  std::vector<Action> legal;
  legal.reserve(256);
  std::uint64_t actions = 0;
  std::uint64_t checksum = 1469598103934665603ULL;
  auto fold = [&checksum](std::uint64_t x) {
    checksum ^= x;
    checksum *= 1099511628211ULL;
  };
  // Games are created before the clock starts only per game; creation is part of the cost.
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (long g = 0; g < a.games; ++g) {
    auto game = make_game(a, options, a.seed + static_cast<std::uint64_t>(g));
    while (!game->is_over()) {
      const casa::SeatMask mask = game->to_act();
      // Among several acting seats, pick one at random: any order must work.
      Seat seat = -1;
      const int n = std::popcount(mask);
      int pick = n > 1 ? static_cast<int>(chooser.below(static_cast<std::uint32_t>(n))) : 0;
      for (Seat s = 0; s < casa::kMaxSeats; ++s) {
        if ((mask & casa::seat_bit(s)) && pick-- == 0) {
          seat = s;
          break;
        }
      }
      game->legal_actions(seat, legal);
      if (legal.empty()) {
        std::cerr << "casa-sim: seat " << seat << " must act but has no legal action\n";
        return 1;
      }
      const Action& chosen = legal[chooser.below(static_cast<std::uint32_t>(legal.size()))];
      fold(chosen.kind);
      fold(chosen.card);
      fold(static_cast<std::uint64_t>(chosen.arg));
      fold(chosen.set);
      fold(chosen.set2);
      if (auto err = game->apply(seat, chosen, nullptr)) {
        std::cerr << "casa-sim: a legal action was refused: " << err->message << "\n";
        return 1;
      }
      ++actions;
    }
    for (int score : game->scores()) fold(static_cast<std::uint64_t>(score));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Processor time of this (single-threaded) process: the one core's share, which
  // stays meaningful when other work shares the machine.
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::cout << json{{"games", a.games},
                    {"actions", actions},
                    {"seconds", seconds},
                    {"actions_per_second", seconds > 0 ? static_cast<double>(actions) / seconds : 0.0},
                    {"cpu_seconds", cpu_seconds},
                    {"actions_per_cpu_second",
                     cpu_seconds > 0 ? static_cast<double>(actions) / cpu_seconds : 0.0},
                    {"checksum", checksum}}
            << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse_args(argc, argv);
  if (a.command == "play") return play(a);
  return bench(a);
}
