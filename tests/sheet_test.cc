// Score sheets (docs/sheets.md): logs of `end_hand` events with no deal,
// checked against what the ruleset in force can produce (replay/sheet.h),
// under classic (000 §7, §17-§19) and jaques (002 "Winning and scoring"),
// each check failing and passing; sheet entries mixed with hands played
// out; the CSV import and export (replay/sheet_csv.h).
#include "replay/sheet.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/utf8.h"
#include "replay/auditor.h"
#include "replay/log_reader.h"
#include "replay/sheet_csv.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/run_shell.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = CANASTA_SOURCE_DIR;

// --- Auditing under a named ruleset (a built-in or a Lua file) ---

AuditOptions ByName() {
  AuditOptions options;
  options.resolve = [](const std::string& name, const std::string&, RulesetChoice* out,
                       std::string* error) {
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(name);
    if (auto* e = std::get_if<LuaError>(&loaded)) {
      *error = e->ToString();
      return false;
    }
    *out = std::get<Ruleset>(loaded).Choose();
    return true;
  };
  return options;
}

FileReport AuditText(const std::string& log) {
  std::istringstream in(log);
  return AuditStream(in, "sheet.jsonl", ByName());
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// --- A sheet log, built entry by entry ---

// One side's parts of a hand, in the order a scorekeeper writes them.
struct Parts {
  int canastas = 0, red_threes = 0, going_out = 0, melded = 0, in_hand = 0, penalties = 0;
  int house = 0;
  bool with_house = false;
  int Sum() const {
    return canastas + red_threes + going_out + melded + in_hand + penalties + house;
  }
};

// What an entry writes; a test may change any of it before it is written.
struct Entry {
  int hand = 0;
  std::vector<Parts> parts;
  std::vector<int> scores;
  std::vector<int> totals;
  int dealer = -1;  // written as "dealer" when a seat
  bool write_scores = true, write_totals = true, write_parts = true;
};

class SheetLog {
 public:
  explicit SheetLog(const std::string& ruleset) {
    lines_.push_back(R"({"type":"game","format":"canasta-log/1","ruleset":")" + ruleset +
                     R"(","players":["Ann","Bob","Cat","Dan"]})");
  }
  // Writes hand N+1 with these parts; its scores are their sums and its
  // totals the sheet's own running sums, unless `change` says otherwise.
  int Hand(const std::vector<Parts>& parts, const std::function<void(Entry*)>& change = nullptr) {
    Entry e;
    e.hand = ++hand_;
    e.parts = parts;
    for (size_t s = 0; s < parts.size(); ++s) e.scores.push_back(parts[s].Sum());
    if (change) {
      // The totals follow the scores as changed, unless set by the change.
      Entry probe = e;
      change(&probe);
      e = probe;
    }
    if (e.totals.empty()) {
      running_.resize(e.scores.size(), 0);
      for (size_t s = 0; s < e.scores.size(); ++s) running_[s] += e.scores[s];
      e.totals = running_;
    } else {
      running_ = e.totals;
    }
    std::string s = R"({"type":"end_hand","hand":)" + std::to_string(e.hand);
    if (e.dealer >= 0) s += R"(,"dealer":)" + std::to_string(e.dealer);
    if (e.write_scores) s += R"(,"scores":)" + List(e.scores);
    if (e.write_totals) s += R"(,"totals":)" + List(e.totals);
    if (e.write_parts) {
      s += R"(,"breakdown":[)";
      for (size_t i = 0; i < e.parts.size(); ++i) {
        const Parts& p = e.parts[i];
        s += std::string(i ? "," : "") + R"({"canastas":)" + std::to_string(p.canastas) +
             R"(,"red_threes":)" + std::to_string(p.red_threes) + R"(,"going_out":)" +
             std::to_string(p.going_out) + R"(,"melded":)" + std::to_string(p.melded) +
             R"(,"in_hand":)" + std::to_string(p.in_hand) + R"(,"penalties":)" +
             std::to_string(p.penalties) +
             (p.with_house ? R"(,"house":)" + std::to_string(p.house) : "") + "}";
      }
      s += "]";
    }
    return Raw(s + "}");
  }
  // end_game with the sheet's running totals and the side ahead on them.
  int End() {
    const int winner = running_.size() == 2 && running_[1] > running_[0] ? 1 : 0;
    return Raw(R"({"type":"end_game","totals":)" + List(running_) + R"(,"winner":)" +
               std::to_string(winner) + "}");
  }
  int Raw(const std::string& line) {
    lines_.push_back(line);
    return int(lines_.size());
  }
  void SetHand(int hand) { hand_ = hand; }
  std::string str() const {
    std::string s;
    for (const std::string& l : lines_) s += l + "\n";
    return s;
  }

 private:
  static std::string List(const std::vector<int>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
  }
  std::vector<std::string> lines_;
  std::vector<int> running_;
  int hand_ = 0;
};

// Ordinary hands, possible under classic and jaques alike.
const Parts kWent{800, 100, 100, 340, 0};    // 1340: a natural and a mixed canasta, out
const Parts kStayed{300, 200, 0, 150, -65};  // 585
const Parts kBig{1100, 0, 0, 420, -30};      // 1490
const Parts kOut2{500, 100, 100, 260, 0};    // 960
const Parts kOut3{1300, 100, 100, 480, 0};   // 1980
const Parts kNoMeld{0, -100, 0, 0, -85};     // -185: red threes against a side with no meld
const Parts kSmall{300, 0, 0, 120, -40};     // 380
const Parts kOut4{800, 200, 100, 355, 0};    // 1455

const char* const kRulesets[] = {"classic", "jaques"};

// A whole game of four hands to 5190 - 2815, every part possible.
SheetLog CleanGame(const std::string& ruleset) {
  SheetLog log(ruleset);
  log.Hand({kWent, kStayed});
  log.Hand({kBig, kOut2});
  log.Hand({kOut3, kNoMeld});
  log.Hand({kSmall, kOut4});
  log.End();
  return log;
}

// The one finding of `r` with `id`, for its message and notes.
const Finding* Only(const FileReport& r, CheckId id) {
  const Finding* found = nullptr;
  for (const GameReport& g : r.games)
    for (const Finding& f : g.findings)
      if (f.id == id) {
        if (found) return nullptr;
        found = &f;
      }
  return found;
}

bool NoteHas(const Finding* f, const std::string& text) {
  if (!f) return false;
  for (const std::string& n : f->notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// ===========================================================================
// A sheet log is audited, not rejected

TEST(SheetLog, AWholeSheetAuditsCleanUnderClassicAndJaques) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    const FileReport r = AuditText(CleanGame(rs).str());
    EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
    const GameReport& g = test::OnlyGame(r);
    ASSERT_EQ(g.hands.size(), 4u);
    EXPECT_EQ(g.hands[2].scores, (std::vector<int>{1980, -185}));
    EXPECT_EQ(g.totals, (std::vector<int>{5190, 2815}));
    EXPECT_EQ(g.winner, std::optional<int>(0));
    EXPECT_TRUE(g.finished);
  }
}

// A game played on after it was over is one game-end finding, at the first
// hand too many, however many follow (000 §19); an end_game written twice is
// one finding for the copy, which is not judged again.
TEST(SheetLog, HandsAfterTheGameIsOverAreOneFindingAndASecondEndGameIsOutOfPlace_000S19) {
  SheetLog log("classic");
  log.Hand({kWent, kStayed});
  log.Hand({kBig, kOut2});
  log.Hand({kOut3, kNoMeld});
  log.Hand({kSmall, kOut4});  // side 0 reaches 5190: over
  const int first_extra = log.Hand({kWent, kStayed});
  log.Hand({kWent, kStayed});
  log.Hand({kWent, kStayed});
  const FileReport r = AuditText(log.str());
  EXPECT_EQ(test::CountId(r, CheckId::kGameEnd), 1) << test::Dump(r);
  const Finding* over = Only(r, CheckId::kGameEnd);
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->line, first_extra);

  SheetLog twice = CleanGame("classic");
  const int again = twice.End();
  const FileReport r2 = AuditText(twice.str());
  EXPECT_EQ(test::Findings(r2), (test::FoundList{{again, CheckId::kLogOutOfPlace}}))
      << test::Dump(r2);
  const Finding* copy = Only(r2, CheckId::kLogOutOfPlace);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->message, "the game was ended already at line " + std::to_string(again - 1));
}

// ===========================================================================
// The parts add up to the hand score (000 §18)

TEST(SheetParts, PartsThatDoNotAddUpToTheScoreAreOneFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({kWent, kStayed}, [](Entry* e) { e->scores[1] = 600; });
    log.Hand({kBig, kOut2});  // its totals carry the slip: a note, not an error
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreHand});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreHand),
              "side 1 (Bob and Dan)'s parts add up to 585, not the recorded hand score 600");
    EXPECT_TRUE(NoteHas(Only(r, CheckId::kScoreHand), "hand 2 (line 3) carries it"))
        << test::Dump(r);
    EXPECT_EQ(test::OnlyGame(r).hands[1].totals, (std::vector<int>{2830, 1545}));
  }
}

// A misspelt part is unknown even when it begins like a known one ("melds"
// for "melded"): one finding, and the side's recorded score stands (its
// parts, the unknown one with them, add up to it); without recorded scores,
// what the side recorded is its score.
TEST(SheetParts, AMisspeltPartIsUnknownEvenWhenItBeginsLikeAKnownOne) {
  for (const char* scores : {R"("scores":[1340,585],)", ""}) {
    SCOPED_TRACE(scores);
    SheetLog log("classic");
    const int line = log.Raw(
        std::string(R"({"type":"end_hand","hand":1,)") + scores +
        R"("totals":[1340,585],"breakdown":[)"
        R"({"canastas":800,"red_threes":100,"going_out":100,"melded":340,"in_hand":0},)"
        R"({"canastas":300,"red_threes":200,"going_out":0,"melds":150,"in_hand":-65}]})");
    log.Raw(R"({"type":"end_game","totals":[1340,585],"winner":0})");
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kLogBadEvent}, {line + 1, CheckId::kGameEnd});
    EXPECT_EQ(test::MessageOf(r, CheckId::kLogBadEvent), "unknown breakdown part \"melds\"");
    EXPECT_TRUE(NoteHas(Only(r, CheckId::kLogBadEvent), "the side's recorded score, which stands"));
    EXPECT_EQ(test::OnlyGame(r).hands[0].scores, (std::vector<int>{1340, 585}));
  }
}

TEST(SheetParts, PartsThatAddUpPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

// ===========================================================================
// The running totals (000 §19): one error per slip

TEST(SheetTotals, AWrongTotalIsOneErrorAndTheTotalsAfterItCarryIt) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    const int slip = log.Hand({kBig, kOut2}, [](Entry* e) { e->totals = {2830, 1645}; });
    log.Hand({kOut3, kNoMeld});
    log.Hand({kSmall, kOut4});
    const int end = log.End();
    const FileReport r = AuditText(log.str());
    // The final totals repeat the last running totals: they carry the slip
    // too, a note of it (readings R133).
    EXPECT_PROBLEMS(r, {slip, CheckId::kScoreTotal});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreTotal),
              "side 1 (Bob and Dan)'s running total should be 1545, not 1645");
    EXPECT_TRUE(NoteHas(Only(r, CheckId::kScoreTotal), "hand 4 (line 5) carries it"))
        << test::Dump(r);
    EXPECT_TRUE(NoteHas(Only(r, CheckId::kScoreTotal),
                        "the final totals [5190, 2915] (line " + std::to_string(end) +
                            ") carry it: the true final totals are [5190, 2815]"))
        << test::Dump(r);
  }
}

TEST(SheetTotals, TotalsThatAddUpPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    log.Hand({kBig, kOut2});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

// ===========================================================================
// Canasta bonuses: a sum of the ruleset's canasta values (000 §9, §18;
// 002 "Winning and scoring": 500 natural, 300 mixed)

TEST(SheetCanastas, ABonusNoSetOfCanastasScoresIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{700, 100, 100, 340, 0}, kStayed});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records canastas 700, which no set of canastas scores: a "
              "natural canasta scores 500, a mixed one 300");
  }
}

TEST(SheetCanastas, SumsOfNaturalAndMixedBonusesPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({{1100, 100, 100, 340, 0}, {600, 0, 0, 150, -65}});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

TEST(SheetCanastas, ACanastaWithNothingMeldedIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{500, 100, 100, 0, 0}, kStayed});
    EXPECT_PROBLEMS(AuditText(log.str()), {line, CheckId::kScoreBreakdown});
  }
}

TEST(SheetCanastas, FewerMeldedPointsThanItsCanastasHoldIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    // Two canastas are 14 cards of at least 5 points: 70.
    const int line = log.Hand({{800, 100, 100, 65, 0}, kStayed});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records melded 65 with canastas 800: 2 canasta(s) of 7 cards "
              "count at least 70");
    SheetLog enough(rs);
    enough.Hand({{800, 100, 100, 70, 0}, kStayed});
    EXPECT_CLEAN(AuditText(enough.str()));
  }
}

// A part left out is not checked (docs/log-format.md, end_hand): canastas
// with no melded part are held to no melded points (000 §9), and a melded
// part below 0 is one finding, its sign (000 §18), not also one of too few
// points for the canastas.
TEST(SheetCanastas, OnlyAMeldedPartRecordedAbove0IsHeldToTheCanastasPoints) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog left_out(rs);
    left_out.Raw(
        R"({"type":"end_hand","hand":1,"scores":[1000,585],"totals":[1000,585],"breakdown":[)"
        R"({"canastas":800,"red_threes":100,"going_out":100,"in_hand":0},)"
        R"({"canastas":300,"red_threes":200,"going_out":0,"melded":150,"in_hand":-65}]})");
    EXPECT_CLEAN(AuditText(left_out.str()));
    SheetLog below(rs);
    const int line = below.Hand({{800, 100, 100, -340, 0}, kStayed});
    const FileReport r = AuditText(below.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records melded -340: melded cards count for the side, never "
              "against it");
  }
}

// 001 L84 (melded_counts_against_without_canasta): under modern-american a
// side with no canasta has its melded cards count against it, so a melded
// part below 0 is what the rules produce there; with a canasta it is not.
TEST(SheetCanastas, AMeldedPartBelow0IsASideWithNoCanastaUnderModernAmerican_001L84) {
  SheetLog none("modern-american");
  none.Hand({{0, 0, 0, -340, 0}, kStayed});
  const FileReport clean = AuditText(none.str());
  EXPECT_EQ(test::MessageOf(clean, CheckId::kScoreBreakdown), "") << test::Dump(clean);
  SheetLog with("modern-american");
  const int line = with.Hand({{500, 0, 0, -340, 0}, kStayed});
  const FileReport r = AuditText(with.str());
  EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
            "side 0 (Ann and Cat) records melded -340: melded cards count for the side, never "
            "against it")
      << test::Dump(r);
  EXPECT_EQ(r.games.at(0).findings.at(0).line, line);
}

TEST(SheetCanastas, TheValuesComeFromTheRuleset) {
  EXPECT_EQ(CanastaCombinations(Rules{}, 800), (std::vector<std::pair<int, int>>{{1, 1}}));
  Rules house;
  house.mixed_canasta_bonus = 350;
  EXPECT_TRUE(CanastaCombinations(house, 800).empty());
  EXPECT_EQ(CanastaCombinations(house, 850), (std::vector<std::pair<int, int>>{{1, 1}}));
}

// ===========================================================================
// Red threes: one of the ruleset's values, with the sign its rule gives
// (000 §7; 002: "If a side has red threes but has made no meld at all in the
// hand, the red three values count against them instead")

TEST(SheetRedThrees, AValueNoNumberOfRedThreesScoresIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{800, 400, 100, 340, 0}, {300, 0, 0, 150, -65}});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records red_threes 400, which no number of red threes "
              "scores: each scores 100, all 4 together 800");
  }
}

TEST(SheetRedThrees, AllFourTogetherPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({{800, 800, 100, 340, 0}, {300, 0, 0, 150, -65}});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

TEST(SheetRedThrees, RedThreesForASideWithNoMeldIsOneFindingAndTheirSignIsCorrected) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({kWent, {0, 300, 0, 0, -85}});
    log.Hand({kBig, kOut2});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 1 (Bob and Dan) records red_threes 300 for a side with no meld: a side "
              "without a meld loses its red threes");
    const GameReport& g = test::OnlyGame(r);
    EXPECT_EQ(g.hands[0].scores, (std::vector<int>{1340, -385}));
    EXPECT_EQ(g.hands[1].totals, (std::vector<int>{2830, 575}));
  }
}

TEST(SheetRedThrees, RedThreesAgainstASideWithNoMeldPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, {0, -300, 0, 0, -85}});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

TEST(SheetRedThrees, RedThreesAgainstASideThatMeldedIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({kWent, {300, -200, 0, 150, -65}});
    EXPECT_PROBLEMS(AuditText(log.str()), {line, CheckId::kScoreBreakdown});
  }
}

TEST(SheetRedThrees, MoreRedThreesThanThePackHoldsIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{800, 800, 100, 340, 0}, {300, 100, 0, 150, -65}});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "the sides' red threes stand for 5 red threes; the pack has 4");
  }
}

TEST(SheetRedThrees, ARulesetWhereRedThreesNeverCountAgainstChangesTheSign) {
  const std::string path =
      (fs::temp_directory_path() / ("sheet-test-threes-" + std::to_string(getpid()) + ".lua"))
          .string();
  std::ofstream(path) << "return { name = \"kind-threes\", extends = \"classic\", params = { "
                         "red_threes_count_against_unmelded = false } }\n";
  SheetLog kind(path);
  kind.Hand({kWent, {0, 300, 0, 0, -85}});
  EXPECT_CLEAN(AuditText(kind.str()));
  SheetLog against(path);
  const int line = against.Hand({kWent, {0, -300, 0, 0, -85}});
  EXPECT_PROBLEMS(AuditText(against.str()), {line, CheckId::kScoreBreakdown});
  fs::remove(path);
}

// ===========================================================================
// Going out: for at most one side, and only what the ruleset pays (000 §17,
// §18: 100; 002: 100, or 200 going out concealed)

TEST(SheetGoingOut, BothSidesGoingOutIsOneFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({kWent, {300, 200, 100, 150, -65}});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "the going-out bonus is recorded for side 0 (Ann and Cat) and side 1 (Bob and "
              "Dan): only one side goes out in a hand");
  }
}

TEST(SheetGoingOut, OneSideGoingOutPasses) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    EXPECT_CLEAN(AuditText(log.str()));
  }
}

TEST(SheetGoingOut, TheConcealedBonusIsPaidOnlyWhereTheRulesetPaysIt) {
  SheetLog classic("classic");
  const int line = classic.Hand({{800, 100, 200, 340, 0}, kStayed});
  const FileReport c = AuditText(classic.str());
  EXPECT_PROBLEMS(c, {line, CheckId::kScoreBreakdown});
  EXPECT_EQ(test::MessageOf(c, CheckId::kScoreBreakdown),
            "side 0 (Ann and Cat) records going_out 200, which this ruleset never pays: going "
            "out scores 100");
  SheetLog jaques("jaques");
  jaques.Hand({{800, 100, 200, 340, 0}, kStayed});
  EXPECT_CLEAN(AuditText(jaques.str()));
}

TEST(SheetGoingOut, ABonusNoRulesetPaysIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{800, 100, 150, 340, 0}, kStayed});
    EXPECT_PROBLEMS(AuditText(log.str()), {line, CheckId::kScoreBreakdown});
  }
}

TEST(SheetGoingOut, GoingOutWithoutTheCanastasTheRulesetAsksForIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{0, 100, 100, 340, 0}, kStayed});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records going_out 100 with canastas 0: a side needs 1 "
              "canasta(s) to go out");
    EXPECT_TRUE(NoteHas(Only(r, CheckId::kScoreBreakdown), "canastas 0: no canasta"))
        << test::Dump(r);
  }
  // The house example needs two canastas (its canastas_to_go_out): one is
  // fine under classic and a finding there.
  const std::string house = (kSource / "samples/rulesets/house-example.lua").string();
  SheetLog one("classic");
  one.Hand({{500, 100, 100, 340, 0}, kStayed});
  EXPECT_CLEAN(AuditText(one.str()));
  SheetLog two(house);
  const int line = two.Hand({{500, 100, 100, 340, 0}, kStayed});
  const FileReport r = AuditText(two.str());
  EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown});
  EXPECT_TRUE(
      NoteHas(Only(r, CheckId::kScoreBreakdown), "canastas 500 stand for at most 1 canasta(s)"))
      << test::Dump(r);
}

// ===========================================================================
// Card points: melded for the side, in hand against it, in steps of the card
// values (000 §3: multiples of 5)

TEST(SheetCardPoints, PointsNoCardsCountAreFindings) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    const int line = log.Hand({{800, 100, 100, 342, 0}, {300, 200, 0, 150, 65}});
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {line, CheckId::kScoreBreakdown}, {line, CheckId::kScoreBreakdown});
    EXPECT_EQ(test::MessageOf(r, CheckId::kScoreBreakdown),
              "side 0 (Ann and Cat) records melded 342, not a multiple of 5: every card counts a "
              "multiple of 5");
  }
}

TEST(SheetCardPoints, MultiplesOfFivePass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({{800, 100, 100, 345, -5}, kStayed});
    EXPECT_CLEAN(AuditText(log.str()));
  }
  EXPECT_EQ(CardPointStep(Rules{}), 5);
}

// ===========================================================================
// Penalties: only those the ruleset has (000 §7: 500; §10: 100; 002 states
// none)

TEST(SheetPenalties, ClassicPenaltiesPassUnderClassicAndAreFindingsUnderJaques) {
  SheetLog classic("classic");
  classic.Hand({kWent, {300, 200, 0, 150, -65, -600}});
  EXPECT_CLEAN(AuditText(classic.str()));
  SheetLog jaques("jaques");
  const int line = jaques.Hand({kWent, {300, 200, 0, 150, -65, -500}});
  const FileReport j = AuditText(jaques.str());
  EXPECT_PROBLEMS(j, {line, CheckId::kScoreBreakdown});
  EXPECT_EQ(test::MessageOf(j, CheckId::kScoreBreakdown),
            "side 1 (Bob and Dan) records penalties -500: this ruleset has no penalties");
}

TEST(SheetPenalties, APenaltyNoSetOfPenaltiesMakesIsAFinding) {
  SheetLog log("classic");
  const int line = log.Hand({kWent, {300, 200, 0, 150, -65, -150}});
  EXPECT_PROBLEMS(AuditText(log.str()), {line, CheckId::kScoreBreakdown});
}

// ===========================================================================
// A house rule's hook changes the checks (samples/rulesets/house-example.lua:
// 200 more for going out with three canastas)

TEST(SheetHouse, TheHouseHookDecidesTheHousePart) {
  const std::string house = (kSource / "samples/rulesets/house-example.lua").string();
  Parts three{900, 100, 100, 340, 0};
  three.with_house = true;
  three.house = 200;
  SheetLog good(house);
  good.Hand({three, kStayed});
  EXPECT_CLEAN(AuditText(good.str()));
  three.house = 0;
  SheetLog missing(house);
  const int line = missing.Hand({three, kStayed});
  EXPECT_PROBLEMS(AuditText(missing.str()), {line, CheckId::kScoreBreakdown});
  three.house = 200;
  SheetLog classic("classic");
  const int c = classic.Hand({three, kStayed});
  EXPECT_PROBLEMS(AuditText(classic.str()), {c, CheckId::kScoreBreakdown});
}

// The hook is asked with what the entry stands for: a side that melded
// without a canasta holds at least one meld (side.melds 1), one with two
// canastas at least two.
TEST(SheetHouse, TheHouseHookSeesTheMeldsTheEntryStandsFor) {
  const fs::path file =
      fs::temp_directory_path() / ("canasta-sheet-melds-" + std::to_string(getpid()) + ".lua");
  std::ofstream(file) << R"(return {
  name = "melds-bonus",
  extends = "classic",
  hooks = {
    house_score_adjustment = function(side, went_out, rules) return side.melds * 10 end,
  },
})";
  Parts stayed = kStayed;  // 300 in canastas (one mixed canasta), melded 150
  stayed.with_house = true;
  stayed.house = 10;
  Parts nothing{0, 0, 0, 150, -65};  // melded, no canasta
  nothing.with_house = true;
  nothing.house = 10;
  Parts went = kWent;  // a natural and a mixed canasta
  went.with_house = true;
  went.house = 20;
  SheetLog log(file.string());
  log.Hand({went, nothing});
  log.Hand({went, stayed});
  EXPECT_CLEAN(AuditText(log.str()));
  nothing.house = 20;
  SheetLog wrong(file.string());
  const int line = wrong.Hand({went, nothing});
  EXPECT_PROBLEMS(AuditText(wrong.str()), {line, CheckId::kScoreBreakdown});
  fs::remove(file);
}

// ===========================================================================
// The game: it ends at the target with the right winner (000 §19; 002:
// "The first side to reach or exceed 5,000 points at the end of any hand
// wins")

TEST(SheetGame, AGameThatEndsBeforeTheTargetIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    const int end = log.End();
    EXPECT_PROBLEMS(AuditText(log.str()), {end, CheckId::kGameEnd});
  }
}

TEST(SheetGame, AHandAfterTheGameEndedIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    log.Hand({kBig, kOut2});
    log.Hand({kOut3, kNoMeld});
    log.Hand({kSmall, kOut4});
    const int extra = log.Hand({kWent, kStayed});
    log.End();
    EXPECT_PROBLEMS(AuditText(log.str()), {extra, CheckId::kGameEnd});
  }
}

TEST(SheetGame, TheWrongWinnerIsAFinding) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    log.Hand({kBig, kOut2});
    log.Hand({kOut3, kNoMeld});
    log.Hand({kSmall, kOut4});
    const int end = log.Raw(R"({"type":"end_game","totals":[5190,2815],"winner":1})");
    EXPECT_PROBLEMS(AuditText(log.str()), {end, CheckId::kGameWinner});
  }
}

TEST(SheetGame, HandNumbersRunWithoutGaps) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    log.Hand({kWent, kStayed});
    log.SetHand(2);
    const int gap = log.Hand({kBig, kOut2});  // hand 3
    EXPECT_PROBLEMS(AuditText(log.str()), {gap, CheckId::kDealHandNumber});
  }
}

TEST(SheetGame, AnEntryWithScoresOnlyIsCheckedByItsTotals) {
  SheetLog log("classic");
  log.Hand({kWent, kStayed}, [](Entry* e) { e->write_parts = false; });
  const int slip = log.Hand({kBig, kOut2}, [](Entry* e) {
    e->write_parts = false;
    e->totals = {2830, 1550};
  });
  EXPECT_PROBLEMS(AuditText(log.str()), {slip, CheckId::kScoreTotal});
}

// Who dealt, where the sheet says (end_hand's "dealer"): the deal passes to
// the left, one seat a hand (000 §6), from the last dealer recorded or played.
void DealtBy(SheetLog* log, const std::vector<int>& dealers) {
  const Parts hands[][2] = {{kWent, kStayed}, {kBig, kOut2}, {kOut3, kNoMeld}, {kSmall, kOut4}};
  for (size_t i = 0; i < dealers.size(); ++i)
    log->Hand({hands[i % 4][0], hands[i % 4][1]}, [&](Entry* e) { e->dealer = dealers[i]; });
}

TEST(SheetDealer, DealersPassingLeftOnceAHandPass) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    DealtBy(&log, {2, 3, 0, 1});  // the first recorded dealer sets the rotation
    log.End();
    const FileReport r = AuditText(log.str());
    EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  }
}

TEST(SheetDealer, ADealerOutOfTurnIsOneFindingNamingWhoShouldHaveDealt) {
  for (const char* rs : kRulesets) {
    SCOPED_TRACE(rs);
    SheetLog log(rs);
    DealtBy(&log, {0});
    const int wrong = log.Hand({kBig, kOut2}, [](Entry* e) { e->dealer = 2; });
    DealtBy(&log, {});
    // Hand 3 follows the dealer who did deal hand 2: no second finding.
    log.Hand({kOut3, kNoMeld}, [](Entry* e) { e->dealer = 3; });
    log.Hand({kSmall, kOut4});  // no dealer recorded: nothing to check
    log.End();
    const FileReport r = AuditText(log.str());
    EXPECT_PROBLEMS(r, {wrong, CheckId::kDealDealer});
    EXPECT_EQ(test::MessageOf(r, CheckId::kDealDealer),
              "seat 2 (Cat) dealt hand 2, but the deal passes to the left: seat 0 (Ann) dealt "
              "hand 1, so seat 1 (Bob) deals this one");
  }
}

TEST(SheetDealer, AnEntryWithoutADealerKeepsTheRotationCounting) {
  SheetLog log("classic");
  DealtBy(&log, {1});
  log.Hand({kBig, kOut2});  // hand 2: seat 2 dealt, unrecorded
  const int wrong = log.Hand({kOut3, kNoMeld}, [](Entry* e) { e->dealer = 2; });
  log.Hand({kSmall, kOut4}, [](Entry* e) { e->dealer = 3; });
  log.End();
  const FileReport r = AuditText(log.str());
  EXPECT_PROBLEMS(r, {wrong, CheckId::kDealDealer});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDealDealer),
            "seat 2 (Cat) dealt hand 3, but the deal passes to the left: seat 1 (Bob) dealt "
            "hand 1, so seat 3 (Dan) deals this one");
}

TEST(SheetDealer, ADealerWhoIsNoSeatIsAFinding) {
  SheetLog log("classic");
  DealtBy(&log, {0});
  const int wrong = log.Hand({kBig, kOut2}, [](Entry* e) { e->dealer = 4; });
  log.Hand({kOut3, kNoMeld}, [](Entry* e) { e->dealer = 2; });  // still judged from hand 1
  log.Hand({kSmall, kOut4});
  log.End();
  const FileReport r = AuditText(log.str());
  EXPECT_PROBLEMS(r, {wrong, CheckId::kDealDealer});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDealDealer),
            "there is no seat 4 to deal: the game has 4 seats");
}

TEST(SheetDealer, AMisnumberedHandIsOneFindingNotTwo) {
  SheetLog log("classic");
  DealtBy(&log, {0});
  log.SetHand(2);
  const int gap = log.Hand({kBig, kOut2}, [](Entry* e) { e->dealer = 1; });  // hand 3
  EXPECT_PROBLEMS(AuditText(log.str()), {gap, CheckId::kDealHandNumber});
}

// The largest numbers the reader lets through (docs/log-format.md, Limits):
// every sum stays in range and each impossible part is a finding.
TEST(SheetGame, HostileNumbersAreFindingsNotACrash) {
  SheetLog log("classic");
  const int line = log.Raw(
      R"({"type":"end_hand","hand":1,"scores":[1000000000,-1000000000],"totals":[-1000000000,1000000000],"breakdown":[{"canastas":1000000000,"red_threes":-1000000000,"going_out":1000000000,"melded":1000000000,"in_hand":-1000000000,"penalties":-1000000000},{"red_threes":1000000000,"going_out":1000000000,"penalties":1000000000}]})");
  log.Raw(R"({"type":"end_game","totals":[0,0],"winner":0})");
  const FileReport r = AuditText(log.str());
  EXPECT_GE(test::CountId(r, CheckId::kScoreBreakdown), 5) << test::Dump(r);
  for (const test::Found& f : test::Findings(r)) EXPECT_GE(f.first, line);
}

// ===========================================================================
// Sheet entries and hands played out in one log (samples/classic/game.jsonl:
// hand 2 written as a sheet entry)

std::vector<std::string> SampleLines() {
  std::istringstream in(ReadAll(kSource / "samples/classic/game.jsonl"));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

const char kHand2[] =
    R"({"type":"end_hand","hand":2,"scores":[960,370],"totals":[1145,1345],"breakdown":[{"canastas":300,"red_threes":200,"going_out":100,"melded":375,"in_hand":-15,"penalties":0},{"canastas":0,"red_threes":100,"going_out":0,"melded":335,"in_hand":-65,"penalties":0}]})";

TEST(SheetMixed, AHandRecordedBySheetAmongHandsPlayedOutAuditsClean) {
  const std::vector<std::string> lines = SampleLines();
  ASSERT_EQ(lines.size(), 597u);
  std::string log;
  for (int i = 1; i <= 77; ++i) log += lines[size_t(i - 1)] + "\n";
  log += std::string(kHand2) + "\n";  // line 78
  for (int i = 163; i <= 597; ++i) log += lines[size_t(i - 1)] + "\n";
  const FileReport r = AuditText(log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  EXPECT_EQ(test::OnlyGame(r).totals, (std::vector<int>{6180, 3750}));
}

TEST(SheetMixed, ASheetEntryFirstThenHandsPlayedOutAuditsClean) {
  const std::vector<std::string> lines = SampleLines();
  std::string log = lines[0] + "\n" + lines[76] + "\n";  // hand 1 by its scores only
  for (int i = 78; i <= 597; ++i) log += lines[size_t(i - 1)] + "\n";
  const FileReport r = AuditText(log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  EXPECT_EQ(test::OnlyGame(r).totals, (std::vector<int>{6180, 3750}));
}

TEST(SheetMixed, ASecondEndHandForTheHandJustPlayedIsNoSheetEntry) {
  const std::vector<std::string> lines = SampleLines();
  std::string log;
  for (int i = 1; i <= 77; ++i) log += lines[size_t(i - 1)] + "\n";
  log += lines[76] + "\n";  // line 78
  const FileReport r = AuditText(log);
  EXPECT_PROBLEMS(r, {78, CheckId::kLogOutOfPlace});
  EXPECT_EQ(test::MessageOf(r, CheckId::kLogOutOfPlace), "hand 1 was ended already at line 77");
  EXPECT_EQ(test::OnlyGame(r).hands.size(), 1u);
}

TEST(SheetMixed, TheDealAfterSheetEntriesPassesLeftOnceAHand) {
  const std::vector<std::string> lines = SampleLines();
  std::string log;
  for (int i = 1; i <= 77; ++i) log += lines[size_t(i - 1)] + "\n";
  log += std::string(kHand2) + "\n";
  std::string deal = lines[162];  // hand 3, dealt by seat 2
  const size_t at = deal.find("\"dealer\":2");
  ASSERT_NE(at, std::string::npos);
  deal.replace(at, 10, "\"dealer\":1");
  log += deal + "\n";  // line 79
  const FileReport r = AuditText(log);
  EXPECT_PROBLEMS(r, {79, CheckId::kDealDealer});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDealDealer),
            "seat 1 deals hand 3, but the deal passes to the left: seat 0 dealt hand 1, so seat "
            "2 deals this one");
}

// kHand2 with a "dealer".
std::string Hand2DealtBy(int dealer) {
  std::string line = kHand2;
  line.insert(line.find(",\"scores\""), ",\"dealer\":" + std::to_string(dealer));
  return line;
}

TEST(SheetMixed, ASheetEntrysDealerIsJudgedFromTheHandPlayedBefore) {
  const std::vector<std::string> lines = SampleLines();  // hand 1 dealt by seat 0
  for (int dealer : {1, 3}) {
    SCOPED_TRACE(dealer);
    std::string log;
    for (int i = 1; i <= 77; ++i) log += lines[size_t(i - 1)] + "\n";
    log += Hand2DealtBy(dealer) + "\n";  // line 78
    for (int i = 163; i <= 597; ++i) log += lines[size_t(i - 1)] + "\n";
    const FileReport r = AuditText(log);
    if (dealer == 1) {
      EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
    } else {
      // The deal of hand 3 (seat 2) is then judged from seat 3: a second
      // finding, as for two deals out of turn in a game played out.
      EXPECT_PROBLEMS(r, {78, CheckId::kDealDealer}, {79, CheckId::kDealDealer});
      EXPECT_EQ(test::Findings(r).front().first, 78);
    }
  }
}

TEST(SheetMixed, TheDealAfterASheetEntryIsJudgedFromItsRecordedDealer) {
  const std::vector<std::string> lines = SampleLines();
  std::string log = lines[0] + "\n";
  // Hand 1 by its scores only, dealt by seat 1 as the sheet says; the
  // sample's hand 2 (dealt by seat 1) must then have been dealt by seat 2.
  std::string entry = lines[76];
  entry.insert(entry.find(",\"scores\""), ",\"dealer\":1");
  log += entry + "\n";
  for (int i = 78; i <= 597; ++i) log += lines[size_t(i - 1)] + "\n";
  const FileReport r = AuditText(log);
  EXPECT_PROBLEMS(r, {3, CheckId::kDealDealer});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDealDealer),
            "seat 1 deals hand 2, but the deal passes to the left: seat 1 dealt hand 1, so seat "
            "2 deals this one");
}

TEST(SheetMixed, APlayedHandsImpossiblePartIsOneFindingThatSaysSo) {
  std::vector<std::string> lines = SampleLines();
  std::string& end = lines[76];  // hand 1: side 1 has red_threes 100
  const size_t at = end.find("\"red_threes\":100");
  ASSERT_NE(at, std::string::npos);
  end.replace(at, 16, "\"red_threes\":150");
  std::string log;
  for (int i = 1; i <= 77; ++i) log += lines[size_t(i - 1)] + "\n";
  const FileReport r = AuditText(log);
  EXPECT_PROBLEMS(r, {77, CheckId::kScoreBreakdown});
  EXPECT_TRUE(NoteHas(Only(r, CheckId::kScoreBreakdown),
                      "as a score sheet: side 1 (Bob and Dan) records red_threes 150, which no "
                      "number of red threes scores"))
      << test::Dump(r);
}

// ===========================================================================
// CSV: export and import

TEST(SheetCsv, ExportingAPlayedSampleAndImportingItBackAuditsClean) {
  std::ifstream in(kSource / "samples/classic/game.jsonl", std::ios::binary);
  std::ostringstream csv;
  ExportSheetCsv(in, "game.jsonl", ByName(), csv);
  EXPECT_EQ(csv.str().substr(0, csv.str().find('\n')),
            "Hand,Side,Canastas,Red threes,Going out,Melded,In hand,Penalties,Score,Total");
  std::istringstream back(csv.str());
  const SheetImport imported = ImportSheetCsv(back, "game.csv", SheetImportOptions{});
  EXPECT_TRUE(imported.report.findings.empty());
  const FileReport r = AuditText(imported.log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  const GameReport& g = test::OnlyGame(r);
  EXPECT_EQ(g.hands.size(), 7u);
  EXPECT_EQ(g.totals, (std::vector<int>{6180, 3750}));
  EXPECT_EQ(g.winner, std::optional<int>(0));
}

// A deal numbered 0 (a deal-hand-number finding for the audit) is the
// game's first hand on the sheet: hands are numbered 1, 2, 3, ... as a sheet
// counts them, and the export imports back without a finding.
TEST(SheetCsv, AMisnumberedDealIsExportedAsTheHandItIs) {
  std::ifstream in(kSource / "samples/classic/game.jsonl", std::ios::binary);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string first = "\"type\":\"deal\",\"hand\":1,";
  ASSERT_NE(log.find(first), std::string::npos);
  log.replace(log.find(first), first.size(), "\"type\":\"deal\",\"hand\":0,");
  std::istringstream misnumbered(log);
  std::ostringstream csv;
  ExportSheetCsv(misnumbered, "game.jsonl", ByName(), csv);
  std::istringstream rows(csv.str());
  std::string header, row1, row2, row3;
  std::getline(rows, header);
  std::getline(rows, row1);
  std::getline(rows, row2);
  std::getline(rows, row3);
  EXPECT_EQ(row1.substr(0, 4), "1,0,") << csv.str();
  EXPECT_EQ(row2.substr(0, 4), "1,1,") << csv.str();
  EXPECT_EQ(row3.substr(0, 4), "2,0,") << csv.str();
  std::istringstream back(csv.str());
  const SheetImport imported = ImportSheetCsv(back, "game.csv", SheetImportOptions{});
  EXPECT_TRUE(imported.report.findings.empty()) << test::Dump(imported.report);
  const FileReport r = AuditText(imported.log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  EXPECT_EQ(test::OnlyGame(r).totals, (std::vector<int>{6180, 3750}));
}

TEST(SheetCsv, ExportingThePlayedJaquesSampleAndImportingItBackAuditsClean) {
  std::ifstream in(kSource / "samples/jaques/game.jsonl", std::ios::binary);
  std::ostringstream csv;
  const FileReport played = ExportSheetCsv(in, "game.jsonl", ByName(), csv);
  std::istringstream back(csv.str());
  SheetImportOptions options;
  options.ruleset = "jaques";
  const SheetImport imported = ImportSheetCsv(back, "game.csv", options);
  EXPECT_TRUE(imported.report.findings.empty());
  const FileReport r = AuditText(imported.log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  EXPECT_EQ(test::OnlyGame(r).ruleset, "jaques");
  EXPECT_EQ(test::OnlyGame(r).totals, test::OnlyGame(played).totals);
  EXPECT_EQ(test::OnlyGame(r).hands.size(), test::OnlyGame(played).hands.size());
}

// Every part of every hand the engine scores is one the sheet checks allow:
// games the bots play under several rulesets, exported and imported back,
// audit clean (the checks never reject a score a real hand gives).
TEST(SheetCsv, SelfPlayedGamesRoundTripCleanUnderEveryRulesetFamily) {
  for (const char* rs : {"classic", "jaques", "hutto", "three-handed", "two-handed"}) {
    SCOPED_TRACE(rs);
    std::variant<Ruleset, LuaError> loaded = LoadRuleset(rs);
    ASSERT_TRUE(std::holds_alternative<Ruleset>(loaded));
    const RulesetChoice choice = std::get<Ruleset>(loaded).Choose();
    for (int game = 0; game < 4; ++game) {
      std::ostringstream played;
      SimulateGame(choice, GameSeed(7, game), SimulateOptions{}, played);
      std::istringstream log(played.str());
      std::ostringstream csv;
      ExportSheetCsv(log, "played.jsonl", ByName(), csv);
      std::istringstream back(csv.str());
      SheetImportOptions options;
      options.ruleset = rs;
      options.num_players = choice.rules.num_players;
      const SheetImport imported = ImportSheetCsv(back, "played.csv", options);
      EXPECT_TRUE(imported.report.findings.empty());
      const FileReport r = AuditText(imported.log);
      EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r) << csv.str();
    }
  }
}

TEST(SheetCsv, CommonSpellingsOfTheColumnsAreAccepted) {
  EXPECT_EQ(ColumnFor("Red 3s"), SheetColumn::kRedThrees);
  EXPECT_EQ(ColumnFor("red_threes"), SheetColumn::kRedThrees);
  EXPECT_EQ(ColumnFor("Canastas"), SheetColumn::kCanastas);
  EXPECT_EQ(ColumnFor("Going out"), SheetColumn::kGoingOut);
  EXPECT_EQ(ColumnFor("Melded"), SheetColumn::kMelded);
  EXPECT_EQ(ColumnFor("In hand"), SheetColumn::kInHand);
  EXPECT_EQ(ColumnFor("Penalties"), SheetColumn::kPenalties);
  EXPECT_EQ(ColumnFor("Total"), SheetColumn::kTotal);
  EXPECT_EQ(ColumnFor("Hand"), SheetColumn::kHand);
  EXPECT_EQ(ColumnFor("Team"), SheetColumn::kSide);
  EXPECT_EQ(ColumnFor("Side"), SheetColumn::kSide);
  EXPECT_EQ(ColumnFor("Bid"), SheetColumn::kUnknown);
}

TEST(SheetCsv, TeamNamesSemicolonsAndThousandsSeparatorsAreRead) {
  const std::string csv =
      "Hand;Team;Canastas;Red 3s;Going out;Melded;In hand;Total\n"
      "1;Us;800;100;100;340;0;\"1,340\"\n"
      "1;Them;300;200;0;150;\xE2\x88\x92"
      "65;585\n";
  std::istringstream in(csv);
  const SheetImport imported = ImportSheetCsv(in, "club.csv", SheetImportOptions{});
  EXPECT_TRUE(imported.report.findings.empty());
  EXPECT_NE(
      imported.log.find(
          R"({"type":"end_hand","hand":1,"totals":[1340,585],"breakdown":[{"canastas":800,"red_threes":100,"going_out":100,"melded":340,"in_hand":0},{"canastas":300,"red_threes":200,"going_out":0,"melded":150,"in_hand":-65}]})"),
      std::string::npos)
      << imported.log;
  EXPECT_NE(imported.log.find(R"("sides":["Us","Them"])"), std::string::npos);
}

TEST(SheetCsv, BadCellsAreFindingsWithTheRowAndColumn) {
  const std::string csv =
      "Hand,Side,Canastas,Red 3s,Going out,Melded,In hand,Total\n"  // line 1
      "1,0,800,100,100,340,0,1340\n"                                // 2
      "1,1,300,lots,0,150,-65,585\n"                                // 3: a bad cell
      "two,0,300,0,0,120,-40,1720\n"                                // 4: a bad hand
      "2,0,300,0,0,120,-40,1720\n"                                  // 5
      "2,0,300,0,0,120,-40,1720\n"                                  // 6: a second row
      "2,5,300,0,0,120,-40,1720\n";                                 // 7: no such side
  std::istringstream in(csv);
  const SheetImport imported = ImportSheetCsv(in, "bad.csv", SheetImportOptions{});
  FileReport r = imported.report;
  EXPECT_FINDINGS(r, {3, CheckId::kLogBadEvent}, {4, CheckId::kLogBadEvent},
                  {5, CheckId::kLogBadEvent}, {6, CheckId::kLogBadEvent},
                  {7, CheckId::kLogBadEvent});
  ASSERT_EQ(r.findings.size(), 5u);
  EXPECT_EQ(r.findings[0].message, "\"lots\" is not a number of points");
  EXPECT_EQ(r.findings[0].notes.at(0), "column 4 (\"Red 3s\")");
  EXPECT_EQ(r.findings[1].notes.at(0), "column 1 (\"Hand\")");
  EXPECT_EQ(r.findings[2].message, "hand 2 has no row for side 1");
  EXPECT_EQ(r.findings[3].message, "hand 2 has a second row for side 0 (the first is line 5)");
  EXPECT_EQ(r.findings[4].message, "there is no side 5: sides are 0 to 1");
  EXPECT_EQ(r.findings[4].notes.at(0), "column 2 (\"Side\")");
  // What could be read is still written: hand 1 without side 1's red threes.
  EXPECT_NE(imported.log.find(R"({"canastas":300,"going_out":0,"melded":150,"in_hand":-65})"),
            std::string::npos)
      << imported.log;
}

// A name past the game's sides is refused, and never named in the log's
// header as a side.
TEST(SheetCsv, ANameOneSideTooManyIsNeverNamedASide) {
  std::istringstream in("Hand,Team,Score\n1,Us,5\n1,Them,3\n2,Us,1\n2,Others,4\n2,Them,2\n");
  const SheetImport imported = ImportSheetCsv(in, "club.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {5, CheckId::kLogBadEvent});
  EXPECT_EQ(imported.report.findings.at(0).message,
            "\"Others\" is one side too many: the game has 2 sides");
  EXPECT_NE(imported.log.find(R"("sides":["Us","Them"]})"), std::string::npos) << imported.log;
  EXPECT_NE(imported.log.find(R"({"type":"end_hand","hand":2,"scores":[1,2]})"), std::string::npos)
      << imported.log;
}

// Rows are gathered by hand number wherever they stand: a hand's second
// side may come after other hands, and the hands keep their first order.
TEST(SheetCsv, AHandsRowsAreGatheredWhereverTheyStand) {
  std::istringstream in("Hand,Side,Score\n2,0,10\n1,0,5\n2,1,20\n1,1,15\n");
  const SheetImport imported = ImportSheetCsv(in, "order.csv", SheetImportOptions{});
  EXPECT_TRUE(imported.report.findings.empty());
  EXPECT_NE(imported.log.find("{\"type\":\"end_hand\",\"hand\":2,\"scores\":[10,20]}\n"
                              "{\"type\":\"end_hand\",\"hand\":1,\"scores\":[5,15]}\n"),
            std::string::npos)
      << imported.log;
}

// Sides numbered 1 and 2, with no 0 anywhere, are the log's sides 0 and 1
// (docs/sheets.md); a sheet that uses 0 counts from 0.
TEST(SheetCsv, SidesAreCountedFromOneWhenNoZeroAppears) {
  std::istringstream from_one("Hand,Side,Score\n1,1,5\n1,2,3\n2,2,4\n2,1,6\n");
  const SheetImport one = ImportSheetCsv(from_one, "one.csv", SheetImportOptions{});
  EXPECT_TRUE(one.report.findings.empty()) << one.report.findings.at(0).message;
  EXPECT_NE(one.log.find("{\"type\":\"end_hand\",\"hand\":1,\"scores\":[5,3]}\n"
                         "{\"type\":\"end_hand\",\"hand\":2,\"scores\":[6,4]}\n"),
            std::string::npos)
      << one.log;
  std::istringstream from_zero("Hand,Side,Score\n1,1,5\n1,0,3\n1,2,4\n");
  const SheetImport zero = ImportSheetCsv(from_zero, "zero.csv", SheetImportOptions{});
  EXPECT_FINDINGS(zero.report, {4, CheckId::kLogBadEvent});
  EXPECT_EQ(zero.report.findings.at(0).message, "there is no side 2: sides are 0 to 1");
  EXPECT_NE(zero.log.find("{\"type\":\"end_hand\",\"hand\":1,\"scores\":[3,5]}\n"),
            std::string::npos)
      << zero.log;
}

// A row shorter than the header lacks the cells past its end: a row that
// stops before its side names no side, and its hand lacks that side's row.
TEST(SheetCsv, ARowShorterThanTheHeaderLacksItsLastCells) {
  std::istringstream in("Hand,Score,Side\n1,5,0\n1,3,1\n2,4\n2,6,1\n");
  const SheetImport imported = ImportSheetCsv(in, "short.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {4, CheckId::kLogBadEvent}, {5, CheckId::kLogBadEvent});
  ASSERT_EQ(imported.report.findings.size(), 2u);
  EXPECT_EQ(imported.report.findings[0].message, "the row names no side");
  EXPECT_EQ(imported.report.findings[0].notes.at(0), "column 3 (\"Side\")");
  EXPECT_EQ(imported.report.findings[1].message, "hand 2 has no row for side 0");
  EXPECT_NE(imported.log.find("{\"type\":\"end_hand\",\"hand\":1,\"scores\":[5,3]}\n"),
            std::string::npos)
      << imported.log;
}

// A log of several games is exported with a Game column first, and imports
// back to the same games (docs/sheets.md).
TEST(SheetCsv, TwoGamesInOneLogAreExportedWithAGameColumn) {
  const std::string game = ReadAll(kSource / "samples/classic/game.jsonl");
  std::istringstream in(game + game);
  std::ostringstream csv;
  ExportSheetCsv(in, "games.jsonl", ByName(), csv);
  const std::string text = csv.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "Game,Hand,Side,Canastas,Red threes,Going out,Melded,In hand,Penalties,Score,Total");
  EXPECT_EQ(text.compare(text.find('\n') + 1, 6, "1,1,0,"), 0) << text;
  EXPECT_NE(text.find("\n2,1,0,"), std::string::npos) << text;
  EXPECT_NE(text.find("\n2,7,1,"), std::string::npos) << text;
  std::istringstream back(text);
  const SheetImport imported = ImportSheetCsv(back, "games.csv", SheetImportOptions{});
  EXPECT_TRUE(imported.report.findings.empty());
  const FileReport r = AuditText(imported.log);
  EXPECT_EQ(test::Findings(r), test::FoundList{}) << test::Dump(r);
  ASSERT_EQ(r.games.size(), 2u);
  for (const GameReport& g : r.games) {
    EXPECT_EQ(g.hands.size(), 7u);
    EXPECT_EQ(g.totals, (std::vector<int>{6180, 3750}));
  }
}

// A sheet with thousands of bad cells lists as many findings as an audit
// does (the cap per file), then one that says the rest are not listed; the
// log is still written whole.
TEST(SheetCsv, FindingsStopAtTheCapPerFileAndTheLogIsWrittenWhole) {
  std::string csv = "Hand,Side,Score\n";
  const int hands = kDefaultMaxFindings + 200;
  for (int h = 1; h <= hands; ++h)
    csv += std::to_string(h) + ",0,lots\n" + std::to_string(h) + ",1,5\n";
  std::istringstream in(csv);
  const SheetImport imported = ImportSheetCsv(in, "big.csv", SheetImportOptions{});
  const std::vector<Finding>& f = imported.report.findings;
  ASSERT_EQ(f.size(), size_t(kDefaultMaxFindings) + 1);
  EXPECT_EQ(f[size_t(kDefaultMaxFindings) - 1].line, 2 * kDefaultMaxFindings);
  EXPECT_EQ(f.back().id, CheckId::kLogIncomplete);
  EXPECT_EQ(f.back().line, 2 * kDefaultMaxFindings + 2);
  EXPECT_EQ(f.back().message, "more than " + std::to_string(kDefaultMaxFindings) +
                                  " findings in this sheet: the rest are not listed");
  EXPECT_NE(imported.log.find("{\"type\":\"end_hand\",\"hand\":" + std::to_string(hands) +
                              "}\n{\"type\":\"end_game\""),
            std::string::npos);
}

// A sheet is untrusted input: a row over 1 MiB or 1,000 cells is one
// finding, its cells past the limit never held (docs/sheets.md, Limits).
// Its hand and side still count as recorded: the hand is written without
// its scores, and not said to lack that side as well.
TEST(SheetCsv, ARowOverTheLimitsIsOneFinding) {
  const std::string wide = "1,1,3" + std::string(997, ',');  // exactly 1,000 cells: read
  const std::string csv =
      "Hand,Side,Score\n"  // 1
      "1,0,5\n" +          // 2
      wide +
      "\n" +                                                // 3
      "2,0," + std::string(1024 * 1024, '9') + "\n" +       // 4
      "2,1,4\n" +                                           // 5
      "3,0,1\n" + "3,1,2" + std::string(1000, ',') + "\n";  // 6, 7
  std::istringstream in(csv);
  const SheetImport imported = ImportSheetCsv(in, "wide.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {4, CheckId::kLogBadEvent}, {7, CheckId::kLogBadEvent});
  ASSERT_EQ(imported.report.findings.size(), 2u);
  EXPECT_EQ(imported.report.findings[0].message,
            "this row is longer than 1 MiB, the limit (docs/sheets.md, Limits)");
  EXPECT_EQ(imported.report.findings[0].notes, std::vector<std::string>{"its cells are left out"});
  EXPECT_EQ(imported.report.findings[1].message,
            "this row has more than 1000 cells, the limit (docs/sheets.md, Limits)");
  EXPECT_NE(imported.log.find("{\"type\":\"end_hand\",\"hand\":1,\"scores\":[5,3]}\n"
                              "{\"type\":\"end_hand\",\"hand\":2}\n"
                              "{\"type\":\"end_hand\",\"hand\":3}\n"),
            std::string::npos)
      << imported.log;
}

// What the import writes, the reader reads: a sheet saved as Latin-1 is
// one finding, its names written as valid UTF-8.
TEST(SheetCsv, ASheetThatIsNotUtf8IsOneFindingAndItsNamesAreValid) {
  std::istringstream in("Hand;Team;Score\n1;M\xFCller;5\n1;Sch\xF6n;3\n");
  const SheetImport imported = ImportSheetCsv(in, "latin1.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {2, CheckId::kLogBadEvent});
  EXPECT_EQ(imported.report.findings.at(0).message,
            "this sheet is not UTF-8 text: the bytes that are not are read as U+FFFD");
  EXPECT_EQ(imported.report.findings.at(0).notes.at(0),
            "the first is byte 20 of the file; save the sheet as UTF-8 to keep its names");
  EXPECT_NE(imported.log.find("\"sides\":[\"M\xEF\xBF\xBDller\",\"Sch\xEF\xBF\xBDn\"]"),
            std::string::npos)
      << imported.log;
  EXPECT_TRUE(IsValidUtf8(imported.log));
}

// Hand numbers and points are bounded as a log's are (docs/log-format.md,
// Limits); running totals past them are not written.
TEST(SheetCsv, NumbersPastTheLogsLimitsAreFindings) {
  std::istringstream in(
      "Hand,Side,Score\n"
      "1000001,0,5\n"     // 2: past the last hand a log numbers
      "1,0,1000000001\n"  // 3: past the points a log holds
      "1,1,1\n"
      "2,0,1000000000\n"
      "2,1,0\n"
      "3,0,1000000000\n"
      "3,1,0\n");
  const SheetImport imported = ImportSheetCsv(in, "big.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {2, CheckId::kLogBadEvent}, {3, CheckId::kLogBadEvent});
  EXPECT_EQ(imported.report.findings.at(0).message,
            "hand 1000001 is past the last a log may number (1000000)");
  EXPECT_EQ(imported.report.findings.at(1).message,
            "1000000001 points is out of range (-1000000000 to 1000000000)");
  // Side 0's running total, 2,000,000,000, is past a log's range: no totals.
  EXPECT_NE(imported.log.find("{\"type\":\"end_game\"}\n"), std::string::npos) << imported.log;
  std::istringstream log(imported.log);
  LogReader reader(log);
  Event event;
  std::vector<InputProblem> problems;
  while (reader.Next(&event, &problems)) {
  }
  EXPECT_TRUE(problems.empty()) << problems.at(0).message;
}

TEST(SheetCsv, AHeaderOverTheLimitsImportsNothing) {
  std::istringstream in("Hand,Side" + std::string(1000, ',') + "Score\n1,0,5\n1,1,3\n");
  const SheetImport imported = ImportSheetCsv(in, "wide.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {1, CheckId::kLogBadEvent});
  EXPECT_EQ(imported.report.findings.at(0).notes,
            std::vector<std::string>{"it is the header: the sheet is not imported"});
  EXPECT_TRUE(imported.log.empty());
}

TEST(SheetCsv, AHeaderWithoutHandOrSideIsAFinding) {
  std::istringstream in("Canastas,Total\n500,500\n");
  const SheetImport imported = ImportSheetCsv(in, "bad.csv", SheetImportOptions{});
  EXPECT_FINDINGS(imported.report, {1, CheckId::kLogBadEvent}, {1, CheckId::kLogBadEvent});
  EXPECT_TRUE(imported.log.empty());
}

// The shipped evening (samples/sheets/evening.csv) imports to exactly the
// shipped log beside it, which the golden test audits.
TEST(SheetCsv, TheSampleEveningImportsToTheShippedLog) {
  std::ifstream in(kSource / "samples/sheets/evening.csv", std::ios::binary);
  ASSERT_TRUE(in);
  SheetImportOptions options;
  options.players = {"Ann", "Bob", "Cat", "Dan"};
  const SheetImport imported = ImportSheetCsv(in, "evening.csv", options);
  EXPECT_TRUE(imported.report.findings.empty());
  EXPECT_EQ(imported.log, ReadAll(kSource / "samples/sheets/evening.jsonl"));
}

// --- The command line ---

// Runs `canasta ARGS` in `dir`, stdout and stderr together.
test::ShellRun Canasta(const fs::path& dir, const std::string& args) {
  return test::RunShell("cd '" + dir.string() + "' && " + std::string(CANASTA_BINARY) + " " +
                        args + " 2>&1");
}

TEST(SheetCommand, BadCellsArePrintedLikeEveryOtherFinding) {
  const fs::path dir = fs::temp_directory_path() / ("sheet-cli-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "bad.csv") << "Hand,Side,Canastas,Red 3s,Going out,Melded,In hand,Total\n"
                                    "1,0,800,100,100,340,0,1340\n"
                                    "1,1,300,lots,0,150,-65,585\n";
  const test::ShellRun r = Canasta(dir, "sheet import bad.csv -o bad.jsonl");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "bad.csv:3: error: \"lots\" is not a number of points [log-bad-event]\n"
            "bad.csv:3: note: column 4 (\"Red 3s\")\n"
            "bad.csv:3: note: hand 1, side 1: the cell is left out\n");
  EXPECT_TRUE(fs::exists(dir / "bad.jsonl"));
  fs::remove_all(dir);
}

// As for every command's -o (cli/output.h): an output that is the input
// is refused before anything is read, and the input stays as it was.
TEST(SheetCommand, AnOutputThatIsTheInputIsRefusedAndLeftWhole) {
  const fs::path dir = fs::temp_directory_path() / ("sheet-same-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(kSource / "samples/sheets/evening.csv", dir / "evening.csv");
  fs::copy_file(kSource / "samples/classic/game.jsonl", dir / "game.jsonl");
  const test::ShellRun in = Canasta(dir, "sheet import evening.csv -o evening.csv");
  EXPECT_EQ(in.status, 2);
  EXPECT_EQ(in.out,
            "canasta sheet: error: the output 'evening.csv' is the input 'evening.csv'; it would "
            "be destroyed (write the output elsewhere)\n");
  EXPECT_EQ(ReadAll(dir / "evening.csv"), ReadAll(kSource / "samples/sheets/evening.csv"));
  const test::ShellRun out = Canasta(dir, "sheet export game.jsonl -o ./game.jsonl");
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.out.find("the output './game.jsonl' is the input 'game.jsonl'"), std::string::npos)
      << out.out;
  EXPECT_EQ(ReadAll(dir / "game.jsonl"), ReadAll(kSource / "samples/classic/game.jsonl"));
  fs::remove_all(dir);
}

TEST(SheetCommand, WriteErrorsExitTwoWithTheReason) {
  const fs::path dir = kSource / "samples";
  for (const char* args : {"sheet import sheets/evening.csv", "sheet export classic/game.jsonl"}) {
    SCOPED_TRACE(args);
    const test::ShellRun file = Canasta(dir, std::string(args) + " -o /dev/full");
    EXPECT_EQ(file.status, 2);
    EXPECT_EQ(file.out,
              "canasta sheet: error: cannot write '/dev/full': No space left on device\n");
    // stderr to the pipe, stdout to the full device.
    const test::ShellRun out =
        test::RunShell("cd '" + dir.string() + "' && " + std::string(CANASTA_BINARY) + " " + args +
                       " 2>&1 >/dev/full");
    EXPECT_EQ(out.status, 2);
    EXPECT_EQ(out.out,
              "canasta sheet: error: cannot write standard output: No space left on device\n");
  }
}

// A file with no game has no sheet: nothing is written, not even a header.
TEST(SheetCommand, AnExportOfNoGameWritesNothing) {
  const fs::path dir = fs::temp_directory_path() / ("sheet-none-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "empty.jsonl").close();
  const test::ShellRun file = Canasta(dir, "sheet export empty.jsonl -o sheet.csv");
  EXPECT_EQ(file.status, 1);
  EXPECT_FALSE(fs::exists(dir / "sheet.csv"));
  const test::ShellRun out =
      test::RunShell("cd '" + dir.string() + "' && " + std::string(CANASTA_BINARY) +
                     " sheet export empty.jsonl 2>/dev/null");
  EXPECT_EQ(out.status, 1);
  EXPECT_EQ(out.out, "");
  fs::remove_all(dir);
}

// An endless input is refused after 64 MiB, unread beyond it.
TEST(SheetCommand, ASheetLargerThanTheLimitIsRefused) {
  const test::ShellRun r = Canasta(kSource, "sheet import /dev/zero");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "/dev/zero:1: error: this sheet is larger than 64 MiB, the limit (docs/sheets.md, "
            "Limits): it is not imported [log-not-canasta-log]\n");
}

TEST(SheetCommand, ImportThenExportGivesTheSheetsTrueScores) {
  const fs::path dir = kSource / "samples" / "sheets";
  const test::ShellRun imported = Canasta(dir, "sheet import evening.csv --players Ann,Bob,Cat,Dan");
  EXPECT_EQ(imported.status, 0);
  EXPECT_EQ(imported.out, ReadAll(dir / "evening.jsonl"));
  const test::ShellRun exported = Canasta(dir, "sheet export evening.jsonl");
  EXPECT_EQ(exported.status, 0);
  // Hand 2: Ann and Cat's red threes count against them (000 §7).
  EXPECT_NE(exported.out.find("2,0,0,-100,0,0,-120,0,-220,1120\n"), std::string::npos)
      << exported.out;
  EXPECT_NE(exported.out.find("6,0,1100,100,100,460,0,0,1760,5745\n"), std::string::npos)
      << exported.out;
}

}  // namespace
}  // namespace canasta
