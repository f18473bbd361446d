// The public API (include/canasta/canasta.h) as an application uses it:
// exact findings, lines and scores of the shipped samples, through the
// installed header only (the engine's own types appear only where a test
// compares the API's output with the engine's).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "canasta/canasta.h"
#include "lint/format.h"
#include "replay/auditor.h"

namespace {

namespace api = canasta::api;
namespace fs = std::filesystem;

const std::string kSource = CANASTA_SOURCE_DIR;
const std::string kFrozen = kSource + "/samples/classic/mistakes/frozen-pile-no-pair.jsonl";
const std::string kClassicGame = kSource + "/samples/classic/game.jsonl";

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ApiVersion, MacrosMatchTheLibrary) {
  EXPECT_STREQ(api::Version(), CANASTA_VERSION_STRING);
  EXPECT_EQ(std::to_string(CANASTA_VERSION_MAJOR) + "." + std::to_string(CANASTA_VERSION_MINOR) +
                "." + std::to_string(CANASTA_VERSION_PATCH),
            CANASTA_VERSION_STRING);
  EXPECT_EQ(CANASTA_VERSION_NUMBER,
            CANASTA_VERSION_MAJOR * 10000 + CANASTA_VERSION_MINOR * 100 + CANASTA_VERSION_PATCH);
}

// The README's audit (000 §13, §14: a frozen pile needs a natural pair).
TEST(ApiAudit, FrozenPileSampleGivesItsOneFindingAndTheScores) {
  api::AuditResult r = api::AuditFile(kFrozen);
  EXPECT_FALSE(r.unreadable);
  EXPECT_TRUE(r.findings.empty());
  ASSERT_EQ(r.games.size(), 1u);
  const api::GameResult& g = r.games[0];
  EXPECT_EQ(g.ruleset, "classic");
  EXPECT_EQ(g.players, (std::vector<std::string>{"Ann", "Bob", "Cat", "Dan"}));
  EXPECT_EQ(g.events, 458);
  ASSERT_EQ(g.findings.size(), 1u);
  const api::Finding& f = g.findings[0];
  EXPECT_EQ(f.file, kFrozen);
  EXPECT_EQ(f.line, 198);
  EXPECT_EQ(f.check, "pile-frozen-needs-pair");
  EXPECT_EQ(f.severity, api::Severity::kError);
  EXPECT_EQ(f.message, "the pile is frozen; taking it needs a natural pair of 9s from the hand");
  EXPECT_EQ(f.notes,
            (std::vector<std::string>{
                "hand 4, turn of seat 2 (Cat); pile: 15 card(s), 9H on top", "rule: 000 §13, §14",
                "frozen because the side has not made its initial meld", "shown: 9C 2S"}));
  EXPECT_EQ(api::ToText(f),
            kFrozen +
                ":198: error: the pile is frozen; taking it needs a natural pair of 9s from "
                "the hand [pile-frozen-needs-pair]\n" +
                kFrozen +
                ":198: note: hand 4, turn of seat 2 (Cat); pile: 15 card(s), 9H on top\n" +
                kFrozen + ":198: note: rule: 000 §13, §14\n" + kFrozen +
                ":198: note: frozen because the side has not made its initial meld\n" + kFrozen +
                ":198: note: shown: 9C 2S\n");
  EXPECT_EQ(r.errors(), 1);
  EXPECT_EQ(r.warnings(), 0);
  EXPECT_EQ(r.AllFindings().size(), 1u);
  EXPECT_EQ(r.ExitCode(), 1);

  ASSERT_GE(g.hands.size(), 1u);
  const api::HandScores& h = g.hands[0];
  EXPECT_EQ(h.hand, 1);
  EXPECT_EQ(h.line, 2);
  EXPECT_EQ(h.scores, (std::vector<int>{1750, 145}));
  EXPECT_EQ(h.totals, (std::vector<int>{1750, 145}));
  EXPECT_EQ(h.recorded_scores, (std::vector<int>{1750, 145}));
  EXPECT_EQ(h.went_out, 0);
  EXPECT_TRUE(h.complete);
  ASSERT_EQ(h.parts.size(), 2u);
  EXPECT_EQ(h.parts[0].canastas, 800);
  EXPECT_EQ(h.parts[0].red_threes, 300);
  EXPECT_EQ(h.parts[0].going_out, 100);
  EXPECT_EQ(h.parts[0].melded, 565);
  EXPECT_EQ(h.parts[0].in_hand, -15);
  EXPECT_EQ(h.parts[0].total, 1750);
  EXPECT_EQ(h.parts[1].total, 145);
}

TEST(ApiAudit, CleanClassicGameHasTheTotalsAndWinner) {
  api::AuditResult r = api::AuditFile(kClassicGame);
  ASSERT_EQ(r.games.size(), 1u);
  const api::GameResult& g = r.games[0];
  EXPECT_TRUE(r.AllFindings().empty());
  EXPECT_EQ(r.ExitCode(), 0);
  EXPECT_TRUE(g.finished);
  EXPECT_EQ(g.totals, (std::vector<int>{6180, 3750}));
  EXPECT_EQ(g.winner, 0);
  ASSERT_EQ(g.hands.size(), 7u);
  EXPECT_EQ(g.hands[6].scores, (std::vector<int>{1345, 210}));
  EXPECT_EQ(g.hands[6].totals, (std::vector<int>{6180, 3750}));
}

TEST(ApiAudit, StreamGoesOnPastABadLine) {
  std::istringstream in(
      "{\"type\":\"game\",\"format\":\"canasta-log/1\",\"players\":[\"A\",\"B\",\"C\",\"D\"]}\n"
      "{not json\n"
      "{\"type\":\"discard\",\"player\":0,\"card\":\"KS\"}\n");
  api::AuditResult r = api::AuditStream(in, "mem.jsonl");
  ASSERT_EQ(r.games.size(), 1u);
  std::vector<std::pair<int, std::string>> got;
  for (const api::Finding& f : r.AllFindings()) got.emplace_back(f.line, f.check);
  EXPECT_EQ(got, (std::vector<std::pair<int, std::string>>{
                     {2, "log-bad-json"}, {3, "log-incomplete"}}));
  // The discard after the bad line is skipped with a note on the bad line's
  // finding (docs/log-format.md, "When the replay loses the state").
  EXPECT_EQ(r.AllFindings()[0].file, "mem.jsonl");
  EXPECT_EQ(r.AllFindings()[1].severity, api::Severity::kWarning);
  EXPECT_EQ(r.errors(), 1);
  EXPECT_EQ(r.warnings(), 1);
}

TEST(ApiAudit, UnreadableFileIsNotAnException) {
  api::AuditResult r = api::AuditFile(kSource + "/no/such/file.jsonl");
  EXPECT_TRUE(r.unreadable);
  EXPECT_TRUE(r.games.empty());
  EXPECT_EQ(r.ExitCode(), 2);
}

TEST(ApiAudit, ForcedRulesetOverridesTheHeader) {
  api::AuditOptions options;
  options.ruleset = api::Ruleset::Load("two-handed");
  ASSERT_TRUE(options.ruleset);
  api::AuditResult r = api::AuditFile(kClassicGame, options);
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_EQ(r.games[0].findings.size(), 1u);
  EXPECT_EQ(r.games[0].findings[0].check, "log-player-count");
  EXPECT_EQ(r.games[0].findings[0].line, 1);
  EXPECT_EQ(r.games[0].findings[0].message,
            "the game has 4 players; ruleset \"two-handed\" is for 2");
  EXPECT_EQ(r.games[0].ruleset, "two-handed");
}

// A ruleset's `checks` apply to what the library reports, as to the tool.
TEST(ApiAudit, RulesetChecksTableApplies) {
  const std::string dir = ::testing::TempDir() + "/api-checks";
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir + "/quiet.lua")
        << "return { extends = \"classic\", checks = { [\"pile-frozen-needs-pair\"] = "
           "\"warning\" } }\n";
  }
  api::AuditOptions options;
  options.ruleset = api::Ruleset::Load(dir + "/quiet.lua");
  ASSERT_TRUE(options.ruleset);
  api::AuditResult r = api::AuditFile(kFrozen, options);
  ASSERT_EQ(r.games.size(), 1u);
  ASSERT_EQ(r.games[0].findings.size(), 1u);
  EXPECT_EQ(r.games[0].findings[0].check, "pile-frozen-needs-pair");
  EXPECT_EQ(r.games[0].findings[0].severity, api::Severity::kWarning);
  {
    std::ofstream(dir + "/quiet.lua")
        << "return { extends = \"classic\", checks = { [\"pile-frozen-needs-pair\"] = "
           "\"off\" } }\n";
  }
  // The same file, edited (and a second later, for file systems that keep
  // whole seconds): the library loads it again.
  std::filesystem::last_write_time(
      dir + "/quiet.lua",
      std::filesystem::last_write_time(dir + "/quiet.lua") + std::chrono::seconds(2));
  options.ruleset = api::Ruleset::Load(dir + "/quiet.lua");
  ASSERT_TRUE(options.ruleset);
  r = api::AuditFile(kFrozen, options);
  ASSERT_EQ(r.games.size(), 1u);
  EXPECT_TRUE(r.games[0].findings.empty()) << api::ToText(r.games[0].findings[0]);
}

// The API's JSON is the writer's own, byte for byte: nothing is lost on the
// way through the plain structs.
TEST(ApiAudit, ToJsonIsTheReportWritersOutput) {
  std::ostringstream engine;
  canasta::AuditOptions options;
  canasta::WriteJson(engine, {canasta::AuditFile(kFrozen, options)}, CANASTA_VERSION_STRING);
  EXPECT_EQ(api::ToJson(api::AuditFile(kFrozen)), engine.str());
}

TEST(ApiRuleset, LoadsBuiltinsAndFilesAndSaysWhyNot) {
  std::vector<std::string> names = api::BuiltinRulesets();
  EXPECT_EQ(names.size(), 13u);
  EXPECT_EQ(names.front(), "bolivia");

  std::optional<api::Ruleset> hutto = api::Ruleset::Load("hutto");
  ASSERT_TRUE(hutto);
  EXPECT_EQ(hutto->name(), "hutto");
  EXPECT_TRUE(hutto->builtin());
  EXPECT_EQ(hutto->file(), "rulesets/hutto.lua");
  EXPECT_EQ(hutto->players(), 4);
  EXPECT_EQ(hutto->sides(), 2);
  EXPECT_EQ(hutto->target_score(), 5000);
  EXPECT_NE(hutto->Describe().find("num_players"), std::string::npos);

  api::Ruleset three = *api::Ruleset::Load("three-handed");
  EXPECT_EQ(three.players(), 3);
  EXPECT_EQ(three.sides(), 3);

  const std::string house = kSource + "/samples/rulesets/house-example.lua";
  std::optional<api::Ruleset> file = api::Ruleset::Load(house);
  ASSERT_TRUE(file);
  EXPECT_FALSE(file->builtin());
  EXPECT_EQ(file->file(), house);

  std::string error;
  EXPECT_FALSE(api::Ruleset::Load("no-such-ruleset", &error));
  EXPECT_NE(error.find("no-such-ruleset"), std::string::npos) << error;
  // An incomplete built-in refuses to load, naming what is missing.
  error.clear();
  EXPECT_FALSE(api::Ruleset::Load("bolivia", &error));
  EXPECT_FALSE(error.empty());

  EXPECT_EQ(api::Ruleset::Classic().name(), "classic");
}

// Fed line by line, a replay finds what the audit finds, and scores the same.
TEST(ApiReplay, LineByLineFindsWhatTheAuditFinds) {
  api::Replay replay(api::Ruleset::Classic(), {});
  std::vector<api::Finding> found;
  for (const std::string& line : Lines(kFrozen)) {
    std::vector<api::Finding> f = replay.Feed(line);
    found.insert(found.end(), f.begin(), f.end());
  }
  EXPECT_EQ(replay.lines(), 458);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 198);
  EXPECT_EQ(found[0].check, "pile-frozen-needs-pair");
  EXPECT_EQ(found[0].message,
            "the pile is frozen; taking it needs a natural pair of 9s from the hand");

  api::AuditResult audit = api::AuditFile(kFrozen);
  const std::vector<api::HandScores>& audited = audit.games[0].hands;
  ASSERT_EQ(replay.hands().size(), audited.size());
  for (size_t i = 0; i < audited.size(); ++i) {
    EXPECT_EQ(replay.hands()[i].hand, audited[i].hand);
    EXPECT_EQ(replay.hands()[i].line, audited[i].line);
    EXPECT_EQ(replay.hands()[i].scores, audited[i].scores) << "hand " << audited[i].hand;
    EXPECT_EQ(replay.hands()[i].totals, audited[i].totals) << "hand " << audited[i].hand;
  }
  api::PublicState s = replay.State();
  EXPECT_EQ(s.phase, api::Phase::kNoHand);
  ASSERT_EQ(s.sides.size(), 2u);
  EXPECT_EQ(s.sides[0].total, audit.games[0].totals[0]);
  EXPECT_EQ(s.sides[1].total, audit.games[0].totals[1]);
  EXPECT_EQ(s.game_over, audit.games[0].finished);
}

// A ruleset hook that fails (docs/checks/ruleset-hook-failed.md) is reported
// once a game, on the line where it first failed, by the replay as by the audit.
TEST(ApiReplay, FailingHookIsReportedOnceAsTheAuditDoes) {
  std::string error;
  std::optional<api::Ruleset> broken =
      api::Ruleset::Load(kSource + "/docs/checks/examples/broken.lua", &error);
  ASSERT_TRUE(broken) << error;
  api::AuditOptions options;
  options.ruleset = broken;
  api::AuditResult audit = api::AuditFile(kClassicGame, options);
  ASSERT_EQ(audit.games.size(), 1u);
  ASSERT_EQ(audit.games[0].findings.size(), 1u);
  const api::Finding& want = audit.games[0].findings[0];
  EXPECT_EQ(want.line, 4);
  EXPECT_EQ(want.check, "ruleset-hook-failed");

  api::Replay replay(*broken, {});
  std::vector<api::Finding> found;
  for (const std::string& line : Lines(kClassicGame)) {
    std::vector<api::Finding> f = replay.Feed(line);
    found.insert(found.end(), f.begin(), f.end());
  }
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, want.line);
  EXPECT_EQ(found[0].check, want.check);
  EXPECT_EQ(found[0].message,
            "ruleset hook initial_meld_value failed: initial_meld_value must return an integer: "
            "expected an integer, got nil");
  EXPECT_EQ(found[0].message, want.message);
  EXPECT_EQ(found[0].notes, want.notes);
}

// A fed game is the audit's own replay (replay/driver.h GameFeed): every
// shipped log with mistakes, fed line by line under the ruleset its header
// names, gives exactly the audit's findings (line, check, message), the
// scores an end_hand records included; only the checks of the log's end (a
// missing end_game) are the audit's alone.
TEST(ApiReplay, EveryMistakeSampleFedLineByLineFindsWhatTheAuditFinds) {
  std::vector<std::string> logs;
  for (const auto& e : fs::recursive_directory_iterator(kSource + "/samples"))
    if (e.is_regular_file() && e.path().extension() == ".jsonl" &&
        e.path().string().find("/mistakes/") != std::string::npos)
      logs.push_back(e.path().string());
  std::sort(logs.begin(), logs.end());
  ASSERT_GE(logs.size(), 10u);
  auto key = [](const api::Finding& f) {
    return std::to_string(f.line) + " [" + f.check + "] " + f.message;
  };
  int score_findings = 0;
  for (const std::string& log : logs) {
    api::AuditResult audit = api::AuditFile(log);
    ASSERT_EQ(audit.games.size(), 1u) << log;
    std::string error;
    std::optional<api::Ruleset> ruleset = api::Ruleset::Load(audit.games[0].ruleset, &error);
    ASSERT_TRUE(ruleset) << log << ": " << error;
    std::vector<std::string> want;
    for (const api::Finding& f : audit.games[0].findings)
      if (f.check != "log-incomplete") want.push_back(key(f));
    api::Replay replay(*ruleset, {});
    std::vector<std::string> got;
    for (const std::string& line : Lines(log))
      for (const api::Finding& f : replay.Feed(line)) {
        got.push_back(key(f));
        score_findings += f.check == "score-hand" || f.check == "score-total";
      }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << log;
  }
  EXPECT_GE(score_findings, 2);  // wrong-hand-score, wrong-total
}

// A ruleset's `checks` apply to what a Replay returns, as to the audit.
TEST(ApiReplay, TheRulesetsChecksApply) {
  const std::string dir = ::testing::TempDir() + "api-replay-checks";
  fs::create_directories(dir);
  const std::string file = dir + "/quiet.lua";
  std::ofstream(file) << "return {name = \"quiet\", extends = \"classic\",\n"
                         "  checks = {[\"pile-frozen-needs-pair\"] = \"off\"}}\n";
  std::string error;
  std::optional<api::Ruleset> quiet = api::Ruleset::Load(file, &error);
  ASSERT_TRUE(quiet) << error;
  api::Replay replay(*quiet, {});
  std::vector<api::Finding> found;
  for (const std::string& line : Lines(kFrozen)) {
    std::vector<api::Finding> f = replay.Feed(line);
    found.insert(found.end(), f.begin(), f.end());
  }
  EXPECT_TRUE(found.empty()) << found[0].line << ": " << found[0].message;
  fs::remove_all(dir);
}

// A ruleset's `checks` may also change a check's severity: the Replay
// reports the finding at the ruleset's severity, as the audit does.
TEST(ApiReplay, TheRulesetsSeveritiesApply) {
  const std::string dir = ::testing::TempDir() + "api-replay-severity";
  fs::create_directories(dir);
  const std::string file = dir + "/mild.lua";
  std::ofstream(file) << "return {name = \"mild\", extends = \"classic\",\n"
                         "  checks = {[\"pile-frozen-needs-pair\"] = \"warning\"}}\n";
  std::string error;
  std::optional<api::Ruleset> mild = api::Ruleset::Load(file, &error);
  ASSERT_TRUE(mild) << error;
  api::Replay replay(*mild, {});
  std::vector<api::Finding> found;
  for (const std::string& line : Lines(kFrozen)) {
    std::vector<api::Finding> f = replay.Feed(line);
    found.insert(found.end(), f.begin(), f.end());
  }
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 198);
  EXPECT_EQ(found[0].check, "pile-frozen-needs-pair");
  EXPECT_EQ(found[0].severity, api::Severity::kWarning);
  fs::remove_all(dir);
}

// A header the reader cannot read is its reader's findings and nothing
// more: not also a wrong format, and not a list of players.
TEST(ApiReplay, AnUnreadableHeaderIsOnlyWhatTheReaderFinds) {
  api::Replay bad_format(api::Ruleset::Classic(), {});
  std::vector<api::Finding> f = bad_format.Feed(R"({"type":"game","format":"canasta-log/2"})");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 1);
  EXPECT_NE(f[0].message.find("missing field \"players\""), std::string::npos) << f[0].message;
  api::Replay bad_players(api::Ruleset::Classic(), {});
  f = bad_players.Feed(R"({"type":"game","format":"canasta-log/1","players":["A","B",3,"D"]})");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("\"players\"[2] is 3, not a string"), std::string::npos)
      << f[0].message;
  EXPECT_TRUE(bad_players.Feed(Lines(kFrozen)[1]).empty());  // the deal, for four seats
  EXPECT_EQ(bad_players.State().hand, 1);
}

TEST(ApiReplay, StateAfterTheDealAndTheFirstDraw) {
  std::vector<std::string> lines = Lines(kFrozen);
  api::Replay replay(api::Ruleset::Classic(), {"Ann", "Bob", "Cat", "Dan"});
  EXPECT_TRUE(replay.Feed(lines[0]).empty());  // the header
  EXPECT_EQ(replay.State().phase, api::Phase::kNoHand);
  EXPECT_EQ(replay.State().hand, 0);
  EXPECT_TRUE(replay.Feed(lines[1]).empty());  // the deal: upcard KC, dealer 0

  api::PublicState s = replay.State();
  EXPECT_EQ(s.hand, 1);
  EXPECT_EQ(s.phase, api::Phase::kBeforePlay);
  EXPECT_EQ(s.dealer, 0);
  EXPECT_EQ(s.current_player, 1);
  EXPECT_EQ(s.hand_sizes, (std::vector<int>{11, 11, 11, 11}));
  EXPECT_EQ(s.pile_size, 1);
  EXPECT_EQ(s.pile_top, "KC");
  EXPECT_FALSE(s.pile_frozen);
  EXPECT_EQ(s.stock_size, 108 - 44 - 1);  // 000 §1, §6
  ASSERT_EQ(s.sides.size(), 2u);
  EXPECT_TRUE(s.sides[0].melds.empty());
  EXPECT_FALSE(s.sides[0].melded);
  EXPECT_EQ(s.sides[0].minimum, 50);  // 000 §10: a total below 1,500
  EXPECT_EQ(replay.Hand(0), (std::vector<std::string>{"2S", "2H", "5D", "5C", "QH", "KH", "KD",
                                                      "AC", "AC", "JK", "JK"}));
  EXPECT_TRUE(replay.Hand(4).empty());

  EXPECT_TRUE(replay.Feed(lines[2]).empty());  // seat 1 draws 4C
  s = replay.State();
  EXPECT_EQ(s.phase, api::Phase::kPlay);
  EXPECT_EQ(s.hand_sizes, (std::vector<int>{11, 12, 11, 11}));
  EXPECT_EQ(s.stock_size, 62);
  EXPECT_TRUE(replay.Feed(lines[3]).empty());  // and discards AD
  s = replay.State();
  EXPECT_EQ(s.phase, api::Phase::kDraw);
  EXPECT_EQ(s.current_player, 2);
  EXPECT_EQ(s.pile_top, "AD");
  EXPECT_EQ(s.pile_size, 2);
}

TEST(ApiReplay, BadInputGivesFindingsWithTheFedLine) {
  api::Replay replay(api::Ruleset::Classic(), {});
  std::vector<api::Finding> f = replay.Feed("{\"type\":\"discard\",\"player\":0,\"card\":\"KS\"}");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 1);
  EXPECT_EQ(f[0].check, "log-out-of-place");
  f = replay.Feed("{not json");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 2);
  EXPECT_EQ(f[0].check, "log-bad-json");
  EXPECT_EQ(replay.lines(), 2);
}

TEST(ApiReplay, PlayersMustFitTheRuleset) {
  api::Replay replay(api::Ruleset::Classic(), {"A", "B"});
  std::vector<api::Finding> f = replay.Feed(Lines(kFrozen)[1]);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "log-player-count");
  EXPECT_EQ(f[0].message, "the game has 2 players; ruleset \"classic\" is for 4");
  EXPECT_EQ(replay.State().hand, 0);  // the deal was not applied
}

}  // namespace
