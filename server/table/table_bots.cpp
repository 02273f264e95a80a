// SPDX-License-Identifier: AGPL-3.0-or-later
// Searching bots at a table: the search runs on the lobby's BotPool, on a clone
// of the game, never on the table's strand or a network thread; its move comes
// back through the strand like any other and is dropped if the table moved on.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <memory>

#include "engine/strong.h"
#include "server/ops/log.h"
#include "server/ops/metrics.h"
#include "server/table/table.h"

namespace casa::server {

namespace {

std::int64_t wall_clock_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool Table::think_on_pool(Seat s, std::int64_t at, const std::string& auto_by) {
  BotPool* pool = host_.bot_pool();
  if (!pool) return false;
  StrongOptions options;
  options.time_us = static_cast<std::int64_t>(host_.config().strong_ms) * 1000;
  options.seed = setup_.seed ^ (static_cast<std::uint64_t>(at) * 0x9E3779B97F4A7C15ULL) ^
                 static_cast<std::uint64_t>(s);
  std::shared_ptr<const Game> snapshot = game_->clone();
  auto self = shared_from_this();
  const bool queued = pool->try_submit([self, snapshot, s, at, options, auto_by] {
    const Action action = strong_action(*snapshot, s, options, wall_clock_us);
    boost::asio::post(self->strand_, [self, s, at, action, auto_by] {
      self->when_idle([self, s, at, action, auto_by] {
        // A timer's move stands only while the seat is still its player's to
        // make; a bot's only while a bot still plays the seat.
        const bool timer = auto_by == "timer";
        if (self->seq_ != at || self->status_ != Status::playing ||
            !(self->game_->to_act() & seat_bit(s)) || self->bot_for(s).empty() == !timer)
          return;  // the table moved on; a newer think (if any) answers instead
        self->submit(s, action, nullptr, std::nullopt, auto_by);
      });
    });
  });
  if (!queued) {
    metrics().bot_fallbacks.fetch_add(1, std::memory_order_relaxed);
    const LogAbout about(setup_.id);
    spdlog::warn("table {}: every bot thread is busy; the robot plays seat {} this move", setup_.id,
                 s);
  }
  return queued;
}

}  // namespace casa::server
