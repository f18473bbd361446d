// Tests of lint/: the check registry and the text, JSON and SARIF writers.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lint/checks.h"
#include "lint/format.h"
#include "replay/auditor.h"
#include "replay/report.h"

namespace canasta {
namespace {

// ---------------------------------------------------------------------------
// The registry

TEST(ChecksTest, EveryCheckIdHasExactlyOneEntryInOrder) {
  const std::vector<CheckInfo>& all = AllChecks();
  ASSERT_EQ(all.size(), static_cast<size_t>(kNumCheckIds));
  for (int i = 0; i < kNumCheckIds; ++i) {
    const CheckId id = static_cast<CheckId>(i);
    EXPECT_EQ(all[i].id, id) << "entry " << i;
    EXPECT_EQ(GetCheck(id).id, id) << "entry " << i;
    EXPECT_STREQ(GetCheck(id).name, all[i].name);
    EXPECT_EQ(GetCheck(id).severity, all[i].severity) << all[i].name;
  }
}

TEST(ChecksTest, NamesAreUniqueKebabCaseAndRoundTrip) {
  const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)*");
  std::set<std::string> names;
  for (const CheckInfo& c : AllChecks()) {
    EXPECT_TRUE(std::regex_match(c.name, kebab)) << c.name;
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate name " << c.name;
    std::optional<CheckId> found = FindCheck(c.name);
    ASSERT_TRUE(found.has_value()) << c.name;
    EXPECT_EQ(*found, c.id);
    EXPECT_STRNE(c.summary, "");
    EXPECT_STRNE(c.source, "");
    EXPECT_STRNE(c.category, "");
  }
}

TEST(ChecksTest, NamesUseTheAgreedPrefixes) {
  const std::regex grouped(
      "(log|deal|turn|card|stock|draw|three|red-three|pile|meld|retract|discard|out|hand|"
      "special-hand|ruleset|score|game|initial-meld)-.+");
  for (const CheckInfo& c : AllChecks()) EXPECT_TRUE(std::regex_match(c.name, grouped)) << c.name;
}

TEST(ChecksTest, PileFrozenNeedsPairLookup) {
  EXPECT_STREQ(GetCheck(CheckId::kPileFrozenNeedsPair).name, "pile-frozen-needs-pair");
  std::optional<CheckId> id = FindCheck("pile-frozen-needs-pair");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(*id, CheckId::kPileFrozenNeedsPair);
  EXPECT_STREQ(GetCheck(*id).source, "000 §13, §14");
  EXPECT_EQ(GetCheck(*id).severity, Severity::kError);
  EXPECT_FALSE(FindCheck("pile-frozen").has_value());
  EXPECT_FALSE(FindCheck("Pile-Frozen-Needs-Pair").has_value());
  EXPECT_FALSE(FindCheck("").has_value());
}

TEST(ChecksTest, Severities) {
  for (const CheckInfo& c : AllChecks()) {
    const bool warning = c.id == CheckId::kLogIncomplete || c.id == CheckId::kThreeTiming ||
                         c.id == CheckId::kPileCount;
    EXPECT_EQ(c.severity, warning ? Severity::kWarning : Severity::kError) << c.name;
  }
  EXPECT_STREQ(SeverityName(Severity::kError), "error");
  EXPECT_STREQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_STREQ(SeverityName(Severity::kNote), "note");
}

TEST(ChecksTest, EveryCheckHasADocumentationPage) {
  const std::string dir = std::string(CANASTA_SOURCE_DIR) + "/docs/checks/";
  std::ifstream index(dir + "README.md");
  ASSERT_TRUE(index) << "docs/checks/README.md";
  std::stringstream readme;
  readme << index.rdbuf();
  for (const CheckInfo& c : AllChecks()) {
    std::ifstream page(dir + c.name + ".md");
    EXPECT_TRUE(page) << "docs/checks/" << c.name << ".md";
    std::stringstream text;
    text << page.rdbuf();
    EXPECT_NE(text.str().find(std::string("[") + c.name + "]"), std::string::npos)
        << c.name << ".md shows no diagnostic";
    EXPECT_NE(readme.str().find(std::string("(") + c.name + ".md)"), std::string::npos)
        << "README.md does not link " << c.name;
  }
}

bool HasFinding(const FileReport& r, CheckId id) {
  for (const Finding& f : r.findings) {
    if (f.id == id) return true;
  }
  for (const GameReport& g : r.games) {
    for (const Finding& f : g.findings) {
      if (f.id == id) return true;
    }
  }
  return false;
}

// Each docs/checks/examples/<name>.log makes a finding of check <name>. Logs
// under rulesets other than classic need the scripting component and are
// skipped here.
TEST(ChecksTest, DocumentedExamplesTriggerTheirCheck) {
  const std::string dir = std::string(CANASTA_SOURCE_DIR) + "/docs/checks/examples/";
  int checked = 0;
  for (const CheckInfo& c : AllChecks()) {
    const std::string path = dir + c.name + ".log";
    if (!std::ifstream(path)) continue;  // not every check has an example log
    FileReport r = AuditFile(path, AuditOptions{});
    ASSERT_FALSE(r.unreadable) << path;
    if (c.id != CheckId::kLogUnknownRuleset && HasFinding(r, CheckId::kLogUnknownRuleset)) {
      continue;
    }
    EXPECT_TRUE(HasFinding(r, c.id)) << path << " does not trigger " << c.name;
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

// ---------------------------------------------------------------------------
// Reports to write

Finding MakeFinding(int line, CheckId id, std::string message, std::vector<std::string> notes) {
  Finding f;
  f.line = line;
  f.id = id;
  f.message = std::move(message);
  f.notes = std::move(notes);
  return f;
}

FileReport SampleReport() {
  FileReport r;
  r.file = "games/club.log";
  r.findings.push_back(MakeFinding(0, CheckId::kLogBadJson, "bad JSON before any game", {}));
  GameReport g;
  g.file = r.file;
  g.line = 1;
  g.ruleset = "classic";
  g.players = {"Ann", "Bob", "Cat", "Dan"};
  g.events = 12;
  g.findings.push_back(
      MakeFinding(7, CheckId::kPileFrozenNeedsPair,
                  "the pile is frozen; taking it needs a natural pair of Ks from the hand",
                  {"hand 1, seat 1 (Bob), turn of seat 1 (Bob)", "rule: 000 §13, §14"}));
  g.findings.push_back(MakeFinding(9, CheckId::kPileCount, "the pile holds 5 cards, not 6", {}));
  HandReport h;
  h.hand = 1;
  h.line = 2;
  ScoreBreakdown a;
  a.canastas = 800;
  a.red_threes = 100;
  a.going_out = 100;
  a.melded = 275;
  a.in_hand = -15;
  ScoreBreakdown b;
  b.melded = 60;
  b.in_hand = -175;
  b.penalties = -100;
  h.breakdown = {a, b};
  h.scores = {1260, -215};
  h.totals = {1260, -215};
  h.recorded_scores = std::vector<int>{1260, -200};
  h.went_out = 0;
  h.complete = true;
  g.hands.push_back(h);
  g.totals = {1260, -215};
  g.finished = false;
  r.games.push_back(std::move(g));
  return r;
}

FileReport CleanReport(const std::string& file) {
  FileReport r;
  r.file = file;
  GameReport g;
  g.file = file;
  g.line = 1;
  g.ruleset = "classic";
  g.players = {"A", "B"};
  g.totals = {5100, 300};
  g.winner = 0;
  g.finished = true;
  r.games.push_back(std::move(g));
  return r;
}

// ---------------------------------------------------------------------------
// Text

TEST(TextFormatTest, ExactOutput) {
  std::ostringstream out;
  WriteText(out, {SampleReport()}, TextOptions{});
  EXPECT_EQ(out.str(),
            "games/club.log: error: bad JSON before any game [log-bad-json]\n"
            "games/club.log:7: error: the pile is frozen; taking it needs a natural pair of Ks "
            "from the hand [pile-frozen-needs-pair]\n"
            "games/club.log:7: note: hand 1, seat 1 (Bob), turn of seat 1 (Bob)\n"
            "games/club.log:7: note: rule: 000 §13, §14\n"
            "games/club.log:9: warning: the pile holds 5 cards, not 6 [pile-count]\n");
}

TEST(TextFormatTest, Scores) {
  std::ostringstream out;
  TextOptions options;
  options.scores = true;
  FileReport r = SampleReport();
  r.findings.clear();
  r.games[0].findings.clear();
  r.games.push_back(CleanReport("x").games[0]);
  WriteText(out, {r}, options);
  EXPECT_EQ(out.str(),
            "games/club.log:2: note: hand 1: scores [1260, -215], totals [1260, -215]\n"
            "games/club.log:1: note: game: totals [1260, -215], not finished\n"
            "games/club.log:1: note: game: totals [5100, 300], winner side 0\n");
}

TEST(TextFormatTest, Color) {
  std::ostringstream out;
  TextOptions options;
  options.color = true;
  FileReport r;
  r.file = "a.log";
  r.findings.push_back(MakeFinding(3, CheckId::kTurnOrder, "out of turn", {"rule: 000 §11"}));
  WriteText(out, {r}, options);
  EXPECT_EQ(out.str(),
            "\x1b[1ma.log:3:\x1b[0m \x1b[1;31merror:\x1b[0m \x1b[1mout of turn [turn-order]"
            "\x1b[0m\n"
            "\x1b[1ma.log:3:\x1b[0m \x1b[1;36mnote:\x1b[0m rule: 000 §11\n");
}

TEST(TextFormatTest, UnreadableFile) {
  FileReport r;
  r.file = "missing.log";
  r.unreadable = true;
  std::ostringstream out;
  WriteText(out, {r, CleanReport("ok.log")}, TextOptions{});
  EXPECT_EQ(out.str(), "canasta: error: cannot read 'missing.log'\n");
}

TEST(TextFormatTest, ControlCharactersAreEscaped) {
  FileReport r;
  r.file = "a.log";
  r.findings.push_back(
      MakeFinding(2, CheckId::kLogUnknownEvent, "unknown event type \"x\ny\x1b[2J\"", {}));
  std::ostringstream out;
  WriteText(out, {r}, TextOptions{});
  EXPECT_EQ(out.str(),
            "a.log:2: error: unknown event type \"x\\ny\\x1b[2J\" [log-unknown-event]\n");
}

// ---------------------------------------------------------------------------
// JSON

rapidjson::Document Parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(text.c_str(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << rapidjson::GetParseError_En(doc.GetParseError()) << " at "
                                    << doc.GetErrorOffset() << " in\n"
                                    << text;
  return doc;
}

TEST(JsonFormatTest, FieldsParseBack) {
  FileReport unreadable;
  unreadable.file = "gone.log";
  unreadable.unreadable = true;
  std::ostringstream out;
  WriteJson(out, {SampleReport(), unreadable}, "1.2.3");
  rapidjson::Document doc = Parse(out.str());
  ASSERT_TRUE(doc.IsObject());
  EXPECT_STREQ(doc["schema"].GetString(), "canasta-report/1");
  EXPECT_STREQ(doc["tool"].GetString(), "canasta");
  EXPECT_STREQ(doc["version"].GetString(), "1.2.3");
  const auto& files = doc["files"];
  ASSERT_TRUE(files.IsArray());
  ASSERT_EQ(files.Size(), 2u);

  const auto& file = files[0];
  EXPECT_STREQ(file["file"].GetString(), "games/club.log");
  EXPECT_FALSE(file["unreadable"].GetBool());
  ASSERT_EQ(file["findings"].Size(), 1u);
  EXPECT_EQ(file["findings"][0]["line"].GetInt(), 0);
  EXPECT_STREQ(file["findings"][0]["check"].GetString(), "log-bad-json");

  ASSERT_EQ(file["games"].Size(), 1u);
  const auto& game = file["games"][0];
  EXPECT_EQ(game["line"].GetInt(), 1);
  EXPECT_STREQ(game["ruleset"].GetString(), "classic");
  ASSERT_EQ(game["players"].Size(), 4u);
  EXPECT_STREQ(game["players"][1].GetString(), "Bob");
  EXPECT_EQ(game["events"].GetInt(), 12);
  ASSERT_EQ(game["findings"].Size(), 2u);
  const auto& f = game["findings"][0];
  EXPECT_EQ(f["line"].GetInt(), 7);
  EXPECT_STREQ(f["severity"].GetString(), "error");
  EXPECT_STREQ(f["check"].GetString(), "pile-frozen-needs-pair");
  EXPECT_STREQ(f["message"].GetString(),
               "the pile is frozen; taking it needs a natural pair of Ks from the hand");
  ASSERT_EQ(f["notes"].Size(), 2u);
  EXPECT_STREQ(f["notes"][1].GetString(), "rule: 000 §13, §14");
  EXPECT_STREQ(f["source"].GetString(), "000 §13, §14");
  EXPECT_STREQ(game["findings"][1]["severity"].GetString(), "warning");

  ASSERT_EQ(game["hands"].Size(), 1u);
  const auto& hand = game["hands"][0];
  EXPECT_EQ(hand["hand"].GetInt(), 1);
  EXPECT_EQ(hand["line"].GetInt(), 2);
  EXPECT_EQ(hand["scores"][0].GetInt(), 1260);
  EXPECT_EQ(hand["scores"][1].GetInt(), -215);
  EXPECT_EQ(hand["totals"][1].GetInt(), -215);
  ASSERT_EQ(hand["breakdown"].Size(), 2u);
  const auto& b0 = hand["breakdown"][0];
  EXPECT_EQ(b0["canastas"].GetInt(), 800);
  EXPECT_EQ(b0["red_threes"].GetInt(), 100);
  EXPECT_EQ(b0["going_out"].GetInt(), 100);
  EXPECT_EQ(b0["melded"].GetInt(), 275);
  EXPECT_EQ(b0["in_hand"].GetInt(), -15);
  EXPECT_EQ(b0["penalties"].GetInt(), 0);
  EXPECT_EQ(b0["house"].GetInt(), 0);
  EXPECT_EQ(hand["breakdown"][1]["penalties"].GetInt(), -100);
  ASSERT_TRUE(hand["recorded_scores"].IsArray());
  EXPECT_EQ(hand["recorded_scores"][1].GetInt(), -200);
  EXPECT_TRUE(hand["recorded_totals"].IsNull());
  EXPECT_EQ(hand["went_out"].GetInt(), 0);
  EXPECT_TRUE(hand["complete"].GetBool());
  EXPECT_EQ(game["totals"][0].GetInt(), 1260);
  EXPECT_TRUE(game["winner"].IsNull());
  EXPECT_FALSE(game["finished"].GetBool());

  EXPECT_TRUE(files[1]["unreadable"].GetBool());
  EXPECT_EQ(files[1]["games"].Size(), 0u);

  const auto& summary = doc["summary"];
  EXPECT_EQ(summary["files"].GetInt(), 2);
  EXPECT_EQ(summary["unreadable"].GetInt(), 1);
  EXPECT_EQ(summary["games"].GetInt(), 1);
  EXPECT_EQ(summary["hands"].GetInt(), 1);
  EXPECT_EQ(summary["errors"].GetInt(), 2);
  EXPECT_EQ(summary["warnings"].GetInt(), 1);
  EXPECT_EQ(summary["notes"].GetInt(), 0);
}

TEST(JsonFormatTest, WinnerAndNoFiles) {
  std::ostringstream out;
  WriteJson(out, {CleanReport("w.log")}, "0.1.0");
  rapidjson::Document doc = Parse(out.str());
  EXPECT_EQ(doc["files"][0]["games"][0]["winner"].GetInt(), 0);
  EXPECT_TRUE(doc["files"][0]["games"][0]["finished"].GetBool());

  std::ostringstream empty;
  WriteJson(empty, {}, nullptr);
  rapidjson::Document none = Parse(empty.str());
  EXPECT_EQ(none["files"].Size(), 0u);
  EXPECT_STREQ(none["version"].GetString(), "");
  EXPECT_EQ(none["summary"]["files"].GetInt(), 0);
}

TEST(JsonFormatTest, EscapesAndRepairsStrings) {
  FileReport r;
  r.file = "we\"ird\\name\xff.log";
  r.findings.push_back(MakeFinding(1, CheckId::kLogBadCard,
                                   "card \"\x01\" \xc3\x28 and \xe2\x82\xac", {"tab\there"}));
  std::ostringstream out;
  WriteJson(out, {r}, "v");
  rapidjson::Document doc = Parse(out.str());  // validates UTF-8
  EXPECT_STREQ(doc["files"][0]["file"].GetString(), "we\"ird\\name\xEF\xBF\xBD.log");
  EXPECT_STREQ(doc["files"][0]["findings"][0]["message"].GetString(),
               "card \"\x01\" \xEF\xBF\xBD( and \xe2\x82\xac");
  EXPECT_STREQ(doc["files"][0]["findings"][0]["notes"][0].GetString(), "tab\there");
}

TEST(JsonFormatTest, StreamingWriterMatchesVectorWriter) {
  std::vector<FileReport> reports = {SampleReport(), CleanReport("b.log")};
  std::ostringstream whole, streamed;
  WriteJson(whole, reports, "9");
  JsonReportWriter writer(streamed, "9");
  writer.Begin();
  for (const FileReport& r : reports) writer.AddFile(r);
  EXPECT_EQ(writer.summary().files, 2);
  writer.End();
  writer.End();  // a second End() writes nothing
  EXPECT_EQ(whole.str(), streamed.str());
}

// ---------------------------------------------------------------------------
// SARIF

TEST(SarifFormatTest, ParsesBackWithRulesAndResults) {
  FileReport unreadable;
  unreadable.file = "gone.log";
  unreadable.unreadable = true;
  std::ostringstream out;
  WriteSarif(out, {SampleReport(), unreadable}, "0.1.0");
  rapidjson::Document doc = Parse(out.str());
  EXPECT_STREQ(doc["version"].GetString(), "2.1.0");
  EXPECT_TRUE(doc["$schema"].IsString());
  ASSERT_EQ(doc["runs"].Size(), 1u);
  const auto& run = doc["runs"][0];
  const auto& driver = run["tool"]["driver"];
  EXPECT_STREQ(driver["name"].GetString(), "canasta");
  EXPECT_STREQ(driver["version"].GetString(), "0.1.0");
  const auto& rules = driver["rules"];
  ASSERT_EQ(rules.Size(), static_cast<unsigned>(kNumCheckIds));
  for (int i = 0; i < kNumCheckIds; ++i) {
    const CheckInfo& c = AllChecks()[i];
    EXPECT_STREQ(rules[i]["id"].GetString(), c.name);
    EXPECT_STREQ(rules[i]["shortDescription"]["text"].GetString(), c.summary);
    EXPECT_STREQ(rules[i]["defaultConfiguration"]["level"].GetString(), SeverityName(c.severity));
    EXPECT_STREQ(rules[i]["properties"]["source"].GetString(), c.source);
  }
  const int frozen = static_cast<int>(CheckId::kPileFrozenNeedsPair);
  EXPECT_STREQ(rules[frozen]["name"].GetString(), "PileFrozenNeedsPair");

  const auto& results = run["results"];
  ASSERT_EQ(results.Size(), 3u);
  // The file-level finding: no region.
  EXPECT_STREQ(results[0]["ruleId"].GetString(), "log-bad-json");
  EXPECT_STREQ(
      results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].GetString(),
      "games/club.log");
  EXPECT_FALSE(results[0]["locations"][0]["physicalLocation"].HasMember("region"));

  const auto& r1 = results[1];
  EXPECT_STREQ(r1["ruleId"].GetString(), "pile-frozen-needs-pair");
  EXPECT_EQ(r1["ruleIndex"].GetInt(), frozen);
  EXPECT_STREQ(r1["level"].GetString(), "error");
  EXPECT_STREQ(r1["message"]["text"].GetString(),
               "the pile is frozen; taking it needs a natural pair of Ks from the hand\n"
               "hand 1, seat 1 (Bob), turn of seat 1 (Bob)\n"
               "rule: 000 §13, §14");
  EXPECT_EQ(r1["locations"][0]["physicalLocation"]["region"]["startLine"].GetInt(), 7);
  EXPECT_STREQ(results[2]["ruleId"].GetString(), "pile-count");
  EXPECT_STREQ(results[2]["level"].GetString(), "warning");
  EXPECT_EQ(results[2]["locations"][0]["physicalLocation"]["region"]["startLine"].GetInt(), 9);

  const auto& invocation = run["invocations"][0];
  EXPECT_FALSE(invocation["executionSuccessful"].GetBool());
  ASSERT_EQ(invocation["toolExecutionNotifications"].Size(), 1u);
  EXPECT_STREQ(invocation["toolExecutionNotifications"][0]["message"]["text"].GetString(),
               "cannot read 'gone.log'");
}

TEST(SarifFormatTest, CleanRunSucceeds) {
  std::ostringstream out;
  WriteSarif(out, {CleanReport("ok.log")}, "0.1.0");
  rapidjson::Document doc = Parse(out.str());
  EXPECT_EQ(doc["runs"][0]["results"].Size(), 0u);
  EXPECT_TRUE(doc["runs"][0]["invocations"][0]["executionSuccessful"].GetBool());
}

TEST(SarifFormatTest, StreamingWriterMatchesVectorWriter) {
  std::vector<FileReport> reports = {SampleReport(), CleanReport("b.log")};
  std::ostringstream whole, streamed;
  WriteSarif(whole, reports, "9");
  std::unique_ptr<ReportWriter> writer =
      MakeReportWriter(OutputFormat::kSarif, streamed, "9", TextOptions{});
  for (const FileReport& r : reports) writer->AddFile(r);  // Begin() is implied
  writer->End();
  EXPECT_EQ(whole.str(), streamed.str());
  EXPECT_EQ(writer->summary().ExitCode(), 1);
}

TEST(SarifFormatTest, FileUris) {
  EXPECT_EQ(FileUri("games/club.log"), "games/club.log");
  EXPECT_EQ(FileUri("/tmp/my games/a#1.log"), "file:///tmp/my%20games/a%231.log");
  // Letters and digits are never escaped, 0 to 9 and a to z alike.
  EXPECT_EQ(FileUri("/logs/game-0919_az.Z9.jsonl"), "file:///logs/game-0919_az.Z9.jsonl");
  EXPECT_EQ(FileUri("c:x%.log"), "c%3Ax%25.log");
  EXPECT_EQ(FileUri("caf\xc3\xa9.log"), "caf%C3%A9.log");
}

// ---------------------------------------------------------------------------
// Exit codes and formats

TEST(ExitCodeTest, ErrorsGiveOne) {
  EXPECT_EQ(ExitCodeFor({}), 0);
  EXPECT_EQ(ExitCodeFor({CleanReport("a.log")}), 0);
  FileReport warnings_only;
  warnings_only.findings.push_back(MakeFinding(4, CheckId::kThreeTiming, "late", {}));
  warnings_only.findings.push_back(MakeFinding(5, CheckId::kLogIncomplete, "stops", {}));
  EXPECT_EQ(ExitCodeFor({warnings_only}), 0);
  EXPECT_EQ(ExitCodeFor({CleanReport("a.log"), SampleReport()}), 1);
  FileReport unreadable;
  unreadable.unreadable = true;
  EXPECT_EQ(ExitCodeFor({unreadable}), 0);  // the CLI exits 2 for this
  FileReport game_error = CleanReport("g.log");
  game_error.games[0].findings.push_back(MakeFinding(3, CheckId::kScoreHand, "wrong", {}));
  EXPECT_EQ(ExitCodeFor({game_error}), 1);
}

TEST(OutputFormatTest, Names) {
  EXPECT_EQ(ParseOutputFormat("text"), OutputFormat::kText);
  EXPECT_EQ(ParseOutputFormat("json"), OutputFormat::kJson);
  EXPECT_EQ(ParseOutputFormat("sarif"), OutputFormat::kSarif);
  EXPECT_FALSE(ParseOutputFormat("xml").has_value());
  EXPECT_STREQ(OutputFormatName(OutputFormat::kSarif), "sarif");
}

// ---------------------------------------------------------------------------
// From a log to text, through the auditor

TEST(LintEndToEndTest, NotALog) {
  std::istringstream in("hello\n");
  FileReport r = AuditStream(in, "x.log", AuditOptions{});
  std::ostringstream out;
  WriteText(out, {r}, TextOptions{});
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("x.log:1: error: this file is not a canasta-log/1 log", 0), 0u) << text;
  EXPECT_NE(text.find("[log-not-canasta-log]\n"), std::string::npos) << text;
  EXPECT_EQ(ExitCodeFor({r}), 1);
}

}  // namespace
}  // namespace canasta
