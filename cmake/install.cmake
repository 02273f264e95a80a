# SPDX-License-Identifier: AGPL-3.0-or-later
# `cmake --install` and the Debian package (cpack -G DEB).
#   cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr
#   cmake --build build-release --target casa-server casa && scripts/build-web.sh
#   (cd build-release && cpack -G DEB)      # casa-server_<version>_<arch>.deb
# Installs casa-server and casa into bin/, the built web client (clients/web/dist,
# when it is there) into share/casa/web/ (where casa-server looks by default: ../share/
# casa/web beside its binary), the example configuration as
# SYSCONFDIR/casa/casa-server.toml and the systemd unit casa.service. With the prefix
# /usr, SYSCONFDIR is /etc. docs/self-hosting.md describes the result.
set(CMAKE_INSTALL_DOCDIR share/doc/casa-server CACHE PATH "Documentation of casa-server")
include(GNUInstallDirs)

install(TARGETS casa-server casa RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# OPTIONAL: a server-only install without Node.js has no web client; casa-server then
# answers / with a page that says so.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/clients/web/dist/ DESTINATION ${CMAKE_INSTALL_DATADIR}/casa/web
        OPTIONAL)
install(FILES ${PROJECT_SOURCE_DIR}/docs/casa-server.example.toml
        DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/casa RENAME casa-server.toml)
configure_file(${PROJECT_SOURCE_DIR}/packaging/casa.service.in ${PROJECT_BINARY_DIR}/casa.service @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/casa.service DESTINATION lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/self-hosting.md
        ${PROJECT_SOURCE_DIR}/docs/operations.md ${PROJECT_SOURCE_DIR}/docs/casa-server.example.toml
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
foreach(optional_doc LICENSE CHANGELOG.md)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${optional_doc})
    install(FILES ${PROJECT_SOURCE_DIR}/${optional_doc} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
endforeach()

# ---- the Debian package ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME casa-server)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "La Casa table server maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "self-hostable multiplayer card-game server (La Casa, Casino, Conference, Trophy Case)")
set(CPACK_PACKAGE_DESCRIPTION "An authoritative multiplayer card-game server with a browser client,\
 a command-line client (casa) and a JSON protocol for bots over WebSocket. Installs\
 the systemd service casa.service, which runs as the system user casa with its\
 database in /var/lib/casa and its settings in /etc/casa/casa-server.toml.")
# The paths written into casa.service come from this prefix; the package is meant for /usr.
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Dependencies from the binaries' shared libraries (dpkg-shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The binaries without their symbols (a Release build has no debug information anyway).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/debian/postinst ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
    ${PROJECT_SOURCE_DIR}/packaging/debian/postrm ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
