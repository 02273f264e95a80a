// SPDX-License-Identifier: AGPL-3.0-or-later
// Single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012) over
// the Game interface, and its one-level form (determinised flat UCB).
//
// Each iteration draws a fresh determinisation of the searching seat's
// information set, walks the tree choosing among the children that are legal in
// that sample (UCB with availability counts), adds one node, finishes the game or
// the round with the rollout policy and credits every node with the reward of the
// side whose choice it was. Simultaneous decisions are taken one seat after the
// other, the searching seat first at the root.
#include "engine/strong.h"

#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "engine/bots.h"
#include "engine/rng.h"
#include "engine/teams.h"

namespace casa {

namespace {

constexpr int kMaxRolloutSteps = 200'000;  // a guard: every game here ends far sooner
constexpr double kWinWeight = 0.9;         // the rest of a final reward is the margin

using Rewards = std::array<double, kMaxSeats>;  // by side

// The reward of each side in [0, 1]: mostly winning, partly the margin over the
// best other side, measured from the scores at the root (a round) or in all (a game).
Rewards evaluate(const Game& g, const Sides& sides, const std::vector<int>& root_scores,
                 Reward kind) {
  Rewards r{};
  const std::vector<int> scores = g.scores();
  if (kind == Reward::kScored) {  // 1 to each side whose score rose since the root
    for (Seat s = 0; s < g.players() && s < static_cast<int>(scores.size()); ++s) {
      const auto i = static_cast<std::size_t>(s);
      if (i < root_scores.size() && scores[i] > root_scores[i])
        r[static_cast<std::size_t>(sides.side_of[i])] = 1.0;
    }
    return r;
  }
  std::array<double, kMaxSeats> gained{};
  std::array<bool, kMaxSeats> counted{};
  const bool over = g.is_over();
  for (Seat s = 0; s < g.players() && s < static_cast<int>(scores.size()); ++s) {
    const auto side = static_cast<std::size_t>(sides.side_of[static_cast<std::size_t>(s)]);
    if (counted[side]) continue;  // partners show the same figure
    counted[side] = true;
    const int before = over || s >= static_cast<int>(root_scores.size())
                           ? 0
                           : root_scores[static_cast<std::size_t>(s)];
    gained[side] = scores[static_cast<std::size_t>(s)] - before;
  }
  std::array<bool, kMaxSeats> won{};
  if (over)
    for (Seat w : g.winners())
      if (w >= 0 && w < g.players())
        won[static_cast<std::size_t>(sides.side_of[static_cast<std::size_t>(w)])] = true;
  for (int side = 0; side < sides.count; ++side) {
    const auto i = static_cast<std::size_t>(side);
    double best_other = 0;
    bool any_other = false;
    for (int o = 0; o < sides.count; ++o) {
      if (o == side) continue;
      if (!any_other || gained[static_cast<std::size_t>(o)] > best_other)
        best_other = gained[static_cast<std::size_t>(o)];
      any_other = true;
    }
    const double margin = gained[i] - best_other;
    const double shaped = 0.5 + 0.5 * margin / (std::abs(gained[i]) + std::abs(best_other) + 1.0);
    r[i] = over ? kWinWeight * (won[i] ? 1.0 : 0.0) + (1.0 - kWinWeight) * shaped : shaped;
  }
  return r;
}

struct Node {
  Action action{};
  Seat mover = 0;
  int parent = -1;
  std::vector<int> children;
  double reward = 0;  // summed rewards of the mover's side
  int visits = 0;
  int avail = 0;
};

Seat first_seat(SeatMask mask) { return std::countr_zero(mask); }

class Search {
 public:
  Search(const Game& game, Seat seat, const StrongOptions& options)
      : game_(game),
        seat_(seat),
        options_(options),
        rng_(options.seed),
        sides_(read_sides(game, seat)),
        root_scores_(game.scores()),
        robot_(rule_bot_for(game.name())) {
    nodes_.reserve(4096);
    nodes_.push_back(Node{});
    nodes_[0].mover = seat;
  }

  void iterate() {
    std::unique_ptr<Game> state = game_.determinize(seat_, rng_.next());
    int node = 0;
    path_.clear();
    ++iteration_;
    const int max_depth = options_.search == SearchKind::kFlat ? 1 : 1 << 30;
    int depth = 0;
    while (!state->is_over() && depth < max_depth) {
      if (node != 0 && stopped(*state)) break;
      const SeatMask mask = state->to_act();
      if (!mask) break;
      const Seat mover = node == 0 ? seat_ : first_seat(mask);
      state->legal_actions(mover, legal_);
      if (legal_.empty()) break;
      const int next = node == 0 && options_.root == RootShare::kEven
                           ? root_child(legal_[static_cast<std::size_t>(iteration_ - 1) % legal_.size()])
                           : select_or_expand(node, mover);
      if (state->apply(mover, nodes_[static_cast<std::size_t>(next)].action, nullptr)) break;
      node = next;
      path_.push_back(node);
      ++depth;
      if (nodes_[static_cast<std::size_t>(node)].visits == 0) break;  // just expanded
    }
    rollout(*state);
    const Rewards r = evaluate(*state, sides_, root_scores_, options_.reward);
    for (int n : path_) {
      Node& x = nodes_[static_cast<std::size_t>(n)];
      ++x.visits;
      x.reward += r[static_cast<std::size_t>(sides_.side_of[static_cast<std::size_t>(x.mover)])];
    }
    if (!path_.empty()) {  // every side's reward, for the seat's own choices
      Rewards& sum = root_sides_[static_cast<std::size_t>(path_.front())];
      for (int side = 0; side < sides_.count; ++side)
        sum[static_cast<std::size_t>(side)] += r[static_cast<std::size_t>(side)];
    }
  }

  // What the search learnt of each of `legal` (the seat's legal actions).
  std::vector<ActionValue> values(const std::vector<Action>& legal) const {
    std::vector<ActionValue> out;
    out.reserve(legal.size());
    for (const Action& a : legal) {
      ActionValue v;
      v.action = a;
      v.sides.assign(static_cast<std::size_t>(sides_.count), 0.0);
      for (int c : nodes_[0].children) {
        const Node& x = nodes_[static_cast<std::size_t>(c)];
        if (!(x.action == a) || x.visits == 0) continue;
        v.visits = x.visits;
        v.value = x.reward / x.visits;
        const auto it = root_sides_.find(static_cast<std::size_t>(c));
        if (it != root_sides_.end())
          for (int side = 0; side < sides_.count; ++side)
            v.sides[static_cast<std::size_t>(side)] = it->second[static_cast<std::size_t>(side)] / x.visits;
      }
      out.push_back(std::move(v));
    }
    return out;
  }

  // The most visited choice of the seat (ties: the better mean, then the first).
  std::optional<Action> best() const {
    const Node& root = nodes_[0];
    const Node* best = nullptr;
    for (int c : root.children) {
      const Node& x = nodes_[static_cast<std::size_t>(c)];
      if (!best || x.visits > best->visits ||
          (x.visits == best->visits && x.visits > 0 &&
           x.reward / x.visits > best->reward / best->visits))
        best = &x;
    }
    if (!best) return std::nullopt;
    return best->action;
  }

  std::size_t nodes() const { return nodes_.size(); }

 private:
  // Adds a child for an untried legal action when there is one, otherwise picks
  // the legal child with the best upper confidence bound.
  int select_or_expand(int node, Seat mover) {
    untried_.clear();
    for (const Action& a : legal_) {
      bool known = false;
      for (int c : nodes_[static_cast<std::size_t>(node)].children) {
        const Node& x = nodes_[static_cast<std::size_t>(c)];
        if (x.mover == mover && x.action == a) {
          known = true;
          break;
        }
      }
      if (!known) untried_.push_back(a);
    }
    if (!untried_.empty()) {
      Node child;
      child.action = untried_[rng_.below(static_cast<std::uint32_t>(untried_.size()))];
      child.mover = mover;
      child.parent = node;
      child.avail = 1;
      nodes_.push_back(std::move(child));
      const int id = static_cast<int>(nodes_.size() - 1);
      nodes_[static_cast<std::size_t>(node)].children.push_back(id);
      // The other children legal here were available too.
      for (int c : nodes_[static_cast<std::size_t>(node)].children)
        if (c != id && is_legal(nodes_[static_cast<std::size_t>(c)], mover))
          ++nodes_[static_cast<std::size_t>(c)].avail;
      return id;
    }
    int best = -1;
    double best_value = -1;
    for (int c : nodes_[static_cast<std::size_t>(node)].children) {
      Node& x = nodes_[static_cast<std::size_t>(c)];
      if (!is_legal(x, mover)) continue;
      ++x.avail;
      const double visits = std::max(1, x.visits);
      const double value =
          x.reward / visits +
          options_.exploration * std::sqrt(std::log(static_cast<double>(x.avail)) / visits);
      if (value > best_value) best = c, best_value = value;
    }
    return best;
  }

  // The root's child for `action`, added when it is new (RootShare::kEven).
  int root_child(const Action& action) {
    for (int c : nodes_[0].children)
      if (nodes_[static_cast<std::size_t>(c)].action == action) return c;
    Node child;
    child.action = action;
    child.mover = seat_;
    child.parent = 0;
    nodes_.push_back(std::move(child));
    const int id = static_cast<int>(nodes_.size() - 1);
    nodes_[0].children.push_back(id);
    return id;
  }

  // Whether an evaluation's play-out ends here before the game does (StrongOptions::stop,
  // and a changed score under Reward::kScored).
  bool stopped(const Game& state) const {
    if (options_.reward == Reward::kScored && state.scores() != root_scores_) return true;
    return options_.stop && options_.stop(state);
  }

  bool is_legal(const Node& x, Seat mover) const {
    if (x.mover != mover) return false;
    for (const Action& a : legal_)
      if (a == x.action) return true;
    return false;
  }

  void rollout(Game& state) {
    for (int step = 0; step < kMaxRolloutSteps && !state.is_over(); ++step) {
      if (options_.horizon == Horizon::kRound && state.scores() != root_scores_) return;
      if (stopped(state)) return;
      const SeatMask mask = state.to_act();
      if (!mask) return;
      const Seat s = first_seat(mask);
      Action a;
      if (options_.rollout == RolloutPolicy::kRobot && robot_) {
        a = robot_(state, s, rng_);
      } else {
        state.legal_actions(s, rollout_legal_);
        if (rollout_legal_.empty()) return;
        a = rollout_legal_[rng_.below(static_cast<std::uint32_t>(rollout_legal_.size()))];
      }
      if (state.apply(s, a, nullptr)) return;
    }
  }

  const Game& game_;
  Seat seat_;
  const StrongOptions& options_;
  Rng rng_;
  Sides sides_;
  std::vector<int> root_scores_;
  std::vector<Node> nodes_;
  std::vector<int> path_;
  RuleBot robot_;
  std::vector<Action> legal_, untried_, rollout_legal_;
  int iteration_ = 0;
  std::map<std::size_t, Rewards> root_sides_;  // by root child: every side's summed reward
};

}  // namespace

Action strong_action(const Game& game, Seat seat, const StrongOptions& options,
                     const SearchClock& clock, StrongStats* stats) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  if (stats) *stats = StrongStats{0, static_cast<int>(legal.size()), 0};
  if (legal.size() <= 1) return legal.at(0);

  Search search(game, seat, options);
  const int cap = options.iterations > 0 ? options.iterations
                  : clock                ? 0
                                         : kStrongDefaultIterations;
  const std::int64_t deadline = clock ? clock() + options.time_us : 0;
  int done = 0;
  while (cap == 0 || done < cap) {
    // At least one iteration, however short the time.
    if (clock && done > 0 && clock() >= deadline) break;
    search.iterate();
    ++done;
  }
  if (stats) {
    stats->iterations = done;
    stats->nodes = search.nodes();
  }
  if (const auto best = search.best()) {
    for (const Action& a : legal)
      if (a == *best) return a;
  }
  Rng rng(options.seed);
  return choose_bot_action(game, seat, "robot", rng);
}

std::vector<ActionValue> strong_evaluate(const Game& game, Seat seat, const StrongOptions& options,
                                         StrongStats* stats) {
  std::vector<Action> legal;
  game.legal_actions(seat, legal);
  if (stats) *stats = StrongStats{0, static_cast<int>(legal.size()), 0};
  if (legal.empty()) return {};
  Search search(game, seat, options);
  int cap = options.iterations > 0 ? options.iterations : kStrongDefaultIterations;
  if (options.root == RootShare::kEven && cap < static_cast<int>(legal.size()))
    cap = static_cast<int>(legal.size());
  for (int done = 0; done < cap; ++done) search.iterate();
  if (stats) {
    stats->iterations = cap;
    stats->nodes = search.nodes();
  }
  return search.values(legal);
}

}  // namespace casa
