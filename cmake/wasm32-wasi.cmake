# SPDX-License-Identifier: AGPL-3.0-or-later
# Cross-compiling to WebAssembly (wasm32-wasi) with Debian's clang 14 and its
# wasm32 C and C++ libraries (wasi-libc, libc++-14-dev-wasm32,
# libclang-rt-14-dev-wasm32; scripts/deps.sh web installs them).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_CXX_COMPILER clang++-14)
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
set(CMAKE_EXECUTABLE_SUFFIX ".wasm")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# wasm objects need LLVM's archiver for a symbol index (binutils' ar writes none).
find_program(CMAKE_AR NAMES llvm-ar-14 REQUIRED)
find_program(CMAKE_RANLIB NAMES llvm-ranlib-14 REQUIRED)
