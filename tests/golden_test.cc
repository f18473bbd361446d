// What a user sees, pinned: every shipped sample and every example log under
// docs/ is audited by the real program and its whole text output compared
// with a golden file (samples) or with the output the docs page shows.
//
// After a deliberate change of wording, regenerate the golden files with
//   CANASTA_UPDATE_GOLDEN=1 build/tests/canasta_tests --gtest_filter='Golden*'
// and review the diff like any other change (the docs pages' output blocks are
// rewritten too).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/run_shell.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = CANASTA_SOURCE_DIR;

using RunResult = canasta::test::ShellRun;

// Runs the program in `dir` with `args` (shell words), stdout only.
RunResult RunIn(const fs::path& dir, const std::string& args) {
  return canasta::test::RunShell("cd '" + dir.string() + "' && " + std::string(CANASTA_BINARY) +
                                 " " + args + " 2>/dev/null");
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Updating() {
  const char* v = std::getenv("CANASTA_UPDATE_GOLDEN");
  return v && *v && std::string(v) != "0";
}

// Every log a user is shown: samples/**/*.jsonl and docs/checks/examples/*.log,
// as paths relative to the source tree, sorted.
std::vector<std::string> ShippedLogs() {
  std::vector<std::string> logs;
  for (const auto& e : fs::recursive_directory_iterator(kSource / "samples")) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl")
      logs.push_back(fs::relative(e.path(), kSource).string());
  }
  for (const auto& e : fs::directory_iterator(kSource / "docs" / "checks" / "examples")) {
    if (e.is_regular_file() && e.path().extension() == ".log")
      logs.push_back(fs::relative(e.path(), kSource).string());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

TEST(GoldenTest, EveryShippedLogAuditsExactlyAsRecorded) {
  const std::vector<std::string> logs = ShippedLogs();
  ASSERT_GT(logs.size(), 70u) << "samples or docs examples went missing";
  const fs::path golden_dir = kSource / "tests" / "golden";
  for (const std::string& rel : logs) {
    // --scores adds each hand's computed scores, so scoring is pinned too.
    const RunResult r = RunIn(kSource, "audit --scores " + rel);
    const std::string text = "$ canasta audit --scores " + rel + "\n" + r.out +
                             "[exit status " + std::to_string(r.status) + "]\n";
    const fs::path golden = golden_dir / (rel + ".txt");
    if (Updating()) {
      fs::create_directories(golden.parent_path());
      std::ofstream(golden, std::ios::binary) << text;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden)) << "no golden file " << golden
                                    << "; run with CANASTA_UPDATE_GOLDEN=1 to create it";
    EXPECT_EQ(text, ReadAll(golden)) << rel;
  }
}

TEST(GoldenTest, NoGoldenFileWithoutItsLog) {
  const fs::path golden_dir = kSource / "tests" / "golden";
  if (!fs::exists(golden_dir)) GTEST_SKIP() << "no golden files yet";
  const std::vector<std::string> logs = ShippedLogs();
  for (const auto& e : fs::recursive_directory_iterator(golden_dir)) {
    if (!e.is_regular_file()) continue;
    std::string rel = fs::relative(e.path(), golden_dir).string();
    if (rel.rfind("trees/", 0) == 0) continue;  // tests/tree_test.cc's DOT trees
    ASSERT_GT(rel.size(), 4u);
    rel.resize(rel.size() - 4);  // ".txt"
    EXPECT_TRUE(std::find(logs.begin(), logs.end(), rel) != logs.end())
        << e.path() << " belongs to no shipped log: remove it";
  }
}

// A docs page of a check shows an example: "`canasta audit ARGS` reports:"
// followed by a ```text block. Its example log is linked as
// [examples/NAME.log](examples/NAME.log) and shown as `game.log`; a ruleset it
// uses is linked as (examples/NAME.lua). The test copies them to a fresh
// directory under the names the page uses and runs the command there.
TEST(GoldenTest, EveryDocsExampleGivesExactlyTheOutputShown) {
  const fs::path checks = kSource / "docs" / "checks";
  const std::regex command_re("`canasta (audit[^`]*)` reports:");
  const std::regex file_re(R"(\(examples/([A-Za-z0-9_.-]+\.(log|lua))\))");
  int pages = 0;
  for (const auto& e : fs::directory_iterator(checks)) {
    if (e.path().extension() != ".md" || e.path().filename() == "README.md") continue;
    const std::string page = ReadAll(e.path());
    std::smatch cmd;
    if (!std::regex_search(page, cmd, command_re)) continue;
    const std::string after = cmd.suffix().str();
    const size_t open = after.find("```text\n");
    ASSERT_NE(open, std::string::npos) << e.path() << ": no ```text block after the command";
    const size_t close = after.find("```", open + 8);
    ASSERT_NE(close, std::string::npos) << e.path();
    const std::string shown = after.substr(open + 8, close - open - 8);

    const fs::path dir = fs::temp_directory_path() /
                         ("canasta-docs-" + std::to_string(getpid()) + "-" +
                          e.path().stem().string());
    fs::remove_all(dir);
    fs::create_directories(dir);
    // The page's own example is examples/<page>.log; other links are rulesets.
    const fs::path own = checks / "examples" / (e.path().stem().string() + ".log");
    if (fs::exists(own)) fs::copy_file(own, dir / "game.log");
    for (auto it = std::sregex_iterator(page.begin(), page.end(), file_re);
         it != std::sregex_iterator(); ++it) {
      if ((*it)[2].str() == "lua")
        fs::copy_file(checks / "examples" / (*it)[1].str(), dir / (*it)[1].str());
    }
    // A page may name a sample: paths resolve from the source tree.
    fs::create_directory_symlink(kSource / "samples", dir / "samples");
    const RunResult r = RunIn(dir, cmd[1].str());
    if (Updating() && r.out != shown) {
      const size_t at = size_t(cmd.position(0) + cmd.length(0)) + open + 8;
      std::string updated = page;
      updated.replace(at, shown.size(), r.out);
      std::ofstream(e.path(), std::ios::binary) << updated;
    } else {
      EXPECT_EQ(r.out, shown) << "in " << e.path() << "\n$ canasta " << cmd[1].str();
    }
    fs::remove_all(dir);
    ++pages;
  }
  EXPECT_GT(pages, 55) << "docs pages with an example went missing";
}

}  // namespace
