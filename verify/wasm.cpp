// SPDX-License-Identifier: AGPL-3.0-or-later
// The replay checks (verify.h) as a WebAssembly module for the web client's replay
// page (clients/web/src/verify.ts). A WASI "reactor": the page calls _initialize
// once, then, for each replay:
//
//   in  = casa_alloc(n)               n bytes of the replay's JSON text written there
//   txt = casa_commitment_input(in, n)  the text the commitment hashes (commitment_input),
//   len = casa_result_length()          valid until the next call; empty when none
//   ...                               the page hashes it: crypto.subtle.digest("SHA-256")
//   pub = casa_alloc(m)               the commitment the player noted (m may be 0)
//   dig = casa_alloc(d)               that SHA-256 as 64 hex digits (d = 0: the browser
//                                     has no SHA-256; the verdict then says so)
//   out = casa_verify(in, n, pub, m, dig, d)  the verdict's JSON text (verdict_json),
//   len = casa_result_length()                valid until the next call
//   casa_free(in); casa_free(pub); casa_free(dig)
//
// The module hashes nothing: SHA-256 is the browser's (WebCrypto). It imports
// nothing but the few WASI functions libc links in for its stdio (it never writes
// there); the page supplies them (verify.ts).
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "verify/verify.h"

namespace {
std::string last_result;
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

__attribute__((export_name("casa_commitment_input"))) const char* casa_commitment_input(
    const char* replay, std::size_t replay_length) {
  last_result = casa::commitment_input_text(std::string_view(replay, replay_length));
  return last_result.c_str();
}

__attribute__((export_name("casa_verify"))) const char* casa_verify(
    const char* replay, std::size_t replay_length, const char* published,
    std::size_t published_length, const char* digest, std::size_t digest_length) {
  const std::optional<std::string> sha256 =
      digest_length ? std::optional<std::string>(std::string(digest, digest_length)) : std::nullopt;
  last_result = casa::verify_replay_text(std::string_view(replay, replay_length), sha256,
                                         std::string_view(published, published_length));
  return last_result.c_str();
}

__attribute__((export_name("casa_result_length"))) std::size_t casa_result_length() {
  return last_result.size();
}
}
