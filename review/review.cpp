// SPDX-License-Identifier: AGPL-3.0-or-later
#include "review/review.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

#include "engine/games/la_casa/solo_game.h"
#include "engine/rng.h"
#include "engine/strong.h"
#include "engine/teams.h"
#include "protocol/value_json.h"

namespace casa {

using nlohmann::json;

namespace {

// Values and losses are written to four decimals: the JSON stays short, and a
// figure is the same text on every machine (the search itself is portable).
double rounded(double x) { return std::round(x * 10'000.0) / 10'000.0; }

json error(const char* code, std::string why) { return {{"error", code}, {"why", std::move(why)}}; }

const json& member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it != object.end() ? *it : kNull;
}

// The seats of each side, in order of their first seat.
json sides_json(const Sides& sides, int players) {
  json out = json::array();
  std::vector<int> index_of_side(static_cast<std::size_t>(players) + 1, -1);
  for (int s = 0; s < players; ++s) {
    const auto side = static_cast<std::size_t>(sides.side_of[static_cast<std::size_t>(s)]);
    if (side >= index_of_side.size()) continue;
    if (index_of_side[side] < 0) {
      index_of_side[side] = static_cast<int>(out.size());
      out.push_back(json::array());
    }
    out[static_cast<std::size_t>(index_of_side[side])].push_back(s);
  }
  return out;
}

struct SeatTally {
  int decisions = 0;  // not forced
  int forced = 0;
  double credit = 0;  // summed accuracy credit of the decisions
  std::array<int, 5> counts{};
};

constexpr std::array<const char*, 5> kVerdicts = {"best", "good", "inaccuracy", "mistake",
                                                  "blunder"};

}  // namespace

ReviewThresholds review_thresholds(std::string_view game, int players) {
  // docs/review.md, "Verdicts": the reward's scale differs by game, so do the steps.
  // La Casa Solo (one seat) is measured by the chance of the round's point (LC-8.3).
  if (game == "la-casa" && players == 1) return {"win", 0.05, 0.10, 0.20, 0.30};
  if (game == "la-casa") return {"score", 0.02, 0.05, 0.10, 0.20};
  if (game == "casino") return {"score", 0.015, 0.04, 0.08, 0.15};
  if (game == "conference") return {"score", 0.015, 0.04, 0.08, 0.15};
  if (game == "trophy-case") return {"score", 0.015, 0.04, 0.08, 0.15};
  return {"score", 0.02, 0.05, 0.10, 0.20};
}

std::uint64_t review_seed(std::uint64_t seed, int seq) {
  Rng rng(seed ^ (static_cast<std::uint64_t>(seq) * 0x9E37'79B9'7F4A'7C15ULL));
  return rng.next();
}

const char* review_verdict(double loss, const ReviewThresholds& t) {
  if (loss < t.good) return "best";
  if (loss < t.inaccuracy) return "good";
  if (loss < t.mistake) return "inaccuracy";
  if (loss < t.blunder) return "mistake";
  return "blunder";
}

json review_replay(const json& replay, const ReviewOptions& options, const GameMaker& make) {
  if (!replay.is_object()) return error("replay", "the replay is not a JSON object");
  if (options.iterations < 1 || options.iterations > kReviewMaxIterations)
    return error("options", "iterations must be a whole number from 1 to " +
                                std::to_string(kReviewMaxIterations));
  // A game in progress is never reviewed: its review would show a seat's options
  // to anyone while the game can still be played.
  const json& over_flag = member(replay, "game_over");
  if (over_flag.is_boolean() && !over_flag.get<bool>())
    return error("not_over", "the game is not over: only a finished game is reviewed");
  const Verdict checked = walk_replay(replay, make);
  if (!checked.honest) {
    if (checked.failed_check == "end" && !checked.game_over)
      return error("not_over", "the game is not over: only a finished game is reviewed");
    return error("replay", "the replay does not hold together: " + checked.mismatch);
  }

  const int players = member(replay, "players").get<int>();  // walk_replay checked it
  const json& seats_info = member(replay, "seats");
  std::vector<bool> reviewed(static_cast<std::size_t>(players), false);
  if (options.seats.empty()) {
    for (int s = 0; s < players; ++s) {
      bool bot = false;
      if (seats_info.is_array())
        for (const json& info : seats_info)
          if (member(info, "seat") == json(s) && member(info, "bot").is_string()) bot = true;
      reviewed[static_cast<std::size_t>(s)] = !bot;
    }
  } else {
    for (int s : options.seats) {
      if (s < 0 || s >= players)
        return error("options", "seat " + std::to_string(s) + " is not a seat of this " +
                                    std::to_string(players) + "-player game");
      reviewed[static_cast<std::size_t>(s)] = true;
    }
  }

  const std::string game_name = checked.game;
  const ReviewThresholds t = review_thresholds(game_name, players);
  json decisions = json::array();
  std::vector<SeatTally> tally(static_cast<std::size_t>(players));
  json sides;                        // from the first decision's teams
  std::vector<int> first_side_seat;  // a seat of each side, in "sides" order

  walk_replay(replay, make, [&](const Game& before, const ReplayStep& step) {
    if (!reviewed[static_cast<std::size_t>(step.seat)]) return;
    const Sides side_now = read_sides(before, kSpectator);
    if (sides.is_null()) {
      sides = sides_json(side_now, players);
      for (const json& members : sides) first_side_seat.push_back(members.front().get<int>());
    }
    StrongOptions o;
    o.iterations = options.iterations;
    o.root = RootShare::kEven;
    o.seed = review_seed(options.seed, step.seq);
    if (dynamic_cast<const la_casa::SoloGame*>(&before)) {
      // La Casa Solo: the seat either scores the round's point or not (LC-8.3), and the
      // game's shaped reward hardly moves with one decision (the game is won only with
      // 4 points of 6 rounds), so a decision is worth its chance of the round's point:
      // a play-out ends where the round does.
      o.reward = Reward::kScored;
      o.stop = [](const Game& g) {
        const auto* solo = dynamic_cast<const la_casa::SoloGame*>(&g);
        return solo && solo->phase() == la_casa::SoloGame::kRoundOver;
      };
    }
    const std::vector<ActionValue> values = strong_evaluate(before, step.seat, o);
    if (values.empty()) return;  // cannot happen: the walk checked the action was legal

    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Best first; equal values keep the engine's order of legal actions.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return values[a].value > values[b].value;
    });
    std::size_t played = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i].action == step.action) played = i;
    const ActionValue& best = values[order.front()];

    json d = {{"seq", step.seq},
              {"seat", step.seat},
              {"played", member(step.entry, "action")},
              {"best", to_json(before.encode_action(best.action))},
              {"value_played", rounded(values[played].value)},
              {"value_best", rounded(best.value)}};
    SeatTally& mine = tally[static_cast<std::size_t>(step.seat)];
    if (values.size() == 1) {
      d["verdict"] = "forced";
      ++mine.forced;
    } else {
      const double loss = std::max(0.0, rounded(best.value) - rounded(values[played].value));
      const char* verdict = review_verdict(loss, t);
      d["loss"] = rounded(loss);
      d["verdict"] = verdict;
      ++mine.decisions;
      mine.credit += std::max(0.0, 1.0 - loss / t.blunder);
      for (std::size_t v = 0; v < kVerdicts.size(); ++v)
        if (std::string_view(kVerdicts[v]) == verdict) ++mine.counts[v];
    }
    if (!member(step.entry, "auto").is_null()) d["auto"] = member(step.entry, "auto");
    json actions = json::array();
    for (std::size_t i : order)
      actions.push_back({{"action", to_json(before.encode_action(values[i].action))},
                         {"value", rounded(values[i].value)},
                         {"visits", values[i].visits}});
    d["actions"] = std::move(actions);
    // The graph: each side's expected reward with the best action, in "sides" order.
    json expected = json::array();
    for (int seat : first_side_seat) {
      const auto side = static_cast<std::size_t>(side_now.side_of[static_cast<std::size_t>(seat)]);
      expected.push_back(side < best.sides.size() ? rounded(best.sides[side]) : 0.0);
    }
    d["expected"] = std::move(expected);
    decisions.push_back(std::move(d));
  });

  json seats = json::array();
  for (int s = 0; s < players; ++s) {
    if (!reviewed[static_cast<std::size_t>(s)]) continue;
    const SeatTally& mine = tally[static_cast<std::size_t>(s)];
    std::string name;
    if (seats_info.is_array())
      for (const json& info : seats_info)
        if (member(info, "seat") == json(s) && member(info, "name").is_string())
          name = member(info, "name").get<std::string>();
    json counts = json::object();
    for (std::size_t v = 0; v < kVerdicts.size(); ++v) counts[kVerdicts[v]] = mine.counts[v];
    json seat = {{"seat", s},
                 {"name", name},
                 {"decisions", mine.decisions},
                 {"forced", mine.forced},
                 {"counts", std::move(counts)}};
    seat["accuracy"] = mine.decisions > 0
                           ? json(std::round(1000.0 * mine.credit / mine.decisions) / 10.0)
                           : json(nullptr);
    seats.push_back(std::move(seat));
  }
  if (sides.is_null()) sides = json::array();
  return {{"game", game_name},
          {"iterations", options.iterations},
          {"seed", std::to_string(options.seed)},
          {"measure", t.measure},
          {"thresholds",
           {{"good", t.good},
            {"inaccuracy", t.inaccuracy},
            {"mistake", t.mistake},
            {"blunder", t.blunder}}},
          {"seats", std::move(seats)},
          {"sides", std::move(sides)},
          {"decisions", std::move(decisions)}};
}

std::string review_replay_text(std::string_view replay_text, std::string_view options_text) {
  const json replay = json::parse(replay_text.begin(), replay_text.end(), nullptr, false);
  if (replay.is_discarded()) return error("replay", "the replay is not JSON").dump();
  ReviewOptions options;
  if (!options_text.empty()) {
    const json o = json::parse(options_text.begin(), options_text.end(), nullptr, false);
    if (o.is_discarded() || !o.is_object())
      return error("options", "the options are not a JSON object").dump();
    for (const auto& [key, value] : o.items()) {
      if (key == "iterations") {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
            value.get<std::int64_t>() > kReviewMaxIterations)
          return error("options", "iterations must be a whole number from 1 to " +
                                      std::to_string(kReviewMaxIterations))
              .dump();
        options.iterations = value.get<int>();
      } else if (key == "seed") {
        const auto seed = value.is_string() ? parse_decimal(value.get<std::string>())
                          : value.is_number_unsigned()
                              ? std::optional<std::uint64_t>(value.get<std::uint64_t>())
                              : std::nullopt;
        if (!seed)
          return error("options", "seed must be a decimal string of a 64-bit number").dump();
        options.seed = *seed;
      } else if (key == "seats") {
        if (!value.is_array())
          return error("options", "seats must be a list of seat numbers").dump();
        for (const json& s : value) {
          if (!s.is_number_integer() || s.get<std::int64_t>() < 0 ||
              s.get<std::int64_t>() >= kMaxSeats)
            return error("options", "seats must be a list of seat numbers").dump();
          options.seats.push_back(s.get<int>());
        }
      } else {
        return error("options", "the review has no option '" + key + "'").dump();
      }
    }
  }
  return review_replay(replay, options).dump();
}

}  // namespace casa
