// SPDX-License-Identifier: AGPL-3.0-or-later
// The build's version (SemVer, from the top CMakeLists.txt's project VERSION)
// and the short git commit it was built from ("unknown" outside a checkout).
#pragma once

#include <string>

namespace casa {

const char* version();
const char* commit();
// "<program> 1.0.0 (abc1234)": what every program's --version prints.
std::string version_line(const std::string& program);

}  // namespace casa
