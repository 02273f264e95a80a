// SPDX-License-Identifier: AGPL-3.0-or-later
// The review of a finished game (review.h) as a WebAssembly module for the web
// client's replay page (clients/web/src/review.ts), run in a Web Worker. A WASI
// "reactor": the worker calls _initialize once, then, for each review:
//
//   in  = casa_alloc(n)                 n bytes of the replay's JSON text written there
//   opt = casa_alloc(m)                 the options' JSON text ({"iterations", "seed",
//                                       "seats"}; m may be 0: the defaults)
//   out = casa_review(in, n, opt, m)    the review's JSON text (review_replay_text),
//   len = casa_result_length()          valid until the next call
//   casa_free(in); casa_free(opt)
//
// It imports nothing but the few WASI functions libc links in for its stdio (it
// never writes there); the page supplies them (review.ts). The rule bots'
// thread-exit hook comes from the engine (engine/wasm_thread_atexit.cpp).
#include <cstdlib>
#include <string>
#include <string_view>

#include "review/review.h"

namespace {
std::string last_result;
}

extern "C" {

__attribute__((export_name("casa_alloc"))) void* casa_alloc(std::size_t n) {
  return std::malloc(n ? n : 1);
}

__attribute__((export_name("casa_free"))) void casa_free(void* p) { std::free(p); }

__attribute__((export_name("casa_review"))) const char* casa_review(const char* replay,
                                                                    std::size_t replay_length,
                                                                    const char* options,
                                                                    std::size_t options_length) {
  last_result = casa::review_replay_text(std::string_view(replay, replay_length),
                                         std::string_view(options, options_length));
  return last_result.c_str();
}

__attribute__((export_name("casa_result_length"))) std::size_t casa_result_length() {
  return last_result.size();
}
}
