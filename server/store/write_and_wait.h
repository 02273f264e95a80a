// SPDX-License-Identifier: AGPL-3.0-or-later
// A store write whose caller waits for its commit: for the admin API, accounts,
// passkeys and friends, which answer only once what they wrote is durable.
#pragma once

#include <future>
#include <memory>
#include <utility>

#include "server/store/store.h"

namespace casa::server {

// Runs `job` on the store and waits for its commit; false when it failed. Safe
// on an I/O thread: the store's thread never waits for the io_context.
inline bool write_and_wait(Store& store, Store::Job job) {
  auto promise = std::make_shared<std::promise<bool>>();
  auto future = promise->get_future();
  store.write(std::move(job), [promise](bool ok) { promise->set_value(ok); });
  return future.get();
}

}  // namespace casa::server
