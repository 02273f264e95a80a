// The replay checks (verify.h) as a WebAssembly module for the web client's replay
// page (clients/web/src/verify.ts). A WASI "reactor": the page calls _initialize
// once, then, for each replay:
//
//   in  = casa_alloc(n)              n bytes of the replay's JSON text written there
//   pub = casa_alloc(m)              the commitment the player noted (m may be 0)
//   out = casa_verify(in, n, pub, m) the verdict's JSON text (verdict_json), valid
//   len = casa_verdict_length()      until the next call
//   casa_free(in); casa_free(pub)
//
// The module imports nothing but the few WASI functions libc links in for its
// stdio (it never writes there); the page supplies them (verify.ts).
#include <cstdlib>
#include <string>
#include <string_view>

#include "verify/verify.h"

namespace {
std::string last_verdict;
}

extern "C" {

// The engine keeps scratch buffers in thread_local objects. wasm32-wasi has one
// thread and Debian's libc++abi for it no registry of thread-exit destructors; the
// module's one thread never exits (a reactor), so there is nothing to register.
int __cxa_thread_atexit(void (*)(void*), void*, void*) { return 0; }

__attribute__((export_name("casa_alloc"))) void* casa_alloc(std::size_t n) {
  return std::malloc(n ? n : 1);
}

__attribute__((export_name("casa_free"))) void casa_free(void* p) { std::free(p); }

__attribute__((export_name("casa_verify"))) const char* casa_verify(const char* replay,
                                                                    std::size_t replay_length,
                                                                    const char* published,
                                                                    std::size_t published_length) {
  last_verdict = casa::verify_replay_text(std::string_view(replay, replay_length),
                                          std::string_view(published, published_length));
  return last_verdict.c_str();
}

__attribute__((export_name("casa_verdict_length"))) std::size_t casa_verdict_length() {
  return last_verdict.size();
}
}
