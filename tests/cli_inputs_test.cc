// The program against untrusted logs and odd inputs: what a log's header may
// name as its ruleset, inputs that hold nothing to audit, outputs that would
// destroy an input, write errors. Each test runs the built program.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct Result {
  int status = -1;
  std::string out;  // stdout and stderr, in order
};

// Runs a shell line in which the word `canasta` is the program; stderr is merged.
Result Sh(const std::string& line) {
  std::string cmd = "CANASTA=" + std::string(CANASTA_BINARY) + "; " +
                    std::regex_replace(line, std::regex("(^|[ |;(])canasta "), "$1\"$$CANASTA\" ") +
                    " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void Put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

const std::string kSample = std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl";

// The classic sample with its header naming `ruleset`.
std::string SampleNaming(const std::string& ruleset) {
  std::string text = Slurp(kSample);
  const std::string from = "\"ruleset\":\"classic\"";
  size_t at = text.find(from);
  return text.replace(at, from.size(), "\"ruleset\":\"" + ruleset + "\"");
}

class CliInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/canasta-cli-inputs-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string D(const std::string& rel = "") const { return (dir_ / rel).string(); }
  fs::path dir_;
};

constexpr char kHouse[] = "return {name = \"house\", extends = \"classic\"}\n";
// A file the logs must never be able to read: its text must never appear.
constexpr char kSecret[] = "SECRET-7f3a9 = 1\n";

// --- What a log's header may name (issue 8, Security) ---

TEST_F(CliInputs, HeaderMayNameAFileBesideOrBelowTheLog) {
  Put(D("logs/house.lua"), kHouse);
  Put(D("logs/rules/sub.lua"), kHouse);
  Put(D("logs/a.jsonl"), SampleNaming("house.lua"));
  Put(D("logs/b.jsonl"), SampleNaming("rules/sub.lua"));
  Result r = Sh("canasta audit " + D("logs"));
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST_F(CliInputs, HeaderNamingAPathOutsideIsRefusedWithoutQuotingIt) {
  Put(D("secret.lua"), kSecret);
  Put(D("logs/sub/x.txt"), "");
  fs::create_symlink(D("secret.lua"), D("logs/link.lua"));
  Put(D("logs/abs.jsonl"), SampleNaming(D("secret.lua")));
  Put(D("logs/up.jsonl"), SampleNaming("../secret.lua"));
  Put(D("logs/link.jsonl"), SampleNaming("link.lua"));
  Put(D("logs/machine.jsonl"), SampleNaming("/etc/machine-id"));
  for (const char* log : {"abs", "up", "link", "machine"}) {
    Result r = Sh("canasta audit " + D("logs/") + log + ".jsonl");
    EXPECT_EQ(r.status, 2) << log << "\n" << r.out;
    EXPECT_NE(r.out.find(":1: error: cannot use ruleset \""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--allow-ruleset-path DIR"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--rules FILE"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[log-unknown-ruleset]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("SECRET"), std::string::npos) << log << "\n" << r.out;
  }
  EXPECT_NE(Sh("canasta audit " + D("logs/up.jsonl")).out.find("goes up with \"..\""),
            std::string::npos);
  EXPECT_NE(Sh("canasta audit " + D("logs/abs.jsonl")).out.find("is an absolute path"),
            std::string::npos);
  EXPECT_NE(Sh("canasta audit " + D("logs/link.jsonl")).out.find("leads outside"),
            std::string::npos);
}

TEST_F(CliInputs, ARulesetBesideTheLogCannotExtendAFileOutside) {
  Put(D("secret.lua"), kSecret);
  Put(D("logs/house.lua"), "return {name = \"h\", extends = \"" + D("secret.lua") + "\"}\n");
  Put(D("logs/a.jsonl"), SampleNaming("house.lua"));
  Result r = Sh("canasta audit " + D("logs/a.jsonl"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("is outside the folders a log may name rulesets from; it was not opened"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("SECRET"), std::string::npos) << r.out;
}

TEST_F(CliInputs, TheUserMayAllowAFolderOrForceARuleset) {
  Put(D("shared/house.lua"), kHouse);
  Put(D("logs/a.jsonl"), SampleNaming(D("shared/house.lua")));
  EXPECT_EQ(Sh("canasta audit " + D("logs/a.jsonl")).status, 2);
  EXPECT_EQ(Sh("canasta audit --allow-ruleset-path " + D("shared") + " " + D("logs/a.jsonl")).status,
            0);
  EXPECT_EQ(Sh("canasta audit --rules " + D("shared/house.lua") + " " + D("logs/a.jsonl")).status,
            0);
  // Allowing one folder is not allowing its parent.
  Put(D("other/house.lua"), kHouse);
  Put(D("logs/b.jsonl"), SampleNaming(D("other/house.lua")));
  EXPECT_EQ(Sh("canasta audit --allow-ruleset-path " + D("shared") + " " + D("logs/b.jsonl")).status,
            2);
}

TEST_F(CliInputs, UnknownRulesetInAHeaderExitsTwoListingTheNames) {
  Put(D("a.jsonl"), SampleNaming("hutt"));
  Result r = Sh("canasta audit " + D("a.jsonl"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("a.jsonl:1: error: cannot use ruleset \"hutt\": no ruleset \"hutt\": not a "
                       "built-in (bolivia, classic, "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pass --rules FILE"), std::string::npos) << r.out;
}

}  // namespace
