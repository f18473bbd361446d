// Direct tests of lint/ functions that no other test names: CheckLevels'
// Overlay, each streaming report writer on a small report
// (docs/report-format.md), ValidUtf8 and the JSON batch summary.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <sstream>
#include <string>
#include <vector>

#include "lint/check_levels.h"
#include "lint/checks.h"
#include "lint/format.h"

namespace canasta {
namespace {

// --- check_levels.h ---

TEST(LintFunctions, OverlayAppliesTheOthersChangesOnly) {
  CheckLevels ruleset;
  ASSERT_EQ(ruleset.ParseOption("-deal-dealer,warning:turn-order"), "");
  CheckLevels command_line;
  ASSERT_EQ(command_line.ParseOption("note:turn-order,-three-timing"), "");
  ruleset.Overlay(command_line);
  // What the other left alone stays: deal-dealer is still off.
  EXPECT_TRUE(ruleset.off(CheckId::kDealDealer));
  // What it changed wins: the command line applies after the ruleset
  // (docs/report-format.md).
  EXPECT_EQ(ruleset.SeverityOf(CheckId::kTurnOrder), Severity::kNote);
  EXPECT_TRUE(ruleset.off(CheckId::kThreeTiming));
  // Untouched by both: the check's own severity.
  EXPECT_FALSE(ruleset.off(CheckId::kScoreHand));
  EXPECT_EQ(ruleset.SeverityOf(CheckId::kScoreHand), Severity::kError);

  // An empty overlay changes nothing.
  CheckLevels none;
  none.Overlay(CheckLevels());
  EXPECT_TRUE(none.empty());
}

// docs/report-format.md: a bare `NAME` in --checks "switches it back on at
// its own severity", and --checks applies on top of a ruleset's `checks`, so
// it brings back a check the ruleset switched off.
TEST(LintFunctions, OverlayLetsABareNameSwitchACheckBackOn) {
  CheckLevels ruleset;
  ASSERT_EQ(ruleset.ApplySettings({CheckSetting{"deal-dealer", "off", "house.lua:3"}}), "");
  CheckLevels command_line;
  ASSERT_EQ(command_line.ParseOption("deal-dealer"), "");
  ruleset.Overlay(command_line);
  EXPECT_FALSE(ruleset.off(CheckId::kDealDealer));

  // The same through the audit's path: the finding is dropped.
  FileReport report;
  GameReport game;
  game.checks = {CheckSetting{"deal-dealer", "off", "house.lua:3"}};
  game.findings.push_back(Finding{2, CheckId::kDealDealer, "the deal did not pass left", {}});
  report.games.push_back(game);
  ASSERT_EQ(ApplyCheckLevels(&report, command_line), "");
  EXPECT_EQ(report.games[0].findings.size(), 1u);
}

// --- format.h: a small report ---

FileReport SmallReport() {
  FileReport r;
  r.file = "logs/a b.jsonl";
  r.findings.push_back(Finding{2, CheckId::kLogBadEvent, "bad \"x\"", {"a note"}});
  GameReport g;
  g.file = r.file;
  g.line = 1;
  g.ruleset = "classic";
  g.players = {"Ann", "Bob"};
  g.events = 9;
  Finding w{7, CheckId::kTurnOrder, "out of turn", {}};
  w.severity = Severity::kWarning;  // as --checks=warning:turn-order leaves it
  g.findings.push_back(w);
  r.games.push_back(g);
  return r;
}

FileReport Unreadable() {
  FileReport r;
  r.file = "gone.jsonl";
  r.unreadable = true;
  r.reason = "No such file or directory";
  return r;
}

TEST(LintFunctions, TextReportWriterWritesOneLinePerFindingAndNote) {
  std::ostringstream out;
  TextReportWriter w(out, TextOptions{});
  w.Begin();
  w.AddFile(SmallReport());
  w.AddFile(Unreadable());
  w.End();
  EXPECT_EQ(out.str(),
            "logs/a b.jsonl:2: error: bad \"x\" [log-bad-event]\n"
            "logs/a b.jsonl:2: note: a note\n"
            "logs/a b.jsonl:7: warning: out of turn [turn-order]\n"
            "canasta: error: cannot read 'gone.jsonl': No such file or directory\n");
  EXPECT_EQ(w.summary().files, 2);
  EXPECT_EQ(w.summary().unreadable, 1);
  EXPECT_EQ(w.summary().games, 1);
  EXPECT_EQ(w.summary().errors, 1);
  EXPECT_EQ(w.summary().warnings, 1);
  EXPECT_EQ(w.summary().ExitCode(), 1);
  // Calls after End() write nothing.
  w.AddFile(SmallReport());
  EXPECT_EQ(w.summary().files, 2);
}

TEST(LintFunctions, TextReportWriterEscapesControlsInMessages) {
  FileReport r;
  r.file = "a.jsonl";
  r.findings.push_back(Finding{3, CheckId::kLogBadEvent, "x\x1b[2Jy\nz", {}});
  std::ostringstream out;
  TextReportWriter w(out, TextOptions{});
  w.AddFile(r);
  w.End();
  // One line per finding, and no escape sequence reaches the terminal.
  EXPECT_EQ(out.str(), "a.jsonl:3: error: x\\x1b[2Jy\\nz [log-bad-event]\n");
}

TEST(LintFunctions, JsonlReportWriterWritesOneRecordPerFile) {
  std::ostringstream out;
  JsonlReportWriter w(out);
  w.Begin();
  w.AddFile(SmallReport());
  w.AddFile(Unreadable());
  w.End();
  std::istringstream lines(out.str());
  std::string line;
  std::vector<std::string> records;
  while (std::getline(lines, line)) records.push_back(line);
  ASSERT_EQ(records.size(), 2u);
  // Nothing before the first line or after the last: streams concatenate.
  EXPECT_EQ(out.str(), records[0] + "\n" + records[1] + "\n");

  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(records[0].c_str()).HasParseError());
  // The schema first (docs/report-format.md), then the file's members.
  ASSERT_TRUE(doc.IsObject());
  EXPECT_EQ(std::string(doc.MemberBegin()->name.GetString()), "schema");
  EXPECT_STREQ(doc["schema"].GetString(), "canasta-report-line/1");
  EXPECT_STREQ(doc["file"].GetString(), "logs/a b.jsonl");
  EXPECT_FALSE(doc["unreadable"].GetBool());
  ASSERT_EQ(doc["findings"].Size(), 1u);
  EXPECT_STREQ(doc["findings"][0]["check"].GetString(), "log-bad-event");
  EXPECT_STREQ(doc["findings"][0]["message"].GetString(), "bad \"x\"");
  EXPECT_EQ(doc["findings"][0]["line"].GetInt(), 2);
  const rapidjson::Value& game = doc["games"][0];
  EXPECT_EQ(game["events"].GetInt(), 9);
  EXPECT_STREQ(game["findings"][0]["severity"].GetString(), "warning");

  ASSERT_FALSE(doc.Parse(records[1].c_str()).HasParseError());
  EXPECT_TRUE(doc["unreadable"].GetBool());
  EXPECT_STREQ(doc["reason"].GetString(), "No such file or directory");

  // `canasta summarize` reads the records back to the same counts.
  BatchSummary summary;
  for (const std::string& r : records) EXPECT_FALSE(AddReportLine(r, &summary).has_value());
  EXPECT_EQ(summary.counts.files, 2);
  EXPECT_EQ(summary.counts.unreadable, 1);
  EXPECT_EQ(summary.counts.errors, 1);
  EXPECT_EQ(summary.counts.warnings, 1);
  EXPECT_EQ(summary.events, 9);
  EXPECT_EQ(summary.by_check["turn-order"], 1);
}

TEST(LintFunctions, SarifReportWriterWritesResultsAndUnreadableFiles) {
  std::ostringstream out;
  SarifReportWriter w(out, "9.9");
  w.Begin();
  w.AddFile(SmallReport());
  w.AddFile(Unreadable());
  w.End();
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(out.str().c_str()).HasParseError()) << out.str();
  EXPECT_STREQ(doc["version"].GetString(), "2.1.0");
  ASSERT_EQ(doc["runs"].Size(), 1u);
  const rapidjson::Value& run = doc["runs"][0];
  EXPECT_STREQ(run["tool"]["driver"]["name"].GetString(), "canasta");
  EXPECT_STREQ(run["tool"]["driver"]["version"].GetString(), "9.9");
  // Every check is a rule, indexed by its id.
  ASSERT_EQ(run["tool"]["driver"]["rules"].Size(), AllChecks().size());
  const int turn_order = int(CheckId::kTurnOrder);
  EXPECT_STREQ(run["tool"]["driver"]["rules"][turn_order]["id"].GetString(), "turn-order");

  const rapidjson::Value& results = run["results"];
  ASSERT_EQ(results.Size(), 2u);
  EXPECT_STREQ(results[0]["ruleId"].GetString(), "log-bad-event");
  EXPECT_STREQ(results[0]["level"].GetString(), "error");
  // The notes follow the message, one a line.
  EXPECT_STREQ(results[0]["message"]["text"].GetString(), "bad \"x\"\na note");
  const rapidjson::Value& where = results[0]["locations"][0]["physicalLocation"];
  EXPECT_STREQ(where["artifactLocation"]["uri"].GetString(), "logs/a%20b.jsonl");
  EXPECT_EQ(where["region"]["startLine"].GetInt(), 2);
  EXPECT_STREQ(results[1]["ruleId"].GetString(), "turn-order");
  EXPECT_EQ(results[1]["ruleIndex"].GetInt(), turn_order);
  EXPECT_STREQ(results[1]["level"].GetString(), "warning");

  // The unreadable file: no result, a failed invocation that names it.
  const rapidjson::Value& invocation = run["invocations"][0];
  EXPECT_FALSE(invocation["executionSuccessful"].GetBool());
  ASSERT_EQ(invocation["toolExecutionNotifications"].Size(), 1u);
  EXPECT_STREQ(invocation["toolExecutionNotifications"][0]["message"]["text"].GetString(),
               "cannot read 'gone.jsonl': No such file or directory");
}

TEST(LintFunctions, SarifReportWriterWithEveryFileReadSucceeds) {
  std::ostringstream out;
  SarifReportWriter w(out, "1");
  w.AddFile(SmallReport());
  w.End();
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(out.str().c_str()).HasParseError());
  const rapidjson::Value& invocation = doc["runs"][0]["invocations"][0];
  EXPECT_TRUE(invocation["executionSuccessful"].GetBool());
  EXPECT_FALSE(invocation.HasMember("toolExecutionNotifications"));
}

// --- format.h: helpers ---

// PutPrintable keeps a quoted text on one line and inert on a terminal: C0
// and DEL as \xNN (\n \r \t by name), C1, the line separators and bidi
// controls as \uNNNN, a byte that is not UTF-8 as \xNN; the rest as is.
TEST(LintFunctions, PutPrintableEscapesWhatATerminalWouldActOn) {
  auto printable = [](std::string_view text) {
    std::ostringstream out;
    PutPrintable(out, text);
    return out.str();
  };
  EXPECT_EQ(printable("plain caf\xc3\xa9 \xe2\x82\xac"), "plain caf\xc3\xa9 \xe2\x82\xac");
  EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable(std::string("\x1b[2J\x7f\0", 6)), "\\x1b[2J\\x7f\\x00");
  EXPECT_EQ(printable("\xc2\x9b"), "\\u009b");              // C1 CSI, as UTF-8
  EXPECT_EQ(printable("\x9b"), "\\x9b");                    // a raw 0x9b: not UTF-8
  EXPECT_EQ(printable("\xe2\x80\xa8"), "\\u2028");          // the line separator
  EXPECT_EQ(printable("x\xe2\x80\xaey"), "x\\u202ey");      // right-to-left override
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate: each byte
  // The last code point, U+10FFFF, is UTF-8; one past it is not.
  EXPECT_EQ(printable("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
}

TEST(LintFunctions, PrintableAndPrintableLinesAsPutPrintableWrites) {
  EXPECT_EQ(Printable("a\nb\tc\x1b[2J"), "a\\nb\\tc\\x1b[2J");
  // A page keeps its line breaks and tabs; everything else as PutPrintable.
  EXPECT_EQ(PrintableLines("name: a\x1b]0;t\x07\n\tnext\x9b\n"),
            "name: a\\x1b]0;t\\x07\n\tnext\\x9b\n");
  EXPECT_EQ(PrintableLines("\n\n"), "\n\n");
  EXPECT_EQ(PrintableLines(""), "");
}

TEST(LintFunctions, ValidUtf8ReplacesEachInvalidByte) {
  const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  EXPECT_EQ(ValidUtf8(""), "");
  EXPECT_EQ(ValidUtf8("plain"), "plain");
  // Valid sequences of two, three and four bytes are kept.
  EXPECT_EQ(ValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1");
  EXPECT_EQ(ValidUtf8("a\xFF"
                      "b"),
            "a" + kReplacement + "b");
  // A cut sequence: each of its bytes is invalid on its own.
  EXPECT_EQ(ValidUtf8("\xE2\x82"), kReplacement + kReplacement);
  // A lone continuation byte, and an overlong "/" (C0 AF).
  EXPECT_EQ(ValidUtf8("\x80"), kReplacement);
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), kReplacement + kReplacement);
}

TEST(LintFunctions, WriteJsonSummaryGivesCountsEventsAndChecks) {
  BatchSummary s;
  s.Add(SmallReport());
  s.Add(Unreadable());
  std::ostringstream out;
  WriteJsonSummary(out, s, "2.0");
  const std::string text = out.str();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  rapidjson::Document doc;
  ASSERT_FALSE(doc.Parse(text.c_str()).HasParseError()) << text;
  EXPECT_STREQ(doc["schema"].GetString(), "canasta-summary/1");
  EXPECT_STREQ(doc["tool"].GetString(), "canasta");
  EXPECT_STREQ(doc["version"].GetString(), "2.0");
  const rapidjson::Value& summary = doc["summary"];
  EXPECT_EQ(summary["files"].GetInt64(), 2);
  EXPECT_EQ(summary["unreadable"].GetInt64(), 1);
  EXPECT_EQ(summary["games"].GetInt64(), 1);
  EXPECT_EQ(summary["hands"].GetInt64(), 0);
  EXPECT_EQ(summary["errors"].GetInt64(), 1);
  EXPECT_EQ(summary["warnings"].GetInt64(), 1);
  EXPECT_EQ(summary["notes"].GetInt64(), 0);
  EXPECT_EQ(doc["events"].GetInt64(), 9);
  const rapidjson::Value& checks = doc["checks"];
  ASSERT_EQ(checks.MemberCount(), 2u);
  EXPECT_EQ(checks["log-bad-event"].GetInt64(), 1);
  EXPECT_EQ(checks["turn-order"].GetInt64(), 1);
}

}  // namespace
}  // namespace canasta
