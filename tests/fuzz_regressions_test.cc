// Replays every input saved under fuzz/regressions/<target>/ through the same
// entry point its fuzzer runs (fuzz/entry_points.h). An input that once
// crashed, leaked or hit undefined behaviour must now run to the end; under
// the sanitizer build of .ci/run a memory error or UB report fails this test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/entry_points.h"

namespace canasta {
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

class FuzzRegressionTest : public testing::TestWithParam<fuzz::Target> {};

TEST_P(FuzzRegressionTest, EverySavedInputRunsToTheEnd) {
  const fuzz::Target& target = GetParam();
  for (const fs::path& file : FilesIn(kRegressions / target.name)) {
    SCOPED_TRACE(file.string());
    const std::vector<uint8_t> bytes = Bytes(file);
    target.run(bytes.data(), bytes.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressionTest, testing::ValuesIn(fuzz::Targets()),
                         [](const testing::TestParamInfo<fuzz::Target>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace canasta
