// Spreading an audit over processes (issue 13, docs/scale.md): the JSON Lines
// report, `canasta summarize`, and `audit --shard K/N`. Most tests run the
// built program, as the recipe of docs/scale.md does.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lint/format.h"
#include "tests/run_shell.h"

namespace fs = std::filesystem;

namespace canasta {
namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void Put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// FNV-1a 64 as docs/scale.md defines it, written here again so that the test
// holds the program to the documented split, not to its own code.
uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

class Scale : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/canasta-scale-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string D(const std::string& rel = "") const { return (dir_ / rel).string(); }

  // Runs a shell line in which $C is the program; stdout and stderr apart.
  Result Sh(const std::string& line) const {
    const std::string err = D("stderr.txt");
    const std::string cmd = "cd '" + D() + "' && C='" + std::string(CANASTA_BINARY) + "'; { " +
                            line + "; } 2>'" + err + "'";
    const canasta::test::ShellRun run = canasta::test::RunShell(cmd);
    Result r;
    r.status = run.status;
    r.out = run.out;
    r.err = Slurp(err);
    fs::remove(err);
    return r;
  }

  // corpus/: 30 simulated games below sim/, and the samples (16 logs, 13
  // errors of 12 checks) below samples/.
  void MakeCorpus() {
    Result sim = Sh("$C simulate --games 30 --seed 7 --out corpus/sim/2026");
    ASSERT_EQ(sim.status, 0) << sim.err;
    fs::copy(std::string(CANASTA_SOURCE_DIR) + "/samples", D("corpus/samples"),
             fs::copy_options::recursive);
    // The corpus is the classic-family samples whose counts are asserted
    // below; the gallery's house-rule games and the Modern American samples
    // have tests of their own.
    fs::remove_all(D("corpus/samples/rulesets/gallery"));
    fs::remove_all(D("corpus/samples/modern-american"));
  }

  // The "file" of every line of a JSON Lines report, in order.
  static std::vector<std::string> FilesOf(const std::string& jsonl) {
    std::vector<std::string> files;
    for (const std::string& line : Lines(jsonl)) {
      rapidjson::Document d;
      d.Parse(line.c_str());
      EXPECT_TRUE(!d.HasParseError() && d.IsObject() && d.HasMember("file")) << line;
      if (d.HasParseError() || !d.IsObject() || !d.HasMember("file")) continue;
      files.push_back(d["file"].GetString());
    }
    return files;
  }

  fs::path dir_;
};

// The audit's own summary without its last line, the slowest file (a time
// measured by that process, in no report).
std::string WithoutSlowest(const std::string& err) {
  const size_t at = err.rfind("slowest: ");
  return at == std::string::npos ? err : err.substr(0, at);
}

TEST_F(Scale, JsonlIsTheJsonReportsFileEntriesOnePerLine) {
  MakeCorpus();
  Result lines = Sh("$C audit --no-progress -j 3 --format jsonl corpus");
  Result json = Sh("$C audit --no-progress -j 3 --format json corpus");
  ASSERT_EQ(lines.status, 1) << lines.err;
  ASSERT_EQ(json.status, 1);
  rapidjson::Document report;
  report.Parse(json.out.c_str());
  ASSERT_FALSE(report.HasParseError());
  const std::vector<std::string> records = Lines(lines.out);
  ASSERT_EQ(records.size(), 46u);
  ASSERT_EQ(report["files"].Size(), 46u);
  for (size_t i = 0; i < records.size(); ++i) {
    rapidjson::Document d;
    d.Parse(records[i].c_str());
    ASSERT_FALSE(d.HasParseError()) << records[i].substr(0, 200);
    // The record's format comes first, then exactly the file entry's members.
    ASSERT_TRUE(d.IsObject());
    EXPECT_STREQ(d.MemberBegin()->name.GetString(), "schema");
    EXPECT_STREQ(d["schema"].GetString(), "canasta-report-line/1");
    d.RemoveMember("schema");
    EXPECT_TRUE(d == report["files"][rapidjson::SizeType(i)]) << records[i].substr(0, 200);
  }
  // In input order (as text and JSON), findings and computed scores included.
  EXPECT_EQ(FilesOf(lines.out).front(), "corpus/samples/classic/game.jsonl");
  EXPECT_EQ(FilesOf(lines.out).back(), "corpus/sim/2026/game-0030.jsonl");
  EXPECT_NE(lines.out.find("\"check\":\"pile-frozen-needs-pair\""), std::string::npos);
  EXPECT_NE(lines.out.find("\"breakdown\":[{\"canastas\":"), std::string::npos);
}

TEST_F(Scale, SummaryOfShardsMergedIsTheSummaryOfOneRun) {
  MakeCorpus();
  Result one = Sh("$C audit --no-progress --format jsonl corpus > one.jsonl");
  ASSERT_EQ(one.status, 1) << one.err;
  // Three processes at once, no coordinator, each writing its own part.
  Result shards =
      Sh("for k in 1 2 3; do $C audit --no-progress -j 1 --shard $k/3 --format jsonl corpus "
         "> part$k.jsonl & done; wait");
  ASSERT_EQ(shards.status, 0) << shards.err;
  for (const char* part : {"part1.jsonl", "part2.jsonl", "part3.jsonl"})
    EXPECT_LT(Lines(Slurp(D(part))).size(), 46u) << part;  // each a real part

  const std::string want =
      "audited 46 file(s): 46 game(s), 265 hand(s), 23928 event(s); 12 error(s), 0 warning(s)\n"
      "  1  card-not-held\n"
      "  1  game-winner\n"
      "  1  initial-meld-minimum\n"
      "  1  meld-too-many-wilds\n"
      "  1  out-without-canastas\n"
      "  1  pile-frozen-needs-pair\n"
      "  2  score-breakdown\n"
      "  1  score-hand\n"
      "  1  score-total\n"
      "  1  stock-mismatch\n"
      "  1  turn-order\n";
  EXPECT_EQ(WithoutSlowest(one.err), want);
  Result of_one = Sh("$C summarize one.jsonl");
  EXPECT_EQ(of_one.status, 1) << of_one.err;  // as the audit: errors found
  EXPECT_EQ(of_one.out, want);
  EXPECT_EQ(of_one.err, "");
  // Concatenated in any order, or given as several files.
  Result merged = Sh("cat part3.jsonl part1.jsonl part2.jsonl | $C summarize");
  EXPECT_EQ(merged.status, 1) << merged.err;
  EXPECT_EQ(merged.out, want);
  Result files = Sh("$C summarize part2.jsonl - part1.jsonl < part3.jsonl");
  EXPECT_EQ(files.out, want);
  // The same records, only in another order.
  Result sorted_one = Sh("sort one.jsonl");
  Result sorted_parts = Sh("cat part*.jsonl | sort");
  EXPECT_EQ(sorted_parts.out, sorted_one.out);

  // JSON: the summary object of the JSON report, with the events and checks.
  Result json = Sh("$C audit --no-progress --format json corpus");
  Result json_merged = Sh("cat part*.jsonl | $C summarize --format json");
  EXPECT_EQ(json_merged.status, 1);
  rapidjson::Document report, summary;
  report.Parse(json.out.c_str());
  summary.Parse(json_merged.out.c_str());
  ASSERT_FALSE(report.HasParseError() || summary.HasParseError()) << json_merged.out;
  EXPECT_STREQ(summary["schema"].GetString(), "canasta-summary/1");
  EXPECT_TRUE(summary["summary"] == report["summary"]) << json_merged.out;
  EXPECT_EQ(summary["events"].GetInt64(), 23928);
  EXPECT_EQ(summary["checks"]["score-breakdown"].GetInt64(), 2);
  EXPECT_EQ(summary["checks"].MemberCount(), 11u);
}

TEST_F(Scale, EveryFileIsInExactlyOneShardByTheHashOfItsRelativePath) {
  MakeCorpus();
  const std::vector<std::string> all =
      FilesOf(Sh("$C audit --no-progress --format jsonl corpus").out);
  ASSERT_EQ(all.size(), 46u);
  // The same corpus at another mount point, named with a trailing slash.
  fs::create_directories(D("mnt/b"));
  fs::copy(D("corpus"), D("mnt/b/corpus"), fs::copy_options::recursive);
  for (int n : {1, 2, 3, 7}) {
    std::multiset<std::string> seen;
    for (int k = 1; k <= n; ++k) {
      const std::string shard = " --shard " + std::to_string(k) + "/" + std::to_string(n);
      Result r = Sh("$C audit --no-progress --format jsonl" + shard + " corpus");
      ASSERT_LE(r.status, 1) << r.err;
      // No directory looks empty to a shard, not even samples/two-handed/ with its one log.
      EXPECT_EQ(r.err.find("canasta audit: error"), std::string::npos) << shard << "\n" << r.err;
      // Stable: the same bytes again, and the same split from elsewhere.
      EXPECT_EQ(Sh("$C audit --no-progress -j 2 --format jsonl" + shard + " corpus").out, r.out);
      std::vector<std::string> moved;
      for (const std::string& f :
           FilesOf(Sh("$C audit --no-progress --format jsonl" + shard + " mnt/b/corpus/").out))
        moved.push_back("corpus/" + f.substr(std::string("mnt/b/corpus/").size()));
      const std::vector<std::string> files = FilesOf(r.out);
      EXPECT_EQ(moved, files) << shard;
      for (const std::string& f : files) {
        seen.insert(f);
        // docs/scale.md: FNV-1a 64 of the path below the argument, mod N, plus 1.
        const std::string relative = f.substr(std::string("corpus/").size());
        EXPECT_EQ(Fnv1a(relative) % uint64_t(n), uint64_t(k - 1)) << f << shard;
      }
    }
    EXPECT_EQ(seen, std::multiset<std::string>(all.begin(), all.end())) << "N=" << n;
  }
  // A named directory whose one log is in another part is not "empty" (exit 0, no error).
  int found = 0;
  for (int k = 1; k <= 7; ++k) {
    Result r =
        Sh("$C audit --format jsonl --shard " + std::to_string(k) + "/7 corpus/samples/two-handed");
    EXPECT_EQ(r.status, 0) << k << "\n" << r.err;
    EXPECT_EQ(r.err, "") << k;
    found += int(FilesOf(r.out).size());
  }
  EXPECT_EQ(found, 1);
  // A file named as an argument goes by its file name, wherever it lies.
  const uint64_t part = Fnv1a("game-0003.jsonl") % 2 + 1;
  const std::string shard = " --shard " + std::to_string(part) + "/2 ";
  EXPECT_EQ(FilesOf(Sh("$C audit --format jsonl" + shard + "corpus/sim/2026/game-0003.jsonl").out),
            std::vector<std::string>{"corpus/sim/2026/game-0003.jsonl"});
  EXPECT_EQ(Sh("$C audit --format jsonl --shard " + std::to_string(3 - part) +
               "/2 corpus/sim/2026/game-0003.jsonl")
                .out,
            "");
}

TEST_F(Scale, ABadShardIsAUsageError) {
  Put(D("a.jsonl"), Slurp(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl"));
  for (const char* bad : {"0/3", "4/3", "1/0", "3", "a/3", "1/b", "-1/3", "+1/3", "1/3/", " 1/3",
                          "1/3x", "/3", "1/", "1/99999999999999999999999"}) {
    Result r = Sh(std::string("$C audit --shard '") + bad + "' a.jsonl");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.out, "") << bad;
    EXPECT_EQ(r.err, std::string("canasta audit: error: --shard '") + bad +
                         "': expected K/N, two whole numbers with 1 <= K <= N (--shard 2/8)\n")
        << bad;
  }
  Result stdin_shard = Sh("$C audit --shard 1/2 - < a.jsonl");
  EXPECT_EQ(stdin_shard.status, 2);
  EXPECT_EQ(stdin_shard.err,
            "canasta audit: error: --shard splits files and directories, not standard input "
            "(-)\n");
  EXPECT_EQ(Sh("$C audit --shard 1/1 a.jsonl").status, 0);
}

TEST_F(Scale, SummarizeReportsEveryBadLineWithItsLine) {
  Result good = Sh("$C audit --format jsonl " + std::string(CANASTA_SOURCE_DIR) +
                   "/samples/classic/mistakes/wrong-hand-score.jsonl");
  ASSERT_EQ(good.status, 1);
  const std::string record = Lines(good.out).at(0);
  std::string wrong_events = record;
  wrong_events.replace(wrong_events.find("\"events\":"), 9, "\"events\":\"x\",\"was\":");
  const std::string cut = record.substr(0, record.find("\"games\""));
  Put(D("s.jsonl"), record + "\n" +                              // 1
                        cut + "\n" +                             // 2: cut short
                        "\n" +                                   // 3: blank, ignored
                        "{\"schema\":\"canasta-report/1\"}\n" +  // 4
                        "[1,2]\n" +                              // 5
                        wrong_events + "\n" +                    // 6
                        record + "\n");                          // 7
  Result r = Sh("$C summarize s.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out,
            "audited 2 file(s): 2 game(s), 12 hand(s), 1196 event(s); 2 error(s), 0 warning(s)\n"
            "  2  score-hand\n");
  const std::string note = ": note: the summary leaves out the log this line describes\n";
  EXPECT_EQ(
      r.err,
      "s.jsonl:2: error: this line is not valid JSON: Missing a name for object member "
      "(at byte " +
          std::to_string(cut.size() + 1) +
          ") [log-bad-json]\n"
          "s.jsonl:2" +
          note +
          "s.jsonl:4: error: this line is not a canasta-report-line/1 record: its \"schema\" "
          "is \"canasta-report/1\" [log-bad-event]\n"
          "s.jsonl:4" +
          note +
          "s.jsonl:5: error: this line is not a canasta-report-line/1 record: it is not a JSON "
          "object [log-bad-event]\n"
          "s.jsonl:5" +
          note +
          "s.jsonl:6: error: this line is not a canasta-report-line/1 record: "
          "\"games[0].events\" is not an integer, 0 or more [log-bad-event]\n"
          "s.jsonl:6" +
          note);
  // The other inputs are still read; one that cannot be is said so.
  Result missing = Sh("$C summarize nothing-here.jsonl - < s.jsonl");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(Lines(missing.err).at(0),
            "canasta: error: cannot read 'nothing-here.jsonl': No such file or directory");
  EXPECT_EQ(Lines(missing.err).at(1).rfind("<stdin>:2: error: ", 0), 0u) << missing.err;
  EXPECT_EQ(missing.out, r.out);
}

TEST_F(Scale, SummarizeOfSomethingElseIsOneFinding) {
  // A log, and a --format json report: every line is wrong, for one cause.
  const std::string log = std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl";
  Result r = Sh("$C summarize " + log);
  EXPECT_EQ(r.status, 2);
  // Ten lines and no record: the file is not read on (as the log reader).
  EXPECT_EQ(r.err, log +
                       ":1: error: no line of this file is a canasta-report-line/1 record (the "
                       "first 10 lines; the rest is not read); `canasta summarize` reads what "
                       "`canasta audit --format jsonl` writes [log-bad-event]\n" +
                       log +
                       ":1: note: line 1: this line is not a canasta-report-line/1 record: it "
                       "has no \"schema\"; it is a \"canasta-log/1\" line, not a line of "
                       "`canasta audit --format jsonl`\n");
  EXPECT_EQ(r.out,
            "audited 0 file(s): 0 game(s), 0 hand(s), 0 event(s); 0 error(s), 0 warning(s)\n");
  Result json = Sh("$C audit --format json " + log + " > report.json; $C summarize report.json");
  EXPECT_EQ(json.status, 2);
  EXPECT_EQ(Lines(json.err).size(), 2u) << json.err;
  EXPECT_EQ(json.err.rfind("report.json:1: error: no line of this file is a", 0), 0u) << json.err;
  // An empty stream is an empty summary, and no error.
  Result empty = Sh("$C summarize < /dev/null");
  EXPECT_EQ(empty.status, 0);
  EXPECT_EQ(empty.err, "");
  // Fewer lines than the limit are all counted.
  const std::string three = "{\"a\":1}\n[]\n{}\n";
  Put(D("three.jsonl"), three);
  Result short_one = Sh("$C summarize three.jsonl");
  EXPECT_EQ(short_one.status, 2);
  EXPECT_EQ(Lines(short_one.err)
                .at(0)
                .rfind("three.jsonl:1: error: no line of this file is a "
                       "canasta-report-line/1 record (3 lines); ",
                       0),
            0u)
      << short_one.err;
}

// Streams that never end, or one line that never does: given up as the log
// reader gives them up (docs/scale.md), not read for ever.
TEST_F(Scale, SummarizeGivesUpAStreamWithNoRecordInItsFirstLines) {
  Result endless = Sh("yes 'not a record' | timeout 60 $C summarize");
  EXPECT_EQ(endless.status, 2);
  EXPECT_EQ(Lines(endless.err).at(0),
            "<stdin>:1: error: no line of this file is a canasta-report-line/1 record (the first "
            "10 lines; the rest is not read); `canasta summarize` reads what `canasta audit "
            "--format jsonl` writes [log-bad-json]");
  Result zero = Sh("timeout 60 $C summarize /dev/zero");
  EXPECT_EQ(zero.status, 2);
  EXPECT_EQ(Lines(zero.err).at(0),
            "/dev/zero:1: error: this line is longer than 64 MiB before any record: the rest of "
            "the file is not read [log-bad-event]");
  EXPECT_EQ(zero.out,
            "audited 0 file(s): 0 game(s), 0 hand(s), 0 event(s); 0 error(s), 0 warning(s)\n");
  // After a record, a line over the limit is skipped, up to 256 MiB of it.
  Put(D("logs/clean.jsonl"),
      Slurp(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl"));
  ASSERT_EQ(Sh("$C audit --format jsonl logs > one.jsonl").status, 0);
  Result after = Sh("cat one.jsonl /dev/zero | timeout 60 $C summarize");
  EXPECT_EQ(after.status, 2);
  EXPECT_EQ(Lines(after.err).at(0),
            "<stdin>:2: error: this line is longer than 64 MiB and goes on past 256 MiB: the rest "
            "of the file is not read [log-bad-event]");
  EXPECT_EQ(Lines(after.out).at(0).rfind("audited 1 file(s): 1 game(s), 7 hand(s)", 0), 0u)
      << after.out;
}

// The limit of a line is 64 MiB: a line of exactly that is read (here, a
// blank line, skipped); one byte more and, before any record, the stream is
// given up.
TEST_F(Scale, SummarizeReadsALineOfUpToSixtyFourMiB) {
  const std::string spaces = " | tr '\\0' ' '; echo; } | $C summarize";
  Result exact = Sh("{ head -c 67108864 /dev/zero" + spaces);
  EXPECT_EQ(exact.status, 0);
  EXPECT_EQ(exact.err, "");
  Result over = Sh("{ head -c 67108865 /dev/zero" + spaces);
  EXPECT_EQ(over.status, 2);
  EXPECT_EQ(Lines(over.err).at(0),
            "<stdin>:1: error: this line is longer than 64 MiB before any record: the rest of "
            "the file is not read [log-bad-event]");
}

// A stream whose last line has no '\n' (cut from the end of a file, say):
// that line is read as any other.
TEST_F(Scale, SummarizeReadsALastLineWithoutItsNewline) {
  Result one = Sh("$C audit --format jsonl " + std::string(CANASTA_SOURCE_DIR) +
                  "/samples/classic/mistakes/wrong-hand-score.jsonl");
  ASSERT_EQ(one.status, 1);
  const std::string record = Lines(one.out).at(0);
  Put(D("cut.jsonl"), record + "\n" + record);
  Result r = Sh("$C summarize cut.jsonl");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(Lines(r.out).at(0).rfind("audited 2 file(s): 2 game(s)", 0), 0u) << r.out;
}

// The summary that cannot be written is exit 2 with the reason, whatever the
// streams' counts would make it.
TEST_F(Scale, SummarizeWriteErrorsExitTwoWithTheReason) {
  Result full = Sh("$C summarize -o /dev/full < /dev/null");
  EXPECT_EQ(full.status, 2);
  EXPECT_EQ(full.err,
            "canasta summarize: error: cannot write '/dev/full': No space left on device\n");
  Result out = Sh("$C summarize --format json < /dev/null > /dev/full");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.err,
            "canasta summarize: error: cannot write standard output: No space left on device\n");
  Result closed = Sh("$C summarize < /dev/null >&-");
  EXPECT_EQ(closed.status, 2);
  EXPECT_EQ(closed.err,
            "canasta summarize: error: cannot write standard output: Bad file descriptor\n");
}

TEST_F(Scale, SummarizeExitsAsTheAuditWould) {
  // A clean log 0; a log whose ruleset is unknown, or an unreadable one, 2.
  Put(D("logs/clean.jsonl"),
      Slurp(std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl"));
  std::string unknown = Slurp(D("logs/clean.jsonl"));
  unknown.replace(unknown.find("\"ruleset\":\"classic\""), 19, "\"ruleset\":\"nonesuch\"");
  Put(D("logs/unknown.jsonl"), unknown);
  struct Case {
    const char* inputs;
    int status;
  };
  for (const Case& c : {Case{"logs/clean.jsonl", 0}, Case{"logs/unknown.jsonl", 2},
                        Case{"logs/clean.jsonl logs/missing.jsonl", 2}}) {
    Result audit = Sh(std::string("$C audit --no-progress --summary --format jsonl ") + c.inputs +
                      " > out.jsonl");
    EXPECT_EQ(audit.status, c.status) << c.inputs;
    Result sum = Sh("$C summarize out.jsonl");
    EXPECT_EQ(sum.status, c.status) << c.inputs << "\n" << sum.err;
    EXPECT_EQ(sum.out, WithoutSlowest(audit.err.substr(audit.err.find("audited ")))) << c.inputs;
  }
  EXPECT_EQ(Sh("$C summarize --format xml out.jsonl").status, 2);
  Result same = Sh("$C summarize -o out.jsonl out.jsonl");
  EXPECT_EQ(same.status, 2);
  EXPECT_NE(same.err.find("canasta summarize: error: "), std::string::npos) << same.err;
}

// --- The writer and the reader of the records, in memory ---

FileReport Report(const std::string& file) {
  FileReport r;
  r.file = file;
  GameReport g;
  g.line = 1;
  g.events = 12;
  g.findings.push_back(Finding{7, CheckId::kScoreHand, "wrong", {"rule: 000 §18"}});
  g.findings.push_back(Finding{9, CheckId::kLogIncomplete, "stops", {}});
  HandReport h;
  h.hand = 1;
  h.line = 2;
  g.hands = {h, h};
  r.games.push_back(g);
  r.findings.push_back(Finding{0, CheckId::kLogBadJson, "bad\nline \xff", {}});
  return r;
}

TEST(ReportLine, WhatTheWriterWritesReadsBackToTheSameSummary) {
  EXPECT_EQ(ParseOutputFormat("jsonl"), OutputFormat::kJsonl);
  EXPECT_STREQ(OutputFormatName(OutputFormat::kJsonl), "jsonl");
  std::ostringstream out;
  auto writer = MakeReportWriter(OutputFormat::kJsonl, out, "1.0", TextOptions{});
  FileReport unreadable;
  unreadable.file = "gone.jsonl";
  unreadable.unreadable = true;
  unreadable.reason = "Permission denied";
  BatchSummary direct;
  for (const FileReport& r : {Report("a.jsonl"), unreadable, Report("b \"q\".jsonl")}) {
    writer->AddFile(r);
    direct.Add(r);
  }
  writer->End();
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 3u);  // one line each, the newline in a message escaped
  EXPECT_EQ(lines[1],
            "{\"schema\":\"canasta-report-line/1\",\"file\":\"gone.jsonl\",\"unreadable\":true,"
            "\"reason\":\"Permission denied\",\"findings\":[],\"games\":[]}");
  BatchSummary read;
  for (const std::string& line : lines) EXPECT_FALSE(AddReportLine(line, &read)) << line;
  EXPECT_EQ(read.counts.files, 3);
  EXPECT_EQ(read.counts.unreadable, 1);
  EXPECT_EQ(read.counts.games, 2);
  EXPECT_EQ(read.counts.hands, 4);
  EXPECT_EQ(read.counts.errors, 4);
  EXPECT_EQ(read.counts.warnings, 2);
  EXPECT_EQ(read.events, 24);
  EXPECT_EQ(read.by_check, (std::map<std::string, long>{
                               {"log-bad-json", 2}, {"log-incomplete", 2}, {"score-hand", 2}}));
  std::ostringstream a, b;
  WriteTextSummary(a, direct);
  WriteTextSummary(b, read);
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ(a.str(),
            "audited 3 file(s), 1 unreadable: 2 game(s), 4 hand(s), 24 event(s); 4 error(s), 2 "
            "warning(s)\n"
            "  2  log-bad-json\n"
            "  2  log-incomplete\n"
            "  2  score-hand\n");
}

TEST(ReportLine, AHostileLineAddsNothingAndSaysWhy) {
  const std::string head =
      "{\"schema\":\"canasta-report-line/1\",\"file\":\"f\",\"unreadable\":false,";
  struct Case {
    std::string line;
    CheckId id;
    std::string message;
  };
  const std::string not_record = "this line is not a canasta-report-line/1 record: ";
  const std::vector<Case> cases = {
      {std::string(100000, '['), CheckId::kLogBadJson, ""},
      {"{\"schema\":\"canasta-report-line/1\",\"file\":\"\xc3\"}", CheckId::kLogBadJson, ""},
      {"{\"schema\":7}", CheckId::kLogBadEvent, not_record + "its \"schema\" is not a string"},
      {head + "\"findings\":{},\"games\":[]}", CheckId::kLogBadEvent,
       not_record + "\"findings\" is not an array"},
      {head + "\"findings\":[],\"games\":[7]}", CheckId::kLogBadEvent,
       not_record + "\"games[0]\" is not an object"},
      {head + "\"findings\":[],\"games\":[{\"events\":-1,\"hands\":[],\"findings\":[]}]}",
       CheckId::kLogBadEvent, not_record + "\"games[0].events\" is not an integer, 0 or more"},
      {head + "\"findings\":[{\"severity\":\"fatal\",\"check\":\"x\"}],\"games\":[]}",
       CheckId::kLogBadEvent,
       not_record + "\"findings[0].severity\" is \"fatal\", not error, warning or note"},
      {head + "\"findings\":[{\"severity\":\"error\",\"check\":\"\\u001b[31m\"}],\"games\":[]}",
       CheckId::kLogBadEvent,
       not_record + "\"findings[0].check\" is \"\x1b[31m\", not a check's name"},
      {head + "\"games\":[]}", CheckId::kLogBadEvent, not_record + "\"findings\" is missing"},
  };
  for (const Case& c : cases) {
    BatchSummary s;
    std::optional<ReportLineError> e = AddReportLine(c.line, &s);
    ASSERT_TRUE(e) << c.line.substr(0, 80);
    EXPECT_EQ(e->id, c.id) << c.line.substr(0, 80);
    if (!c.message.empty()) {
      EXPECT_EQ(e->message, c.message);
    }
    EXPECT_EQ(s.counts.files, 0);
    EXPECT_TRUE(s.by_check.empty());
  }
  // At most 1000 check names, whatever a stream says.
  BatchSummary s;
  for (int i = 0; i < 1000; ++i)
    ASSERT_FALSE(AddReportLine(head + "\"findings\":[{\"severity\":\"error\",\"check\":\"c" +
                                   std::to_string(i) + "\"}],\"games\":[]}",
                               &s));
  EXPECT_TRUE(AddReportLine(
      head + "\"findings\":[{\"severity\":\"error\",\"check\":\"one-more\"}],\"games\":[]}", &s));
  EXPECT_FALSE(AddReportLine(
      head + "\"findings\":[{\"severity\":\"error\",\"check\":\"c7\"}],\"games\":[]}", &s));
  EXPECT_EQ(s.by_check.size(), 1000u);
}

}  // namespace
}  // namespace canasta
