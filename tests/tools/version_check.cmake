# SPDX-License-Identifier: AGPL-3.0-or-later
# The one version, everywhere it is shown:
#   cmake -DVERSION=1.2.3 [-DPACKAGE=clients/web/package.json] [-DPROGRAMS=path;path...] -P version_check.cmake
# Every program's --version prints "<name> VERSION (<commit>)" and exits 0;
# the web client's package.json says VERSION (the top CMakeLists.txt's
# project VERSION is the one to change; this test fails until both agree).
set(failed FALSE)
if(PACKAGE)
  file(READ "${PACKAGE}" package_text)
  string(JSON package_version ERROR_VARIABLE json_error GET "${package_text}" version)
  if(json_error)
    message(SEND_ERROR "${PACKAGE}: no version: ${json_error}")
    set(failed TRUE)
  elseif(NOT package_version STREQUAL VERSION)
    message(SEND_ERROR "${PACKAGE} says version ${package_version}, CMakeLists.txt says ${VERSION}: "
                       "make them equal (the project VERSION in CMakeLists.txt is the release's)")
    set(failed TRUE)
  else()
    message(STATUS "ok   ${PACKAGE}: ${package_version}")
  endif()
endif()
foreach(program IN LISTS PROGRAMS)
  get_filename_component(name "${program}" NAME)
  execute_process(COMMAND "${program}" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "\\." "\\\\." version_pattern "${VERSION}")
  if(NOT rc EQUAL 0)
    message(SEND_ERROR "${name} --version exited ${rc}: ${out}${err}")
    set(failed TRUE)
  elseif(NOT out MATCHES "^${name} ${version_pattern} \\([A-Za-z0-9._+-]+\\)\n$")
    message(SEND_ERROR "${name} --version printed '${out}', not '${name} ${VERSION} (COMMIT)'")
    set(failed TRUE)
  else()
    string(STRIP "${out}" out)
    message(STATUS "ok   ${out}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "version check failed")
endif()
