#include "lint/format.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "core/scoring.h"
#include "core/utf8.h"
#include "lint/check_levels.h"

namespace canasta {
namespace {

constexpr char kToolName[] = "canasta";
constexpr char kSarifSchema[] = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr char kSarifVersion[] = "2.1.0";
constexpr char kDocsDir[] = "docs/checks/";

const CheckInfo& InfoOf(const Finding& f) { return GetCheck(f.id); }

// --- Text helpers ---

// ANSI colours as clang uses them.
constexpr char kBold[] = "\x1b[1m";
constexpr char kReset[] = "\x1b[0m";
constexpr char kRed[] = "\x1b[1;31m";
constexpr char kMagenta[] = "\x1b[1;35m";
constexpr char kCyan[] = "\x1b[1;36m";

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError:
      return kRed;
    case Severity::kWarning:
      return kMagenta;
    case Severity::kNote:
      return kCyan;
  }
  return kRed;
}

}  // namespace

void PutPrintable(std::ostream& out, std::string_view text) {
  // The escaping itself is core's (core/utf8.h), shared with what a
  // ruleset's canasta.log writes; a buffer per thread, so no allocation a line.
  thread_local std::string buffer;
  buffer.clear();
  AppendPrintable(&buffer, text);
  out.write(buffer.data(), std::streamsize(buffer.size()));
}

namespace {

std::string Location(const std::string& file, int line) {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

// `loc: severity: text[ [check]]`
void PutLine(std::ostream& out, const std::string& loc, Severity severity, std::string_view text,
             const char* check, const TextOptions& options) {
  const bool main = severity != Severity::kNote || check != nullptr;
  if (options.color) out << kBold;
  PutPrintable(out, loc);
  out << ':';
  if (options.color) out << kReset;
  out << ' ';
  if (options.color) out << SeverityColor(severity);
  out << SeverityName(severity) << ':';
  if (options.color) out << kReset;
  out << ' ';
  if (options.color && main) out << kBold;
  PutPrintable(out, text);
  if (check != nullptr) out << " [" << check << ']';
  if (options.color && main) out << kReset;
  out << '\n';
}

void PutFinding(std::ostream& out, const std::string& file, const Finding& f,
                const TextOptions& options) {
  const CheckInfo& info = InfoOf(f);
  const std::string loc = Location(file, f.line);
  PutLine(out, loc, SeverityOf(f), f.message, info.name, options);
  for (const std::string& note : f.notes)
    PutLine(out, loc, Severity::kNote, note, nullptr, options);
}

std::string JoinInts(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

void PutScores(std::ostream& out, const std::string& file, const GameReport& game,
               const TextOptions& options) {
  for (const HandReport& h : game.hands) {
    std::string text = "hand " + std::to_string(h.hand) + ": scores " + JoinInts(h.scores) +
                       ", totals " + JoinInts(h.totals);
    if (!h.complete) text += " (hand incomplete)";
    PutLine(out, Location(file, h.line), Severity::kNote, text, nullptr, options);
  }
  std::string text = "game: totals " + JoinInts(game.totals);
  if (game.winner) {
    text += ", winner side " + std::to_string(*game.winner);
  } else {
    text += game.finished ? ", no winner" : ", not finished";
  }
  PutLine(out, Location(file, game.line), Severity::kNote, text, nullptr, options);
}


// --- JSON helpers ---

using JsonOut = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;
// One JSON Lines record: no whitespace at all.
using JsonLineOut = rapidjson::Writer<rapidjson::StringBuffer>;

// Arrays of numbers (and the players) on one line in the pretty document; a
// JSON Lines record is one line anyway.
void SingleLine(JsonOut& w, bool on) {
  w.SetFormatOptions(on ? rapidjson::kFormatSingleLineArray : rapidjson::kFormatDefault);
}
void SingleLine(JsonLineOut&, bool) {}

template <typename W>
void Str(W& w, std::string_view s) {
  const std::string v = ValidUtf8(s);
  w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
}

template <typename W>
void Ints(W& w, const std::vector<int>& v) {
  SingleLine(w, true);
  w.StartArray();
  for (int x : v) w.Int(x);
  w.EndArray();
  SingleLine(w, false);
}

template <typename W>
void OptionalInts(W& w, const std::optional<std::vector<int>>& v) {
  if (v) {
    Ints(w, *v);
  } else {
    w.Null();
  }
}

template <typename W>
void Strings(W& w, const std::vector<std::string>& v) {
  w.StartArray();
  for (const std::string& s : v) Str(w, s);
  w.EndArray();
}

template <typename W>
void JsonFinding(W& w, const Finding& f) {
  const CheckInfo& info = InfoOf(f);
  w.StartObject();
  w.Key("line");
  w.Int(f.line);
  w.Key("severity");
  w.String(SeverityName(SeverityOf(f)));
  w.Key("check");
  w.String(info.name);
  w.Key("message");
  Str(w, f.message);
  w.Key("notes");
  Strings(w, f.notes);
  w.Key("source");
  w.String(info.source);
  w.EndObject();
}

template <typename W>
void JsonFindings(W& w, const std::vector<Finding>& findings) {
  w.StartArray();
  for (const Finding& f : findings) JsonFinding(w, f);
  w.EndArray();
}

template <typename W>
void JsonBreakdown(W& w, const ScoreBreakdown& b) {
  w.StartObject();
  for (const BreakdownPart& part : BreakdownParts()) {
    // A special hand's part only where one was scored (001 L79).
    if (part.field == &ScoreBreakdown::special_hand && b.special_hand == 0) continue;
    w.Key(part.name);
    w.Int(b.*part.field);
  }
  // The ruleset's own parts (score_parts), after the standard ones.
  for (const auto& [name, value] : b.extra) {
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    w.Int(value);
  }
  w.EndObject();
}

template <typename W>
void IntOrNull(W& w, std::optional<int> value) {
  if (value) {
    w.Int(*value);
  } else {
    w.Null();
  }
}

template <typename W>
void JsonHand(W& w, const HandReport& h) {
  w.StartObject();
  w.Key("hand");
  w.Int(h.hand);
  w.Key("line");
  w.Int(h.line);
  w.Key("scores");
  Ints(w, h.scores);
  w.Key("totals");
  Ints(w, h.totals);
  w.Key("breakdown");
  w.StartArray();
  for (const ScoreBreakdown& b : h.breakdown) JsonBreakdown(w, b);
  w.EndArray();
  w.Key("recorded_scores");
  OptionalInts(w, h.recorded_scores);
  w.Key("recorded_totals");
  OptionalInts(w, h.recorded_totals);
  w.Key("went_out");
  IntOrNull(w, h.went_out >= 0 ? std::optional<int>(h.went_out) : std::nullopt);
  w.Key("complete");
  w.Bool(h.complete);
  w.EndObject();
}

template <typename W>
void JsonGame(W& w, const GameReport& g) {
  w.StartObject();
  w.Key("line");
  w.Int(g.line);
  w.Key("ruleset");
  Str(w, g.ruleset);
  w.Key("players");
  SingleLine(w, true);
  Strings(w, g.players);
  SingleLine(w, false);
  w.Key("events");
  w.Int(g.events);
  w.Key("findings");
  JsonFindings(w, g.findings);
  w.Key("hands");
  w.StartArray();
  for (const HandReport& h : g.hands) JsonHand(w, h);
  w.EndArray();
  w.Key("totals");
  Ints(w, g.totals);
  w.Key("winner");
  IntOrNull(w, g.winner);
  w.Key("finished");
  w.Bool(g.finished);
  w.EndObject();
}

// The members of a file's entry, without the braces.
template <typename W>
void JsonFileMembers(W& w, const FileReport& r) {
  w.Key("file");
  Str(w, r.file);
  w.Key("unreadable");
  w.Bool(r.unreadable);
  if (r.unreadable && !r.reason.empty()) {
    w.Key("reason");
    Str(w, r.reason);
  }
  w.Key("findings");
  JsonFindings(w, r.findings);
  w.Key("games");
  w.StartArray();
  for (const GameReport& g : r.games) JsonGame(w, g);
  w.EndArray();
}

template <typename W>
void JsonFile(W& w, const FileReport& r) {
  w.StartObject();
  JsonFileMembers(w, r);
  w.EndObject();
}

template <typename W>
void JsonSummary(W& w, const ReportSummary& s) {
  w.StartObject();
  w.Key("files");
  w.Int64(s.files);
  w.Key("unreadable");
  w.Int64(s.unreadable);
  w.Key("games");
  w.Int64(s.games);
  w.Key("hands");
  w.Int64(s.hands);
  w.Key("errors");
  w.Int64(s.errors);
  w.Key("warnings");
  w.Int64(s.warnings);
  w.Key("notes");
  w.Int64(s.notes);
  w.EndObject();
}

// --- SARIF helpers ---

const char* SarifLevel(Severity s) { return SeverityName(s); }  // same words

// "pile-frozen-needs-pair" -> "PileFrozenNeedsPair" (SARIF's rule `name`).
std::string PascalName(const char* kebab) {
  std::string out;
  bool up = true;
  for (const char* p = kebab; *p != '\0'; ++p) {
    if (*p == '-') {
      up = true;
      continue;
    }
    out += up && *p >= 'a' && *p <= 'z' ? static_cast<char>(*p - 'a' + 'A') : *p;
    up = false;
  }
  return out;
}

void SarifText(JsonOut& w, const char* key, std::string_view text) {
  w.Key(key);
  w.StartObject();
  w.Key("text");
  Str(w, text);
  w.EndObject();
}

void SarifRule(JsonOut& w, const CheckInfo& c) {
  const std::string doc = std::string(kDocsDir) + c.name + ".md";
  w.StartObject();
  w.Key("id");
  w.String(c.name);
  w.Key("name");
  w.String(PascalName(c.name));
  SarifText(w, "shortDescription", c.summary);
  SarifText(w, "fullDescription", std::string(c.summary) + ". Rule: " + c.source + ".");
  w.Key("help");
  w.StartObject();
  w.Key("text");
  w.String(std::string(c.summary) + ". Rule: " + c.source + ". See " + doc + ".");
  w.Key("markdown");
  w.String(std::string(c.summary) + ".\n\nRule: " + c.source + ".\n\nSee [" + doc + "](" + doc +
           ").");
  w.EndObject();
  w.Key("defaultConfiguration");
  w.StartObject();
  w.Key("level");
  w.String(SarifLevel(c.severity));
  w.EndObject();
  w.Key("properties");
  w.StartObject();
  w.Key("category");
  w.String(c.category);
  w.Key("source");
  w.String(c.source);
  w.Key("documentation");
  w.String(doc);
  w.Key("tags");
  w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
  w.StartArray();
  w.String(c.category);
  w.EndArray();
  w.SetFormatOptions(rapidjson::kFormatDefault);
  w.EndObject();
  w.EndObject();
}

void SarifArtifact(JsonOut& w, const std::string& file, int line) {
  w.Key("physicalLocation");
  w.StartObject();
  w.Key("artifactLocation");
  w.StartObject();
  w.Key("uri");
  w.String(FileUri(file));
  w.EndObject();
  if (line > 0) {
    w.Key("region");
    w.StartObject();
    w.Key("startLine");
    w.Int(line);
    w.EndObject();
  }
  w.EndObject();
}

void SarifResult(JsonOut& w, const std::string& file, const Finding& f) {
  const CheckInfo& info = InfoOf(f);
  std::string text = f.message;
  for (const std::string& note : f.notes) text += "\n" + note;
  w.StartObject();
  w.Key("ruleId");
  w.String(info.name);
  w.Key("ruleIndex");
  w.Int(static_cast<int>(info.id));
  w.Key("level");
  w.String(SarifLevel(SeverityOf(f)));
  SarifText(w, "message", text);
  w.Key("locations");
  w.StartArray();
  w.StartObject();
  SarifArtifact(w, file, f.line);
  w.EndObject();
  w.EndArray();
  w.EndObject();
}

}  // namespace

// ---------------------------------------------------------------------------
// Helpers

std::string FileUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  if (!path.empty() && path.front() == '/') out = "file://";
  for (char ch : path) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      (c != '\0' && std::strchr("-._~/!$&'()*+,;=@", c) != nullptr);
    if (keep) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

std::optional<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "text") return OutputFormat::kText;
  if (name == "json") return OutputFormat::kJson;
  if (name == "sarif") return OutputFormat::kSarif;
  if (name == "jsonl") return OutputFormat::kJsonl;
  return std::nullopt;
}

const char* OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return "text";
    case OutputFormat::kJson:
      return "json";
    case OutputFormat::kSarif:
      return "sarif";
    case OutputFormat::kJsonl:
      return "jsonl";
  }
  return "text";
}

void ReportSummary::Add(const FileReport& report) {
  ++files;
  if (report.unreadable) ++unreadable;
  auto count = [this](const std::vector<Finding>& findings) {
    for (const Finding& f : findings) {
      switch (SeverityOf(f)) {
        case Severity::kError:
          ++errors;
          break;
        case Severity::kWarning:
          ++warnings;
          break;
        case Severity::kNote:
          ++notes;
          break;
      }
    }
  };
  count(report.findings);
  for (const GameReport& g : report.games) {
    ++games;
    hands += static_cast<long>(g.hands.size());
    count(g.findings);
  }
}

void ReportSummary::Add(const ReportSummary& o) {
  files += o.files;
  unreadable += o.unreadable;
  games += o.games;
  hands += o.hands;
  errors += o.errors;
  warnings += o.warnings;
  notes += o.notes;
}

int ExitCodeFor(const std::vector<FileReport>& reports) {
  ReportSummary s;
  for (const FileReport& r : reports) s.Add(r);
  return s.ExitCode();
}

// ---------------------------------------------------------------------------
// Text

void WriteTextFile(std::ostream& out, const FileReport& report, const TextOptions& options) {
  if (report.unreadable) {
    PutLine(
        out, kToolName, Severity::kError,
        "cannot read '" + report.file + "'" + (report.reason.empty() ? "" : ": " + report.reason),
        nullptr, options);
    return;
  }
  for (const Finding& f : report.findings) PutFinding(out, report.file, f, options);
  for (const GameReport& g : report.games) {
    for (const Finding& f : g.findings) PutFinding(out, report.file, f, options);
    if (options.scores) PutScores(out, report.file, g, options);
  }
}

// ---------------------------------------------------------------------------
// Writers

void ReportWriter::Begin() {
  if (state_ != State::kNew) return;
  state_ = State::kOpen;
  DoBegin();
}

void ReportWriter::AddFile(const FileReport& report) { AddFormatted(Format(report)); }

FormattedFile ReportWriter::Format(const FileReport& report) const {
  FormattedFile f;
  f.counts.Add(report);
  if (report.unreadable) {
    f.unreadable_file = report.file;
    f.reason = report.reason;
  }
  DoFormat(report, &f.bytes);
  return f;
}

void ReportWriter::AddFormatted(const FormattedFile& file) {
  if (state_ == State::kNew) Begin();
  if (state_ != State::kOpen) return;
  summary_.Add(file.counts);
  DoAddFormatted(file);
}

void ReportWriter::End() {
  if (state_ == State::kNew) Begin();
  if (state_ != State::kOpen) return;
  state_ = State::kClosed;
  DoEnd();
}

TextReportWriter::TextReportWriter(std::ostream& out, const TextOptions& options)
    : out_(out), options_(options) {}

void TextReportWriter::DoFormat(const FileReport& report, std::string* bytes) const {
  std::ostringstream text;
  WriteTextFile(text, report, options_);
  *bytes = std::move(text).str();
}

void TextReportWriter::DoAddFormatted(const FormattedFile& file) {
  out_.write(file.bytes.data(), std::streamsize(file.bytes.size()));
}

namespace {

// The JSON of values written by `write` as they would appear inside the
// array that `open` starts (same indent), without the separator before the
// first: the writer adds it (PrettyWriter::RawValue) when it adds the bytes.
template <typename Open, typename Write>
std::string JsonFragment(Open open, Write write) {
  std::ostringstream text;
  rapidjson::OStreamWrapper stream(text);
  JsonOut w(stream);
  w.SetIndent(' ', 2);
  open(w);
  const size_t start = size_t(text.tellp());
  write(w);
  std::string s = std::move(text).str();
  size_t first = s.find_first_not_of(" \n", start);
  return first == std::string::npos ? std::string() : s.substr(first);
}

// Adds a fragment as one value of the array open in `w`; the bytes go to
// `out` directly.
void AddFragment(JsonOut& w, std::ostream& out, const std::string& bytes) {
  if (bytes.empty()) return;
  w.RawValue("", 0, rapidjson::kObjectType);  // the separator and the indent
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

}  // namespace

void TextReportWriter::DoEnd() { out_.flush(); }

class JsonReportWriter::Impl {
 public:
  Impl(std::ostream& out, const char* version)
      : out_(out), stream_(out), json_(stream_), version_(version ? version : "") {
    json_.SetIndent(' ', 2);
  }

  std::ostream& out_;
  rapidjson::OStreamWrapper stream_;
  JsonOut json_;
  std::string version_;
};

JsonReportWriter::JsonReportWriter(std::ostream& out, const char* version)
    : impl_(std::make_unique<Impl>(out, version)) {}

JsonReportWriter::~JsonReportWriter() = default;

void JsonReportWriter::DoBegin() {
  JsonOut& w = impl_->json_;
  w.StartObject();
  // The document's format: within /1 fields are only added (docs/report-format.md).
  w.Key("schema");
  w.String("canasta-report/1");
  w.Key("tool");
  w.String(kToolName);
  w.Key("version");
  Str(w, impl_->version_);
  w.Key("files");
  w.StartArray();
}

void JsonReportWriter::DoFormat(const FileReport& report, std::string* bytes) const {
  *bytes = JsonFragment(
      [](JsonOut& w) {
        w.StartObject();
        w.Key("files");
        w.StartArray();
      },
      [&](JsonOut& w) { JsonFile(w, report); });
}

void JsonReportWriter::DoAddFormatted(const FormattedFile& file) {
  AddFragment(impl_->json_, impl_->out_, file.bytes);
}

void JsonReportWriter::DoEnd() {
  JsonOut& w = impl_->json_;
  w.EndArray();
  w.Key("summary");
  JsonSummary(w, summary());
  w.EndObject();
  impl_->out_ << '\n';
  impl_->out_.flush();
}

JsonlReportWriter::JsonlReportWriter(std::ostream& out) : out_(out) {}

void JsonlReportWriter::DoFormat(const FileReport& report, std::string* bytes) const {
  rapidjson::StringBuffer buffer;
  JsonLineOut w(buffer);
  w.StartObject();
  // The record's format first: a reader of concatenated streams checks it per line.
  w.Key("schema");
  w.String(kReportLineSchema);
  JsonFileMembers(w, report);
  w.EndObject();
  bytes->reserve(buffer.GetSize() + 1);
  bytes->assign(buffer.GetString(), buffer.GetSize());
  *bytes += '\n';
}

void JsonlReportWriter::DoAddFormatted(const FormattedFile& file) {
  out_.write(file.bytes.data(), std::streamsize(file.bytes.size()));
}

void JsonlReportWriter::DoEnd() { out_.flush(); }

class SarifReportWriter::Impl {
 public:
  Impl(std::ostream& out, const char* version)
      : out_(out), stream_(out), json_(stream_), version_(version ? version : "") {
    json_.SetIndent(' ', 2);
  }

  std::ostream& out_;
  rapidjson::OStreamWrapper stream_;
  JsonOut json_;
  std::string version_;
  std::vector<std::pair<std::string, std::string>> unreadable_;  // files not read, and why
};

SarifReportWriter::SarifReportWriter(std::ostream& out, const char* version)
    : impl_(std::make_unique<Impl>(out, version)) {}

SarifReportWriter::~SarifReportWriter() = default;

void SarifReportWriter::DoBegin() {
  JsonOut& w = impl_->json_;
  w.StartObject();
  w.Key("$schema");
  w.String(kSarifSchema);
  w.Key("version");
  w.String(kSarifVersion);
  w.Key("runs");
  w.StartArray();
  w.StartObject();  // the run
  w.Key("tool");
  w.StartObject();
  w.Key("driver");
  w.StartObject();
  w.Key("name");
  w.String(kToolName);
  w.Key("version");
  Str(w, impl_->version_);
  w.Key("rules");
  w.StartArray();
  for (const CheckInfo& c : AllChecks()) SarifRule(w, c);
  w.EndArray();
  w.EndObject();  // driver
  w.EndObject();  // tool
  w.Key("results");
  w.StartArray();
}

void SarifReportWriter::DoFormat(const FileReport& report, std::string* bytes) const {
  if (report.unreadable) return;
  *bytes = JsonFragment(
      [](JsonOut& w) {
        w.StartObject();
        w.Key("runs");
        w.StartArray();
        w.StartObject();
        w.Key("results");
        w.StartArray();
      },
      [&](JsonOut& w) {
        for (const Finding& f : report.findings) SarifResult(w, report.file, f);
        for (const GameReport& g : report.games) {
          for (const Finding& f : g.findings) SarifResult(w, report.file, f);
        }
      });
}

void SarifReportWriter::DoAddFormatted(const FormattedFile& file) {
  if (!file.unreadable_file.empty()) {
    impl_->unreadable_.emplace_back(file.unreadable_file, file.reason);
    return;
  }
  AddFragment(impl_->json_, impl_->out_, file.bytes);
}

void SarifReportWriter::DoEnd() {
  JsonOut& w = impl_->json_;
  w.EndArray();  // results
  w.Key("invocations");
  w.StartArray();
  w.StartObject();
  w.Key("executionSuccessful");
  w.Bool(impl_->unreadable_.empty());
  if (!impl_->unreadable_.empty()) {
    w.Key("toolExecutionNotifications");
    w.StartArray();
    for (const auto& [file, reason] : impl_->unreadable_) {
      w.StartObject();
      w.Key("level");
      w.String("error");
      SarifText(w, "message", "cannot read '" + file + "'" + (reason.empty() ? "" : ": " + reason));
      w.Key("locations");
      w.StartArray();
      w.StartObject();
      SarifArtifact(w, file, 0);
      w.EndObject();
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  w.EndArray();   // invocations
  w.EndObject();  // the run
  w.EndArray();   // runs
  w.EndObject();
  impl_->out_ << '\n';
  impl_->out_.flush();
}

std::unique_ptr<ReportWriter> MakeReportWriter(OutputFormat format, std::ostream& out,
                                               const char* version, const TextOptions& text) {
  switch (format) {
    case OutputFormat::kJson:
      return std::make_unique<JsonReportWriter>(out, version);
    case OutputFormat::kSarif:
      return std::make_unique<SarifReportWriter>(out, version);
    case OutputFormat::kJsonl:
      return std::make_unique<JsonlReportWriter>(out);
    case OutputFormat::kText:
      break;
  }
  return std::make_unique<TextReportWriter>(out, text);
}

// ---------------------------------------------------------------------------
// Batch summaries

void BatchSummary::Add(const FileReport& report) {
  counts.Add(report);
  auto count = [this](const std::vector<Finding>& findings) {
    for (const Finding& f : findings) ++by_check[InfoOf(f).name];
  };
  count(report.findings);
  for (const GameReport& g : report.games) {
    events += g.events;
    count(g.findings);
  }
}

void BatchSummary::Add(const BatchSummary& other) {
  counts.Add(other.counts);
  events += other.events;
  for (const auto& [name, n] : other.by_check) by_check[name] += n;
}

std::string Printable(std::string_view text) {
  std::ostringstream out;
  PutPrintable(out, text);
  return out.str();
}

std::string PrintableLines(std::string_view text) {
  std::ostringstream out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find_first_of("\n\t", start), text.size());
    PutPrintable(out, text.substr(start, end - start));
    if (end < text.size()) out << text[end];
    start = end + 1;
  }
  return out.str();
}

void WriteTextSummary(std::ostream& out, const BatchSummary& s) {
  out << "audited " << s.counts.files << " file(s)";
  if (s.counts.unreadable > 0) out << ", " << s.counts.unreadable << " unreadable";
  out << ": " << s.counts.games << " game(s), " << s.counts.hands << " hand(s), " << s.events
      << " event(s); " << s.counts.errors << " error(s), " << s.counts.warnings
      << " warning(s)\n";
  // Check names come from the stream as well as from this program: printed
  // escaped, as every other text.
  for (const auto& [name, n] : s.by_check) {
    out << "  " << n << "  ";
    PutPrintable(out, name);
    out << "\n";
  }
}

void WriteJsonSummary(std::ostream& out, const BatchSummary& s, const char* version) {
  rapidjson::OStreamWrapper stream(out);
  JsonOut w(stream);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("schema");
  w.String("canasta-summary/1");
  w.Key("tool");
  w.String(kToolName);
  w.Key("version");
  Str(w, version ? version : "");
  w.Key("summary");
  JsonSummary(w, s.counts);
  w.Key("events");
  w.Int64(s.events);
  w.Key("checks");
  w.StartObject();
  for (const auto& [name, n] : s.by_check) {
    Str(w, name);  // as a key: a string in key position
    w.Int64(n);
  }
  w.EndObject();
  w.EndObject();
  out << '\n';
  out.flush();
}

namespace {

// The parts of a record a summary needs, each checked for its type; the first
// problem found is kept, with the path of its field (`games[2].events`).
class RecordReader {
 public:
  using Value = rapidjson::Value;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  const Value* Member(const Value& object, const char* key, const std::string& where) {
    if (!ok()) return nullptr;
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) {
      Fail("\"" + Path(where, key) + "\" is missing");
      return nullptr;
    }
    return &it->value;
  }
  const Value* Array(const Value& object, const char* key, const std::string& where) {
    const Value* v = Member(object, key, where);
    if (v && !v->IsArray()) return Wrong(where, key, "an array");
    return v;
  }
  const Value* String(const Value& object, const char* key, const std::string& where) {
    const Value* v = Member(object, key, where);
    if (v && !v->IsString()) return Wrong(where, key, "a string");
    return v;
  }
  const Value* Bool(const Value& object, const char* key, const std::string& where) {
    const Value* v = Member(object, key, where);
    if (v && !v->IsBool()) return Wrong(where, key, "true or false");
    return v;
  }
  const Value* Count(const Value& object, const char* key, const std::string& where) {
    const Value* v = Member(object, key, where);
    if (v && !(v->IsInt() && v->GetInt() >= 0)) return Wrong(where, key, "an integer, 0 or more");
    return v;
  }
  bool Object(const Value& v, const std::string& where) {
    if (ok() && !v.IsObject()) Fail("\"" + where + "\" is not an object");
    return ok();
  }
  void Fail(std::string message) {
    if (ok()) error_ = std::move(message);
  }

 private:
  static std::string Path(const std::string& where, const char* key) {
    return where.empty() ? key : where + "." + key;
  }
  const Value* Wrong(const std::string& where, const char* key, const char* want) {
    Fail("\"" + Path(where, key) + "\" is not " + want);
    return nullptr;
  }
  std::string error_;
};

// A record's value quoted in a message: short, and valid UTF-8.
std::string Quote(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string q = ValidUtf8(text.substr(0, kMax));
  return "\"" + q + (text.size() > kMax ? "...\"" : "\"");
}

constexpr size_t kMaxCheckNames = 1000;

// A check's stable name: kebab-case, short.
bool IsCheckName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '-') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// The findings of one array into `into`, counted by severity and check;
// `known` is the summary the record is for (the names it already has).
void AddFindings(RecordReader& r, const rapidjson::Value& list, const std::string& where,
                 const BatchSummary* known, BatchSummary* into) {
  for (rapidjson::SizeType i = 0; i < list.Size() && r.ok(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    if (!r.Object(list[i], at)) return;
    const rapidjson::Value* severity = r.String(list[i], "severity", at);
    const rapidjson::Value* check = r.String(list[i], "check", at);
    if (!r.ok()) return;
    const std::string_view s(severity->GetString(), severity->GetStringLength());
    if (s == "error") {
      ++into->counts.errors;
    } else if (s == "warning") {
      ++into->counts.warnings;
    } else if (s == "note") {
      ++into->counts.notes;
    } else {
      r.Fail("\"" + at + ".severity\" is " + Quote(s) + ", not error, warning or note");
      return;
    }
    const std::string_view name(check->GetString(), check->GetStringLength());
    if (!IsCheckName(name)) {
      r.Fail("\"" + at + ".check\" is " + Quote(name) + ", not a check's name");
      return;
    }
    // The names a stream may bring are bounded (a hostile one cannot grow
    // the summary without end): far more than there are checks.
    if (into->by_check.count(std::string(name)) == 0 &&
        known->by_check.count(std::string(name)) == 0 &&
        known->by_check.size() + into->by_check.size() >= kMaxCheckNames) {
      r.Fail("\"" + at + ".check\" is " + Quote(name) + ", one check name more than " +
             std::to_string(kMaxCheckNames));
      return;
    }
    ++into->by_check[std::string(name)];
  }
}

}  // namespace

std::optional<ReportLineError> AddReportLine(std::string_view line, BatchSummary* summary) {
  rapidjson::Document d;
  // Iterative: a hostile line of a million '[' must not overflow the stack;
  // the length is given, so the parser never reads past the line.
  d.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(line.data(),
                                                                                   line.size());
  if (d.HasParseError()) {
    std::string text = rapidjson::GetParseError_En(d.GetParseError());
    if (!text.empty() && text.back() == '.') text.pop_back();
    return ReportLineError{CheckId::kLogBadJson, "this line is not valid JSON: " + text +
                                                     " (at byte " +
                                                     std::to_string(d.GetErrorOffset() + 1) + ")"};
  }
  auto not_a_record = [](std::string why) {
    return ReportLineError{CheckId::kLogBadEvent,
                           "this line is not a " + std::string(kReportLineSchema) + " record: " +
                               std::move(why)};
  };
  if (!d.IsObject()) return not_a_record("it is not a JSON object");
  auto schema = d.FindMember("schema");
  if (schema == d.MemberEnd()) {
    // Say what it seems to be: a log, or a line of a --format json document.
    auto format = d.FindMember("format");
    if (format != d.MemberEnd() && format->value.IsString())
      return not_a_record("it has no \"schema\"; it is a " +
                          Quote(std::string_view(format->value.GetString(),
                                                 format->value.GetStringLength())) +
                          " line, not a line of `canasta audit --format jsonl`");
    return not_a_record("it has no \"schema\" (a line of `canasta audit --format jsonl` "
                        "begins {\"schema\":\"canasta-report-line/1\",...)");
  }
  if (!schema->value.IsString() ||
      std::string_view(schema->value.GetString(), schema->value.GetStringLength()) !=
          kReportLineSchema) {
    const std::string got =
        schema->value.IsString()
            ? Quote(std::string_view(schema->value.GetString(), schema->value.GetStringLength()))
            : std::string("not a string");
    return not_a_record("its \"schema\" is " + got);
  }

  BatchSummary file;
  RecordReader r;
  r.String(d, "file", "");
  const rapidjson::Value* unreadable = r.Bool(d, "unreadable", "");
  const rapidjson::Value* findings = r.Array(d, "findings", "");
  const rapidjson::Value* games = r.Array(d, "games", "");
  if (!r.ok()) return not_a_record(r.error());
  file.counts.files = 1;
  file.counts.unreadable = unreadable->GetBool() ? 1 : 0;
  AddFindings(r, *findings, "findings", summary, &file);
  for (rapidjson::SizeType i = 0; i < games->Size() && r.ok(); ++i) {
    const std::string at = "games[" + std::to_string(i) + "]";
    const rapidjson::Value& g = (*games)[i];
    if (!r.Object(g, at)) break;
    const rapidjson::Value* events = r.Count(g, "events", at);
    const rapidjson::Value* hands = r.Array(g, "hands", at);
    const rapidjson::Value* game_findings = r.Array(g, "findings", at);
    if (!r.ok()) break;
    ++file.counts.games;
    file.counts.hands += long(hands->Size());
    file.events += events->GetInt();
    AddFindings(r, *game_findings, at + ".findings", summary, &file);
  }
  if (!r.ok()) return not_a_record(r.error());
  summary->Add(file);
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Whole reports

namespace {
void WriteAll(ReportWriter& writer, const std::vector<FileReport>& reports) {
  writer.Begin();
  for (const FileReport& r : reports) writer.AddFile(r);
  writer.End();
}
}  // namespace

void WriteText(std::ostream& out, const std::vector<FileReport>& reports,
               const TextOptions& options) {
  TextReportWriter writer(out, options);
  WriteAll(writer, reports);
}

void WriteJson(std::ostream& out, const std::vector<FileReport>& reports, const char* version) {
  JsonReportWriter writer(out, version);
  WriteAll(writer, reports);
}

void WriteSarif(std::ostream& out, const std::vector<FileReport>& reports, const char* version) {
  SarifReportWriter writer(out, version);
  WriteAll(writer, reports);
}

}  // namespace canasta
