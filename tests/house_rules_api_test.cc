// House rules v2, the API around the hooks: the `checks` table and --checks,
// citations of a user's file, the generated hook reference, strict tables,
// canasta.log.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "lint/check_levels.h"
#include "lint/checks.h"
#include "lint/format.h"
#include "replay/auditor.h"
#include "scripting/resolver.h"
#include "scripting/ruleset.h"
#include "scripting/ruleset_info.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

const std::string kSource = CANASTA_SOURCE_DIR;
const std::string kClassicGame = kSource + "/samples/classic/game.jsonl";

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Ruleset MustLoad(const std::string& path) {
  std::variant<Ruleset, LuaError> r = LoadRuleset(path);
  if (auto* e = std::get_if<LuaError>(&r)) ADD_FAILURE() << e->ToString();
  return std::get<Ruleset>(std::move(r));
}

FileReport AuditUnder(const std::string& log, const Ruleset& rs, const CheckLevels& levels) {
  AuditOptions options;
  options.forced_ruleset = rs.name();
  RulesetChoice choice = rs.Choose();
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  FileReport r = AuditFile(log, options);
  EXPECT_EQ(ApplyCheckLevels(&r, levels), "");
  return r;
}

// A game header alone: one log-incomplete warning.
constexpr char kHeaderOnly[] =
    "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"players\":[\"A\",\"B\",\"C\",\"D\"]}\n";

TEST(CheckLevelsTest, RulesetChecksAreInheritedAndOverridden) {
  test::TempDir d;
  d.Write("base.lua",
          "return {\n  extends = \"classic\",\n  checks = {\n    [\"deal-dealer\"] = \"off\",\n"
          "    [\"log-incomplete\"] = \"note\",\n  },\n}\n");
  const std::string house = d.Write(
      "house.lua", "return {\n  extends = \"base.lua\",\n  checks = { [\"log-incomplete\"] = "
                   "\"error\" },\n}\n");
  Ruleset rs = MustLoad(house);
  ASSERT_EQ(rs.checks().size(), 2u);
  EXPECT_EQ(rs.checks()[0].check, "deal-dealer");
  EXPECT_EQ(rs.checks()[0].level, "off");
  EXPECT_TRUE(Has(rs.checks()[0].where, "base.lua:4")) << rs.checks()[0].where;
  EXPECT_EQ(rs.checks()[1].level, "error");
  EXPECT_TRUE(Has(rs.checks()[1].where, "house.lua:3")) << rs.checks()[1].where;

  const std::string log = d.Write("g.jsonl", kHeaderOnly);
  FileReport r = AuditUnder(log, rs, CheckLevels());
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_EQ(r.games[0].findings.size(), 1u);
  EXPECT_EQ(r.games[0].findings[0].id, CheckId::kLogIncomplete);
  EXPECT_EQ(SeverityOf(r.games[0].findings[0]), Severity::kError);
  std::ostringstream text;
  WriteTextFile(text, r, TextOptions());
  EXPECT_TRUE(Has(text.str(), ": error: ")) << text.str();
  ReportSummary s;
  s.Add(r);
  EXPECT_EQ(s.ExitCode(), 1);

  // The command line applies after the ruleset.
  CheckLevels cli;
  ASSERT_EQ(cli.ParseOption("warning:log-incomplete"), "");
  r = AuditUnder(log, rs, cli);
  ASSERT_EQ(r.games[0].findings.size(), 1u);
  EXPECT_EQ(SeverityOf(r.games[0].findings[0]), Severity::kWarning);
  ReportSummary w;
  w.Add(r);
  EXPECT_EQ(w.ExitCode(), 0);
  CheckLevels off;
  ASSERT_EQ(off.ParseOption("-log-*"), "");
  r = AuditUnder(log, rs, off);
  EXPECT_TRUE(r.games[0].findings.empty());
}

TEST(CheckLevelsTest, BadLevelIsALoadErrorWithItsLine) {
  test::TempDir d;
  const std::string p = d.Write(
      "bad.lua", "return {\n  checks = {\n    [\"deal-dealer\"] = \"of\",\n  },\n}\n");
  std::variant<Ruleset, LuaError> r = LoadRuleset(p);
  ASSERT_TRUE(std::holds_alternative<LuaError>(r));
  const LuaError& e = std::get<LuaError>(r);
  EXPECT_EQ(e.line, 3);
  EXPECT_TRUE(Has(e.message, "did you mean \"off\"")) << e.message;
}

TEST(CheckLevelsTest, UnknownCheckNameIsRefusedWithItsLineAndASuggestion) {
  test::TempDir d;
  const std::string p =
      d.Write("bad.lua", "return {\n  checks = {\n    [\"deal-dealr\"] = \"off\",\n  },\n}\n");
  Ruleset rs = MustLoad(p);  // scripting/ does not know the names: lint/ does
  const std::string why = CheckLevels().ApplySettings(rs.checks());
  EXPECT_TRUE(Has(why, "bad.lua:3: checks: unknown check \"deal-dealr\"")) << why;
  EXPECT_TRUE(Has(why, "did you mean \"deal-dealer\"")) << why;
  // Where a log names it, the game is not replayed and says why.
  RulesetChoice choice;
  std::string error;
  EXPECT_TRUE(ResolveUserRuleset(p, &choice, &error)) << error;
  EXPECT_EQ(choice.checks.size(), 1u);
}

TEST(CheckLevelsTest, CommandLineSyntax) {
  CheckLevels l;
  EXPECT_EQ(l.ParseOption("-deal-dealer,warning:three-timing,error:pile-count"), "");
  EXPECT_TRUE(l.off(CheckId::kDealDealer));
  EXPECT_EQ(l.SeverityOf(CheckId::kThreeTiming), Severity::kWarning);
  EXPECT_EQ(l.SeverityOf(CheckId::kPileCount), Severity::kError);
  EXPECT_EQ(l.SeverityOf(CheckId::kScoreHand), Severity::kError);

  CheckLevels only;
  EXPECT_EQ(only.ParseOption("-*,meld-*"), "");
  EXPECT_TRUE(only.off(CheckId::kDealDealer));
  EXPECT_FALSE(only.off(CheckId::kMeldTooSmall));
  EXPECT_FALSE(only.off(CheckId::kMeldHouseRule));

  CheckLevels bad;
  std::string why = bad.ParseOption("-deal-deeler");
  EXPECT_TRUE(Has(why, "unknown check \"deal-deeler\" (did you mean \"deal-dealer\"?)")) << why;
  EXPECT_TRUE(Has(bad.ParseOption("loud:deal-dealer"), "not a severity"));
  EXPECT_TRUE(Has(bad.ParseOption("-zzz-*"), "matches no check"));
}

TEST(CitationTest, AUserFileCitesItsOwnLineAndBuiltinsKeepTheirs) {
  test::TempDir d;
  const std::string p = d.Write(
      "house.lua",
      "return {\n  extends = \"hutto\",\n  params = {\n    canasta_size = 8,\n"
      "    stock_draw = 2,\n  },\n  sources = { stock_draw = \"our club\", may_take_pile = "
      "\"Pagat, Taking the pile\" },\n}\n");
  Ruleset rs = MustLoad(p);
  EXPECT_EQ(rs.rules().Cite("canasta_size", "000 §9"), p + ":4");
  EXPECT_EQ(rs.rules().Cite("stock_draw", ""), "our club");
  EXPECT_EQ(rs.rules().Cite("may_take_pile", ""), "Pagat, Taking the pile");

  Ruleset hutto = MustLoad("hutto");
  EXPECT_EQ(hutto.rules().Cite("canasta_size", "000 §9"), "000 §9");
}

TEST(HookReferenceTest, ShowListsEachHookWithItsLine) {
  test::TempDir d;
  const std::string p = d.Write(
      "house.lua",
      "return {\n  hooks = {\n    may_discard = function(ctx, rules) end,\n  },\n}\n");
  const std::string shown = ShowRuleset(MustLoad(p));
  EXPECT_TRUE(Has(shown, "  may_discard  " + p + ":3\n")) << shown;
}

// docs/lua-api.md's hook reference is `canasta rules hooks --markdown`: a
// hook added to core/hook_api.cc without regenerating the docs fails here.
TEST(HookReferenceTest, DocsHookReferenceIsTheGeneratedText) {
  const std::string doc = Read(kSource + "/docs/lua-api.md");
  const std::string begin = "<!-- BEGIN HOOK REFERENCE (canasta rules hooks --markdown) -->\n";
  const std::string end = "<!-- END HOOK REFERENCE -->";
  const size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string have = doc.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(have, HookReference(true) + "\n")
      << "regenerate: build/canasta rules hooks --markdown, between the markers";
  const std::string text = HookReference(false);
  for (const HookSpec& s : HookSpecs()) EXPECT_TRUE(Has(text, s.signature)) << s.name;
}

// A misspelt field of `rules` fails the hook, reported once a game with "did
// you mean" and the traceback as notes; canasta.log prints on stderr with
// the file and line.
TEST(StrictTablesTest, MisspeltRulesFieldIsAFailedHookOnceAGame) {
  test::TempDir d;
  const std::string p = d.Write(
      "house.lua",
      "return {\n  extends = \"classic\",\n  hooks = {\n"
      "    initial_meld_value = function(card, rules)\n"
      "      canasta.log(\"value of\", card)\n"
      "      return rules.canasta_sise\n    end,\n  },\n}\n");
  Ruleset rs = MustLoad(p);
  fflush(stderr);
  const std::string err_path = p + ".err";
  int saved = dup(2);
  FILE* err = std::fopen(err_path.c_str(), "w");
  dup2(fileno(err), 2);
  FileReport r = AuditUnder(kClassicGame, rs, CheckLevels());
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(err);
  ASSERT_EQ(r.games.size(), 1u);
  int failed = 0;
  for (const Finding& f : r.games[0].findings) {
    if (f.id != CheckId::kRulesetHookFailed) continue;
    ++failed;
    EXPECT_TRUE(Has(f.message, "did you mean \"canasta_size\"")) << f.message;
    std::string notes;
    for (const std::string& n : f.notes) notes += n + "\n";
    EXPECT_TRUE(Has(notes, "house.lua:6")) << notes;
    EXPECT_TRUE(Has(notes, "traceback")) << notes;
  }
  EXPECT_EQ(failed, 1);
  const std::string logged = Read(err_path);
  EXPECT_TRUE(Has(logged, "house.lua:5: value of\t")) << logged;
}

}  // namespace
}  // namespace canasta
