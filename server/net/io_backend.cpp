// SPDX-License-Identifier: AGPL-3.0-or-later
#include "server/net/io_backend.h"

#if defined(CASA_IO_URING)
#include <liburing.h>

#include <cstring>
#endif

namespace casa::server {

#if defined(CASA_IO_URING)

const char* io_backend() { return "io_uring"; }

std::optional<std::string> io_backend_unavailable() {
  // The same call Asio makes for each io_context, on a small ring: if it
  // fails here, every io_context would fail the same way later, with a less
  // helpful message and possibly after the database was opened.
  io_uring ring{};
  const int result = io_uring_queue_init(4, &ring, 0);
  if (result == 0) {
    io_uring_queue_exit(&ring);
    return std::nullopt;
  }
  return std::string("this casa-server is built on io_uring (CASA_IO_URING) and the kernel refused "
                     "io_uring_setup: ") +
         std::strerror(-result) +
         ". Docker's default seccomp profile (and container runtimes that follow it) and the sysctl "
         "kernel.io_uring_disabled refuse it: allow io_uring_setup, io_uring_enter and io_uring_register "
         "to this process, or run a casa-server built without -DCASA_IO_URING=ON (epoll)";
}

#else

const char* io_backend() { return "epoll"; }

std::optional<std::string> io_backend_unavailable() { return std::nullopt; }

#endif

}  // namespace casa::server
