// Every rule id in the project's rule files is cited by at least one test.
//
// The rule files live in ../shared/rules beside the repository (where CI puts
// them). Section headings that only group numbered rules (LC-2 above LC-2.1) need
// no test of their own; every other id does.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
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

std::set<std::string> ids_in(const std::string& text) {
  static const std::regex id(R"(\b(LC|CA|CO|TC)-([0-9]+(\.[0-9]+)?|A)\b)");
  std::set<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it) {
    out.insert(it->str());
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
