// SPDX-License-Identifier: AGPL-3.0-or-later
#include "clients/cli/render.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace casa::cli {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// ---- Card notation (the ids of the rules files: LC-1.4, CA-1.1, CO-1.1, TC-1.1) ----

// The group a card belongs to in a hand, or "" when the id is not one of the game's.
std::string card_group(std::string_view game, std::string_view id) {
  if (game == "la-casa") {
    if (id == "MC") return "Mangia-Cake";
    if (id.size() == 2 && id[1] >= '1' && id[1] <= '9') {
      switch (id[0]) {
        case 'G':
          return "Guns";
        case 'K':
          return "Knives";
        case 'M':
          return "Masks";
        case 'F':
          return "Fists";
      }
    }
    return "";
  }
  if (game == "casino") {
    if (id.size() != 2 || std::string_view("A23456789TJQK").find(id[0]) == std::string_view::npos)
      return "";
    switch (id[1]) {
      case 'S':
        return "Spades";
      case 'H':
        return "Hearts";
      case 'D':
        return "Diamonds";
      case 'C':
        return "Clubs";
    }
    return "";
  }
  if (game == "conference") {
    if (id == "FOOL") return "Fool";
    if (id == "GOOD" || id == "EVIL") return "Trumps";
    if (id.size() >= 2 && id[0] == 'T' && all_digits(id.substr(1))) return "Trumps";
    if (id.size() >= 2) {
      const std::string_view rank = id.substr(1);
      const bool court = rank == "K" || rank == "Q" || rank == "C" || rank == "J";
      if (!court && !all_digits(rank)) return "";
      switch (id[0]) {
        case 'E':
          return "Earth";
        case 'A':
          return "Air";
        case 'F':
          return "Fire";
        case 'W':
          return "Water";
      }
    }
    return "";
  }
  if (game == "trophy-case") {
    if (starts_with(id, "T-")) return "Trumps";
    // TC-1.3: three suits per colour, listed in colour order.
    static const std::array<std::pair<std::string_view, std::string_view>, 15> kSuits = {{
        {"MAZ", "red"},
        {"BOO", "red"},
        {"RAI", "red"},
        {"BUG", "orange"},
        {"FRO", "orange"},
        {"INK", "orange"},
        {"SCY", "yellow"},
        {"PLU", "yellow"},
        {"FAC", "yellow"},
        {"TIM", "green"},
        {"LAM", "green"},
        {"HIV", "green"},
        {"EAR", "blue"},
        {"ZUR", "blue"},
        {"TOP", "blue"},
    }};
    if (id.size() != 4) return "";
    for (const auto& [code, colour] : kSuits)
      if (id.substr(0, 3) == code) return std::string(colour);
    return "";
  }
  return "";
}

// Display order of a game's groups; groups not listed come last.
int group_rank(std::string_view game, const std::string& group) {
  static const std::map<std::string, std::vector<std::string>> kOrder = {
      {"la-casa", {"Guns", "Knives", "Masks", "Fists", "Mangia-Cake"}},
      {"casino", {"Spades", "Hearts", "Diamonds", "Clubs"}},
      {"conference", {"Trumps", "Fool", "Earth", "Air", "Fire", "Water"}},
      {"trophy-case", {"red", "orange", "yellow", "green", "blue", "Trumps"}},
  };
  const auto it = kOrder.find(std::string(game));
  if (it == kOrder.end()) return 0;
  const auto pos = std::find(it->second.begin(), it->second.end(), group);
  return static_cast<int>(pos - it->second.begin());
}

// ---- Labels and order of view fields ----

// Fields the header shows, or that repeat another field; the body skips them.
bool is_header_field(const std::string& key) {
  return key == "game" || key == "seat" || key == "to_act" || key == "turn" || key == "phase" ||
         key == "scores" || key == "hand" || key == "round" || key == "hand_number" ||
         key == "deal" || key == "dealer" || key == "players" || key == "side_of";
}

std::string words(std::string key) {
  std::replace(key.begin(), key.end(), '_', ' ');
  return key;
}

std::string field_label(const std::string& key) {
  static const std::map<std::string, std::string> kLabels = {
      // La Casa (and its modes)
      {"ruling_family", "Ruling Family"},
      {"ruling", "Ruling Family"},
      {"lead_family", "Lead Family"},
      {"lead", "Lead Family"},
      {"casa", "Casa"},
      {"challenge", "Challenge"},
      {"cousins", "Cousins"},
      {"election", "Election"},
      {"face_up", "Face-up"},
      {"seat_scores", "Scores by seat"},
      {"set_aside_counts", "Set-aside cards"},
      {"total_tricks", "Tricks in the round"},
      {"round_result", "Round result"},
      {"round_points", "Round points"},
      {"valid_tricks", "Valid tricks"},
      {"mangia_cake_captured_by", "Mangia-Cake taken by"},
      {"robot", "Robot"},
      {"pile", "Cards in the pile"},
      {"stock", "Cards in the stock"},
      {"rounds", "Rounds"},
      {"references", "References"},
      {"reference", "Reference"},
      // Casino
      {"table", "Table"},
      {"loose", "Loose cards"},
      {"builds", "Builds"},
      {"deck", "Cards in the deck"},
      {"captures", "Captured"},
      {"last_capturer", "Last capture by"},
      {"only_trail", "Only trails left"},
      {"rounds_played", "Rounds played"},
      // Conference
      {"contract", "Contract (card points)"},
      {"direction", "Play goes"},
      {"discard_size", "Cards discarded"},
      {"discard_target", "Cards to discard"},
      {"discard", "Your discard"},
      {"fool", "Fool"},
      {"game_points", "Game points"},
      {"hand_points", "Hand points"},
      {"card_points", "Card points"},
      {"allegiance", "Allegiance"},
      {"attack_defence", "Attack & Defence"},
      {"gallowglass", "Gallowglass"},
      {"partner", "Partner"},
      {"side", "Your side"},
      {"sides", "Sides"},
      {"calls", "Calls"},
      {"results", "Earlier hands"},
      {"last_hand", "Last hand"},
      // Trophy Case
      {"target", "Target"},
      {"stock_size", "Cards in the stock"},
      {"discarded_count", "Cards discarded"},
      {"hands_left_before_reshuffle", "Hands before the reshuffle"},
      {"set_aside", "Set aside"},
      {"shown", "Shown"},
      // Every game
      {"teams", "Teams"},
      {"trick", "Trick"},
      {"last_trick", "Last trick"},
      {"tricks_played", "Tricks played"},
      {"tricks_won", "Tricks won"},
      {"tricks", "Tricks"},
      {"hand_sizes", "Cards in hand"},
      {"hand_size", "Cards in hand"},
      {"leader", "Leader"},
      {"winners", "Winners"},
      {"options", "Options"},
  };
  const auto it = kLabels.find(key);
  if (it != kLabels.end()) return it->second;
  std::string label = words(key);
  if (!label.empty())
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
  return label;
}

// Lower comes first: the state of play before the bookkeeping.
int field_rank(const std::string& key) {
  static const std::vector<std::string> kFirst = {
      "teams",  "ruling_family", "ruling",  "challenge", "cousins",    "election",
      "trumps", "lead_family",   "lead",    "trick",     "last_trick", "table",
      "loose",  "builds",        "tableau", "tableaux",  "face_up",    "casa"};
  const auto pos = std::find(kFirst.begin(), kFirst.end(), key);
  return static_cast<int>(pos - kFirst.begin());
}

// Fields whose number names a seat, and fields that list seats.
bool names_a_seat(const std::string& key) {
  return key == "seat" || key == "leader" || key == "winner" || key == "owner" ||
         key == "elector" || key == "partner" || key == "dealer" || key == "turn" ||
         key == "last_capturer" || key == "by";
}
bool lists_seats(const std::string& key) {
  return key == "seats" || key == "in" || key == "folded" || key == "winners" || key == "to_act";
}

// ---- Values ----

std::string scalar(std::string_view game, const Json& v) {
  if (v.is_null()) return "-";
  // No card id has an underscore; words like "face_up" read better without.
  if (v.is_string()) return card_label(game, words(v.get<std::string>()));
  return v.dump();
}

bool is_scalar(const Json& v) { return !v.is_array() && !v.is_object(); }

bool all_integers(const Json& v) {
  return v.is_array() &&
         std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_number_integer(); });
}

std::string seat_list(const Json& seats, const Json& me) {
  if (!seats.is_array() || seats.empty()) return "nobody";
  std::string out;
  for (const auto& s : seats) {
    if (!out.empty()) out += ", ";
    out += "seat " + s.dump();
    if (me.is_number_integer() && s == me) out += " (you)";
  }
  return out;
}

std::string inline_value(std::string_view game, const Json& v, bool nested);

// "seat 1", "seats 0, 2, 3", "nobody".
std::string seats_text(const Json& seats) {
  if (seats.empty()) return "nobody";
  std::string out = seats.size() == 1 ? "seat " : "seats ";
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (i) out += ", ";
    out += seats[i].dump();
  }
  return out;
}

// A value under its key: seat numbers read as seats, everything else as is.
std::string keyed_value(std::string_view game, const std::string& key, const Json& v, bool nested) {
  if (names_a_seat(key) && v.is_number_integer())
    return v.get<int>() < 0 ? "nobody" : "seat " + v.dump();
  if (lists_seats(key) && all_integers(v)) return seats_text(v);
  return inline_value(game, v, nested);
}

// A trick in any game's shape: {plays: [{seat, card}]}, {cards: [{seat, card}]},
// {cards: [ids], seats: [seats]}, {cards: [ids]} or a bare [{seat, card}] list;
// Trophy Case's last trick wraps one ({trick: {...}, winner, points}).
bool is_play(const Json& v) { return v.is_object() && v.contains("card"); }
bool is_play_list(const Json& v) {
  return v.is_array() && std::all_of(v.begin(), v.end(), is_play);
}
bool is_trick(const Json& v) {
  if (v.is_array()) return !v.empty() && is_play_list(v);
  if (!v.is_object()) return false;
  if (v.contains("plays") && is_play_list(v["plays"])) return true;
  if (v.contains("cards") && v["cards"].is_array() &&
      (v.contains("winner") || v.contains("leader")))
    return true;
  return v.contains("trick") && v["trick"].is_object() && is_trick(v["trick"]);
}

constexpr std::string_view kDot = " \u00b7 ";

std::string plays_text(std::string_view game, const Json& plays, const Json& seats) {
  if (!plays.is_array() || plays.empty()) return "no card yet";
  std::string out;
  for (std::size_t i = 0; i < plays.size(); ++i) {
    const Json& p = plays[i];
    if (!out.empty()) out += kDot;
    if (is_play(p)) {
      out += (p.contains("seat") ? "seat " + scalar(game, p["seat"]) + ": " : "") +
             scalar(game, p["card"]);
    } else {
      const bool seated = seats.is_array() && i < seats.size();
      out += (seated ? "seat " + seats[i].dump() + ": " : "") + scalar(game, p);
    }
  }
  return out;
}

// The cards of a trick, then what is known about it ("leader seat 2, led water").
std::pair<std::string, std::string> trick_parts(std::string_view game, const Json& v) {
  if (v.is_array()) return {plays_text(game, v, Json()), ""};
  std::string plays;
  std::string about;
  auto add = [&about](const std::string& part) {
    if (!about.empty()) about += "; ";
    about += part;
  };
  if (v.contains("trick") && v["trick"].is_object()) {
    auto [inner_plays, inner_about] = trick_parts(game, v["trick"]);
    plays = inner_plays;
    if (!inner_about.empty()) add(inner_about);
  } else {
    plays = plays_text(game, v.contains("plays") ? v["plays"] : v.value("cards", Json::array()),
                       v.value("seats", Json()));
  }
  for (const auto& [key, item] : v.items()) {
    if (key == "plays" || key == "cards" || key == "trick" || key == "seats" || item.is_null())
      continue;
    if (item.is_array() && item.empty()) continue;
    static const std::map<std::string, std::string> kTrickWords = {
        {"in", "still in"}, {"suit_order", "suits played"}, {"number", "trick"}};
    const auto named = kTrickWords.find(key);
    add((named == kTrickWords.end() ? words(key) : named->second) + " " +
        keyed_value(game, key, item, false));
  }
  return {plays, about};
}

std::string inline_object(std::string_view game, const Json& v, bool nested) {
  // A card someone played: "seat 2: G5".
  if (v.size() == 2 && v.contains("seat") && v.contains("card"))
    return "seat " + scalar(game, v["seat"]) + ": " + scalar(game, v["card"]);
  // A Casino build: "B1 value 9 [4♣ 5♣] owner seat 0".
  if (v.contains("id") && v.contains("value") && v.contains("cards")) {
    std::string out = scalar(game, v["id"]) + " value " + scalar(game, v["value"]) + " " +
                      inline_value(game, v["cards"], true);
    if (v.contains("owner")) out += " owner " + keyed_value(game, "owner", v["owner"], true);
    return out;
  }
  std::string out;
  for (const auto& [key, item] : v.items()) {
    if (!out.empty()) out += ", ";
    // "seat 2", not "seat seat 2".
    const bool says_itself = (key == "seat" || key == "seats") &&
                             keyed_value(game, key, item, true) != inline_value(game, item, true);
    out += (says_itself ? "" : words(key) + " ") + keyed_value(game, key, item, true);
  }
  return nested ? "(" + out + ")" : out;
}

std::string inline_value(std::string_view game, const Json& v, bool nested) {
  if (v.is_object()) return inline_object(game, v, nested);
  if (v.is_array()) {
    if (v.empty()) return "-";
    std::string out;
    for (const auto& item : v) {
      if (!out.empty()) out += " ";
      out += inline_value(game, item, true);
    }
    return nested ? "[" + out + "]" : out;
  }
  return scalar(game, v);
}

std::string side_name(const Json& side) {
  if (!side.is_array()) return side.dump();
  std::string out = side.size() == 1 ? "seat " : "seats ";
  for (std::size_t i = 0; i < side.size(); ++i) {
    if (i) out += "+";  // two steps: GCC -O3 sees a false -Wrestrict in "+" + dump()
    out += side[i].dump();
  }
  return out;
}

// "seat 0: 19 · seat 1: 21" (one number per seat) or "seats 0+2: 1 · seats 1+3: 5"
// (one per side); "" when the list is neither.
std::string by_owner(std::string_view game, const Json& list, const Seating& seating,
                     std::string_view separator, bool mark_me = false) {
  // Numbers only: a list of cards is no score sheet, whatever its length.
  if (!list.is_array() || list.empty() ||
      !std::all_of(list.begin(), list.end(), [](const Json& v) { return v.is_number(); }))
    return "";
  const bool per_seat = list.size() == seating.players;
  const bool per_side =
      !per_seat && seating.sides.is_array() && list.size() == seating.sides.size();
  if (!per_seat && !per_side) return "";
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::string owner = per_seat ? "seat " + std::to_string(i) : side_name(seating.sides[i]);
    if (mark_me && seating.me >= 0) {
      const bool mine = per_seat ? static_cast<int>(i) == seating.me
                                 : std::find(seating.sides[i].begin(), seating.sides[i].end(),
                                             Json(seating.me)) != seating.sides[i].end();
      if (mine) owner += " (you)";
    }
    if (i) out += separator;
    out += owner + ": " + scalar(game, list[i]);
  }
  return out;
}

void render_field(std::string_view game, const std::string& label, const Json& v,
                  const std::string& indent, std::string& out);

// An object whose keys are seat numbers ("0", "1", ...), or any other object.
void render_object_lines(std::string_view game, const Json& v, const std::string& indent,
                         std::string& out) {
  for (const auto& [key, item] : v.items()) {
    if (item.is_null()) continue;
    const std::string label = all_digits(key) ? "seat " + key : field_label(key);
    if (names_a_seat(key) || lists_seats(key))
      out += indent + label + ": " + keyed_value(game, key, item, false) + "\n";
    else
      render_field(game, label, item, indent, out);
  }
}

void render_trick(std::string_view game, const std::string& label, const Json& v,
                  const std::string& indent, std::string& out) {
  const auto [plays, about] = trick_parts(game, v);
  const std::string line = plays + (about.empty() ? "" : "  (" + about + ")");
  if (indent.size() + label.size() + line.size() <= 80) {
    out += indent + label + ": " + line + "\n";
    return;
  }
  out += indent + label + (about.empty() ? "" : " (" + about + ")") + ":\n";
  // The cards, a few per line.
  std::string row;
  std::size_t start = 0;
  while (start <= plays.size()) {
    const std::size_t next = plays.find(kDot, start);
    const std::string play =
        plays.substr(start, next == std::string::npos ? std::string::npos : next - start);
    if (!row.empty() && indent.size() + row.size() + play.size() > 72) {
      out += indent + "  " + row + "\n";
      row.clear();
    }
    row += (row.empty() ? "" : std::string(kDot)) + play;
    if (next == std::string::npos) break;
    start = next + kDot.size();
  }
  if (!row.empty()) out += indent + "  " + row + "\n";
}

void render_field(std::string_view game, const std::string& label, const Json& v,
                  const std::string& indent, std::string& out) {
  if (is_trick(v)) return render_trick(game, label, v, indent, out);
  if (v.is_object()) {
    const std::string line = inline_object(game, v, false);
    if (line.size() <= 70 && std::all_of(v.begin(), v.end(), is_scalar)) {
      out += indent + label + ": " + (line.empty() ? "-" : line) + "\n";
      return;
    }
    out += indent + label + ":\n";
    render_object_lines(game, v, indent + "  ", out);
    return;
  }
  if (v.is_array() && !std::all_of(v.begin(), v.end(), is_scalar)) {
    // A list of cards played, builds, stacks...: one line if short, else one per line.
    std::string line;
    for (const auto& item : v)
      line += (line.empty() ? "" : std::string(kDot)) + inline_value(game, item, false);
    if (line.size() <= 60) {
      out += indent + label + ": " + line + "\n";
      return;
    }
    out += indent + label + ":\n";
    for (const auto& item : v) out += indent + "  - " + inline_value(game, item, false) + "\n";
    return;
  }
  out += indent + label + ": " + inline_value(game, v, false) + "\n";
}

// One top-level field of a view.
void render_view_field(std::string_view game, const std::string& key, const Json& item,
                       const Seating& seating, const Json& view, std::string& out) {
  // Nothing to say: a feature not in play now (no Cousins, no Fool yet), an empty
  // list, or a list per seat with nothing in it for anyone.
  auto empty = [](const Json& v) { return v.is_null() || (v.is_array() && v.empty()); };
  if (empty(item) && !(key == "trick" && item.is_array())) return;
  if (item.is_array() && !item.empty() && std::all_of(item.begin(), item.end(), empty)) return;
  // Counts of cards set aside (La Casa's The Club, LC-7.8) are only worth a line
  // when someone has set cards aside: the field is there in every round.
  if (key == "set_aside_counts" && item.is_array() &&
      std::all_of(item.begin(), item.end(), [](const Json& v) { return v == 0; }))
    return;
  const std::string label = field_label(key);
  if (key == "side" && item.is_number_integer() && seating.sides.is_array() &&
      item.get<std::size_t>() < seating.sides.size()) {
    out += label + ": " + side_name(seating.sides[item.get<std::size_t>()]) + "\n";
    return;
  }
  // An object of per-seat or per-side lists (a round's result): one line each.
  if (item.is_object() && !is_trick(item) && !std::all_of(item.begin(), item.end(), is_scalar) &&
      std::all_of(item.begin(), item.end(), [&](const Json& v) {
        return is_scalar(v) || !by_owner(game, v, seating, kDot).empty();
      })) {
    out += label + ":\n";
    for (const auto& [sub, v] : item.items()) {
      const std::string owners = by_owner(game, v, seating, kDot);
      out += "  " + field_label(sub) + ": " +
             (owners.empty() ? keyed_value(game, sub, v, false) : owners) + "\n";
    }
    return;
  }
  if (key == "teams") {
    // Only worth a line when some seats play together.
    if (!seating.sides.is_array()) return;
    std::string line;
    for (const auto& side : item) {
      if (!line.empty()) line += " vs ";
      line += side_name(side);
    }
    out += label + ": " + line + "\n";
    return;
  }
  if (key == "sides" && view.contains("teams") && view["teams"] == item) return;
  if (key == "trick" && item.is_array() && item.empty()) {
    out += label + ": no card yet\n";
    return;
  }
  // The tricks of the hand so far: how many, and the latest in full.
  if (key == "tricks" && item.is_array() &&
      std::all_of(item.begin(), item.end(), [](const Json& t) { return t.is_object(); })) {
    if (item.empty()) return;
    out += "Tricks this hand: " + std::to_string(item.size()) + "\n";
    if (!view.contains("last_trick")) render_trick(game, "Last trick", item.back(), "", out);
    return;
  }
  if (names_a_seat(key) || lists_seats(key)) {
    out += label + ": " + keyed_value(game, key, item, false) + "\n";
    return;
  }
  if (const std::string owners = by_owner(game, item, seating, kDot); !owners.empty()) {
    out += label + ": " + owners + "\n";
    return;
  }
  // A list with one entry per seat (tableaux, captures, ...): one "seat N" line each.
  if (seating.players > 1 && item.is_array() && item.size() == seating.players &&
      !std::all_of(item.begin(), item.end(), is_scalar)) {
    Json by_seat = Json::object();
    for (std::size_t s = 0; s < seating.players; ++s) by_seat[std::to_string(s)] = item[s];
    out += label + ":\n";
    render_object_lines(game, by_seat, "  ", out);
    return;
  }
  render_field(game, label, item, "", out);
}

}  // namespace

std::string card_label(std::string_view game, std::string_view id) {
  if (game == "casino" && !card_group(game, id).empty()) {
    static const std::map<char, std::string> kGlyph = {
        {'S', "\u2660"}, {'H', "\u2665"}, {'D', "\u2666"}, {'C', "\u2663"}};
    const std::string rank = id[0] == 'T' ? "10" : std::string(1, id[0]);
    return rank + kGlyph.at(id[1]);
  }
  // TC-1.1: the value above 9 is Infinity, written X in the ids.
  if (game == "trophy-case" && id.size() == 4 && id[3] == 'X' && !card_group(game, id).empty())
    return std::string(id.substr(0, 3)) + "\u221e";
  return std::string(id);
}

std::string render_hand(std::string_view game, const Json& cards) {
  if (!cards.is_array()) return inline_value(game, cards, false) + "\n";
  if (cards.empty()) return "(no cards)\n";
  // Groups in the game's order, cards in the server's order within a group.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const auto& card : cards) {
    const std::string id = card.is_string() ? card.get<std::string>() : card.dump();
    std::string group = card_group(game, id);
    if (group.empty()) group = "Other";
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups.end()) {
      groups.push_back({group, {}});
      it = groups.end() - 1;
    }
    std::string label = card_label(game, id);
    // CO-1.3: the Honours are worth marking.
    if (game == "conference" && (id == "T1" || id == "T21" || id == "FOOL")) label += "*";
    it->second.push_back(label);
  }
  std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
    return group_rank(game, a.first) < group_rank(game, b.first);
  });
  std::string out;
  for (const auto& [group, labels] : groups) {
    out += group + ":";
    for (const auto& l : labels) out += " " + l;
    out += "\n";
  }
  return out;
}

namespace {

// "== la-casa | phase play | round 1 ==" plus `extra` parts (table, timer).
std::string title_line(const Json& view, const std::vector<std::string>& extra) {
  const std::string game = view.value("game", std::string());
  std::string out = "== " + (game.empty() ? std::string("game") : game);
  for (const auto& part : extra)
    if (!part.empty()) out += " | " + part;
  if (view.contains("phase")) out += " | phase " + words(scalar(game, view["phase"]));
  for (const auto& [key, word] :
       {std::pair{"round", "round"}, {"hand_number", "hand"}, {"deal", "deal"}})
    if (view.contains(key)) out += std::string(" | ") + word + " " + scalar(game, view[key]);
  return out + " ==";
}

// "You are seat 0. Dealer: seat 1. To act: seat 0 (you)."
std::string whose_turn_line(const Json& view) {
  const std::string game = view.value("game", std::string());
  const Json me = view.value("seat", Json());
  std::string out;
  if (me.is_number_integer() && me.get<int>() >= 0)
    out += "You are seat " + me.dump() + ".";
  else
    out += "You are watching.";
  if (view.contains("dealer") && view["dealer"].is_number_integer())
    out += " Dealer: seat " + scalar(game, view["dealer"]) + ".";
  return out + " To act: " + seat_list(view.value("to_act", Json::array()), me) + ".";
}

// One score per seat, or one per side when some seats play together.
std::string scores_line(const Json& view, const Seating& seating, bool mark_me) {
  const std::string game = view.value("game", std::string());
  const Json& scores = view["scores"];
  std::string line = by_owner(game, scores, seating, ", ", mark_me);
  if (line.empty()) line = inline_value(game, scores, false);
  return "Scores: " + line;
}

}  // namespace

std::string render_view(const Json& view) {
  if (!view.is_object()) return render_inline("", view) + "\n";
  const std::string game = view.value("game", std::string());
  std::string out = title_line(view, {}) + "\n" + whose_turn_line(view) + "\n";
  const Seating seating = seating_of(view);
  if (view.contains("scores")) out += scores_line(view, seating, false) + "\n";

  std::vector<std::string> keys;
  for (const auto& [key, item] : view.items())
    if (!is_header_field(key)) keys.push_back(key);
  std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
    return field_rank(a) < field_rank(b);
  });
  for (const auto& key : keys) render_view_field(game, key, view[key], seating, view, out);

  if (view.contains("hand")) {
    out += "Your hand:\n";
    std::string hand = render_hand(game, view["hand"]);
    for (std::size_t pos = 0; pos < hand.size();) {
      const std::size_t end = hand.find('\n', pos);
      out += "  " + hand.substr(pos, end - pos + 1);
      pos = end + 1;
    }
  }
  return out;
}

namespace {
bool repeats_type(const std::string& type, const std::string& key) {
  return type == key || (type.size() > key.size() && type.ends_with("_" + key));
}
}  // namespace

std::string render_action(std::string_view game, const Json& action) {
  if (!action.is_object()) return inline_value(game, action, false);
  const std::string type = action.value("type", std::string("action"));
  std::string out = words(type);
  for (const auto& [key, item] : action.items()) {
    if (key == "type" || item.is_null() || (item.is_array() && item.empty())) continue;
    // The card an action names is shown bare, and so is a field the type already
    // names ("take pile stock"); other fields keep their name.
    if (key == "card" || repeats_type(type, key))
      out += " " + inline_value(game, item, false);
    else
      out += " " + words(key) + " " + keyed_value(game, key, item, true);
  }
  return out;
}

std::string render_event(std::string_view game, const Json& event, const Seating& seating) {
  if (!event.is_object()) return inline_value(game, event, false);
  // "seat 2: play G5", "trick: seat 2: T6 · seat 3: T17 (winner seat 3)".
  const Json seat = event.value("seat", Json());
  std::string out = seat.is_number_integer() ? "seat " + seat.dump() + ": " : "";
  Json rest = event;
  rest.erase("type");
  if (seat.is_number_integer()) rest.erase("seat");
  const std::string type = event.value("type", std::string("event"));
  out += words(type);
  if (is_trick(rest)) {
    const auto [plays, about] = trick_parts(game, rest);
    if (plays != "no card yet") out += ": " + plays;
    if (!about.empty()) out += " (" + about + ")";
    return out;
  }
  for (const auto& [key, item] : rest.items()) {
    if (item.is_null() || (item.is_array() && item.empty())) continue;
    if (item.is_array() &&
        std::all_of(item.begin(), item.end(), [](const Json& v) { return v.is_null(); }))
      continue;
    if (key == "card" || key == "cards" || repeats_type(type, key)) {
      out += " " + inline_value(game, item, false);
    } else if (const std::string owners = by_owner(game, item, seating, ", ", true);
               !owners.empty() && !lists_seats(key)) {
      out += " " + words(key) + " (" + owners + ")";
    } else {
      out += " " + words(key) + " " + keyed_value(game, key, item, true);
    }
  }
  return out;
}

std::string render_inline(std::string_view game, const Json& value) {
  return inline_value(game, value, false);
}

Seating seating_of(const Json& view) {
  Seating s;
  if (!view.is_object()) return s;
  if (view.contains("players") && view["players"].is_number_integer())
    s.players = view["players"].get<std::size_t>();
  if (view.contains("seat") && view["seat"].is_number_integer()) s.me = view["seat"].get<int>();
  const Json teams = view.value("teams", Json());
  if (teams.is_array()) {
    std::size_t seats = 0;
    bool together = false;
    for (const auto& t : teams) {
      seats += t.is_array() ? t.size() : 0;
      together = together || (t.is_array() && t.size() > 1);
    }
    if (s.players == 0) s.players = seats;
    if (together) s.sides = teams;
  }
  if (s.players == 0 && view.contains("hand_sizes") && view["hand_sizes"].is_array())
    s.players = view["hand_sizes"].size();
  return s;
}

std::size_t columns(std::string_view line) {
  return static_cast<std::size_t>(std::count_if(line.begin(), line.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string clock_text(std::int64_t ms) {
  if (ms < 0) ms = 0;
  const std::int64_t seconds = (ms + 999) / 1000;  // 0.2 s left still reads 0:01
  const std::int64_t h = seconds / 3600, m = seconds / 60 % 60, sec = seconds % 60;
  auto two = [](std::int64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  return h ? std::to_string(h) + ":" + two(m) + ":" + two(sec) : std::to_string(m) + ":" + two(sec);
}

namespace {

// Breaks a line at spaces so that no piece is wider than `width`; the pieces after
// the first are indented. A word wider than the line is cut.
std::vector<std::string> wrap(const std::string& line, std::size_t width,
                              const std::string& indent = "    ") {
  std::vector<std::string> out;
  std::string rest = line;
  std::string prefix;
  while (columns(prefix + rest) > width) {
    const std::string text = prefix + rest;
    // The byte where column `width` begins.
    std::size_t cut = 0;
    for (std::size_t col = 0; cut < text.size(); ++cut) {
      if ((static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) continue;
      if (col++ == width) break;
    }
    std::size_t space = text.rfind(' ', cut);
    const bool at_space = space != std::string::npos && space > prefix.size();
    if (!at_space) space = cut;
    out.push_back(text.substr(0, space));
    std::string next = text.substr(space + (at_space ? 1 : 0));
    while (!next.empty() && next.front() == ' ') next.erase(0, 1);
    rest = next;
    prefix = indent;
  }
  out.push_back(prefix + rest);
  return out;
}

void add_wrapped(std::vector<std::string>& lines, const std::string& text, std::size_t width) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string line =
        text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    for (auto& piece : wrap(line, width)) lines.push_back(std::move(piece));
    pos = end == std::string::npos ? text.size() : end + 1;
  }
}

std::string capitalised(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

// "seats 0, 2 (you)", "the game's own opponent" for -1 (La Casa Solo's Robot).
std::string winners_text(const Json& winners, int me) {
  if (!winners.is_array() || winners.empty()) return "nobody";
  std::string out;
  for (const auto& w : winners) {
    if (!out.empty()) out += ", ";
    if (!w.is_number_integer()) {
      out += w.is_string() ? w.get<std::string>() : w.dump();
    } else if (w.get<int>() < 0) {
      out += "the game's own opponent";
    } else {
      out += "seat " + w.dump();
      if (w.get<int>() == me) out += " (you)";
    }
  }
  return out;
}

// Fields the default screen never shows: the header says them, or they are the
// table's settings, shown once when the table is first shown.
bool off_screen_field(const std::string& key) {
  return is_header_field(key) || key == "format" || key == "target" || key == "options" ||
         key == "teams" || key == "sides";
}

}  // namespace

std::vector<std::string> wrap_line(const std::string& line, std::size_t width) {
  return wrap(line, width);
}

std::vector<std::string> render_summary(std::string_view game, const Json& event,
                                        const Seating& seating) {
  std::vector<std::string> lines;
  if (!event.is_object()) return lines;
  const std::string type = event.value("type", std::string());
  const bool ends_a_part = type.size() > 4 && type.ends_with("_end");
  if (!ends_a_part && type != "game_over") return lines;
  // "Round 2 is over.": the part is named by the type, its number by the field of
  // that name (or "round" / "number").
  const std::string part = ends_a_part ? type.substr(0, type.size() - 4) : "game";
  std::string number_key;
  for (const std::string& k : {part, std::string("round"), std::string("number")})
    if (event.contains(k) && event[k].is_number_integer()) {
      number_key = k;
      break;
    }
  std::string title = capitalised(words(part));
  if (!number_key.empty()) title += " " + event[number_key].dump();
  lines.push_back(title + " is over.");
  for (const auto& [key, item] : event.items()) {
    if (key == "type" || key == number_key || item.is_null()) continue;
    if (item.is_array() &&
        std::all_of(item.begin(), item.end(), [](const Json& v) { return v.is_null(); }))
      continue;
    std::string label = field_label(key);
    std::string text;
    if (key == "winners" || key == "winner") {
      text = winners_text(item.is_array() ? item : Json::array({item}), seating.me);
    } else if (const std::string owners = by_owner(game, item, seating, kDot, true);
               !owners.empty()) {
      text = owners;
    } else if (item.is_array() && !item.empty() &&
               std::all_of(item.begin(), item.end(),
                           [](const Json& v) { return v.is_object() && v.contains("seats"); })) {
      // One result per side (Casino): "seats 0+2 (you): points 4, aces 1, big casino".
      for (const auto& side : item) {
        std::string owner = side_name(side["seats"]);
        if (std::find(side["seats"].begin(), side["seats"].end(), Json(seating.me)) !=
            side["seats"].end())
          owner += " (you)";
        std::string facts;
        for (const auto& [fact, v] : side.items()) {
          if (fact == "seats" || v.is_null() || v == false) continue;
          if (!facts.empty()) facts += ", ";
          facts += words(fact) + (v == true ? "" : " " + inline_value(game, v, true));
        }
        lines.push_back("  " + owner + ": " + facts);
      }
      continue;
    } else if (item.is_array() && item.empty()) {
      continue;
    } else {
      text = keyed_value(game, key, item, false);
    }
    lines.push_back("  " + label + ": " + text);
  }
  std::vector<std::string> wrapped;
  for (const auto& line : lines)
    for (auto& piece : wrap(line, kScreenWidth)) wrapped.push_back(std::move(piece));
  return wrapped;
}

std::string render_seat(const Json& info, int me, std::int64_t elapsed_ms) {
  if (!info.is_object()) return "?";
  const std::string kind = info.value("kind", std::string());
  std::string who;
  std::vector<std::string> notes;
  if (kind == "player") {
    who = info.contains("name") && info["name"].is_string() ? info["name"].get<std::string>()
                                                            : "a player";
    if (info.value("seat", -2) == me) notes.push_back("you");
    if (info.contains("played_by") && info["played_by"].is_string()) {
      notes.push_back("away, played by " + info["played_by"].get<std::string>());
    } else if (info.value("away", false) || !info.value("connected", true)) {
      std::string away = "away";
      if (info.contains("takeover_in_ms") && info["takeover_in_ms"].is_number_integer())
        away += ", robot in " + clock_text(info["takeover_in_ms"].get<std::int64_t>() - elapsed_ms);
      notes.push_back(away);
    }
  } else if (kind == "bot") {
    who = info.value("bot", std::string("bot"));
    notes.push_back("bot");
  } else {
    who = "(empty)";
  }
  std::string out = who;
  for (std::size_t i = 0; i < notes.size(); ++i) out += (i ? ", " : " (") + notes[i];
  return notes.empty() ? out : out + ")";
}

std::vector<std::string> render_screen(const Json& view, const Json& legal,
                                       const ScreenContext& context, bool* complete) {
  const std::size_t width = context.width;
  std::vector<std::string> top;     // header, scores, seats
  std::vector<std::string> bottom;  // hand, choices, prompt
  if (complete) *complete = true;
  const bool is_view = view.is_object();
  const std::string game = is_view ? view.value("game", std::string()) : std::string();
  const Seating seating = seating_of(view);

  // Header: what, where, whose turn, the timer.
  std::string timer =
      context.time_left_ms >= 0 ? clock_text(context.time_left_ms) + " left" : std::string();
  add_wrapped(top,
              is_view
                  ? title_line(view, {context.table.empty() ? "" : "table " + context.table, timer})
                  : "== table " + context.table + " ==",
              width);
  if (is_view) add_wrapped(top, whose_turn_line(view), width);
  if (is_view && view.contains("scores")) {
    std::string line = scores_line(view, seating, true);
    if (view.contains("target") && view["target"].is_number())
      line += " (target " + view["target"].dump() + ")";
    add_wrapped(top, line, width);
  }
  // The seats, when someone is not at the keyboard: away, or played by a bot.
  if (context.seats.is_array() &&
      std::any_of(context.seats.begin(), context.seats.end(), [](const Json& s) {
        return s.value("away", false) || s.contains("played_by") || !s.value("connected", true);
      })) {
    std::string line = "Seats:";
    for (const auto& s : context.seats)
      line += (line == "Seats:" ? " " : std::string(kDot)) + std::to_string(s.value("seat", -1)) +
              " " + render_seat(s, seating.me, context.seats_age_ms);
    add_wrapped(top, line, width);
  }

  // The hand on as few lines as it takes, groups side by side.
  if (is_view && view.contains("hand")) {
    const std::string hand = render_hand(game, view["hand"]);
    std::vector<std::string> groups;
    for (std::size_t pos = 0; pos < hand.size();) {
      const std::size_t end = hand.find('\n', pos);
      groups.push_back(hand.substr(pos, end - pos));
      pos = end + 1;
    }
    std::string line = "Your hand:";
    for (const auto& g : groups) {
      // The first group follows the label; the others keep three spaces apart, and a
      // group that does not fit starts an indented line.
      const std::string sep = line == "Your hand:" ? " " : "   ";
      if (columns(line + sep + g) > width && !line.empty()) {
        bottom.push_back(line);
        line = "";
      }
      line += (line.empty() ? "  " : sep) + g;
    }
    for (auto& piece : wrap(line, width)) bottom.push_back(std::move(piece));
  }

  // The choices, numbered, in as many columns as fit.
  std::vector<std::string> choices;
  if (legal.is_array())
    for (std::size_t i = 0; i < legal.size(); ++i)
      choices.push_back(std::to_string(i + 1) + ") " + render_action(game, legal[i]));
  const std::size_t prompt_lines = wrap(context.prompt, width).size();
  if (!choices.empty()) {
    std::size_t cell = 0;
    for (const auto& c : choices) cell = std::max(cell, columns(c));
    cell += 3;
    const std::size_t per_line = std::max<std::size_t>(1, (width - 2 + 3) / cell);
    std::vector<std::string> rows;
    std::vector<std::size_t> first_choice;  // of each row (a wrapped row repeats it)
    for (std::size_t i = 0; i < choices.size(); i += per_line) {
      std::string row = "  ";
      for (std::size_t j = i; j < std::min(choices.size(), i + per_line); ++j) {
        row += choices[j];
        if (j + 1 < std::min(choices.size(), i + per_line))
          row += std::string(cell - columns(choices[j]), ' ');
      }
      for (auto& piece : wrap(row, width, "      ")) {
        rows.push_back(std::move(piece));
        first_choice.push_back(i);
      }
    }
    // Room for the choices: what the header, the hand and the prompt leave.
    const std::size_t used = top.size() + bottom.size() + prompt_lines + 1;
    const std::size_t room = context.height > used ? context.height - used : 1;
    if (rows.size() > room) {
      const std::size_t shown = room > 1 ? room - 1 : 0;
      const std::size_t hidden = choices.size() - first_choice[shown];
      rows.resize(shown);
      rows.push_back("  ... " + std::to_string(hidden) + " more (type 'choices' to see them all)");
      if (complete) *complete = false;
    }
    bottom.push_back("Your choices:");
    for (auto& r : rows) bottom.push_back(std::move(r));
  }

  // The state of play, most telling first, as long as there is room.
  std::vector<std::string> middle;
  if (is_view) {
    std::vector<std::string> keys;
    for (const auto& [key, item] : view.items())
      if (!off_screen_field(key)) keys.push_back(key);
    std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
      return field_rank(a) < field_rank(b);
    });
    std::size_t room = context.height > top.size() + bottom.size() + prompt_lines
                           ? context.height - top.size() - bottom.size() - prompt_lines
                           : 0;
    // A short one-line field shares its line with the one before when both fit.
    bool last_packable = false;
    for (const auto& key : keys) {
      std::string text;
      render_view_field(game, key, view[key], seating, view, text);
      if (text.empty()) continue;
      std::vector<std::string> block;
      add_wrapped(block, text, width);
      const bool packable = block.size() == 1 && columns(block[0]) <= width / 2 - 2;
      if (packable && last_packable && columns(middle.back()) + 3 + columns(block[0]) <= width) {
        middle.back() += "   " + block[0];
        continue;
      }
      if (block.size() > room) {
        if (complete) *complete = false;
        continue;
      }
      room -= block.size();
      for (auto& line : block) middle.push_back(std::move(line));
      last_packable = packable;
    }
  }

  std::vector<std::string> screen = std::move(top);
  for (auto& line : middle) screen.push_back(std::move(line));
  for (auto& line : bottom) screen.push_back(std::move(line));
  for (auto& piece : wrap(context.prompt, width)) screen.push_back(std::move(piece));
  return screen;
}

std::vector<std::string> render_game_end(std::string_view game, const Json& scores,
                                         const Json& winners, const Seating& seating) {
  std::vector<std::string> lines;
  std::string final_scores = by_owner(game, scores, seating, kDot, true);
  if (final_scores.empty()) final_scores = inline_value(game, scores, false);
  lines.push_back("Final scores: " + final_scores);
  const bool several = winners.is_array() && winners.size() > 1;
  lines.push_back(std::string(several ? "Winners: " : "Winner: ") +
                  winners_text(winners, seating.me) + ".");
  if (seating.me >= 0 && winners.is_array())
    lines.push_back(std::find(winners.begin(), winners.end(), Json(seating.me)) != winners.end()
                        ? "You won."
                        : "You lost.");
  std::vector<std::string> wrapped;
  for (const auto& line : lines)
    for (auto& piece : wrap(line, kScreenWidth)) wrapped.push_back(std::move(piece));
  return wrapped;
}

std::vector<std::string> render_review(const Json& review) {
  std::vector<std::string> out;
  if (!review.is_object()) return {"review: not a review"};
  if (review.contains("error")) {
    out.push_back("No review (" + review.value("error", std::string()) + "): " +
                  review.value("why", std::string()));
    return out;
  }
  const std::string game = review.value("game", std::string());
  auto number = [](const Json& v, int decimals) {
    if (!v.is_number()) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, v.get<double>());
    return std::string(text);
  };
  out.push_back("Review of " + game + ": " + std::to_string(review.value("iterations", 0)) +
                " search iterations per decision, seed " + review.value("seed", std::string()) +
                ", losses in expected " + review.value("measure", std::string("score")) + " (0-1)");
  std::map<int, std::string> names;
  for (const Json& seat : review.value("seats", Json::array())) {
    const int s = seat.value("seat", 0);
    const std::string name = seat.value("name", std::string());
    names[s] = name.empty() ? "seat " + std::to_string(s) : "seat " + std::to_string(s) + " (" + name + ")";
    const Json counts = seat.value("counts", Json::object());
    std::string line = names[s] + ": accuracy " + number(seat.value("accuracy", Json()), 1) + " % over " +
                       std::to_string(seat.value("decisions", 0)) + " decisions";
    std::string tally;
    for (const char* v : {"best", "good", "inaccuracy", "mistake", "blunder"}) {
      if (!tally.empty()) tally += ", ";
      tally += std::to_string(counts.value(v, 0)) + " " + v;
    }
    line += " (" + tally + "; " + std::to_string(seat.value("forced", 0)) + " forced)";
    out.push_back(line);
  }
  for (const Json& d : review.value("decisions", Json::array())) {
    const std::string verdict = d.value("verdict", std::string());
    if (verdict == "best" || verdict == "forced") continue;
    const int s = d.value("seat", 0);
    out.push_back("  #" + std::to_string(d.value("seq", 0)) + " " +
                  (names.count(s) ? names[s] : "seat " + std::to_string(s)) + " played " +
                  render_action(game, d.value("played", Json())) + "; better " +
                  render_action(game, d.value("best", Json())) + " (loss " +
                  number(d.value("loss", Json()), 2) + ", " + verdict + ")");
  }
  return out;
}

}  // namespace casa::cli
