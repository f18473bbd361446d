// The program as a user runs it: exit codes, the three output formats, the
// rules commands and self-play.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/run_shell.h"
#include "tests/test_util.h"

namespace {

using CmdResult = canasta::test::ShellRun;

// Runs `canasta ARGS` (stderr discarded unless `with_stderr`).
CmdResult Canasta(const std::string& args, bool with_stderr = false) {
  return canasta::test::RunShell(std::string(CANASTA_BINARY) + " " + args +
                                 (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::string Sample(const std::string& rel) {
  return std::string(CANASTA_SOURCE_DIR) + "/samples/" + rel;
}

TEST(Cli, VersionAndHelp) {
  CmdResult v = Canasta("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("canasta ", 0), 0u) << v.out;
  for (const char* cmd : {"--help", "audit --help", "rules --help", "simulate --help"}) {
    CmdResult h = Canasta(cmd);
    EXPECT_EQ(h.status, 0) << cmd;
    EXPECT_NE(h.out.find("usage: canasta"), std::string::npos) << cmd;
  }
  EXPECT_EQ(Canasta("").status, 2);
  EXPECT_EQ(Canasta("frobnicate").status, 2);
  EXPECT_EQ(Canasta("audit --format xml " + Sample("classic/game.jsonl")).status, 2);
  EXPECT_EQ(Canasta("audit").status, 2);
}

TEST(Cli, CleanGameExitsZero) {
  CmdResult r = Canasta("audit " + Sample("classic/game.jsonl"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

TEST(Cli, MistakeExitsOneWithCompilerStyleText) {
  const std::string file = Sample("classic/mistakes/frozen-pile-no-pair.jsonl");
  CmdResult r = Canasta("audit " + file);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(file + ":198: error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[pile-frozen-needs-pair]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(file + ":198: note: rule: 000 §13, §14"), std::string::npos) << r.out;
}

// --checks (docs/report-format.md): a switched-off check's findings go, a
// severity change is shown and counted by the exit status.
TEST(Cli, ChecksOptionSwitchesOffAndChangesSeverity) {
  const std::string file = Sample("classic/mistakes/frozen-pile-no-pair.jsonl");
  CmdResult off = Canasta("audit --checks=-pile-frozen-needs-pair " + file);
  EXPECT_EQ(off.out.find("[pile-frozen-needs-pair]"), std::string::npos) << off.out;
  CmdResult warn = Canasta("audit --checks='-*,warning:pile-*' " + file);
  EXPECT_EQ(warn.status, 0) << warn.out;
  EXPECT_NE(warn.out.find(file + ":198: warning: "), std::string::npos) << warn.out;
  CmdResult json = Canasta("audit -f json --checks=note:pile-frozen-needs-pair " + file);
  EXPECT_NE(json.out.find("\"severity\": \"note\""), std::string::npos) << json.out;
  CmdResult bad = Canasta("audit --checks=-pile-frozen-needs-piar " + file, true);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("did you mean \"pile-frozen-needs-pair\""), std::string::npos)
      << bad.out;
}

// --checks applies on top of a ruleset's `checks`: a bare NAME switches back
// on a check the ruleset switched off (docs/report-format.md).
TEST(Cli, ChecksOptionSwitchesBackOnWhatARulesetSwitchedOff) {
  namespace fs = std::filesystem;
  const canasta::test::TempDir temp;
  const fs::path dir = temp.path();
  const std::string rules = (dir / "quiet.lua").string();
  std::ofstream(rules) << "return { name = \"quiet\", extends = \"classic\",\n"
                          "  checks = { [\"pile-frozen-needs-pair\"] = \"off\" } }\n";
  const std::string file = Sample("classic/mistakes/frozen-pile-no-pair.jsonl");
  CmdResult quiet = Canasta("audit --rules " + rules + " " + file);
  EXPECT_EQ(quiet.out.find("[pile-frozen-needs-pair]"), std::string::npos) << quiet.out;
  CmdResult back = Canasta("audit --rules " + rules + " --checks=pile-frozen-needs-pair " + file);
  EXPECT_EQ(back.status, 1);
  EXPECT_NE(back.out.find(file + ":198: error: "), std::string::npos) << back.out;
  EXPECT_NE(back.out.find("[pile-frozen-needs-pair]"), std::string::npos) << back.out;
}

TEST(Cli, UnreadableFileAndUnknownRulesetExitTwo) {
  EXPECT_EQ(Canasta("audit /nonexistent/log.jsonl").status, 2);
  EXPECT_EQ(Canasta("audit --rules no-such-rules " + Sample("classic/game.jsonl")).status, 2);
}

TEST(Cli, JsonReportHasFindingsAndComputedScores) {
  CmdResult r = Canasta("audit --format json " + Sample("classic/mistakes/wrong-hand-score.jsonl"));
  EXPECT_EQ(r.status, 1);
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << r.out.substr(0, 400);
  const auto& game = d["files"][0]["games"][0];
  ASSERT_TRUE(game["findings"].IsArray());
  bool found = false;
  for (const auto& f : game["findings"].GetArray()) {
    if (std::string(f["check"].GetString()) == "score-hand") {
      found = true;
      EXPECT_EQ(f["line"].GetInt(), 63);
      EXPECT_STREQ(f["severity"].GetString(), "error");
    }
  }
  EXPECT_TRUE(found);
  const auto& hand = game["hands"][0];
  EXPECT_EQ(hand["hand"].GetInt(), 1);
  EXPECT_EQ(hand["scores"].Size(), 2u);
  EXPECT_TRUE(hand["breakdown"][0].HasMember("canastas"));
}

TEST(Cli, SarifReport) {
  CmdResult r = Canasta("audit --format sarif " + Sample("classic/mistakes/out-of-turn.jsonl"));
  EXPECT_EQ(r.status, 1);
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_STREQ(d["version"].GetString(), "2.1.0");
  const auto& results = d["runs"][0]["results"];
  ASSERT_GE(results.Size(), 1u);
  EXPECT_STREQ(results[0]["ruleId"].GetString(), "turn-order");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"].GetInt(), 10);
}

TEST(Cli, AuditsADirectoryWithJobs) {
  CmdResult r = Canasta("audit --jobs 2 " + Sample("classic/mistakes"), /*with_stderr=*/true);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("audited 10 file(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("slowest:"), std::string::npos);
}

TEST(Cli, RulesListShowDiff) {
  CmdResult list = Canasta("rules list");
  EXPECT_EQ(list.status, 0);
  for (const char* name : {"classic", "hutto", "two-handed", "three-handed", "jaques", "tutorial",
                           "bolivia"})
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  CmdResult show = Canasta("rules show hutto");
  EXPECT_EQ(show.status, 0);
  EXPECT_NE(show.out.find("stock_draw"), std::string::npos);
  EXPECT_NE(show.out.find("000 §21"), std::string::npos);
  CmdResult diff = Canasta("rules diff classic jaques");
  EXPECT_EQ(diff.status, 0);
  EXPECT_NE(diff.out.find("discard_required_to_go_out"), std::string::npos);
  EXPECT_EQ(Canasta("rules show no-such-rules").status, 2);
}

// A shared ruleset file's own text cannot drive the terminal of whoever
// reads it with `rules show` or `rules diff`: printed escaped, as findings.
TEST(Cli, ARulesetsOwnTextIsPrintedEscaped) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cli-esc-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "esc.lua")
      << "return { name = \"esc\\27[31m\", extends = \"classic\",\n"
         "  description = \"a title \\27]0;pwned\\7 and a clear \\27[2J\",\n"
         "  sources = { hand_size = \"vote\\27[1m\" }, params = { hand_size = 13 } }\n";
  std::ofstream(dir / "raises.lua") << "error(\"boom \\27[2J\")\n";
  const CmdResult show = Canasta("rules show " + (dir / "esc.lua").string());
  EXPECT_EQ(show.status, 0);
  EXPECT_EQ(show.out.find('\x1b'), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("description: a title \\x1b]0;pwned\\x07 and a clear \\x1b[2J\n"),
            std::string::npos)
      << show.out;
  // A line break of its own cannot print a line that looks like the page's.
  std::ofstream(dir / "lines.lua")
      << "return { extends = \"classic\",\n"
         "  description = \"harmless\\nstock_draw    1    default: 000\" }\n";
  const CmdResult lines = Canasta("rules show " + (dir / "lines.lua").string());
  EXPECT_EQ(lines.status, 0);
  EXPECT_NE(lines.out.find("description: harmless\\nstock_draw    1    default: 000\n"),
            std::string::npos)
      << lines.out;
  const CmdResult diff = Canasta("rules diff classic " + (dir / "esc.lua").string());
  EXPECT_EQ(diff.status, 0);
  EXPECT_EQ(diff.out.find('\x1b'), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("esc\\x1b[31m: vote\\x1b[1m"), std::string::npos) << diff.out;
  const CmdResult raises = Canasta("rules show " + (dir / "raises.lua").string(), true);
  EXPECT_EQ(raises.status, 2);
  EXPECT_EQ(raises.out.find('\x1b'), std::string::npos) << raises.out;
  EXPECT_NE(raises.out.find("raises.lua:1: boom \\x1b[2J\n"), std::string::npos) << raises.out;
  EXPECT_NE(raises.out.find("\n\t[C]: in function 'error'\n"), std::string::npos) << raises.out;
  fs::remove_all(dir);
}

TEST(Cli, TreeRendersAHandInProcess) {
  CmdResult svg = Canasta("tree --hand 2 " + Sample("classic/game.jsonl"));
  ASSERT_EQ(svg.status, 0);
  EXPECT_NE(svg.out.find("<svg"), std::string::npos);
  EXPECT_NE(svg.out.find("game 1, hand 2 (classic)"), std::string::npos);
  CmdResult dot = Canasta("tree --all --format dot " + Sample("classic/game.jsonl"));
  ASSERT_EQ(dot.status, 0);
  EXPECT_EQ(dot.out.rfind("digraph", 0), 0u) << dot.out.substr(0, 80);
  // Every turn of hand 1 is there, with its log line.
  EXPECT_NE(dot.out.find("turn 1 · Bob · line 3"), std::string::npos) << dot.out.substr(0, 600);
  EXPECT_NE(dot.out.find("instead of 3S: discarded"), std::string::npos);
  EXPECT_EQ(Canasta("tree --hand 99 " + Sample("classic/game.jsonl")).status, 2);
  EXPECT_EQ(Canasta("tree /nonexistent.jsonl").status, 2);
}

TEST(Cli, SimulateIsDeterministicAndClean) {
  namespace fs = std::filesystem;
  const canasta::test::TempDir temp;
  const fs::path dir = temp.path();
  ASSERT_EQ(Canasta("simulate --rules hutto --games 3 --seed 9 --out " + (dir / "a").string()).status, 0);
  ASSERT_EQ(Canasta("simulate --rules hutto --games 3 --seed 9 --out " + (dir / "b").string()).status, 0);
  for (const char* f : {"game-0001.jsonl", "game-0002.jsonl", "game-0003.jsonl"}) {
    std::ifstream a(dir / "a" / f), b(dir / "b" / f);
    std::string sa((std::istreambuf_iterator<char>(a)), {}), sb((std::istreambuf_iterator<char>(b)), {});
    EXPECT_FALSE(sa.empty());
    EXPECT_EQ(sa, sb) << f;
  }
  EXPECT_EQ(Canasta("audit " + (dir / "a").string()).status, 0);
  // No game to play is a usage error that names the option.
  CmdResult none = Canasta("simulate --games 0 --out " + (dir / "c").string(), true);
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.out, "canasta simulate: error: --games is 0; it must be at least 1\n");
  EXPECT_FALSE(fs::exists(dir / "c"));
}

}  // namespace
