// The program against untrusted logs and odd inputs: what a log's header may
// name as its ruleset, inputs that hold nothing to audit, outputs that would
// destroy an input, write errors. Each test runs the built program.
#include <gtest/gtest.h>
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
#include "tests/run_shell.h"

namespace fs = std::filesystem;

namespace {

using Result = canasta::test::ShellRun;  // out: stdout and stderr, in order

// Runs a shell line in which the word `canasta` is the program; stderr is merged.
Result Sh(const std::string& line) {
  return canasta::test::RunShell(
      "export CANASTA=" + std::string(CANASTA_BINARY) + "; { " +
      std::regex_replace(line, std::regex("(^|[ |;(\"])canasta "), "$1\"$$CANASTA\" ") + "; } 2>&1");
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

TEST_F(CliInputs, ABrokenRulesetBesideTheLogIsNotQuoted) {
  Put(D("logs/house.lua"), "return {name = \"h\",\n SECRET-7f3a9 }\n");
  Put(D("logs/a.jsonl"), SampleNaming("house.lua"));
  Result r = Sh("canasta audit " + D("logs/a.jsonl"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("cannot use ruleset \"house.lua\": ruleset file " + D("logs/house.lua") +
                       " cannot be loaded (the error is at " + D("logs/house.lua") +
                       ":2); audit with --rules " + D("logs/house.lua") + " to see it"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("7f3a9"), std::string::npos) << r.out;
  // Named by the user, the error is shown whole.
  Result named = Sh("canasta audit --rules " + D("logs/house.lua") + " " + D("logs/a.jsonl"));
  EXPECT_EQ(named.status, 2);
  EXPECT_NE(named.out.find("house.lua:2: malformed number near '7f3a9'"), std::string::npos)
      << named.out;
}

TEST_F(CliInputs, TheUserMayAllowAFolderOrForceARuleset) {
  Put(D("shared/house.lua"), kHouse);
  Put(D("logs/a.jsonl"), SampleNaming(D("shared/house.lua")));
  EXPECT_EQ(Sh("canasta audit " + D("logs/a.jsonl")).status, 2);
  EXPECT_EQ(
      Sh("canasta audit --allow-ruleset-path " + D("shared") + " " + D("logs/a.jsonl")).status, 0);
  EXPECT_EQ(Sh("canasta audit --rules " + D("shared/house.lua") + " " + D("logs/a.jsonl")).status,
            0);
  // Allowing one folder is not allowing its parent.
  Put(D("other/house.lua"), kHouse);
  Put(D("logs/b.jsonl"), SampleNaming(D("other/house.lua")));
  EXPECT_EQ(
      Sh("canasta audit --allow-ruleset-path " + D("shared") + " " + D("logs/b.jsonl")).status, 2);
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

// --- Every input accounted for (issue 7) ---

TEST_F(CliInputs, APathWithNoLogsExitsTwo) {
  fs::create_directories(D("empty"));
  Put(D("other/a.json"), "{}");
  Put(D("other/b.txt"), "x");
  for (const char* dir : {"empty", "other"}) {
    Result r = Sh("canasta audit " + D(dir));
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(r.out, "canasta audit: error: no canasta-log/1 files under " + D(dir) +
                         " (looked for *.jsonl; --glob PATTERN for other names)\n");
  }
}

TEST_F(CliInputs, AnEmptyFileNamedIsAnError) {
  Put(D("e.jsonl"), "");
  Result r = Sh("canasta audit " + D("e.jsonl"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out, D("e.jsonl") +
                       ": error: this file is empty: there is no canasta-log/1 game to audit "
                       "[log-not-canasta-log]\n" +
                       D("e.jsonl") +
                       ": note: the first line must be "
                       "{\"type\":\"game\",\"format\":\"canasta-log/1\",...}\n");
}

TEST_F(CliInputs, DirectoriesTakeJsonlOrTheGlobAndNamedFilesAnyName) {
  Put(D("logs/a.log"),
      Slurp(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/out-of-turn.jsonl"));
  Put(D("logs/b.txt"), Slurp(kSample));
  EXPECT_EQ(Sh("canasta audit " + D("logs")).status, 2);
  Result glob = Sh("canasta audit --glob '*.log' " + D("logs"));
  EXPECT_EQ(glob.status, 1) << glob.out;
  EXPECT_NE(glob.out.find(D("logs/a.log") + ":10: error: "), std::string::npos) << glob.out;
  Result two = Sh("canasta audit --summary --glob '*.log' --glob '*.txt' " + D("logs"));
  EXPECT_NE(two.out.find("audited 2 file(s): 2 game(s)"), std::string::npos) << two.out;
  EXPECT_EQ(Sh("canasta audit " + D("logs/b.txt")).status, 0);
}

TEST_F(CliInputs, DashReadsStandardInput) {
  Result clean = Sh("canasta audit - < " + kSample);
  EXPECT_EQ(clean.status, 0) << clean.out;
  EXPECT_EQ(clean.out, "");
  Result mistake = Sh("canasta audit - < " + std::string(CANASTA_SOURCE_DIR) +
                      "/samples/classic/mistakes/out-of-turn.jsonl");
  EXPECT_EQ(mistake.status, 1);
  EXPECT_EQ(mistake.out.rfind("<stdin>:10: error: ", 0), 0u) << mistake.out;
  // A log on stdin has no folder: it may name only built-ins.
  Put(D("house.lua"), kHouse);
  Put(D("a.jsonl"), SampleNaming("house.lua"));
  Result named = Sh("cd " + D() + " && canasta audit - < a.jsonl");
  EXPECT_EQ(named.status, 2) << named.out;
  EXPECT_NE(named.out.find("this log has no folder (standard input)"), std::string::npos);
  EXPECT_EQ(Sh("canasta audit - -").status, 2);
}

TEST_F(CliInputs, CannotReadSaysWhyAndTheSummaryCountsIt) {
  Result r = Sh("canasta audit " + D("missing.jsonl") + " " + kSample);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("canasta: error: cannot read '" + D("missing.jsonl") +
                       "': No such file or directory\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("audited 2 file(s), 1 unreadable: 1 game(s)"), std::string::npos) << r.out;
  Result json = Sh("canasta audit --format json " + D("missing.jsonl"));
  EXPECT_NE(json.out.find("\"reason\": \"No such file or directory\""), std::string::npos)
      << json.out;
  Result sarif = Sh("canasta audit --format sarif " + D("missing.jsonl"));
  EXPECT_NE(sarif.out.find("': No such file or directory\""), std::string::npos) << sarif.out;
}

TEST_F(CliInputs, ColourOnATerminalUnlessNoColor) {
  const std::string mistake =
      std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/out-of-turn.jsonl";
  // `script` gives the program a terminal.
  Result tty = Sh("script -qec \"canasta audit --no-progress " + mistake + "\" /dev/null");
  EXPECT_NE(tty.out.find("\x1b[1;31merror:"), std::string::npos) << tty.out;
  Result no =
      Sh("NO_COLOR=1 script -qec \"canasta audit --no-progress " + mistake + "\" /dev/null");
  EXPECT_NE(no.out.find("error: "), std::string::npos) << no.out;
  EXPECT_EQ(no.out.find("\x1b["), std::string::npos) << no.out;
  // The report's own stream decides: a terminal with stderr elsewhere is
  // coloured, a pipe with stderr on the terminal is not.
  Result out_tty = Sh("script -qec \"canasta audit --no-progress " + mistake +
                      " 2>/dev/null\" /dev/null");
  EXPECT_NE(out_tty.out.find("\x1b[1;31merror:"), std::string::npos) << out_tty.out;
  Result piped = Sh("script -qec \"canasta audit --no-progress " + mistake + " | cat\" /dev/null");
  EXPECT_NE(piped.out.find("error: "), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find("\x1b["), std::string::npos) << piped.out;
  EXPECT_NE(Sh("canasta audit --color always " + mistake).out.find("\x1b[1;31merror:"),
            std::string::npos);
  EXPECT_EQ(Sh("canasta audit --color sometimes " + mistake).status, 2);
}

TEST_F(CliInputs, HelpAuditShowsTheAuditHelp) {
  Result r = Sh("canasta help audit");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("usage: canasta audit [options] PATH...", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("--allow-ruleset-path"), std::string::npos);
  EXPECT_EQ(Sh("canasta help simulate").out.rfind("usage: canasta simulate", 0), 0u);
}

TEST_F(CliInputs, MoreBotsThanSeatsIsAUsageError) {
  Result r = Sh("canasta simulate --rules two-handed --bots random,sensible,random");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out,
            "canasta simulate: error: --bots names 3 bots; ruleset \"two-handed\" has 2 seats\n");
  EXPECT_EQ(Sh("canasta simulate --rules two-handed --bots random,sensible > /dev/null").status, 0);
}

TEST_F(CliInputs, SimulateSaysWhatItWrote) {
  Result r = Sh("canasta simulate --rules hutto --games 2 --out " + D("sim"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "wrote 2 log(s) to " + D("sim") +
                       "/ (game-0001.jsonl to game-0002.jsonl); ruleset \"hutto\"\n");
}

TEST_F(CliInputs, SimulatedLogsOfAHouseRulesetAuditCleanWithoutRules) {
  Put(D("hr/common/base.lua"),
      "return {name = \"base\", extends = \"classic\", params = {hand_size = 13}}\n");
  Put(D("hr/house.lua"), "return {name = \"house\", extends = \"common/base.lua\"}\n");
  Result r = Sh("cd " + D() + " && canasta simulate --rules ./hr/house.lua --games 2 --out sim");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "wrote 2 log(s) to sim/ (game-0001.jsonl to game-0002.jsonl) and the ruleset file(s) "
            "sim/ruleset/common/base.lua sim/ruleset/house.lua; ruleset \"ruleset/house.lua\"\n");
  EXPECT_EQ(Slurp(D("sim/ruleset/house.lua")), Slurp(D("hr/house.lua")));
  EXPECT_EQ(
      Slurp(D("sim/game-0001.jsonl"))
          .rfind(
              "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"ruleset\":\"ruleset/house.lua\"",
              0),
      0u);
  Result audit = Sh("canasta audit " + D("sim"));
  EXPECT_EQ(audit.status, 0) << audit.out;
  // Moved elsewhere, the folder still audits: nothing points outside it.
  fs::rename(D("sim"), D("moved"));
  fs::remove_all(D("hr"));
  EXPECT_EQ(Sh("canasta audit " + D("moved")).status, 0);
}

// A hook that fails while the bots play is said on stderr, game by game:
// each game has hooks of its own (its own Lua state, its own budget), so a
// hook that fails at its fifth call fails in every game.
TEST_F(CliInputs, SimulateWarnsOfAHookThatFailedInEachGame) {
  Put(D("fifth.lua"),
      "local calls = 0\n"
      "return { name = \"fifth\", extends = \"classic\", hooks = {\n"
      "  may_take_pile = function(ctx, rules)\n"
      "    calls = calls + 1\n"
      "    if calls == 5 then error(\"the fifth call\") end\n"
      "  end } }\n");
  Result r = Sh("canasta simulate --rules " + D("fifth.lua") + " --games 2 --seed 1 >/dev/null");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "canasta simulate: warning: game 1: ruleset hook may_take_pile failed (1 call): "
            "the fifth call (" +
                D("fifth.lua") +
                ":5); the engine's default answer was used\n"
                "canasta simulate: warning: game 2: ruleset hook may_take_pile failed (1 call): "
                "the fifth call (" +
                D("fifth.lua") + ":5); the engine's default answer was used\n");
}

// The tree's values come from rollouts: a hook failing there is a warning.
TEST_F(CliInputs, TreeWarnsOfAHookThatFailedInTheRollouts) {
  Put(D("big.lua"),
      "return { name = \"big\", extends = \"classic\", hooks = {\n"
      "  may_take_pile = function(ctx, rules)\n"
      "    if #ctx.pile >= 25 then error(\"a pile of 25\") end\n"
      "  end } }\n");
  Result r = Sh("canasta tree --hand 1 --rollouts 2 --rules " + D("big.lua") + " -o " + D("t.dot") +
                " " + kSample);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out,
            "canasta tree: warning: ruleset hook may_take_pile failed in the rollouts "
            "(121 calls): a pile of 25 (" +
                D("big.lua") +
                ":3); the values shown used "
                "the engine's default answer for them\n");
  // Without rollouts no hook of the tree's own runs: nothing to say.
  EXPECT_EQ(
      Sh("canasta tree --hand 1 --rules " + D("big.lua") + " -o " + D("t.dot") + " " + kSample).out,
      "");
}

// --- Defects an outside attack found (issue 8) ---

// A name found by the walk comes from the disk: a terminal's control codes
// in it are printed escaped, in the notes and the summary as in findings.
TEST_F(CliInputs, NamesFoundByTheWalkArePrintedEscaped) {
  const std::string mistake =
      Slurp(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/out-of-turn.jsonl");
  Put(D("logs/e\x1b[31mred.jsonl"), mistake);
  Put(D("logs/g\x1b[32mgreen.jsonl"), Slurp(kSample));  // so that the slowest has one too
  fs::create_directory_symlink(D("logs"), D("logs/l\x1b[2Jk"));
  Result r = Sh("canasta audit --no-progress " + D("logs"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(D("logs/l") + "\\x1b[2Jk is a link to a directory"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("slowest: " + D("logs/")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(D("logs/e") + "\\x1b[31mred.jsonl:10: error: "), std::string::npos) << r.out;
}

TEST_F(CliInputs, DirectoryLinksAreNotFollowed) {
  Put(D("logs/a.jsonl"), Slurp(kSample));
  fs::create_directory_symlink(".", D("logs/self"));
  fs::create_directory_symlink("..", D("logs/up"));
  Result r = Sh("canasta audit --summary " + D("logs"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("canasta audit: note: " + D("logs/self") +
                       " is a link to a directory; not followed (name it to audit it)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(D("logs/up") + " is a link to a directory"), std::string::npos);
  EXPECT_NE(r.out.find("audited 1 file(s)"), std::string::npos) << r.out;
  // Named, a link is followed.
  EXPECT_EQ(Sh("canasta audit --summary " + D("logs/self")).out.find("audited 1 file(s)") !=
                std::string::npos,
            true);
}

TEST_F(CliInputs, AnOutputThatIsAnInputIsRefused) {
  Put(D("logs/a.jsonl"), Slurp(kSample));
  fs::create_hard_link(D("logs/a.jsonl"), D("other-name.jsonl"));
  const std::string before = Slurp(D("logs/a.jsonl"));
  for (const std::string& in : {D("logs/a.jsonl"), D("logs")}) {
    Result r = Sh("canasta audit -o " + D("other-name.jsonl") + " " + in);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(r.out, "canasta audit: error: the output '" + D("other-name.jsonl") +
                         "' is the input '" + D("logs/a.jsonl") +
                         "'; it would be destroyed (write the output elsewhere)\n");
    EXPECT_EQ(Slurp(D("logs/a.jsonl")), before);
  }
  // Named through a link (/dev/stdout appending to the log): the same file.
  Result r = Sh("canasta audit -o /dev/stdout " + D("logs") + " >> " + D("logs/a.jsonl"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("is the input '" + D("logs/a.jsonl") + "'; it would be destroyed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Slurp(D("logs/a.jsonl")), before);
  // A device is written in place and destroys nothing: no walk refuses it.
  EXPECT_EQ(Sh("canasta audit -o /dev/null " + D("logs")).status, 0);
}

TEST_F(CliInputs, AnOutputFileIsReplacedWhole) {
  const std::string mistake =
      std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/out-of-turn.jsonl";
  Put(D("out/report.txt"), "old report\n");
  Result r = Sh("canasta audit -o " + D("out/report.txt") + " " + mistake);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Slurp(D("out/report.txt")), Sh("canasta audit " + mistake).out);
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(D("out"))) entries += e.path().filename() != "";
  EXPECT_EQ(entries, 1u);  // no temporary file left
}

TEST_F(CliInputs, WriteErrorsExitTwoWithTheReason) {
  const std::string mistake =
      std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/out-of-turn.jsonl";
  Result full = Sh("canasta audit -o /dev/full " + mistake);
  EXPECT_EQ(full.status, 2);
  EXPECT_EQ(full.out, "canasta audit: error: cannot write '/dev/full': No space left on device\n");
  for (const char* format : {"text", "json", "sarif"}) {
    Result out =
        Sh("canasta audit --format " + std::string(format) + " " + mistake + " > /dev/full");
    EXPECT_EQ(out.status, 2) << format;
    EXPECT_EQ(out.out,
              "canasta audit: error: cannot write standard output: No space left on device\n");
  }
  Result closed = Sh("canasta audit " + mistake + " >&-");
  EXPECT_EQ(closed.status, 2);
  EXPECT_EQ(closed.out,
            "canasta audit: error: cannot write standard output: Bad file descriptor\n");
  Result rules = Sh("canasta rules list > /dev/full");
  EXPECT_EQ(rules.status, 2);
  EXPECT_EQ(rules.out, "canasta: error: cannot write standard output: No space left on device\n");
  Result sim = Sh("canasta simulate >&-");
  EXPECT_EQ(sim.status, 2);
}

// With standard error closed, the output file would take its descriptor
// and the summary would be written into the report: the number is held.
TEST_F(CliInputs, AClosedStandardErrorNeverWritesIntoTheOutputFile) {
  const std::string inputs = D("missing.jsonl") + " " + std::string(CANASTA_SOURCE_DIR) +
                             "/samples/classic/mistakes/out-of-turn.jsonl";
  Result open = Sh("canasta audit --no-progress -o " + D("open.txt") + " " + inputs +
                   " 2>/dev/null");
  Result closed = Sh("canasta audit --no-progress -o " + D("closed.txt") + " " + inputs + " 2>&-");
  EXPECT_EQ(open.status, 2);
  EXPECT_EQ(closed.status, 2);
  const std::string report = Slurp(D("open.txt"));
  EXPECT_NE(report.find("[turn-order]"), std::string::npos) << report;
  EXPECT_EQ(report.find("audited 2 file(s)"), std::string::npos) << report;
  EXPECT_EQ(Slurp(D("closed.txt")), report);
}

TEST_F(CliInputs, EveryFormatGivesTheSameBytesWithOneOrSeveralJobs) {
  const std::string mistakes = std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes";
  for (const char* format : {"text", "json", "sarif"}) {
    const std::string cmd = "canasta audit --no-progress --format " + std::string(format) + " " +
                            mistakes + " " + D("missing.jsonl") + " " + mistakes + " 2>/dev/null";
    Result one = Sh(cmd + " --jobs 1");
    Result three = Sh(cmd + " --jobs 3");
    EXPECT_EQ(one.status, 2);
    EXPECT_FALSE(one.out.empty());
    EXPECT_EQ(three.out, one.out) << format;
  }
}

TEST_F(CliInputs, JobsAreCapped) {
  Result r = Sh("canasta audit --jobs 1000000 " + kSample);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("canasta audit: note: --jobs 1000000 is capped at "), std::string::npos)
      << r.out;
}

TEST_F(CliInputs, RunningOutOfMemoryIsExitTwoNotACrash) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory at start, so the program "
                  "cannot start under ulimit -v; the plain build of the suite runs this test";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory at start, so the program "
                  "cannot start under ulimit -v; the plain build of the suite runs this test";
#endif
#endif
  // /dev/zero is one endless line; with little memory the reader's buffer
  // cannot grow: a message and exit 2 (or a finding), never std::terminate.
  Result r = Sh("(ulimit -v 300000; canasta audit --jobs 2 /dev/zero)");
  EXPECT_TRUE(r.status == 2 || r.status == 1) << r.status << "\n" << r.out;
  EXPECT_EQ(r.out.find("terminate"), std::string::npos) << r.out;
  if (r.status == 2) {
    EXPECT_EQ(r.out, "canasta audit: error: out of memory while auditing '/dev/zero'\n");
  }
}

}  // namespace
