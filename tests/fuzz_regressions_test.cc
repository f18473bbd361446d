// Replays every input saved under fuzz/regressions/<target>/ through the same
// entry point its fuzzer runs (fuzz/entry_points.h). An input that once
// crashed, leaked or hit undefined behaviour must now run to the end; under
// the sanitizer build of .ci/run a memory error or UB report fails this test.
//
// fuzz/regressions/open.txt lists the saved inputs whose bug is not fixed yet
// (each with the code it is in): they are not replayed, unless
// CANASTA_FUZZ_OPEN=1 is set, which the fix's author runs; the fix deletes
// the line. Every line must name a saved file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/entry_points.h"

namespace canasta {
namespace fuzz {
// gtest names the parameter by its target.
void PrintTo(const Target& target, std::ostream* os) { *os << target.name; }
}  // namespace fuzz

namespace {

namespace fs = std::filesystem;

const fs::path kRegressions = fs::path(CANASTA_SOURCE_DIR) / "fuzz" / "regressions";

std::vector<fs::path> FilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// "target/file" of every line of open.txt (comments and blank lines left out).
std::vector<std::string> OpenInputs() {
  std::vector<std::string> open;
  std::ifstream in(kRegressions / "open.txt");
  std::string line;
  while (std::getline(in, line)) {
    const size_t end = line.find_first_of(" \t#");
    if (line.empty() || end == 0) continue;
    open.push_back(line.substr(0, end));
  }
  return open;
}

std::vector<uint8_t> Bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A directory that names no target would be silently skipped: refuse it.
TEST(FuzzRegressions, EveryDirectoryNamesATarget) {
  ASSERT_TRUE(fs::is_directory(kRegressions)) << kRegressions;
  for (const fs::directory_entry& e : fs::directory_iterator(kRegressions)) {
    if (!e.is_directory()) continue;
    const std::string name = e.path().filename().string();
    const auto& targets = fuzz::Targets();
    EXPECT_TRUE(std::any_of(targets.begin(), targets.end(),
                            [&](const fuzz::Target& t) { return name == t.name; }))
        << "fuzz/regressions/" << name << " names no fuzz target";
  }
}

TEST(FuzzRegressions, EveryOpenInputIsSaved) {
  for (const std::string& name : OpenInputs())
    EXPECT_TRUE(fs::is_regular_file(kRegressions / name))
        << "fuzz/regressions/open.txt names " << name << ", which is not saved";
}

class FuzzRegressionTest : public testing::TestWithParam<fuzz::Target> {};

TEST_P(FuzzRegressionTest, EverySavedInputRunsToTheEnd) {
  const fuzz::Target& target = GetParam();
  const std::vector<std::string> open = OpenInputs();
  const char* run_open = std::getenv("CANASTA_FUZZ_OPEN");
  const bool all = run_open != nullptr && std::string(run_open) == "1";
  for (const fs::path& file : FilesIn(kRegressions / target.name)) {
    const std::string name = std::string(target.name) + "/" + file.filename().string();
    if (!all && std::find(open.begin(), open.end(), name) != open.end()) continue;
    SCOPED_TRACE(file.string());
    const std::vector<uint8_t> bytes = Bytes(file);
    target.run(bytes.data(), bytes.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressionTest, testing::ValuesIn(fuzz::Targets()),
                         [](const testing::TestParamInfo<fuzz::Target>& p) {
                           return std::string(p.param.name);
                         });

}  // namespace
}  // namespace canasta
