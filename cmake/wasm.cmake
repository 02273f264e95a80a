# SPDX-License-Identifier: AGPL-3.0-or-later
# What the WebAssembly build (CASA_WASM) needs beyond the toolchain file:
#  * no exceptions: Debian's wasm32 libc++ is built without them, so the engine and
#    verify/ are written not to need any, and nlohmann_json aborts instead of
#    throwing (JSON_NOEXCEPTION; verify.cpp reads untrusted JSON without a throwing
#    call);
#  * nlohmann_json's headers, which Debian installs for the host only: a directory
#    with a link to them, so the host's other headers (glibc's) stay out of the way;
#    and no std::filesystem, which wasm32's libc++ lacks.
if(NOT CMAKE_CXX_COMPILER_TARGET MATCHES "^wasm32")
  message(FATAL_ERROR "CASA_WASM needs -DCMAKE_TOOLCHAIN_FILE=cmake/wasm32-wasi.cmake")
endif()
add_compile_options(-fno-exceptions -Os)
add_compile_definitions(JSON_NOEXCEPTION JSON_HAS_FILESYSTEM=0 JSON_HAS_EXPERIMENTAL_FILESYSTEM=0)
find_path(CASA_NLOHMANN_INCLUDE nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(casa_wasm_include ${CMAKE_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${casa_wasm_include})
file(CREATE_LINK ${CASA_NLOHMANN_INCLUDE}/nlohmann ${casa_wasm_include}/nlohmann SYMBOLIC)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${casa_wasm_include})
