// SPDX-License-Identifier: AGPL-3.0-or-later
#include "clients/cli/event.h"

#include <algorithm>
#include <map>

namespace casa::cli {
namespace {

bool is_player_id(const std::string& word) {
  if (word.size() != 11 || word[0] != 'p') return false;
  return std::all_of(word.begin() + 1, word.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_bot_name(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(by, start);
    out.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// Appended, not `"+" + std::to_string(n)`: GCC 12 at -O3 takes that operator+
// for an overlapping copy (a -Wrestrict false positive).
std::string signed_number(long long n) {
  std::string out = n > 0 ? "+" : "";
  out += std::to_string(n);
  return out;
}

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t c = columns(s);
  return c >= width ? s : std::string(width - c, ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  const std::size_t c = columns(s);
  return c >= width ? s : s + std::string(width - c, ' ');
}

std::string str(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

long long num(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<long long>() : 0;
}

}  // namespace

std::optional<Json> parse_side(const std::string& spec, std::string& error) {
  Json side = Json::object();
  std::string members = spec;
  if (const auto eq = spec.find('='); eq != std::string::npos) {
    side["name"] = spec.substr(0, eq);
    members = spec.substr(eq + 1);
    if (side["name"].get<std::string>().empty()) {
      error = "a side's name before '=' is empty in '" + spec + "'";
      return std::nullopt;
    }
  }
  Json tables = Json::array();
  for (const auto& list : split(members, '/')) {
    Json row = Json::array();
    for (const auto& word : split(list, ',')) {
      if (word == "me") {
        row.push_back({{"me", true}});
      } else if (is_player_id(word)) {
        row.push_back({{"player_id", word}});
      } else if (is_bot_name(word)) {
        row.push_back({{"bot", word}});
      } else {
        error = "'" + word + "' in '" + spec +
                "' is not a member: use me, a player id (p and ten hex digits) or a bot name";
        return std::nullopt;
      }
    }
    tables.push_back(std::move(row));
  }
  if (tables.size() == 1)
    side["members"] = tables[0];
  else
    side["tables"] = std::move(tables);
  return side;
}

Json sides_for(const Json& sides, const std::string& player_id) {
  Json out = sides;
  auto fix = [&](Json& row) {
    for (auto& m : row)
      if (m.value("me", false)) m = {{"player_id", player_id}};
  };
  for (auto& side : out) {
    if (side.contains("members")) fix(side["members"]);
    if (side.contains("tables"))
      for (auto& row : side["tables"]) fix(row);
  }
  return out;
}

std::vector<std::string> render_standings(const Json& event) {
  std::vector<std::string> lines;
  const long long boards = num(event, "boards");
  const long long rotations = num(event, "rotations");
  const long long players = num(event, "players");
  lines.push_back("Event " + str(event, "event") + " · " + str(event, "game") + " · " +
                  std::to_string(players) + (players == 1 ? " player" : " players") + " · " +
                  std::to_string(boards) + (boards == 1 ? " board" : " boards") + " · " +
                  std::to_string(rotations) + (rotations == 1 ? " table" : " tables") +
                  " a board · " + str(event, "status"));
  long long revealed = 0;
  for (const auto& b : event.value("results", Json::array()))
    revealed += b.value("revealed", false);
  // Where each rotation is: the board it plays now, or that it is done.
  std::map<long long, std::string> where;
  for (const auto& t : event.value("tables", Json::array())) {
    const std::string status = str(t, "status");
    if (status == "not_started") continue;
    where[num(t, "rotation")] = "board " + str(t, "board") + " " + status;
  }
  std::string tables;
  for (const auto& [k, text] : where)
    tables += (tables.empty() ? "" : ", ") + ("table " + std::to_string(k + 1) + ": " + text);
  lines.push_back("Boards revealed: " + std::to_string(revealed) + " of " + std::to_string(boards) +
                  (revealed < boards ? " (a board is shown once every table has played it)" : ""));
  if (!tables.empty() && str(event, "status") != "over") lines.push_back("Now: " + tables + ".");
  const Json standings = event.value("standings", Json::array());
  std::size_t width = 4;
  for (const auto& row : standings) width = std::max(width, columns(str(row, "name")));
  width = std::min<std::size_t>(width, 32);
  lines.push_back(pad_left("#", 3) + "  " + pad_right("Side", width) + "  " + pad_left("Total", 6) +
                  "  " + pad_left("Points", 6) + "  " + pad_left("Hands", 5));
  for (const auto& row : standings)
    lines.push_back(pad_left(str(row, "rank"), 3) + "  " + pad_right(str(row, "name"), width) +
                    "  " + pad_left(signed_number(num(row, "total")), 6) + "  " +
                    pad_left(std::to_string(num(row, "points")), 6) + "  " +
                    pad_left(std::to_string(num(row, "hands")), 5));
  lines.push_back("Total: the side's score against the field (what it made minus what the");
  lines.push_back("other tables made with the same cards), over the revealed boards.");
  return lines;
}

std::string standings_key(const Json& event) {
  Json key = {{"status", event.value("status", Json())},
              {"standings", event.value("standings", Json())},
              {"tables", Json::array()}};
  for (const auto& t : event.value("tables", Json::array()))
    key["tables"].push_back(t.value("status", Json()));
  for (const auto& b : event.value("results", Json::array()))
    key["tables"].push_back(b.value("revealed", false));
  return key.dump();
}

std::set<int> rotations_of(const Json& event, const std::string& player_id) {
  std::set<int> out;
  for (const auto& side : event.value("sides", Json::array())) {
    int k = 0;
    for (const auto& row : side.value("tables", Json::array())) {
      for (const auto& m : row)
        if (m.is_object() && m.value("player_id", std::string()) == player_id) out.insert(k);
      ++k;
    }
  }
  return out;
}

namespace {
bool finished(const Json& t, const std::set<std::string>& over) {
  const std::string status = str(t, "status");
  return status == "over" || status == "closed" || over.count(str(t, "table")) > 0;
}
}  // namespace

std::vector<std::string> open_tables(const Json& event, const std::set<int>& rotations,
                                     const std::set<std::string>& over) {
  std::vector<std::string> out;
  if (str(event, "status") == "over") return out;
  for (const auto& t : event.value("tables", Json::array())) {
    if (!rotations.count(static_cast<int>(num(t, "rotation")))) continue;
    if (str(t, "table").empty() || finished(t, over)) continue;
    out.push_back(str(t, "table"));
  }
  return out;
}

bool more_to_play(const Json& event, const std::set<int>& rotations,
                  const std::set<std::string>& over) {
  if (str(event, "status") == "over") return false;
  const long long boards = num(event, "boards");
  for (const int k : rotations) {
    bool stopped = false;
    bool last_done = false;
    for (const auto& t : event.value("tables", Json::array())) {
      if (num(t, "rotation") != k) continue;
      if (str(t, "status") == "closed") stopped = true;
      if (num(t, "board") == boards && finished(t, over)) last_done = true;
    }
    if (!stopped && !last_done) return true;
  }
  return false;
}

}  // namespace casa::cli
