// The report writers as the audit's workers use them: a file's bytes made
// by Format() on any thread and written in order by AddFormatted() are
// exactly the bytes of AddFile(); text escapes every control a hook's string
// or a log can carry.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lint/format.h"

namespace canasta {
namespace {

FileReport Report(const std::string& file, int findings) {
  FileReport r;
  r.file = file;
  for (int i = 0; i < findings; ++i)
    r.findings.push_back(Finding{
        i + 1, CheckId::kLogBadEvent, "bad " + std::to_string(i), {"note " + std::to_string(i)}});
  GameReport g;
  g.file = file;
  g.line = 1;
  g.ruleset = "classic";
  g.players = {"Ann", "Bob"};
  g.findings.push_back(Finding{7, CheckId::kTurnOrder, "out of turn", {}});
  r.games.push_back(g);
  return r;
}

std::vector<FileReport> Reports() {
  std::vector<FileReport> v = {Report("a.jsonl", 2), Report("b.jsonl", 0)};
  FileReport unreadable;
  unreadable.file = "gone.jsonl";
  unreadable.unreadable = true;
  unreadable.reason = "No such file or directory";
  v.push_back(unreadable);
  FileReport empty;  // no finding at all: SARIF adds nothing for it
  empty.file = "c.jsonl";
  v.push_back(empty);
  v.push_back(Report("d.jsonl", 1));
  return v;
}

TEST(ReportWriter, FormattedOnOtherThreadsGivesTheSameBytes) {
  for (OutputFormat format : {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kSarif}) {
    const std::vector<FileReport> reports = Reports();
    std::ostringstream direct, pooled;
    TextOptions text;
    auto a = MakeReportWriter(format, direct, "1.0", text);
    a->Begin();
    for (const FileReport& r : reports) a->AddFile(r);
    a->End();

    auto b = MakeReportWriter(format, pooled, "1.0", text);
    std::vector<FormattedFile> formatted(reports.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < reports.size(); ++i)
      threads.emplace_back([&, i] { formatted[i] = b->Format(reports[i]); });
    for (std::thread& t : threads) t.join();
    b->Begin();
    for (const FormattedFile& f : formatted) b->AddFormatted(f);
    b->End();
    EXPECT_EQ(pooled.str(), direct.str()) << OutputFormatName(format);
    EXPECT_EQ(b->summary().files, 5);
    EXPECT_EQ(b->summary().unreadable, 1);
    EXPECT_EQ(b->summary().errors, a->summary().errors);
  }
  // And the same as the whole-report functions, which the golden files pin.
  std::ostringstream whole, streamed;
  WriteJson(whole, Reports(), "1.0");
  JsonReportWriter w(streamed, "1.0");
  for (const FileReport& r : Reports()) w.AddFormatted(w.Format(r));
  w.End();
  EXPECT_EQ(streamed.str(), whole.str());
  EXPECT_NE(whole.str().find("\"reason\": \"No such file or directory\""), std::string::npos);
}

std::string TextOf(const std::string& message) {
  FileReport r;
  r.file = "a.log";
  r.findings.push_back(Finding{2, CheckId::kLogBadEvent, message, {}});
  std::ostringstream out;
  WriteTextFile(out, r, TextOptions());
  return out.str();
}

TEST(ReportWriter, TextEscapesC1AndOtherControlsFromAHooksString) {
  // A raw 0x9b is CSI to an 8-bit terminal; U+009B is the same in UTF-8.
  EXPECT_EQ(TextOf("a\x9b"
                   "2Jb"),
            "a.log:2: error: a\\x9b2Jb [log-bad-event]\n");
  EXPECT_EQ(TextOf("a\xc2\x9b"
                   "2J\xc2\x85z"),
            "a.log:2: error: a\\u009b2J\\u0085z [log-bad-event]\n");
  // Every byte 0x80-0x9f alone, and every C1 code point.
  for (int c = 0x80; c <= 0x9f; ++c) {
    char raw[2] = {char(c), 0};
    EXPECT_EQ(TextOf(raw).find(raw), std::string::npos) << c;
    char utf8[3] = {char(0xc2), char(c), 0};
    EXPECT_EQ(TextOf(utf8).find(utf8), std::string::npos) << c;
  }
  // Line separators and bidi overrides that would reorder the line.
  EXPECT_EQ(TextOf("x\xe2\x80\xa8y\xe2\x80\xaez"),
            "a.log:2: error: x\\u2028y\\u202ez [log-bad-event]\n");
  // C0 and DEL as before; text that is valid and printable is untouched.
  EXPECT_EQ(TextOf("t\tn\nd\x7f"), "a.log:2: error: t\\tn\\nd\\x7f [log-bad-event]\n");
  EXPECT_EQ(TextOf("000 §13 · K♥ é"), "a.log:2: error: 000 §13 · K♥ é [log-bad-event]\n");
  // A truncated or overlong sequence is bytes, escaped.
  EXPECT_EQ(TextOf("\xe2\x80"), "a.log:2: error: \\xe2\\x80 [log-bad-event]\n");
  EXPECT_EQ(TextOf("\xc0\xaf"), "a.log:2: error: \\xc0\\xaf [log-bad-event]\n");
}

}  // namespace
}  // namespace canasta
