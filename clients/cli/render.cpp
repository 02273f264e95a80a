#include "clients/cli/render.h"

#include <algorithm>
#include <array>
#include <cctype>
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

// Fields the header shows; the body skips them.
bool is_header_field(const std::string& key) {
  return key == "game" || key == "seat" || key == "to_act" || key == "phase" || key == "scores" ||
         key == "hand" || key == "round" || key == "hand_number" || key == "deal" ||
         key == "dealer" || key == "players";
}

std::string field_label(const std::string& key) {
  static const std::map<std::string, std::string> kLabels = {
      // La Casa
      {"ruling_family", "Ruling Family"},
      {"lead_family", "Lead family"},
      {"casa", "Casa"},
      {"casa_size", "Casa cards"},
      {"selection", "Selection card"},
      {"nominated", "Nominated family"},
      {"challenge", "Challenge"},
      {"cousins", "Cousins"},
      {"tableau", "Tableau"},
      {"tableaux", "Tableaux"},
      {"face_up", "Face-up cards"},
      {"seat_scores", "Scores by seat"},
      {"tableaus", "Tableaus"},
      {"tricks_won", "Tricks won"},
      {"elector", "Elector"},
      {"target", "Target"},
      // Casino
      {"table", "Table"},
      {"loose", "Loose cards"},
      {"builds", "Builds"},
      {"stock", "Stock"},
      {"deck_size", "Cards in the deck"},
      {"captured", "Captured"},
      {"captures", "Captures"},
      {"sweeps", "Sweeps"},
      // Conference
      {"trumps", "Trumps"},
      {"honours", "Honours"},
      {"discard", "Discard"},
      {"led_suit", "Led suit"},
      {"good_evil", "Good & Evil"},
      // Trophy Case
      {"led_colour", "Led colour"},
      {"folded", "Folded"},
      {"in", "Still in"},
      {"trophies", "Trophies"},
      {"folds", "Folds"},
      // Every game
      {"trick", "Trick"},
      {"last_trick", "Last trick"},
      {"hand_sizes", "Cards in hand"},
      {"hand_counts", "Cards in hand"},
      {"leader", "Leader"},
      {"winners", "Winners"},
  };
  const auto it = kLabels.find(key);
  if (it != kLabels.end()) return it->second;
  std::string label = key;
  std::replace(label.begin(), label.end(), '_', ' ');
  if (!label.empty())
    label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
  return label;
}

// Lower comes first: the state of play before the bookkeeping.
int field_rank(const std::string& key) {
  static const std::vector<std::string> kFirst = {
      "ruling_family", "challenge", "nominated", "cousins", "trumps",  "led_suit", "led_colour",
      "trick",         "table",     "loose",     "builds",  "tableau", "tableaux"};
  const auto pos = std::find(kFirst.begin(), kFirst.end(), key);
  return static_cast<int>(pos - kFirst.begin());
}

// ---- Values ----

std::string scalar(std::string_view game, const Json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return card_label(game, v.get<std::string>());
  return v.dump();
}

bool is_scalar(const Json& v) { return !v.is_array() && !v.is_object(); }

std::string inline_value(std::string_view game, const Json& v, bool nested);

std::string inline_object(std::string_view game, const Json& v, bool nested) {
  // A card someone played: "seat 2: G5".
  if (v.size() == 2 && v.contains("seat") && v.contains("card"))
    return "seat " + scalar(game, v["seat"]) + ": " + scalar(game, v["card"]);
  std::string out;
  for (const auto& [key, item] : v.items()) {
    if (!out.empty()) out += ", ";
    out += key + " " + inline_value(game, item, true);
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

void render_field(std::string_view game, const std::string& label, const Json& v,
                  const std::string& indent, std::string& out);

// An object whose keys are seat numbers ("0", "1", ...), or any other object.
void render_object_lines(std::string_view game, const Json& v, const std::string& indent,
                         std::string& out) {
  for (const auto& [key, item] : v.items()) {
    const std::string label = all_digits(key) ? "seat " + key : field_label(key);
    render_field(game, label, item, indent, out);
  }
}

void render_field(std::string_view game, const std::string& label, const Json& v,
                  const std::string& indent, std::string& out) {
  if (v.is_object()) {
    const std::string line = inline_object(game, v, false);
    if (line.size() <= 60 && std::all_of(v.begin(), v.end(), is_scalar)) {
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
      line += (line.empty() ? "" : " · ") + inline_value(game, item, false);
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

}  // namespace

std::string card_label(std::string_view game, std::string_view id) {
  if (game == "casino" && !card_group(game, id).empty()) {
    static const std::map<char, std::string> kGlyph = {
        {'S', "\u2660"}, {'H', "\u2665"}, {'D', "\u2666"}, {'C', "\u2663"}};
    const std::string rank = id[0] == 'T' ? "10" : std::string(1, id[0]);
    return rank + kGlyph.at(id[1]);
  }
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

std::string render_view(const Json& view) {
  if (!view.is_object()) return render_inline("", view) + "\n";
  const std::string game = view.value("game", std::string());
  const Json me = view.value("seat", Json());
  std::string out = "== " + (game.empty() ? std::string("game") : game);
  if (view.contains("phase")) out += " | phase " + scalar(game, view["phase"]);
  for (const auto& [key, word] :
       {std::pair{"round", "round"}, {"hand_number", "hand"}, {"deal", "deal"}})
    if (view.contains(key)) out += std::string(" | ") + word + " " + scalar(game, view[key]);
  out += " ==\n";
  if (me.is_number_integer() && me.get<int>() >= 0)
    out += "You are seat " + me.dump() + ".";
  else
    out += "You are watching.";
  if (view.contains("dealer")) out += " Dealer: seat " + scalar(game, view["dealer"]) + ".";
  out += " To act: " + seat_list(view.value("to_act", Json::array()), me) + ".\n";
  if (view.contains("scores")) {
    const Json& scores = view["scores"];
    out += "Scores:";
    if (scores.is_array()) {
      // One score per seat, or (when the view says there are more players) per side.
      const bool per_side = view.contains("players") && view["players"].is_number_integer() &&
                            view["players"].get<std::size_t>() != scores.size();
      const std::string unit = per_side ? "side " : "seat ";
      for (std::size_t s = 0; s < scores.size(); ++s)
        out += (s ? ", " : " ") + unit + std::to_string(s) + " " + scalar(game, scores[s]);
      out += "\n";
    } else {
      out += " " + inline_value(game, scores, false) + "\n";
    }
  }

  std::vector<std::string> keys;
  for (const auto& [key, item] : view.items())
    if (!is_header_field(key)) keys.push_back(key);
  std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
    return field_rank(a) < field_rank(b);
  });
  const std::size_t players = view.contains("players") && view["players"].is_number_integer()
                                  ? view["players"].get<std::size_t>()
                                  : 0;
  for (const auto& key : keys) {
    const Json& item = view[key];
    // A list with one entry per seat (tableaux, captures, ...): one "seat N" line each.
    if (players > 1 && item.is_array() && item.size() == players &&
        !std::all_of(item.begin(), item.end(), is_scalar)) {
      Json by_seat = Json::object();
      for (std::size_t s = 0; s < players; ++s) by_seat[std::to_string(s)] = item[s];
      out += field_label(key) + ":\n";
      render_object_lines(game, by_seat, "  ", out);
      continue;
    }
    render_field(game, field_label(key), item, "", out);
  }

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

std::string render_action(std::string_view game, const Json& action) {
  if (!action.is_object()) return inline_value(game, action, false);
  std::string out = action.value("type", std::string("action"));
  for (const auto& [key, item] : action.items()) {
    if (key == "type") continue;
    // The card an action names is shown bare; other fields keep their name.
    if (key == "card")
      out += " " + inline_value(game, item, false);
    else
      out += " " + key + " " + inline_value(game, item, true);
  }
  return out;
}

std::string render_inline(std::string_view game, const Json& value) {
  return inline_value(game, value, false);
}

}  // namespace casa::cli
