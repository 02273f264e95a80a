// SPDX-License-Identifier: AGPL-3.0-or-later
// The bot worker pool: the threads on which searching bots ("strong") think, so
// that no search ever runs on a table's strand or an I/O thread.
//
//  * A fixed number of threads (the server option bot_threads, CASA_BOT_THREADS)
//    bounds the CPU that bots use, however many tables ask.
//  * A bounded queue: try_submit() refuses a job when every thread is busy and
//    `max_queued` jobs already wait; the caller then plays the robot instead.
//  * Jobs own what they need (a clone of the game); the pool knows no game.
//  * The destructor stops taking jobs, lets running ones finish and drops the rest.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace casa::server {

class BotPool {
 public:
  // threads == 0: no pool (try_submit always refuses).
  BotPool(int threads, std::size_t max_queued);
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // Queues `job` unless the pool is saturated; false means it will never run.
  bool try_submit(std::function<void()> job);

  int threads() const { return static_cast<int>(workers_.size()); }
  // Jobs running or waiting, for tests and logs.
  std::size_t load() const;
  // Threads thinking now, and jobs waiting for one (/metrics).
  std::size_t busy() const;
  std::size_t queued() const;

 private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::size_t running_ = 0;
  std::size_t max_queued_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace casa::server
