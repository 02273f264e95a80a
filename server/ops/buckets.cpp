// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/ops/buckets.h"

#include <algorithm>

namespace casa::server {

bool Buckets::take(const std::string& key) {
  std::lock_guard lock(mutex_);
  Bucket& b = refill(key);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

bool Buckets::has(const std::string& key) {
  std::lock_guard lock(mutex_);
  return refill(key).tokens >= 1;
}

Buckets::Bucket& Buckets::refill(const std::string& key) {
  const auto now = std::chrono::steady_clock::now();
  // Full buckets hold nothing worth keeping: dropped when the map grows, so
  // keys that came once cost no memory for long.
  if (buckets_.size() > 4096) {
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      const double seconds = std::chrono::duration<double>(now - it->second.at).count();
      it = it->second.tokens + seconds * per_second_ >= size_ ? buckets_.erase(it) : std::next(it);
    }
  }
  auto [it, fresh] = buckets_.try_emplace(key, Bucket{size_, now});
  if (!fresh) {
    const double seconds = std::chrono::duration<double>(now - it->second.at).count();
    it->second.tokens = std::min(size_, it->second.tokens + seconds * per_second_);
    it->second.at = now;
  }
  return it->second;
}

int Buckets::wait_seconds(const std::string& key) {
  std::lock_guard lock(mutex_);
  const Bucket& b = refill(key);
  if (b.tokens >= 1 || per_second_ <= 0) return 0;
  return static_cast<int>((1 - b.tokens) / per_second_) + 1;
}

}  // namespace casa::server
