// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/table/bot_pool.h"

#include <utility>

namespace casa::server {

BotPool::BotPool(int threads, std::size_t max_queued) : max_queued_(max_queued) {
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

BotPool::~BotPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

bool BotPool::try_submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || workers_.empty()) return false;
    const bool idle_thread = running_ + queue_.size() < workers_.size();
    if (!idle_thread && queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

std::size_t BotPool::load() const {
  std::lock_guard lock(mutex_);
  return running_ + queue_.size();
}

std::size_t BotPool::busy() const {
  std::lock_guard lock(mutex_);
  return running_;
}

std::size_t BotPool::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void BotPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    try {
      job();
    } catch (...) {  // a job reports its own failures; the thread must go on
    }
    std::lock_guard lock(mutex_);
    --running_;
  }
}

}  // namespace casa::server
