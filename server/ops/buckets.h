// SPDX-License-Identifier: AGPL-3.0-or-later
// Token buckets by key (a client address, an account): `size` tokens at most,
// refilled at `per_second`. What the server's rate limits are made of: new
// players and invite guesses per address (the lobby), sign-ins and device
// codes per address and per account (docs/accounts.md). Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace casa::server {

class Buckets {
 public:
  Buckets(double size, double per_second) : size_(size), per_second_(per_second) {}
  // Takes one token of `key`; false when it has none left.
  bool take(const std::string& key);
  // True when `key` has a token left (takes none).
  bool has(const std::string& key);
  // Seconds until `key` has a token again (0 when it has one).
  int wait_seconds(const std::string& key);

 private:
  struct Bucket {
    double tokens;
    std::chrono::steady_clock::time_point at;
  };
  Bucket& refill(const std::string& key);
  double size_, per_second_;
  std::mutex mutex_;
  std::map<std::string, Bucket> buckets_;
};

}  // namespace casa::server
