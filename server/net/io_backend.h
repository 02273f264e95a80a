// SPDX-License-Identifier: AGPL-3.0-or-later
// The event-loop backend this build of the server runs its network on:
// Asio's epoll reactor (the default) or its io_uring backend (built with
// -DCASA_IO_URING=ON; docs/server.md, "Network backend").
#pragma once

#include <optional>
#include <string>

namespace casa::server {

// "epoll" or "io_uring".
const char* io_backend();

// Empty when the backend can run in this process. Otherwise why it cannot, in
// words for an operator: an io_uring build where the kernel refuses
// io_uring_setup (a container's seccomp profile, kernel.io_uring_disabled).
// Asio cannot switch backends at run time, so the caller stops with this.
std::optional<std::string> io_backend_unavailable();

}  // namespace casa::server
