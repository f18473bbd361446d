#include "fuzz/entry_points.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>

#include "core/violation.h"
#include "lint/format.h"
#include "replay/auditor.h"
#include "replay/decisions.h"
#include "replay/log_reader.h"
#include "replay/sheet_csv.h"
#include "scripting/ruleset.h"

namespace canasta {
namespace fuzz {
namespace {

[[noreturn]] void Broken(const std::string& what) {
  std::fprintf(stderr, "canasta fuzz: broken invariant: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void Require(bool ok, const std::string& what) {
  if (!ok) Broken(what);
}

std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Lines of the input as the reader numbers them: one per '\n', plus an
// unterminated last one.
int CountLines(const std::string& text) {
  int n = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n') ++n;
  return n;
}

void CheckFinding(const Finding& f, int lines, const char* where) {
  Require(static_cast<int>(f.id) < kNumCheckIds,
          std::string(where) + ": finding with an invalid check id");
  Require(!f.message.empty(), std::string(where) + ": finding without a message");
  // Line 0 is the whole file; a finding at the end of the input may name the
  // line after the last one.
  Require(f.line >= 0 && f.line <= lines + 1,
          std::string(where) + ": finding at line " + std::to_string(f.line) + " of a " +
              std::to_string(lines) + "-line input: " + f.message);
}

// Every finding of an audit's report, the file's and each game's.
void CheckReport(const FileReport& r, int lines) {
  for (const Finding& f : r.findings) CheckFinding(f, lines, "file");
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings) CheckFinding(f, lines, "game");
}

void RequireJson(const std::string& text, const char* what) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag>(text.c_str(), text.size());
  if (doc.HasParseError()) {
    Broken(std::string(what) +
           " is not valid JSON: " + rapidjson::GetParseError_En(doc.GetParseError()) + " at byte " +
           std::to_string(doc.GetErrorOffset()));
  }
}

// Built-in rulesets only, loaded once each: a fuzz input must not make the
// target read files.
bool ResolveBuiltin(const std::string& name, const std::string& /*relative_to*/, RulesetChoice* out,
                    std::string* error) {
  static std::map<std::string, std::shared_ptr<const Ruleset>> cache;
  const std::vector<std::string> names = BuiltinRulesetNames();
  const std::string key = name.empty() ? "classic" : name;
  if (std::find(names.begin(), names.end(), key) == names.end()) {
    *error = "not a built-in ruleset (the fuzz targets load no files)";
    return false;
  }
  auto it = cache.find(key);
  if (it == cache.end()) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(key);
    std::shared_ptr<const Ruleset> rs;
    if (auto* r = std::get_if<Ruleset>(&loaded)) rs = std::make_shared<const Ruleset>(*r);
    it = cache.emplace(key, rs).first;
  }
  if (!it->second) {
    *error = "built-in ruleset \"" + key + "\" does not load";
    return false;
  }
  *out = it->second->Choose();
  return true;
}

// A short clean classic hand, audited under each ruleset the loader target
// accepts so that the ruleset's hooks run.
const std::string& HookLog() {
  static const std::string log = [] {
    std::ifstream in(CANASTA_SOURCE_DIR "/tests/scenarios/quick_out.jsonl", std::ios::binary);
    if (!in) Broken("cannot read " CANASTA_SOURCE_DIR "/tests/scenarios/quick_out.jsonl");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  return log;
}

}  // namespace

void ReadLog(const uint8_t* data, size_t size) {
  const std::string text = Text(data, size);
  const int lines = CountLines(text);
  std::istringstream in(text);
  LogReader reader(in);
  Event event;
  std::vector<InputProblem> problems;
  int last = 0;
  while (reader.Next(&event, &problems)) {
    Require(event.line > last && event.line <= lines,
            "event at line " + std::to_string(event.line) + " after line " + std::to_string(last) +
                " of a " + std::to_string(lines) + "-line input");
    last = event.line;
  }
  Require(reader.line() <= lines, "the reader counted more lines than the input has");
  Require(reader.bytes_read() <= size, "the reader consumed more bytes than the input has");
  for (const InputProblem& p : problems) {
    Require(static_cast<int>(p.id) < kNumCheckIds, "problem with an invalid check id");
    Require(!p.message.empty(), "problem without a message");
    Require(p.line >= 1 && p.line <= lines, "problem at line " + std::to_string(p.line) + " of a " +
                                                std::to_string(lines) +
                                                "-line input: " + p.message);
  }
}

void AuditLog(const uint8_t* data, size_t size) {
  if (size == 0) return;
  static const std::vector<std::string> names = BuiltinRulesetNames();
  const std::string text = Text(data + 1, size - 1);
  const int lines = CountLines(text);
  AuditOptions options;
  options.forced_ruleset = names[data[0] % names.size()];
  options.resolve = ResolveBuiltin;
  std::istringstream in(text);
  std::vector<FileReport> reports;
  reports.push_back(AuditStream(in, "fuzz.jsonl", options));
  const FileReport& r = reports.back();
  CheckReport(r, lines);

  std::ostringstream text_out, json_out, sarif_out;
  TextOptions text_options;
  text_options.scores = true;
  WriteText(text_out, reports, text_options);
  WriteJson(json_out, reports, "fuzz");
  RequireJson(json_out.str(), "the JSON report");
  WriteSarif(sarif_out, reports, "fuzz");
  RequireJson(sarif_out.str(), "the SARIF report");
}

void LoadRulesetText(const uint8_t* data, size_t size) {
  // One file per process (fuzzers may run in parallel), rewritten per input
  // and removed at exit.
  struct TempDir {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("canasta-fuzz-ruleset-" + std::to_string(getpid()));
    TempDir() { std::filesystem::create_directories(dir); }
    ~TempDir() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const TempDir temp;
  static const std::filesystem::path path = temp.dir / "fuzz.lua";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) Broken("cannot write " + path.string());
  }
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(path.string());
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    Require(!e->message.empty(), "ruleset error without a message");
    return;
  }
  const Ruleset& rs = std::get<Ruleset>(loaded);
  AuditOptions options;
  options.forced_ruleset = "fuzz";
  options.resolve = [&rs](const std::string&, const std::string&, RulesetChoice* out,
                          std::string*) {
    *out = rs.Choose();
    return true;
  };
  std::istringstream in(HookLog());
  FileReport r = AuditStream(in, "hooks.jsonl", options);
  const int lines = CountLines(HookLog());
  CheckReport(r, lines);
}

void CollectHandDecisions(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const int hand = 1 + data[0] % 8;
  const int game = 1 + data[0] / 8 % 2;
  const std::string text = Text(data + 1, size - 1);
  const int lines = CountLines(text);
  AuditOptions options;
  options.resolve = ResolveBuiltin;
  std::istringstream in(text);
  HandDecisions out;
  std::string error;
  if (!CollectDecisions(in, "fuzz.jsonl", game, hand, options, &out, &error)) {
    Require(!error.empty(), "CollectDecisions failed without saying why");
    return;
  }
  for (const Decision& d : out.decisions) {
    Require(d.line >= 1 && d.line <= lines, "decision at line " + std::to_string(d.line) +
                                                " of a " + std::to_string(lines) + "-line input");
    Require(d.phase == "draw" || d.phase == "play", "decision phase \"" + d.phase + "\"");
  }
}

void ImportSheet(const uint8_t* data, size_t size) {
  const std::string text = Text(data, size);
  // The CSV's own lines; a quoted cell may hold line breaks, so a finding
  // names a line of the text, at most the one after the last.
  const int lines = CountLines(text);
  std::istringstream csv(text);
  const SheetImport imported = ImportSheetCsv(csv, "fuzz.csv", SheetImportOptions{});
  for (const Finding& f : imported.report.findings) CheckFinding(f, lines, "sheet");
  if (imported.log.empty()) return;
  // What the import writes is a log the reader takes without a problem.
  {
    std::istringstream in(imported.log);
    LogReader reader(in);
    Event event;
    std::vector<InputProblem> problems;
    while (reader.Next(&event, &problems)) {
    }
    for (const InputProblem& p : problems)
      Broken("the imported log has a problem at line " + std::to_string(p.line) + ": " + p.message);
  }
  AuditOptions options;
  options.resolve = ResolveBuiltin;
  std::istringstream in(imported.log);
  const FileReport r = AuditStream(in, "fuzz.jsonl", options);
  const int log_lines = CountLines(imported.log);
  CheckReport(r, log_lines);
}

void SummarizeReportLines(const uint8_t* data, size_t size) {
  const std::string text = Text(data, size);
  BatchSummary summary;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::optional<ReportLineError> error = AddReportLine(line, &summary);
    Require(!error || !error->message.empty(), "a line refused without a reason");
  }
  std::ostringstream text_out, json_out;
  WriteTextSummary(text_out, summary);
  WriteJsonSummary(json_out, summary, "fuzz");
  RequireJson(json_out.str(), "the JSON summary");
}

const std::vector<Target>& Targets() {
  static const std::vector<Target> kAll = {
      {"log_reader", ReadLog},      {"audit", AuditLog},
      {"ruleset", LoadRulesetText}, {"decisions", CollectHandDecisions},
      {"sheet", ImportSheet},       {"summarize", SummarizeReportLines},
  };
  return kAll;
}

}  // namespace fuzz
}  // namespace canasta
