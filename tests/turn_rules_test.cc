// House rules v2 of the turn (issue 9): the hooks may_meld, may_discard and
// may_go_out, and the parameters black_three_meld = "any_time",
// last_discard_goes_out, ask_to_go_out, out_answer_binds and
// out_without_asking_penalty. Each is replayed both ways on a small log with
// the exact findings asserted; then the move generator and self-play under
// rulesets that use them.
//
// Seats: dealer 0, so seat 1 plays first; sides {0, 2} and {1, 3}. The
// logs are built with tests/test_util.h.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <unistd.h>

#include "core/legal_moves.h"
#include "core/rules.h"
#include "lint/checks.h"
#include "replay/auditor.h"
#include "replay/simulate.h"
#include "scripting/ruleset.h"
#include "tests/test_util.h"

namespace canasta {
namespace {

namespace fs = std::filesystem;
using test::DealSpec;
using test::Found;
using test::Log;
using test::M;

// A ruleset written to a file and loaded as the command line loads one.
RulesetChoice House(const std::string& body) {
  static int n = 0;
  const fs::path path = fs::temp_directory_path() /
                        ("canasta-turn-" + std::to_string(getpid()) + "-" +
                         std::to_string(n++) + ".lua");
  std::ofstream(path) << "return {\n  name = \"house\",\n  extends = \"classic\",\n" << body
                      << "}\n";
  std::variant<canasta::Ruleset, LuaError> loaded = LoadRuleset(path.string());
  fs::remove(path);
  if (auto* e = std::get_if<LuaError>(&loaded)) {
    ADD_FAILURE() << e->ToString();
    RulesetChoice c;
    c.hooks = std::shared_ptr<const RuleHooks>(&DefaultHooks(), [](const RuleHooks*) {});
    return c;
  }
  return std::get<canasta::Ruleset>(loaded).Choose();
}

std::string LoadError(const std::string& body) {
  const fs::path path = fs::temp_directory_path() /
                        ("canasta-turn-bad-" + std::to_string(getpid()) + ".lua");
  std::ofstream(path) << "return {\n  name = \"house\",\n  extends = \"classic\",\n" << body
                      << "}\n";
  std::variant<canasta::Ruleset, LuaError> loaded = LoadRuleset(path.string());
  fs::remove(path);
  if (auto* e = std::get_if<LuaError>(&loaded)) return e->ToString();
  return "";
}

AuditOptions OptionsFor(const RulesetChoice& c) {
  AuditOptions o;
  o.forced_ruleset = c.name;
  o.resolve = [c](const std::string&, const std::string&, RulesetChoice* out, std::string*) {
    *out = c;
    return true;
  };
  return o;
}

FileReport AuditWith(const Log& log, const RulesetChoice& c) {
  std::istringstream in(log.str());
  return AuditStream(in, "turn.jsonl", OptionsFor(c));
}

const RulesetChoice& Classic() {
  static const RulesetChoice c = House("");
  return c;
}

// --- Small logs ---

// Seat 1 holds seven kings and four queens and draws 5S: it melds both
// (a canasta of kings) and goes out by discarding 5S.
struct OutByDiscard {
  Log log;
  int draw = 0, ask = 0, answer = 0, meld = 0, discard = 0;
};
OutByDiscard MakeOutByDiscard(bool ask = false, bool yes = true) {
  OutByDiscard o;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "QC"}};
  d.stock = {"5S"};
  o.log.Deal(d);
  o.draw = o.log.Draw(1);
  if (ask) {
    o.ask = o.log.AskOut(1);
    o.answer = o.log.Answer(3, yes);
  }
  o.meld = o.log.Meld(1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD", "QC"}});
  o.discard = o.log.Discard(1, "5S");
  return o;
}

// The same hand draws the second QS and goes out by melding every card.
struct OutByMeld {
  Log log;
  int draw = 0, meld = 0;
};
OutByMeld MakeOutByMeld() {
  OutByMeld o;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QH", "QD", "QC"}};
  d.stock = {"QS"};
  o.log.Deal(d);
  o.draw = o.log.Draw(1);
  o.meld = o.log.Meld(
      1, {{"KS", "KS", "KH", "KH", "KD", "KD", "KC"}, {"QS", "QH", "QD", "QC", "QS"}});
  return o;
}

// Seat 1 goes out by a discard with no canasta: queens, jacks and tens.
struct OutNoCanasta {
  Log log;
  int meld = 0, discard = 0;
};
OutNoCanasta MakeOutNoCanasta() {
  OutNoCanasta o;
  DealSpec d;
  d.hands = {{}, {"QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC", "TS", "TH", "TD"}};
  d.stock = {"5S"};
  o.log.Deal(d);
  o.log.Draw(1);
  o.meld = o.log.Meld(1, {{"QS", "QH", "QD", "QC"}, {"JS", "JH", "JD", "JC"}, {"TS", "TH", "TD"}});
  o.discard = o.log.Discard(1, "5S");
  return o;
}

// Seat 1 takes the pile (8C) with a natural pair, melds kings, discards
// and keeps three queens.
struct TakeAndMeld {
  Log log;
  int take = 0, meld = 0, discard = 0;
};
TakeAndMeld MakeTakeAndMeld() {
  TakeAndMeld o;
  DealSpec d;
  d.hands = {{}, {"8S", "8H", "KS", "KS", "KH", "KH", "KD", "QS", "QH", "QD", "5S"}};
  o.log.Deal(d);
  o.take = o.log.Take(1, "8C", {"8S", "8H"});
  o.meld = o.log.Meld(1, {{"KS", "KS", "KH", "KH", "KD"}});
  o.discard = o.log.Discard(1, "5S");
  return o;
}

// Seat 1 melds three black threes and kings, and discards without going out.
struct BlackThrees {
  Log log;
  int meld = 0, discard = 0;
};
BlackThrees MakeBlackThrees(bool with_wild) {
  BlackThrees o;
  DealSpec d;
  d.hands = {{}, {"3S", "3S", with_wild ? "2C" : "3C", "KS", "KS", "KH", "KH", "KD", "QS", "QH",
                  "5S"}};
  o.log.Deal(d);
  o.log.Draw(1);
  o.meld = o.log.Meld(1, {{"3S", "3S", with_wild ? "2C" : "3C"}, {"KS", "KS", "KH", "KH", "KD"}});
  o.discard = o.log.Discard(1, "5S");
  return o;
}

// ===========================================================================
// may_meld

TEST(MayMeldTest, RefusesTheMeldItNamesAndAllowsTheOthers) {
  const RulesetChoice c = House(R"(  hooks = {
    may_meld = function(ctx, rules)
      if ctx.rank == "Q" then return "no melds of queens at this table" end
    end,
  },
)");
  OutByDiscard o = MakeOutByDiscard();
  FileReport r = AuditWith(o.log, c);
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kMeldHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kMeldHouseRule), "no melds of queens at this table");
  EXPECT_CLEAN(AuditWith(o.log, Classic()));
}

TEST(MayMeldTest, SeesTheMeldAfterThePlay) {
  // The hook reports what it sees for the queens; kings pass.
  const RulesetChoice c = House(R"(  hooks = {
    may_meld = function(ctx, rules)
      if ctx.rank ~= "Q" then return nil end
      return string.format("%s size %d laid %d naturals %d new %s canasta %s opening %s pile %s",
        ctx.rank, ctx.size, #ctx.cards, ctx.naturals, tostring(ctx.is_new),
        tostring(ctx.is_canasta), tostring(ctx.opening), tostring(ctx.from_pile))
    end,
  },
)");
  OutByMeld o = MakeOutByMeld();
  FileReport r = AuditWith(o.log, c);
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kMeldHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kMeldHouseRule),
            "Q size 5 laid 5 naturals 5 new true canasta false opening true pile false");
}

TEST(MayMeldTest, IsAskedForTheMeldAPileTakeMakes) {
  const RulesetChoice c = House(R"(  hooks = {
    may_meld = function(ctx, rules)
      if ctx.from_pile then return "the pile is taken only onto a meld of " .. ctx.rank .. "s" end
    end,
  },
)");
  TakeAndMeld o = MakeTakeAndMeld();
  EXPECT_PROBLEMS(AuditWith(o.log, c), {o.take, CheckId::kMeldHouseRule});
  EXPECT_CLEAN(AuditWith(o.log, Classic()));
}

TEST(MayMeldTest, TheV1HookStillWorksBeside) {
  const RulesetChoice c = House(R"(  hooks = {
    extra_meld_check = function(shape, rules)
      if shape.rank == "K" then return "no kings" end
    end,
    may_meld = function(ctx, rules)
      if ctx.rank == "Q" then return "no queens" end
    end,
  },
)");
  OutByDiscard o = MakeOutByDiscard();
  FileReport r = AuditWith(o.log, c);
  // One finding per meld: the kings by the v1 hook, the queens by the v2.
  EXPECT_PROBLEMS(r, {o.meld, CheckId::kMeldHouseRule}, {o.meld, CheckId::kMeldHouseRule});
}

// ===========================================================================
// may_discard

TEST(MayDiscardTest, RefusesADiscardAndSeesTheLastCard) {
  const RulesetChoice c = House(R"(  hooks = {
    may_discard = function(ctx, rules)
      if ctx.last_card then return "nobody goes out on a " .. ctx.card end
    end,
  },
)");
  OutByDiscard o = MakeOutByDiscard();
  FileReport r = AuditWith(o.log, c);
  EXPECT_PROBLEMS(r, {o.discard, CheckId::kDiscardHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDiscardHouseRule), "nobody goes out on a 5S");
  // A discard that keeps cards is not the last card: allowed.
  TakeAndMeld t = MakeTakeAndMeld();
  EXPECT_CLEAN(AuditWith(t.log, c));
}

TEST(MayDiscardTest, FalseRefusesWithTheHooksName) {
  const RulesetChoice c = House(R"(  hooks = {
    may_discard = function(ctx, rules) return ctx.card ~= "5S" end,
  },
)");
  TakeAndMeld t = MakeTakeAndMeld();
  FileReport r = AuditWith(t.log, c);
  EXPECT_PROBLEMS(r, {t.discard, CheckId::kDiscardHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kDiscardHouseRule),
            "the ruleset's may_discard refuses this");
}

// ===========================================================================
// may_go_out

TEST(MayGoOutTest, NilKeepsTheEnginesVerdict) {
  const RulesetChoice c = House(R"(  hooks = {
    may_go_out = function(ctx, rules) return nil end,
  },
)");
  OutNoCanasta o = MakeOutNoCanasta();
  EXPECT_PROBLEMS(AuditWith(o.log, c), {o.discard, CheckId::kOutWithoutCanastas});
  EXPECT_PROBLEMS(AuditWith(o.log, Classic()), {o.discard, CheckId::kOutWithoutCanastas});
  EXPECT_CLEAN(AuditWith(MakeOutByDiscard().log, c));
}

TEST(MayGoOutTest, TrueDropsTheCanastasRefusal) {
  const RulesetChoice c = House(R"(  hooks = {
    may_go_out = function(ctx, rules) return true end,
  },
)");
  EXPECT_CLEAN(AuditWith(MakeOutNoCanasta().log, c));
}

TEST(MayGoOutTest, ARefusalIsOneOutHouseRuleFinding) {
  // The engine's verdict is `default`; handing it back refuses with its words.
  const RulesetChoice c = House(R"(  hooks = {
    may_go_out = function(ctx, rules)
      if ctx.default ~= true then return "house: " .. ctx.default end
      if ctx.natural_canastas < 1 then return "going out needs a natural canasta" end
    end,
  },
)");
  OutNoCanasta none = MakeOutNoCanasta();
  FileReport r = AuditWith(none.log, c);
  EXPECT_PROBLEMS(r, {none.discard, CheckId::kOutHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutHouseRule),
            "house: seat 1 goes out with 0 canastas; the side needs 1");
  // Seven kings, natural: allowed.
  EXPECT_CLEAN(AuditWith(MakeOutByDiscard().log, c));
}

TEST(MayGoOutTest, SeesHowThePlayerGoesOut) {
  const RulesetChoice c = House(R"(  hooks = {
    may_go_out = function(ctx, rules)
      return string.format("by %s canastas %d natural %d asked %s answer %s concealed %s",
        ctx.by, ctx.canastas, ctx.natural_canastas, tostring(ctx.asked), tostring(ctx.answer),
        tostring(ctx.concealed))
    end,
  },
)");
  OutByMeld m = MakeOutByMeld();
  FileReport r = AuditWith(m.log, c);
  EXPECT_PROBLEMS(r, {m.meld, CheckId::kOutHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutHouseRule),
            "by meld canastas 1 natural 1 asked false answer nil concealed true");
  OutByDiscard d = MakeOutByDiscard(/*ask=*/true, /*yes=*/true);
  r = AuditWith(d.log, c);
  EXPECT_PROBLEMS(r, {d.discard, CheckId::kOutHouseRule});
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutHouseRule),
            "by discard canastas 1 natural 1 asked true answer true concealed true");
}

// ===========================================================================
// black_three_meld = "any_time"

TEST(BlackThreeAnyTimeTest, BlackThreesMeldInAnyTurnAsThreeOrFourWithNoWild) {
  const RulesetChoice any = House("  params = { black_three_meld = \"any_time\" },\n");
  BlackThrees plain = MakeBlackThrees(/*with_wild=*/false);
  EXPECT_CLEAN(AuditWith(plain.log, any));
  // The classic game melds them only when going out (000 §8).
  EXPECT_PROBLEMS(AuditWith(plain.log, Classic()), {plain.meld, CheckId::kMeldBlackThree});
  BlackThrees wild = MakeBlackThrees(/*with_wild=*/true);
  EXPECT_PROBLEMS(AuditWith(wild.log, any), {wild.meld, CheckId::kMeldBlackThree});
}

// ===========================================================================
// last_discard_goes_out

TEST(LastDiscardGoesOutTest, FalseRefusesGoingOutByDiscardButNotByMeld) {
  const RulesetChoice c = House("  params = { last_discard_goes_out = false },\n");
  OutByDiscard d = MakeOutByDiscard();
  EXPECT_PROBLEMS(AuditWith(d.log, c), {d.discard, CheckId::kOutByDiscard});
  EXPECT_CLEAN(AuditWith(d.log, Classic()));
  EXPECT_CLEAN(AuditWith(MakeOutByMeld().log, c));
}

// ===========================================================================
// ask_to_go_out, out_answer_binds, out_without_asking_penalty

TEST(AskToGoOutTest, RequiredNeedsTheQuestion) {
  const RulesetChoice c = House("  params = { ask_to_go_out = \"required\" },\n");
  OutByDiscard silent = MakeOutByDiscard();
  EXPECT_PROBLEMS(AuditWith(silent.log, c), {silent.discard, CheckId::kOutWithoutAsking});
  OutByMeld meld = MakeOutByMeld();
  EXPECT_PROBLEMS(AuditWith(meld.log, c), {meld.meld, CheckId::kOutWithoutAsking});
  EXPECT_CLEAN(AuditWith(MakeOutByDiscard(/*ask=*/true).log, c));
  EXPECT_CLEAN(AuditWith(silent.log, Classic()));
}

TEST(AskToGoOutTest, NotAllowedRefusesTheQuestion) {
  const RulesetChoice c = House("  params = { ask_to_go_out = \"not_allowed\" },\n");
  OutByDiscard asked = MakeOutByDiscard(/*ask=*/true);
  FileReport r = AuditWith(asked.log, c);
  EXPECT_PROBLEMS(r, {asked.ask, CheckId::kOutAskTiming});
  EXPECT_EQ(test::MessageOf(r, CheckId::kOutAskTiming),
            "this ruleset does not allow asking \"may I go out?\" at any time");
  EXPECT_CLEAN(AuditWith(asked.log, Classic()));
  EXPECT_CLEAN(AuditWith(MakeOutByDiscard().log, c));
}

TEST(OutAnswerBindsTest, FalseMakesTheAnswerAdvice) {
  const RulesetChoice c = House("  params = { out_answer_binds = false },\n");
  // A no, and the player goes out all the same.
  OutByDiscard no = MakeOutByDiscard(/*ask=*/true, /*yes=*/false);
  EXPECT_CLEAN(AuditWith(no.log, c));
  EXPECT_PROBLEMS(AuditWith(no.log, Classic()), {no.discard, CheckId::kOutAnswerBinding});
  // A yes, and the player does not go out.
  Log log;
  DealSpec d;
  d.hands = {{}, {"KS", "KS", "KH", "KH", "KD", "QS", "QH", "QD", "5S", "6S", "7S"}};
  log.Deal(d);
  log.Draw(1);
  log.AskOut(1);
  log.Answer(3, true);
  log.Meld(1, {{"KS", "KS", "KH", "KH", "KD"}, {"QS", "QH", "QD"}});
  const int discard = log.Discard(1, "5S");
  EXPECT_CLEAN(AuditWith(log, c));
  EXPECT_PROBLEMS(AuditWith(log, Classic()), {discard, CheckId::kOutAnswerBinding});
}

int PenaltiesOf(const FileReport& r, int side) {
  if (r.games.empty() || r.games[0].hands.empty()) return 1;
  return r.games[0].hands[0].breakdown[size_t(side)].penalties;
}

TEST(OutWithoutAskingPenaltyTest, TheSideLosesThePointsUnlessThePlayerAsked) {
  const RulesetChoice c = House("  params = { out_without_asking_penalty = 150 },\n");
  OutByDiscard silent = MakeOutByDiscard();
  silent.log.EndHand(1);
  FileReport r = AuditWith(silent.log, c);
  EXPECT_CLEAN(r);
  EXPECT_EQ(PenaltiesOf(r, 1), -150) << test::Dump(r);
  EXPECT_EQ(PenaltiesOf(r, 0), 0);
  EXPECT_EQ(PenaltiesOf(AuditWith(silent.log, Classic()), 1), 0);
  OutByDiscard asked = MakeOutByDiscard(/*ask=*/true);
  asked.log.EndHand(1);
  EXPECT_EQ(PenaltiesOf(AuditWith(asked.log, c), 1), 0);
}

TEST(TurnParamsTest, InconsistentValuesAreRefusedNamingBoth) {
  EXPECT_NE(LoadError("  params = { last_discard_goes_out = false, discard_required_to_go_out "
                      "= true },\n")
                .find("last_discard_goes_out = false and discard_required_to_go_out = true"),
            std::string::npos);
  EXPECT_NE(LoadError("  params = { ask_to_go_out = \"not_allowed\", "
                      "out_without_asking_penalty = 100 },\n")
                .find("out_without_asking_penalty (100) must be 0 when ask_to_go_out"),
            std::string::npos);
  EXPECT_EQ(LoadError("  params = { ask_to_go_out = \"required\", out_without_asking_penalty "
                      "= 100 },\n"),
            "");
}

// ===========================================================================
// The move generator and self-play

// The hooks of the rulesets below refuse moves the classic game allows.
const char kHouseHooks[] = R"(  hooks = {
    may_meld = function(ctx, rules)
      if ctx.rank == "9" then return "no melds of nines" end
      if ctx.from_pile and ctx.rank == "K" then return "no kings from the pile" end
    end,
    may_discard = function(ctx, rules)
      if canasta.rank(ctx.card) ~= "5" then return nil end
      for _, card in ipairs(ctx.hand) do
        if canasta.rank(card) ~= "5" then return "no five is discarded while other cards are held" end
      end
    end,
    may_go_out = function(ctx, rules)
      if ctx.canastas < 2 then return "two canastas to go out" end
      return true
    end,
  },
)";

TEST(TurnRulesGeneratorTest, OffersNoMoveAHookRefuses) {
  const RulesetChoice c = House(kHouseHooks);
  // Seat 1 holds nines, fives, kings: the generator offers no meld of nines
  // and no discard of a five, and every move it offers passes the check.
  Position pos(c.rules, *c.hooks, {0, 0});
  DealMove deal;
  deal.dealer = 0;
  deal.hands.resize(4);
  deal.hands[1] = test::Cs({"9S", "9H", "9D", "5S", "5H", "KS", "KH", "KD", "KC", "AS", "AH"});
  for (int s : {0, 2})
    deal.hands[size_t(s)] =
        test::Cs({"4S", "4H", "4D", "4C", "6S", "6H", "6D", "6C", "7S", "7H", "7D"});
  deal.hands[3] = test::Cs({"TS", "TH", "TD", "TC", "JS", "JH", "JD", "JC", "QH", "QD", "8D"});
  deal.upcards = test::Cs({"8C"});
  ASSERT_TRUE(pos.Deal(deal).empty());
  ASSERT_TRUE(pos.Play(DrawMove{1, test::Cs({"AD"}), 0}).empty());
  std::vector<Move> moves = LegalMoves(pos);
  int melds = 0, discards = 0;
  for (const Move& m : moves) {
    EXPECT_TRUE(pos.Check(m).empty()) << PlayKey(m);
    if (auto* x = std::get_if<MeldMove>(&m)) {
      ++melds;
      for (const MeldPart& p : x->parts)
        for (Card card : p.cards) EXPECT_NE(card.rank(), Rank::kNine) << PlayKey(m);
    }
    if (auto* d = std::get_if<DiscardMove>(&m)) {
      ++discards;
      EXPECT_NE(d->card.rank(), Rank::kFive) << PlayKey(m);
    }
  }
  EXPECT_GT(melds, 0);
  EXPECT_GT(discards, 0);
  // The refused moves are refused by the check itself.
  EXPECT_FALSE(pos.Check(DiscardMove{1, test::C("5S"), 0}).empty());
  MeldMove nines{1, {MeldPart{std::nullopt, std::nullopt, test::Cs({"9S", "9H", "9D"})}}, 0};
  EXPECT_FALSE(pos.Check(nines).empty());
}

std::vector<Finding> AllFindings(const FileReport& r) {
  std::vector<Finding> all = r.findings;
  for (const GameReport& g : r.games) all.insert(all.end(), g.findings.begin(), g.findings.end());
  return all;
}

// Plays `games` games and audits them; returns the logs, joined.
std::string ExpectSelfPlayClean(const RulesetChoice& c, int games, const char* what) {
  std::string all;
  int finished = 0;
  for (int i = 0; i < games; ++i) {
    SimulateOptions so;
    so.bots = i % 2 ? std::vector<std::string>{"random", "sensible"}
                    : std::vector<std::string>{"sensible"};
    std::stringstream log;
    finished += SimulateGame(c, GameSeed(909, i), so, log).finished;
    all += log.str();
    std::istringstream in(log.str());
    FileReport report = AuditStream(in, "selfplay", OptionsFor(c));
    std::vector<Finding> findings = AllFindings(report);
    EXPECT_TRUE(findings.empty()) << what << " game " << i << ": line " << findings[0].line
                                  << ": " << findings[0].message << " ["
                                  << GetCheck(findings[0].id).name << "]";
  }
  EXPECT_EQ(finished, games) << what << ": every game reaches the target score";
  return all;
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(TurnRulesSelfPlayTest, HooksAndRequiredQuestionAuditClean) {
  RulesetChoice c = House(std::string(kHouseHooks) +
                            "  params = { black_three_meld = \"any_time\", "
                            "black_three_blocks_until_covered = false, "
                            "last_discard_goes_out = false, ask_to_go_out = \"required\" },\n");
  const std::string logs =
      ExpectSelfPlayClean(c, 4, "hooks, any_time, last_discard_goes_out, required");
  // The games ask, and black threes are melded in turns that do not go out.
  EXPECT_GT(Count(logs, "\"type\":\"ask_out\""), 0);
  EXPECT_GT(Count(logs, "[\"3S\",\"3S\""), 0);
}

TEST(TurnRulesSelfPlayTest, AdviceAnswersAndPenaltyAuditClean) {
  RulesetChoice c = House(
      "  params = { out_answer_binds = false, out_without_asking_penalty = 50 },\n");
  ExpectSelfPlayClean(c, 10, "out_answer_binds, penalty");
  RulesetChoice n = House("  params = { ask_to_go_out = \"not_allowed\" },\n");
  ExpectSelfPlayClean(n, 10, "not_allowed");
}

}  // namespace
}  // namespace canasta
