// SPDX-License-Identifier: AGPL-3.0-or-later
// The command line of every program, on CLI11: the rules they share.
//
//   casa::cmdline::App app{"what the program does", "casa-sim"};
//   app.add_option("--games", games, "games to play");
//   casa::cmdline::parse(app, argc, argv, 2);
//
// --help (and -h) of the program or of any of its commands prints that command's
// usage on stdout and exits 0; --version (set_version_flag) prints the version
// line and exits 0. A mistake (an unknown flag or command, a missing or bad
// value) prints one line naming it on stderr, "PROGRAM: WHAT", then where the
// usage is, and exits with the program's usage status.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace casa::cmdline {

// A program's command line. A flag given twice keeps its last value, as a later
// flag overrides an earlier one (its commands inherit this; a repeated flag that
// collects every value, such as casa event create's --side, says so).
class App : public CLI::App {
 public:
  App(std::string description, std::string name)
      : CLI::App(std::move(description), std::move(name)) {
    option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
};

// The full name of a command: "casa event create".
inline std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* up = app.get_parent(); up != nullptr; up = up->get_parent())
    path = up->get_name() + " " + path;
  return path;
}

inline std::string program_name(const CLI::App& app) {
  const CLI::App* top = &app;
  while (top->get_parent() != nullptr) top = top->get_parent();
  return top->get_name();
}

// Prints "PROGRAM: WHY" and the way to the usage of `app` on stderr, and exits.
[[noreturn]] inline void fail(const CLI::App& app, const std::string& why, int status) {
  std::cerr << program_name(app) << ": " << why << "\n"
            << "Run '" << command_path(app) << " --help' for its usage.\n";
  std::exit(status);
}

// The command the user named: the deepest parsed subcommand of `app`.
inline const CLI::App& chosen(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands())
    if (sub->parsed()) return chosen(*sub);
  return app;
}

// Parses argv with `app`. The apps are built with allow_extras() (parse() sets it on
// every one of them) so that what is left over is named here with its command:
// "unknown flag --fill for event create", "unknown command foo".
inline void parse(CLI::App& app, int argc, const char* const* argv, int usage_status) {
  std::vector<CLI::App*> apps = {&app};
  for (std::size_t i = 0; i < apps.size(); ++i) {
    apps[i]->allow_extras();
    for (CLI::App* sub : apps[i]->get_subcommands({})) apps.push_back(sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    std::exit(0);
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    std::exit(0);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    fail(chosen(app), e.what(), usage_status);
  }
  const CLI::App& last = chosen(app);
  for (const CLI::App* a = &last; a != nullptr; a = a->get_parent()) {
    const auto left = a->remaining();
    if (left.empty()) continue;
    const std::string& first = left.front();
    // The command without the program's name: "event create", or "" for the program.
    const std::string command =
        a->get_parent() == nullptr ? "" : command_path(*a).substr(program_name(*a).size() + 1);
    const std::string where = command.empty() ? "" : " for " + command;
    if (first.size() > 1 && first[0] == '-')
      fail(*a, "unknown flag " + first + where, usage_status);
    if (!a->get_subcommands({}).empty() && &last == a)  // "unknown event command frobnicate"
      fail(*a, "unknown " + (command.empty() ? "" : command + " ") + "command " + first,
           usage_status);
    fail(*a, "unexpected argument " + first + where, usage_status);
  }
}

}  // namespace casa::cmdline
