// SPDX-License-Identifier: AGPL-3.0-or-later
// WebAssembly (wasm32-wasi) build only. The rule bots keep thread_local buffers
// (no allocation per rollout move); the C++ runtime registers their destructors
// with __cxa_thread_atexit, which wasm32-wasi's libc++abi 14, built without
// threads, does not provide. The module has one thread, so a thread_local object
// lives as long as the program: its destructor is registered to run at exit,
// like any static object's.
extern "C" int __cxa_atexit(void (*destructor)(void*), void* object, void* dso_handle);

extern "C" int __cxa_thread_atexit(void (*destructor)(void*), void* object, void* dso_handle) {
  return __cxa_atexit(destructor, object, dso_handle);
}
