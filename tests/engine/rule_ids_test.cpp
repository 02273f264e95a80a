// SPDX-License-Identifier: AGPL-3.0-or-later
// Every rule id in the project's rule files is cited by at least one test.
//
// The rule files live in ../shared/rules beside the repository (where CI puts
// them). Section headings that only group numbered rules (LC-2 above LC-2.1) need
// no test of their own; every other id does.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Rule ids: a prefix (LC, CA, CO, TC), a dash, then "A" or a number with an
// optional ".number" (LC-7.16). A plain scanner: std::regex trips the
// sanitizer build's uninitialised-use warnings.
std::set<std::string> ids_in(const std::string& text) {
  static const char* const kPrefixes[] = {"LC-", "CA-", "CO-", "TC-"};
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  auto is_word = [&](char c) { return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  std::set<std::string> out;
  for (std::size_t i = 0; i + 3 < text.size(); ++i) {
    if (i > 0 && is_word(text[i - 1])) continue;
    bool prefixed = false;
    for (const char* prefix : kPrefixes) prefixed = prefixed || text.compare(i, 3, prefix) == 0;
    if (!prefixed) continue;
    std::size_t end = i + 3;
    if (text[end] == 'A') {
      ++end;
    } else {
      while (end < text.size() && is_digit(text[end])) ++end;
      if (end == i + 3) continue;
      if (end + 1 < text.size() && text[end] == '.' && is_digit(text[end + 1])) {
        ++end;
        while (end < text.size() && is_digit(text[end])) ++end;
      }
    }
    if (end < text.size() && is_word(text[end])) continue;
    out.insert(text.substr(i, end - i));
  }
  return out;
}

}  // namespace

TEST_CASE("every rule id of the rule files is cited by a test") {
  const fs::path source(CASA_SOURCE_DIR);
  const fs::path rules = source.parent_path() / "shared" / "rules";
  if (!fs::is_directory(rules)) {
    MESSAGE("no rule files at ", rules.string(), "; nothing to check");
    return;
  }
  std::set<std::string> defined;
  for (const auto& entry : fs::directory_iterator(rules)) {
    if (entry.path().extension() == ".md") {
      for (const auto& id : ids_in(read_file(entry.path()))) defined.insert(id);
    }
  }
  std::set<std::string> cited;
  for (const auto& entry : fs::recursive_directory_iterator(source / "tests")) {
    if (entry.is_regular_file() && entry.path().extension() == ".cpp" &&
        entry.path().filename() != "rule_ids_test.cpp") {
      for (const auto& id : ids_in(read_file(entry.path()))) cited.insert(id);
    }
  }
  REQUIRE(defined.size() > 150);
  for (const auto& id : defined) {
    // A heading such as LC-2 is covered by its numbered rules LC-2.1, LC-2.2, ...
    const bool heading = std::any_of(defined.begin(), defined.end(), [&](const std::string& other) {
      return other.rfind(id + ".", 0) == 0;
    });
    if (heading) continue;
    CHECK_MESSAGE(cited.count(id), "no test cites ", id);
  }
}
