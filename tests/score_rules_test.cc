// House rules v2 for scoring, the game's end and the deal: the hooks
// `score` (with a ruleset's own `score_parts`) and `tie_break`, the
// parameters dealer_rotation, first_player, upcards = 0 and minimum_by, and
// minimum_count's ctx. Each rule is tried in both directions: what it allows
// audits clean, what it refuses gives the exact finding.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/game.h"
#include "core/position.h"
#include "lint/format.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;
using test::C;
using test::Cs;

// A ruleset file written for the test, loaded as the CLI loads one.
RulesetChoice LuaRuleset(const std::string& name, const std::string& text) {
  static const test::TempDir dir;  // removed at exit, with what it holds
  const fs::path path = fs::path(dir.path()) / (name + ".lua");
  std::ofstream(path) << text;
  std::variant<Ruleset, LuaError> loaded = LoadRuleset(path.string());
  if (const auto* e = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << name << ": " << e->ToString();
    return RulesetChoice{name, Rules(),
                         std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {})};
  }
  RulesetChoice c = std::get<Ruleset>(loaded).Choose();
  c.name = name;
  return c;
}

RulesetChoice Classic() {
  return RulesetChoice{"classic", Rules(),
                       std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {})};
}

// The same ruleset with one value changed (parameters need no Lua).
RulesetChoice ClassicWith(void (*change)(Rules&)) {
  RulesetChoice c = Classic();
  change(c.rules);
  c.name = "classic (changed)";
  return c;
}

FileReport AuditWith(const std::string& log, const RulesetChoice& choice) {
  AuditOptions options;
  options.forced_ruleset = choice.name;
  options.resolve = [choice](const std::string&, const std::string&, RulesetChoice* out,
                             std::string*) {
    *out = choice;
    return true;
  };
  std::istringstream in(log);
  return AuditStream(in, "score.jsonl", options);
}

// A self-played game under `choice` (deterministic for a seed).
std::string SelfPlay(const RulesetChoice& choice, uint64_t seed = 7, int max_deals = 400) {
  SimulateOptions options;
  options.max_deals = max_deals;
  options.header_ruleset = choice.name;
  std::ostringstream out;
  SimulateGame(choice, seed, options, out);
  return out.str();
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

// The 1-based line of the first log line containing `what`, or 0.
int LineWith(const std::vector<std::string>& lines, const std::string& what) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(what) != std::string::npos) return int(i) + 1;
  return 0;
}

const char kScoreRuleset[] = R"(return {
  extends = "classic",
  score_parts = {"flat"},
  hooks = {
    score = function(ctx, rules)
      -- every side gets a flat 25, and nobody's going out counts
      return {flat = 25, going_out = 0}
    end,
  },
})";

// ===========================================================================
// The hook score

TEST(ScoreHook, SetsAStandardPartAndAnExtraPartExactly) {
  // Hands held at the deal, no play: in_hand counts them against each side;
  // the hook replaces penalties and adds its own part "flat", which depends
  // on the context it was given.
  RulesetChoice rs = LuaRuleset("score_ctx", R"(return {
  extends = "classic",
  score_parts = {"flat"},
  hooks = {
    score = function(ctx, rules)
      local flat = #ctx.hands * 100 + ctx.side
      if ctx.ended == "unfinished" and not ctx.went_out and ctx.out_player == nil then
        flat = flat + 1000
      end
      return {penalties = -10, flat = flat + ctx.parts.in_hand // 5}
    end,
  },
})");
  ASSERT_EQ(rs.hooks->ExtraParts(), std::vector<std::string>{"flat"});
  Position pos(rs.rules, *rs.hooks, {0, 0});
  DealMove d;
  d.dealer = 3;
  d.hands = {Cs({"4S", "4S", "4H", "4H", "4D", "4D", "4C", "4C", "5S", "5S", "5H"}),
             Cs({"5H", "5D", "5D", "5C", "5C", "6S", "6S", "6H", "6H", "6D", "6D"}),
             Cs({"6C", "6C", "7S", "7S", "7H", "7H", "7D", "7D", "7C", "7C", "8S"}),
             Cs({"KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC", "QS", "QS", "QH"})};
  d.upcards = Cs({"8C"});
  EXPECT_TRUE(pos.Deal(d).empty());
  std::vector<ScoreBreakdown> b = pos.Score();
  ASSERT_EQ(b.size(), 2u);
  // Side 0 holds seats 0 and 2: 55 + 60 points; side 1: 55 + 110.
  EXPECT_EQ(b[0].in_hand, -115);
  EXPECT_EQ(b[0].penalties, -10);
  EXPECT_EQ(b[0].extra, (std::vector<std::pair<std::string, int>>{{"flat", 1200 - 23}}));
  EXPECT_EQ(b[0].total(), -115 - 10 + 1177);
  EXPECT_EQ(b[1].in_hand, -165);
  EXPECT_EQ(b[1].extra, (std::vector<std::pair<std::string, int>>{{"flat", 1201 - 33}}));
  EXPECT_EQ(b[1].total(), -165 - 10 + 1168);
  // Without the hook the same deal scores in_hand alone, with no extra part.
  Rules classic;
  Position plain(classic, DefaultHooks(), {0, 0});
  plain.Deal(d);
  std::vector<ScoreBreakdown> c = plain.Score();
  EXPECT_EQ(c[0].total(), -115);
  EXPECT_TRUE(c[0].extra.empty());
}

// A deal where `seat` plays first and goes out concealed in its first turn:
// it draws QC, melds seven kings and four queens, and discards 9C. `before`
// is told of the position once it is dealt.
template <class F>
Position GoesOutConcealed(const RulesetChoice& rs, int seat, F before) {
  Position pos(rs.rules, *rs.hooks, {0, 0});
  DealMove d;
  d.dealer = (seat + 3) % 4;
  const std::vector<std::vector<Card>> others = {
      Cs({"4S", "4S", "4H", "4H", "4D", "4D", "4C", "4C", "5S", "5S", "5H"}),
      Cs({"6C", "6C", "7S", "7S", "7H", "7H", "7D", "7D", "7C", "7C", "8S"}),
      Cs({"5H", "5D", "5D", "5C", "5C", "6S", "6S", "6H", "6H", "6D", "6D"})};
  for (int s = 0, other = 0; s < 4; ++s)
    d.hands.push_back(s == seat ? Cs({"KS", "KH", "KD", "KC", "KS", "KH", "KD", "QS", "QH", "QD",
                                      "9C"})
                                : others[size_t(other++)]);
  d.upcards = Cs({"8C"});
  EXPECT_TRUE(pos.Deal(d).empty());
  before(pos);
  EXPECT_TRUE(pos.Play(DrawMove{seat, Cs({"QC"}), 0}).empty());
  EXPECT_TRUE(pos.Play(MeldMove{seat,
                                {MeldPart{{}, {}, Cs({"KS", "KH", "KD", "KC", "KS", "KH", "KD"})},
                                 MeldPart{{}, {}, Cs({"QS", "QH", "QD", "QC"})}},
                                0})
                  .empty());
  EXPECT_TRUE(pos.Play(DiscardMove{seat, C("9C"), 0}).empty());
  EXPECT_EQ(pos.went_out(), seat);
  return pos;
}

TEST(ScoreHook, SeesWhichSideWentOutAndWhetherConcealed) {
  // The hook's ctx.went_out is true for the side of the player who went out
  // only, and ctx.concealed with it (000 §18: going out concealed).
  RulesetChoice rs = LuaRuleset("score_out", R"(return {
  extends = "classic",
  score_parts = {"flat"},
  hooks = {
    score = function(ctx, rules)
      return {flat = (ctx.went_out and 1 or 0) + (ctx.concealed and 10 or 0)}
    end,
  },
})");
  const Position pos = GoesOutConcealed(rs, 1, [](const Position&) {});
  const std::vector<ScoreBreakdown> b = pos.Score();
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].extra, (std::vector<std::pair<std::string, int>>{{"flat", 0}}));
  EXPECT_EQ(b[1].extra, (std::vector<std::pair<std::string, int>>{{"flat", 11}}));
}

// ctx.out_player is the seat that went out, seat 0 too, for both sides'
// calls, and nil before anybody did (000 §17, §18).
TEST(ScoreHook, SeesTheSeatThatWentOutEvenSeatZero) {
  RulesetChoice rs = LuaRuleset("score_out_player", R"(return {
  extends = "classic",
  score_parts = {"flat"},
  hooks = {
    score = function(ctx, rules)
      return {flat = ctx.out_player == nil and -1 or ctx.out_player}
    end,
  },
})");
  const Position pos = GoesOutConcealed(rs, 0, [](const Position& dealt) {
    EXPECT_EQ(dealt.Score()[0].extra, (std::vector<std::pair<std::string, int>>{{"flat", -1}}));
  });
  const std::vector<ScoreBreakdown> b = pos.Score();
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].extra, (std::vector<std::pair<std::string, int>>{{"flat", 0}}));
  EXPECT_EQ(b[1].extra, (std::vector<std::pair<std::string, int>>{{"flat", 0}}));
}

TEST(ScoreHook, SelfPlayRecordsTheExtraPartAndAuditsClean) {
  RulesetChoice rs = LuaRuleset("score_flat", kScoreRuleset);
  const std::string log = SelfPlay(rs, 7);
  const std::vector<std::string> lines = SplitLines(log);
  const int end_hand = LineWith(lines, "\"type\":\"end_hand\"");
  ASSERT_GT(end_hand, 0);
  EXPECT_NE(lines[size_t(end_hand - 1)].find("\"flat\":25"), std::string::npos)
      << lines[size_t(end_hand - 1)];
  FileReport r = AuditWith(log, rs);
  EXPECT_CLEAN(r);
  ASSERT_FALSE(r.games.empty());
  ASSERT_FALSE(r.games[0].hands.empty());
  for (const HandReport& h : r.games[0].hands) {
    for (size_t s = 0; s < h.breakdown.size(); ++s) {
      EXPECT_EQ(h.breakdown[s].going_out, 0);
      EXPECT_EQ(h.breakdown[s].extra, (std::vector<std::pair<std::string, int>>{{"flat", 25}}));
      EXPECT_EQ(h.breakdown[s].total(), h.scores[s]);
    }
  }
}

TEST(ScoreHook, AWrongExtraPartIsAScoreBreakdownFinding) {
  RulesetChoice rs = LuaRuleset("score_flat", kScoreRuleset);
  std::vector<std::string> lines = SplitLines(SelfPlay(rs, 7));
  const int end_hand = LineWith(lines, "\"type\":\"end_hand\"");
  ASSERT_GT(end_hand, 0);
  std::string& line = lines[size_t(end_hand - 1)];
  const size_t at = line.find("\"flat\":25");
  ASSERT_NE(at, std::string::npos);
  line.replace(at, 9, "\"flat\":30");
  FileReport r = AuditWith(JoinLines(lines), rs);
  EXPECT_PROBLEMS(r, {end_hand, CheckId::kScoreBreakdown});
  EXPECT_NE(test::MessageOf(r, CheckId::kScoreBreakdown).find("flat is 25, not 30"),
            std::string::npos)
      << test::MessageOf(r, CheckId::kScoreBreakdown);
  // A part the ruleset does not declare is unknown.
  line.replace(at, 9, "\"flap\":25");
  r = AuditWith(JoinLines(lines), rs);
  EXPECT_PROBLEMS(r, {end_hand, CheckId::kLogBadEvent});
  // Under classic, which declares no parts, "flat" is unknown too (and the
  // scores are classic's, so the hand's score and totals differ as well).
  lines = SplitLines(SelfPlay(rs, 7));
  FileReport classic = AuditWith(JoinLines(lines), Classic());
  EXPECT_TRUE(test::HasId(classic, CheckId::kLogBadEvent)) << test::Dump(classic);
  EXPECT_TRUE(test::HasId(classic, CheckId::kScoreHand)) << test::Dump(classic);
}

TEST(ScoreHook, JsonReportShowsTheExtraPart) {
  RulesetChoice rs = LuaRuleset("score_flat", kScoreRuleset);
  FileReport r = AuditWith(SelfPlay(rs, 7), rs);
  std::ostringstream out;
  WriteJson(out, {r}, "1.0");
  const std::string json = out.str();
  // After the standard parts, in the breakdown object of each side.
  EXPECT_NE(json.find("\"house\": 0,\n"), std::string::npos) << json.substr(0, 2000);
  EXPECT_NE(json.find("\"flat\": 25"), std::string::npos) << json.substr(0, 2000);
}

// ===========================================================================
// The hook tie_break

const char kTieLog[] =
    R"({"type":"game","format":"canasta-log/1","ruleset":"r","players":["Ann","Bob","Cat","Dan"]}
{"type":"end_hand","hand":1,"scores":[5000,5000],"totals":[5000,5000]}
)";

TEST(TieBreak, DecidesATieAtTheTarget) {
  RulesetChoice rs = LuaRuleset("tie", R"(return {
  extends = "classic",
  hooks = {
    tie_break = function(ctx, rules)
      if ctx.canastas[1] ~= ctx.canastas[2] then
        return ctx.canastas[1] > ctx.canastas[2] and 0 or 1
      end
      if ctx.hands >= 2 then return ctx.tied[#ctx.tied] end
    end,
  },
})");
  const std::vector<int> tie = {5000, 5000};
  GameOutcome o = DecideGame(rs.rules, *rs.hooks, tie, 3, {4, 1});
  EXPECT_TRUE(o.over);
  EXPECT_FALSE(o.tied);
  EXPECT_EQ(o.winner, 0);
  o = DecideGame(rs.rules, *rs.hooks, tie, 3, {1, 4});
  EXPECT_EQ(o.winner, 1);
  o = DecideGame(rs.rules, *rs.hooks, tie, 3, {2, 2});
  EXPECT_EQ(o.winner, 1);
  // nil: exact_tie decides, as without the hook.
  o = DecideGame(rs.rules, *rs.hooks, tie, 1, {2, 2});
  EXPECT_FALSE(o.over);
  EXPECT_TRUE(o.tied);
  EXPECT_FALSE(o.winner);
  Rules draw = rs.rules;
  draw.exact_tie = ExactTie::kDraw;
  o = DecideGame(draw, *rs.hooks, tie, 1, {2, 2});
  EXPECT_TRUE(o.over);
  EXPECT_FALSE(o.winner);
  // No tie: the hook is not asked.
  o = DecideGame(rs.rules, *rs.hooks, {5100, 5000}, 3, {0, 4});
  EXPECT_EQ(o.winner, 0);
}

// ctx.canastas has one entry a side (a side the game counted none for: 0),
// and ctx.totals one a side too (000 §19).
TEST(TieBreak, SeesOneCanastaCountASide) {
  RulesetChoice rs = LuaRuleset("tie_count", R"(return {
  extends = "classic",
  hooks = {
    tie_break = function(ctx, rules)
      if #ctx.canastas == #ctx.totals then return ctx.canastas[#ctx.canastas] end
    end,
  },
})");
  GameOutcome o = DecideGame(rs.rules, *rs.hooks, {5000, 5000}, 2, {3, 1});
  EXPECT_EQ(o.winner, 1);  // two entries, the last of them 1
  o = DecideGame(rs.rules, *rs.hooks, {5000, 5000}, 2, {0});
  EXPECT_EQ(o.winner, 0);  // two entries all the same, the second 0
  Rules three = rs.rules;
  three.num_players = 3;
  o = DecideGame(three, *rs.hooks, {4000, 5000, 5000}, 2, {1, 1, 2});
  EXPECT_EQ(o.winner, 2);
}

TEST(TieBreak, TheReplayJudgesTheWinnerByIt) {
  RulesetChoice rs = LuaRuleset("tie_last", R"(return {
  extends = "classic",
  hooks = {
    tie_break = function(ctx, rules) return ctx.tied[#ctx.tied] end,
  },
})");
  const std::string right = std::string(kTieLog) +
                            R"({"type":"end_game","totals":[5000,5000],"winner":1})" "\n";
  const std::string wrong = std::string(kTieLog) +
                            R"({"type":"end_game","totals":[5000,5000],"winner":0})" "\n";
  EXPECT_CLEAN(AuditWith(right, rs));
  FileReport r = AuditWith(wrong, rs);
  EXPECT_PROBLEMS(r, {3, CheckId::kGameWinner});
  EXPECT_EQ(r.games[0].winner, 1);
  // Classic plays another deal after a tie (readings R17).
  FileReport classic = AuditWith(right, Classic());
  EXPECT_PROBLEMS(classic, {3, CheckId::kGameEnd});
}

// ===========================================================================
// Deal order

TEST(DealOrder, DealerRotationRightAndNone) {
  auto sheet = [](std::vector<int> dealers) {
    std::string s =
        R"({"type":"game","format":"canasta-log/1","ruleset":"r","players":["Ann","Bob","Cat","Dan"]})"
        "\n";
    for (size_t i = 0; i < dealers.size(); ++i)
      s += R"({"type":"end_hand","hand":)" + std::to_string(i + 1) + R"(,"dealer":)" +
           std::to_string(dealers[i]) + R"(,"scores":[0,0],"totals":[0,0]})" "\n";
    return s;
  };
  RulesetChoice right = ClassicWith([](Rules& r) { r.dealer_rotation = DealerRotation::kRight; });
  RulesetChoice none = ClassicWith([](Rules& r) { r.dealer_rotation = DealerRotation::kNone; });
  EXPECT_CLEAN(AuditWith(sheet({0, 3, 2}), right));
  // The next dealer is judged from the last one recorded.
  EXPECT_PROBLEMS(AuditWith(sheet({0, 1, 0}), right), {3, CheckId::kDealDealer});
  EXPECT_EQ(test::MessageOf(AuditWith(sheet({0, 1, 0}), right), CheckId::kDealDealer),
            "seat 1 (Bob) dealt hand 2, but the deal passes to the right: seat 0 (Ann) dealt "
            "hand 1, so seat 3 (Dan) deals this one");
  EXPECT_CLEAN(AuditWith(sheet({2, 2, 2}), none));
  EXPECT_PROBLEMS(AuditWith(sheet({2, 3, 3}), none), {3, CheckId::kDealDealer});
  EXPECT_CLEAN(AuditWith(sheet({0, 1, 2}), Classic()));
  EXPECT_PROBLEMS(AuditWith(sheet({0, 3, 0}), Classic()), {3, CheckId::kDealDealer});
}

TEST(DealOrder, SelfPlayFollowsDealerRotationAndTheAuditAgrees) {
  RulesetChoice right = ClassicWith([](Rules& r) { r.dealer_rotation = DealerRotation::kRight; });
  const std::string log = SelfPlay(right, 11);
  const std::vector<std::string> lines = SplitLines(log);
  EXPECT_GT(LineWith(lines, R"("hand":2,"dealer":3)"), 0);
  EXPECT_CLEAN(AuditWith(log, right));
  // Under classic the second deal's dealer is wrong.
  FileReport classic = AuditWith(log, Classic());
  EXPECT_EQ(test::Problems(classic).at(0),
            (test::Found{LineWith(lines, R"("hand":2,"dealer":3)"), CheckId::kDealDealer}))
      << test::Dump(classic);
}

TEST(DealOrder, FirstPlayerDealer) {
  RulesetChoice dealer = ClassicWith([](Rules& r) { r.first_player = FirstPlayer::kDealer; });
  Position pos(dealer.rules, *dealer.hooks, {0, 0});
  DealMove d;
  d.dealer = 2;
  EXPECT_EQ(dealer.rules.FirstPlayerOf(2), 2);
  EXPECT_EQ(ClassicWith([](Rules& r) { r.first_player = FirstPlayer::kDealerRight; })
                .rules.FirstPlayerOf(0),
            3);
  EXPECT_EQ(Rules().FirstPlayerOf(3), 0);
  const std::string log = SelfPlay(dealer, 5);
  EXPECT_CLEAN(AuditWith(log, dealer));
  // Under classic, the dealer's own first move is out of turn: the first
  // move of the log (line 3, after the header and the deal) is the finding.
  FileReport classic = AuditWith(log, Classic());
  ASSERT_FALSE(test::Problems(classic).empty());
  EXPECT_EQ(test::Problems(classic)[0], (test::Found{3, CheckId::kTurnOrder}))
      << test::Dump(classic);
}

TEST(DealOrder, NoUpcardThePileStartsEmpty) {
  RulesetChoice none = ClassicWith([](Rules& r) { r.upcards = 0; });
  const std::string log = SelfPlay(none, 3);
  const std::vector<std::string> lines = SplitLines(log);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[1].find("\"upcard\":[]"), std::string::npos) << lines[1];
  EXPECT_CLEAN(AuditWith(log, none));
  // Classic turns one: a deal without it is a finding.
  FileReport classic = AuditWith(log, Classic());
  ASSERT_FALSE(test::Problems(classic).empty());
  EXPECT_EQ(test::Problems(classic)[0], (test::Found{2, CheckId::kDealUpcard}))
      << test::Dump(classic);
  // And a ruleset without upcards refuses a deal with one.
  FileReport upcard = AuditWith(SelfPlay(Classic(), 3), none);
  ASSERT_FALSE(test::Problems(upcard).empty());
  EXPECT_EQ(test::Problems(upcard)[0], (test::Found{2, CheckId::kDealUpcard}));
}

// ===========================================================================
// The initial meld's minimum

TEST(InitialMinimum, MinimumByOwnLeadingTrailingTotal) {
  // Side 0 has 0 points, side 1 has 3000.
  Rules own;
  Position p_own(own, DefaultHooks(), {0, 3000});
  EXPECT_EQ(p_own.Minimum(0), 50);
  EXPECT_EQ(p_own.Minimum(1), 120);
  Rules leading;
  leading.minimum_by = MinimumBy::kLeadingTotal;
  Position p_lead(leading, DefaultHooks(), {0, 3000});
  EXPECT_EQ(p_lead.Minimum(0), 120);
  EXPECT_EQ(p_lead.Minimum(1), 120);
  Rules trailing;
  trailing.minimum_by = MinimumBy::kTrailingTotal;
  Position p_trail(trailing, DefaultHooks(), {0, 3000});
  EXPECT_EQ(p_trail.Minimum(0), 50);
  EXPECT_EQ(p_trail.Minimum(1), 50);
}

TEST(InitialMinimum, MinimumCountHookGetsTheSideAndEveryTotal) {
  RulesetChoice rs = LuaRuleset("min_ctx", R"(return {
  extends = "classic",
  hooks = {
    minimum_count = function(total, rules, ctx)
      if ctx.side == 1 then return 77 end
      return math.max(ctx.totals[1], ctx.totals[2]) // 100 + total
    end,
  },
})");
  Position pos(rs.rules, *rs.hooks, {40, 2500});
  EXPECT_EQ(pos.Minimum(0), 65);
  EXPECT_EQ(pos.Minimum(1), 77);
}

}  // namespace
}  // namespace canasta
