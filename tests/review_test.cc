// The game review's evaluation (review/evaluate.h): scripted positions where
// one alternative is clearly best, determinism, and independence from the
// number of threads; and `canasta review` on a sample.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/legal_moves.h"
#include "core/position.h"
#include "review/evaluate.h"

namespace canasta {
namespace {

Card C(const char* text) { return *ParseCard(text); }

std::vector<Card> Cards(std::initializer_list<const char*> texts) {
  std::vector<Card> out;
  for (const char* t : texts) out.push_back(C(t));
  return out;
}

// A classic four-handed deal: the hands given, completed from the rest of the
// pack (plain cards: no wild card, no three), the upcard, then the stock
// with `stock_top` first.
DealMove MakeDeal(const Rules& r, int dealer, std::vector<std::vector<Card>> hands, Card upcard,
                  const std::vector<Card>& stock_top) {
  CardCounts left;
  for (int i = 0; i < kNumFaces; ++i) left.Add(Card::FromIndex(i), r.copies(Card::FromIndex(i)));
  for (const auto& h : hands)
    for (Card c : h) EXPECT_TRUE(left.Remove(c)) << ToString(c);
  EXPECT_TRUE(left.Remove(upcard));
  for (Card c : stock_top) EXPECT_TRUE(left.Remove(c)) << ToString(c);
  std::vector<Card> rest = left.ToVector();
  // Plain cards first, from the high ranks down, for the hands.
  std::stable_partition(rest.begin(), rest.end(),
                        [](Card c) { return !c.is_wild() && !c.is_three(); });
  std::reverse(rest.begin(), rest.begin() + std::count_if(rest.begin(), rest.end(), [](Card c) {
                               return !c.is_wild() && !c.is_three();
                             }));
  hands.resize(size_t(r.num_players));
  size_t next = 0;
  for (auto& h : hands)
    while (int(h.size()) < r.hand_size) h.push_back(rest[next++]);
  DealMove d;
  d.dealer = dealer;
  d.hands = hands;
  d.upcards = {upcard};
  std::vector<Card> stock = stock_top;
  stock.insert(stock.end(), rest.begin() + long(next), rest.end());
  d.stock = stock;
  return d;
}

// A hand played move by move, each move checked and recorded for the review.
class Script {
 public:
  Script(const DealMove& deal, std::vector<int> totals)
      : pos_(rules_, hooks_, totals), history_(rules_, hooks_, totals, deal) {
    EXPECT_TRUE(pos_.Deal(deal).empty());
  }
  void Play(const Move& m) {
    Position before = pos_;
    TaggedViolations v = pos_.Play(m);
    EXPECT_TRUE(v.empty()) << GroupKey(m) << ": " << v[0].violation.message;
    history_.Record(m, before, pos_);
  }
  DrawMove Draw() const { return DrawMove{pos_.current_player(), pos_.StockTop(1), 0}; }
  // Draws, and discards `card` (the card drawn when none is given).
  void DrawDiscard(std::optional<Card> card = std::nullopt) {
    DrawMove d = Draw();
    Play(d);
    Play(DiscardMove{d.player, card ? *card : d.cards[0], 0});
  }
  const Position& pos() const { return pos_; }
  const HandHistory& history() const { return history_; }
  DecisionValue Evaluate(const Move& played, const ReviewSettings& s, uint64_t key = 7) const {
    return EvaluateDecision(history_, pos_, played, key, s);
  }

 private:
  Rules rules_;
  RuleHooks hooks_;
  Position pos_;
  HandHistory history_;
};

ReviewSettings Settings(int rollouts = 32, int jobs = 1) {
  ReviewSettings s;
  s.rollouts = rollouts;
  s.max_rollouts = rollouts;
  s.seed = 42;
  s.jobs = jobs;
  return s;
}

const AlternativeValue* Find(const DecisionValue& v, const std::string& key) {
  for (const AlternativeValue& a : v.alternatives)
    if (a.key == key) return &a;
  return nullptr;
}

// Ann (seat 0) is at 4,900: one more good hand wins the game (000 §19). Her
// first turn holds seven kings, QS QS QH with the joker, and 5C: laying out
// both melds (150 >= the minimum of 120, 000 §8) and discarding 5C goes out
// with a natural canasta; anything else stays in.
Script GoingOut() {
  Rules r;
  DealMove d =
      MakeDeal(r, 3, {Cards({"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "JK", "5C"})},
               C("9D"), Cards({"QH"}));
  Script s(d, {4900, 1200});
  s.Play(s.Draw());
  return s;
}

// One counter for the review's and the tree's decisions (their seeds): a
// draw starts a turn; a play phase's first meld or discard starts it.
TEST(DecisionCounter, CountsDrawsMeldsAndDiscardsInTurns) {
  Rules r;
  RuleHooks hooks;
  DealMove d =
      MakeDeal(r, 3, {Cards({"KS", "KS", "KH", "KH", "KD", "KD", "KC", "QS", "QS", "JK", "5C"})},
               C("9D"), Cards({"QH", "8C"}));
  Position pos(r, hooks, {0, 0});
  ASSERT_TRUE(pos.Deal(d).empty());
  DecisionCounter counter;
  auto play = [&](const Move& m) {
    const CountedMove c = counter.Count(pos.current_player(), m, pos);
    const TaggedViolations v = pos.Play(m);
    EXPECT_TRUE(v.empty()) << GroupKey(m) << ": " << v[0].violation.message;
    return c;
  };
  // The hand's first draw is made before play has begun (Phase::kBeforePlay,
  // readings R23): it starts turn 1 but is not a decision.
  const CountedMove draw = play(DrawMove{0, pos.StockTop(1), 0});
  EXPECT_EQ(draw.index, -1);
  EXPECT_EQ(draw.turn, 1);
  EXPECT_TRUE(draw.draws);
  EXPECT_FALSE(draw.starts_play || draw.in_play);
  const CountedMove meld =
      play(MeldMove{0, {MeldPart{{}, {}, Cards({"KS", "KS", "KH", "KH", "KD", "KD", "KC"})}}, 0});
  EXPECT_EQ(meld.index, 0);
  EXPECT_EQ(meld.turn, 1);
  EXPECT_TRUE(meld.starts_play && meld.in_play);
  EXPECT_FALSE(meld.draws);
  const CountedMove discard = play(DiscardMove{0, C("5C"), 0});
  EXPECT_EQ(discard.index, 1);
  EXPECT_EQ(discard.turn, 1);
  EXPECT_TRUE(discard.in_play);
  EXPECT_FALSE(discard.starts_play);
  const CountedMove next = play(DrawMove{1, pos.StockTop(1), 0});
  EXPECT_EQ(next.index, 2);
  EXPECT_EQ(next.turn, 2);
  EXPECT_TRUE(next.draws);
  EXPECT_FALSE(next.in_play);
  const CountedMove second = play(DiscardMove{1, pos.hand(1).ToVector()[0], 0});
  EXPECT_EQ(second.index, 3);
  EXPECT_TRUE(second.starts_play && second.in_play);
  // The same key for the same decision, another for the next.
  EXPECT_EQ(DecisionKey(1, 2, 3), MixSeed(1, 2, 3));
  EXPECT_NE(DecisionKey(1, 2, 3), DecisionKey(1, 2, 4));
}

MeldMove GoingOutMeld() {
  return MeldMove{0,
                  {MeldPart{{}, {}, Cards({"KS", "KS", "KH", "KH", "KD", "KD", "KC"})},
                   MeldPart{{}, {}, Cards({"QS", "QS", "QH", "JK"})}},
                  0};
}

TEST(ReviewEvaluate, GoingOutWithTheGameWonBeatsStayingIn) {
  Script s = GoingOut();
  // Staying in: discarding 5C and keeping the melds in hand.
  DecisionValue v = s.Evaluate(DiscardMove{0, C("5C"), 0}, Settings());
  ASSERT_EQ(v.status, DecisionStatus::kEvaluated);
  // The melds that lead out are ranked first; staying in lost hundreds.
  const AlternativeValue& best = v.alternatives[0];
  EXPECT_TRUE(std::holds_alternative<MeldMove>(best.move)) << best.words;
  const AlternativeValue* stay = Find(v, "discard 5");
  ASSERT_NE(stay, nullptr);
  EXPECT_TRUE(stay->played);
  EXPECT_GT(v.lost, kMistake) << best.words;
  EXPECT_GT(v.lost, 3 * v.lost_se);
  EXPECT_NE(LossLabel(v.lost, v.lost_se), "");
}

TEST(ReviewEvaluate, TheMovePlayedIsGroupedWithItsEquivalent) {
  Script s = GoingOut();
  DecisionValue v = s.Evaluate(GoingOutMeld(), Settings(8));
  ASSERT_EQ(v.status, DecisionStatus::kEvaluated);
  int played = 0;
  for (const AlternativeValue& a : v.alternatives) played += a.played;
  EXPECT_EQ(played, 1);
  // Each key appears once.
  for (size_t i = 0; i < v.alternatives.size(); ++i)
    for (size_t j = i + 1; j < v.alternatives.size(); ++j)
      EXPECT_NE(v.alternatives[i].key, v.alternatives[j].key);
}

// Ann melded five kings and five queens on her first turn; Bob, Cat and Dan
// then discarded QC, QD and KD. The pile is not frozen: taking it onto the
// kings brings QC QD into her hand, with KC: both melds become canastas
// (000 §13). Drawing completes neither.
Script LargePile() {
  Rules r;
  DealMove d = MakeDeal(r, 3,
                        {Cards({"KS", "KS", "KH", "KH", "KD", "QS", "QS", "QH", "QH", "QD", "KC"}),
                         Cards({"QC"}), Cards({"QD"}), Cards({"KD"})},
                        C("9D"), Cards({"5H", "6S", "6S", "6H", "7S"}));
  Script s(d, {0, 0});
  s.Play(s.Draw());  // 5H
  s.Play(MeldMove{0,
                  {MeldPart{{}, {}, Cards({"KS", "KS", "KH", "KH", "KD"})},
                   MeldPart{{}, {}, Cards({"QS", "QS", "QH", "QH", "QD"})}},
                  0});
  s.Play(DiscardMove{0, C("5H"), 0});
  s.DrawDiscard(C("QC"));
  s.DrawDiscard(C("QD"));
  s.DrawDiscard(C("KD"));
  return s;
}

TEST(ReviewEvaluate, TakingALargeUnfrozenPileThatMakesTwoCanastasBeatsDrawing) {
  Script s = LargePile();
  ASSERT_EQ(s.pos().pile().size(), 5u);
  ASSERT_FALSE(s.pos().IsPileFrozenFor(0));
  DecisionValue v = s.Evaluate(s.Draw(), Settings());
  ASSERT_EQ(v.status, DecisionStatus::kEvaluated);
  std::string keys;
  for (const auto& a : v.alternatives) keys += a.key + "; ";
  // Two takes (the top card onto the kings, or with KC as well: 000 §13,
  // readings R18) and the draw, which is last.
  ASSERT_EQ(v.alternatives.size(), 3u) << keys;
  EXPECT_EQ(v.alternatives[0].key.rfind("pile ", 0), 0u) << keys;
  EXPECT_EQ(v.alternatives[1].key.rfind("pile ", 0), 0u) << keys;
  EXPECT_EQ(v.alternatives[2].key, "draw");
  EXPECT_TRUE(v.alternatives[2].played);
  EXPECT_GT(v.lost, 300);
  EXPECT_GT(v.lost, 3 * v.lost_se);
}

// Bob took a pile holding 8C 8D 8H 4C 4D (everyone saw them go to his hand);
// Cat froze the pile with a two, and it grew. Ann holds 3C and only 8s and
// 4s: any of them lets Bob take the frozen pile with his natural pair
// (000 §14); the black three blocks him.
Script FrozenPile() {
  Rules r;
  DealMove d = MakeDeal(
      r, 3,
      {Cards({"8S", "8S", "8D", "8C", "8H", "4H", "4H", "4S", "4S", "4C", "3C"}),
       Cards({"4C", "6H", "6D", "AS", "AH", "AD", "TS", "TS", "TH", "9S", "9C"}),
       Cards({"4D", "2C"}), Cards({"8H"})},
      C("8C"), Cards({"8D", "5S", "5D", "5C", "6C", "7H", "7D", "7C", "QS", "QH", "QD", "4D"}));
  Script s(d, {0, 0});
  s.DrawDiscard();         // Ann: 8D
  s.DrawDiscard(C("4C"));  // Bob (5S kept)
  s.DrawDiscard(C("4D"));  // Cat (5D kept)
  s.DrawDiscard(C("8H"));  // Dan (5C kept)
  s.DrawDiscard();         // Ann: 6C
  // Bob takes it with 6H 6D and lays out three aces: 15 + 60 >= 50.
  s.Play(TakePileMove{1, C("6C"), Cards({"6H", "6D"}), {}, {}, 0});
  s.Play(MeldMove{1, {MeldPart{{}, {}, Cards({"AS", "AH", "AD"})}}, 0});
  s.Play(DiscardMove{1, C("9S"), 0});
  s.Play(s.Draw());                    // Cat: 7H
  s.Play(DiscardMove{2, C("2C"), 0});  // freezes the pile
  s.DrawDiscard();                     // Dan: 7D
  s.DrawDiscard();                     // Ann: 7C
  s.Play(s.Draw());                    // Bob: QS
  s.Play(DiscardMove{1, C("9C"), 0});
  s.DrawDiscard();   // Cat: QH
  s.DrawDiscard();   // Dan: QD
  s.Play(s.Draw());  // Ann: 4D
  return s;
}

TEST(ReviewEvaluate, ADiscardThatHandsOverAFrozenPileLosesToABlackThree) {
  Script s = FrozenPile();
  ASSERT_TRUE(s.pos().IsPileFrozen());
  ASSERT_EQ(s.history().known(1).count(C("8C")), 1);
  ASSERT_EQ(s.history().known(1).count(C("4D")), 1);
  DecisionValue v = s.Evaluate(DiscardMove{0, C("8S"), 0}, Settings(160));
  ASSERT_EQ(v.status, DecisionStatus::kEvaluated);
  // First among the discards (melding the five 8s keeps them from Bob too).
  const AlternativeValue* first_discard = nullptr;
  for (const AlternativeValue& a : v.alternatives)
    if (!first_discard && std::holds_alternative<DiscardMove>(a.move)) first_discard = &a;
  ASSERT_NE(first_discard, nullptr);
  EXPECT_EQ(first_discard->key, "discard 3black");
  EXPECT_FALSE(v.alternatives[0].played);
  const AlternativeValue* eight = Find(v, "discard 8");
  const AlternativeValue* four = Find(v, "discard 4");
  ASSERT_NE(eight, nullptr);
  ASSERT_NE(four, nullptr);
  EXPECT_TRUE(eight->played);
  EXPECT_GT(v.lost, kInaccuracy);
  EXPECT_GT(v.lost, 2 * v.lost_se);
  EXPECT_GT(first_discard->mean - eight->mean, kInaccuracy);
  EXPECT_GT(first_discard->mean - four->mean, kMistake);
}

TEST(ReviewEvaluate, DeterminizationsKeepWhatTheViewerKnows) {
  Script s = FrozenPile();
  const Position& truth = s.pos();
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    std::optional<Position> w = s.history().Determinize(0, truth, rng);
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->hand(0).ToVector(), truth.hand(0).ToVector());
    EXPECT_EQ(w->pile(), truth.pile());
    EXPECT_EQ(w->stock_size(), truth.stock_size());
    for (int seat = 1; seat < 4; ++seat) EXPECT_EQ(w->hand(seat).total(), truth.hand(seat).total());
    // Bob still holds what he took with the pile.
    for (const char* c : {"8C", "8D", "8H", "4C", "4D"}) EXPECT_GE(w->hand(1).count(C(c)), 1) << c;
  }
  // The other hands do change from one determinization to the next.
  Rng a(1), b(2);
  EXPECT_NE(s.history().Determinize(0, truth, a)->hand(3).ToVector(),
            s.history().Determinize(0, truth, b)->hand(3).ToVector());
}

std::string Dump(const DecisionValue& v) {
  std::ostringstream o;
  o << int(v.status) << " " << v.played << " " << v.lost << " " << v.lost_se << " " << v.rollouts;
  for (const AlternativeValue& a : v.alternatives)
    o << "\n"
      << a.key << " " << a.members << " " << a.mean << " " << a.se << " " << a.played << " "
      << a.rollouts;
  return o.str();
}

TEST(ReviewEvaluate, SameSeedSameValuesWhateverTheJobs) {
  Script s = LargePile();
  const std::string one = Dump(s.Evaluate(s.Draw(), Settings(12, 1)));
  EXPECT_EQ(one, Dump(s.Evaluate(s.Draw(), Settings(12, 1))));
  EXPECT_EQ(one, Dump(s.Evaluate(s.Draw(), Settings(12, 2))));
  EXPECT_EQ(one, Dump(s.Evaluate(s.Draw(), Settings(12, 5))));
  ReviewSettings other = Settings(12, 1);
  other.seed = 43;
  EXPECT_NE(one, Dump(s.Evaluate(s.Draw(), other)));
}

TEST(ReviewEvaluate, MoreRolloutsWhileTheLossIsUncertain) {
  Script s = FrozenPile();
  ReviewSettings a = Settings(8);
  a.max_rollouts = 32;
  a.target_se = 0.001;  // never reached: all 32
  EXPECT_EQ(s.Evaluate(DiscardMove{0, C("8S"), 0}, a).rollouts, 32);
  a.target_se = 1e9;  // reached at once
  EXPECT_EQ(s.Evaluate(DiscardMove{0, C("8S"), 0}, a).rollouts, 8);
}

// Racing (docs/review.md): past the first batch, an alternative clearly
// behind the best gets no more rollouts; the move played and the best get
// every one, and the values do not depend on the threads.
TEST(ReviewEvaluate, RacingDropsTheClearlyWorseAndKeepsThePlayedAndTheBest) {
  Script s = FrozenPile();
  ReviewSettings a = Settings(16);
  a.max_rollouts = 96;
  a.target_se = 0.001;  // never reached: every batch
  const DecisionValue v = s.Evaluate(DiscardMove{0, C("8S"), 0}, a);
  ASSERT_EQ(v.status, DecisionStatus::kEvaluated);
  EXPECT_EQ(v.rollouts, 96);
  int dropped = 0;
  for (const AlternativeValue& alt : v.alternatives) {
    EXPECT_GE(alt.rollouts, 16) << alt.words;
    EXPECT_LE(alt.rollouts, 96) << alt.words;
    if (alt.rollouts < 96) {
      ++dropped;
      // Behind the best by more than twice its error when it was dropped;
      // with its rollouts so far, still behind.
      EXPECT_LT(alt.mean, v.alternatives[0].mean) << alt.words;
    }
  }
  EXPECT_EQ(v.alternatives[size_t(v.played)].rollouts, 96);
  EXPECT_EQ(v.alternatives[0].rollouts, 96);
  EXPECT_GT(dropped, 0);
  a.jobs = 3;
  EXPECT_EQ(Dump(v), Dump(s.Evaluate(DiscardMove{0, C("8S"), 0}, a)));
}

// The review screens every decision and refines the key ones later
// (docs/review.md, "Screening"): an evaluation carried on in steps gives the
// bytes of one evaluation with the larger cap, the history recorded past
// the decision in between changing nothing.
TEST(ReviewEvaluate, AnEvaluationRefinedInStepsIsOneEvaluation) {
  Script s = FrozenPile();
  ReviewSettings a = Settings(16);
  a.target_se = 0.001;  // never reached: every batch
  a.max_rollouts = 96;
  const Move played = DiscardMove{0, C("8S"), 0};
  const DecisionValue whole = s.Evaluate(played, a);
  DecisionEvaluation steps(s.history(), s.pos(), played, 7, a);
  EXPECT_FALSE(steps.WouldRefine(96));  // nothing played yet
  EXPECT_EQ(steps.value().status, DecisionStatus::kNotEvaluated);
  const DecisionValue screened = steps.Refine(32);
  EXPECT_EQ(screened.rollouts, 32);
  EXPECT_NE(Dump(screened), Dump(whole));
  EXPECT_TRUE(steps.WouldRefine(96));
  EXPECT_FALSE(steps.WouldRefine(32));
  s.Play(played);  // the hand goes on: the evaluation kept its own copy
  EXPECT_EQ(Dump(steps.Refine(96)), Dump(whole));
  EXPECT_EQ(Dump(steps.value()), Dump(whole));
  EXPECT_FALSE(steps.WouldRefine(96));
  // A target reached stops the refinement too.
  a.target_se = 1e9;
  DecisionEvaluation sure(s.history(), s.pos(), s.Draw(), 7, a);
  EXPECT_EQ(sure.Refine(16).rollouts, 16);
  EXPECT_FALSE(sure.WouldRefine(96));
  EXPECT_EQ(sure.Refine(96).rollouts, 16);
}

TEST(ReviewEvaluate, AnIllegalMoveIsNotADecision) {
  Script s = LargePile();
  // Discarding in the draw phase.
  DecisionValue v = s.Evaluate(DiscardMove{0, C("KC"), 0}, Settings(4));
  EXPECT_EQ(v.status, DecisionStatus::kIllegal);
  EXPECT_TRUE(v.alternatives.empty());
}

TEST(ReviewEvaluate, GroupKeys) {
  // Twos are one card; the same cards in one part or two are one play.
  EXPECT_EQ(GroupKey(DiscardMove{0, C("2C"), 0}), GroupKey(DiscardMove{0, C("2H"), 0}));
  EXPECT_NE(GroupKey(DiscardMove{0, C("2C"), 0}), GroupKey(DiscardMove{0, C("JK"), 0}));
  EXPECT_NE(GroupKey(DiscardMove{0, C("3C"), 0}), GroupKey(DiscardMove{0, C("3H"), 0}));
  MeldMove one{0, {MeldPart{{}, {}, Cards({"7S", "7H", "7D", "7C"})}}, 0};
  MeldMove two{
      0,
      {MeldPart{{}, {}, Cards({"7S", "7H", "7D"})}, MeldPart{Rank::kSeven, {}, Cards({"7C"})}},
      0};
  EXPECT_EQ(GroupKey(one), GroupKey(two));
  TakePileMove with2{0, C("9C"), Cards({"9D", "2S"}), {}, {}, 0};
  TakePileMove with2b{0, C("9C"), Cards({"9H", "2D"}), {}, {}, 0};
  EXPECT_EQ(GroupKey(with2), GroupKey(with2b));
}

TEST(ReviewEvaluate, Labels) {
  EXPECT_EQ(LossLabel(40, 5), "");
  EXPECT_EQ(LossLabel(60, 5), "inaccuracy");
  EXPECT_EQ(LossLabel(200, 20), "mistake");
  EXPECT_EQ(LossLabel(450, 50), "blunder");
  EXPECT_EQ(LossLabel(450, 300), "");  // not told from noise
  EXPECT_DOUBLE_EQ(DecisionAccuracy(0), 100);
}

// --- The command.
std::string RunCanasta(const std::string& args, int* status) {
  std::string cmd = std::string(CANASTA_BINARY) + " " + args + " 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  *status = pclose(p);
  return out;
}

const std::string kSample = std::string(CANASTA_SOURCE_DIR) + "/samples/classic/game.jsonl";

// The audit's findings on the page follow --checks as `canasta audit` does
// (lint/check_levels.h); an unknown check is a usage error.
TEST(ReviewCommand, ChecksSwitchTheAuditsFindingsOff) {
  const std::string frozen =
      std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/frozen-pile-no-pair.jsonl";
  const std::string base = "review --hand 4 --rollouts 1 --max-rollouts 1 --format html ";
  int status = 0;
  const std::string shown = RunCanasta(base + frozen, &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(shown.find("class=\"finding\">line 198: the pile is frozen"), std::string::npos);
  const std::string off = RunCanasta(base + "--checks=-pile-frozen-needs-pair " + frozen, &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(off.find("class=\"finding\""), std::string::npos);
  EXPECT_NE(off.find("<svg"), std::string::npos);  // the page is still there
  const std::string bad = RunCanasta(base + "--checks=-nosuch " + frozen, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(bad.find("unknown check \"nosuch\""), std::string::npos) << bad;
}

// Text and JSON list the audit's findings of each hand too, after --checks:
// an option that only the HTML page obeyed would be ignored in two formats.
TEST(ReviewCommand, TextAndJsonListTheAuditsFindingsAfterChecks) {
  const std::string frozen =
      std::string(CANASTA_SOURCE_DIR) + "/samples/classic/mistakes/frozen-pile-no-pair.jsonl";
  const std::string base = "review --hand 4 --rollouts 1 --max-rollouts 1 ";
  const std::string line =
      "  line 198: error: the pile is frozen; taking it needs a natural pair of 9s from the "
      "hand [pile-frozen-needs-pair]\n";
  int status = 0;
  const std::string text = RunCanasta(base + frozen, &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(text.find("\nHand 4 (line 159): scores 1025 / 275\n" + line), std::string::npos)
      << text;
  const std::string off = RunCanasta(base + "--checks=-pile-frozen-needs-pair " + frozen, &status);
  EXPECT_EQ(off.find("[pile-frozen-needs-pair]"), std::string::npos) << off;
  const std::string json =
      RunCanasta(base + "--format json --checks=warning:pile-frozen-needs-pair " + frozen, &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(json.find("\"findings\":[{\"line\":198,\"check\":\"pile-frozen-needs-pair\","
                      "\"severity\":\"warning\",\"message\":\"the pile is frozen; taking it "
                      "needs a natural pair of 9s from the hand\"}],\"decisions\":["),
            std::string::npos)
      << json;
  // A hand without one has an empty list.
  EXPECT_NE(
      RunCanasta("review --hand 1 --rollouts 1 --max-rollouts 1 --format json " + kSample, &status)
          .find("\"findings\":[],\"decisions\":["),
      std::string::npos);
}

// A log is untrusted: a player's name with an escape sequence or a C1
// control is printed escaped, never sent to the terminal (lint/format.h
// PutPrintable, as the audit's text report does), nor raw into the page.
TEST(ReviewCommand, TextEscapesControlsFromTheLog) {
  std::ifstream in(kSample);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t ann = log.find("\"Ann\"");
  ASSERT_NE(ann, std::string::npos);
  log.replace(ann, 5, "\"An\\u001b[31mn\\u009b\"");
  const std::string path = ::testing::TempDir() + "review-escapes.jsonl";
  std::ofstream(path, std::ios::binary) << log;
  int status = 0;
  const std::string text =
      RunCanasta("review --hand 1 --rollouts 1 --max-rollouts 1 " + path, &status);
  EXPECT_EQ(status, 0) << text;
  EXPECT_NE(text.find("turn 4, An\\x1b[31mn\\u009b (line 15)"), std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos);
  EXPECT_NE(text.find("\xc2\xb1"), std::string::npos);  // the text's own "±" stays as it is
  // The page too: a raw control code is no text of an HTML page.
  const std::string html =
      RunCanasta("review --hand 1 --rollouts 1 --max-rollouts 1 --format html " + path, &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find("\xc2\x9b"), std::string::npos);
  EXPECT_NE(html.find("<td>An\\x1b[31mn\\u009b</td>"), std::string::npos);
  std::remove(path.c_str());
}

// A hook's reason may hold any bytes: the review's JSON stays UTF-8 (each
// bad byte U+FFFD) and its text escapes the byte.
TEST(ReviewCommand, AHooksReasonIsValidUtf8InJsonAndEscapedInText) {
  const std::string rules = ::testing::TempDir() + "review-bad-reason.lua";
  std::ofstream(rules) << "return { name = \"bad-reason\", extends = \"classic\", hooks = {\n"
                          "  may_discard = function(ctx, rules)\n"
                          "    if ctx.card == \"QH\" then return \"no \\255 queens\" end\n"
                          "  end } }\n";
  const std::string base =
      "review --hand 1 --rollouts 1 --max-rollouts 1 --rules " + rules + " ";
  int status = 0;
  const std::string json = RunCanasta(base + "--format json " + kSample, &status);
  EXPECT_EQ(status, 0) << json;
  EXPECT_NE(json.find("\"check\":\"discard-house-rule\",\"severity\":\"error\","
                      "\"message\":\"no \xef\xbf\xbd queens\""),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find('\xff'), std::string::npos);
  const std::string text = RunCanasta(base + kSample, &status);
  EXPECT_NE(text.find("  line 17: error: no \\xff queens [discard-house-rule]\n"),
            std::string::npos)
      << text;
  std::remove(rules.c_str());
}

// A hook that fails in the rollouts (each thread's own hooks) changes the
// values: the review says so, once a failure. Where the audit found the same
// failure at a line, its finding says it; else a finding at the hand's deal.
// The counts are the rollouts', whatever the jobs.
TEST(ReviewCommand, AHookThatFailsInTheRolloutsIsReportedOnce) {
  const std::string rules = ::testing::TempDir() + "review-rollout-failure.lua";
  auto pile_of = [&](int n) {
    std::ofstream(rules) << "return { name = \"big\", extends = \"classic\", hooks = {\n"
                            "  may_take_pile = function(ctx, rules)\n"
                            "    if #ctx.pile >= "
                         << n << " then error(\"a pile of " << n << "\") end\n  end } }\n";
  };
  const std::string base =
      "review --hand 1 --rollouts 2 --max-rollouts 2 --rules " + rules + " " + kSample;
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find("ruleset-hook-failed") != std::string::npos) out.push_back(line);
    return out;
  };
  int status = 0;
  // The log's own pile reaches 12 cards at line 48.
  pile_of(12);
  std::string text = RunCanasta(base, &status);
  EXPECT_EQ(status, 0) << text;
  EXPECT_EQ(lines(text), std::vector<std::string>{
                             "  line 48: error: ruleset hook may_take_pile failed: a pile of 12 "
                             "(and 2056 calls in the rollouts: the values of this hand's "
                             "decisions used the engine's default answer for them) "
                             "[ruleset-hook-failed]"});
  // Never 25 in the log: only the rollouts reach it.
  pile_of(25);
  text = RunCanasta(base, &status);
  const std::vector<std::string> expected = {
      "  line 2: error: ruleset hook may_take_pile failed: a pile of 25 (144 calls in the "
      "rollouts: the values of this hand's decisions used the engine's default answer for "
      "them) [ruleset-hook-failed]"};
  EXPECT_EQ(lines(text), expected) << text;
  EXPECT_EQ(lines(RunCanasta(base + " --jobs 2", &status)), expected);
  EXPECT_TRUE(lines(RunCanasta(base + " --checks=-ruleset-hook-failed", &status)).empty());
  std::remove(rules.c_str());
}

TEST(ReviewCommand, SameSeedSameBytesWhateverTheJobs) {
  int status = 0;
  const std::string a = RunCanasta(
      "review --hand 1 --rollouts 4 --max-rollouts 4 --seed 5 --format json " + kSample, &status);
  EXPECT_EQ(status, 0) << a;
  EXPECT_EQ(a.rfind("{\"format\":\"canasta-review/1\"", 0), 0u) << a.substr(0, 200);
  EXPECT_NE(a.find("\"key\":true"), std::string::npos);
  EXPECT_NE(a.find("\"accuracy\":["), std::string::npos);
  EXPECT_EQ(
      a,
      RunCanasta("review --hand 1 --rollouts 4 --max-rollouts 4 --seed 5 --format json --jobs 2 " +
                     kSample,
                 &status));
  EXPECT_NE(a, RunCanasta("review --hand 1 --rollouts 4 --max-rollouts 4 --seed 6 --format json " +
                              kSample,
                          &status));
}

// Screening: every decision gets up to --screen-rollouts, a key decision up
// to --max-rollouts; the key ones end under the target error or at the cap.
TEST(ReviewCommand, KeyDecisionsAreRefinedPastTheScreen) {
  int status = 0;
  const std::string j = RunCanasta(
      "review --hand 4 --rollouts 4 --screen-rollouts 8 --max-rollouts 64 --target-se 60 "
      "--format json " +
          kSample,
      &status);
  ASSERT_EQ(status, 0) << j;
  EXPECT_NE(j.find("\"rollouts\":4,\"screen_rollouts\":8,\"max_rollouts\":64,"), std::string::npos)
      << j.substr(0, 300);
  int keys = 0, refined = 0, others = 0;
  for (size_t at = j.find("{\"line\":"); at != std::string::npos;
       at = j.find("{\"line\":", at + 1)) {
    const std::string d = j.substr(at, j.find("\"alternatives\":", at) - at);
    auto number = [&](const std::string& field) {
      const size_t f = d.find("\"" + field + "\":");
      return f == std::string::npos ? -1.0 : std::atof(d.c_str() + f + field.size() + 3);
    };
    if (d.find("\"status\":\"evaluated\"") == std::string::npos) continue;
    const int rollouts = int(number("rollouts"));
    if (d.find("\"key\":true") != std::string::npos) {
      ++keys;
      refined += rollouts > 8;
      EXPECT_TRUE(number("margin_se") <= 60 || rollouts == 64) << d;
    } else {
      // Screened only, or refined while it was key (a refined loss can fall
      // out of the key ones).
      // Left uncertain: not key, so not refined.
      others += rollouts <= 8 && number("margin_se") > 60;
      EXPECT_TRUE(rollouts <= 8 || number("margin_se") <= 60 || rollouts == 64) << d;
    }
  }
  EXPECT_GT(keys, 0);
  EXPECT_GT(refined, 0);
  EXPECT_GT(others, 0);
  const std::string t = RunCanasta(
      "review --hand 4 --rollouts 4 --screen-rollouts 8 --max-rollouts 64 " + kSample, &status);
  EXPECT_NE(t.find("(4 to 8 rollouts (64 for a key decision) per decision, seed 1;"),
            std::string::npos)
      << t.substr(0, 300);
  // The key decisions' cap below the others' is refused.
  RunCanasta("review --screen-rollouts 64 --max-rollouts 8 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST(ReviewCommand, TextNamesTurnsPlayersAndAccuracy) {
  int status = 0;
  const std::string t =
      RunCanasta("review --hand 1 --rollouts 4 --max-rollouts 4 " + kSample, &status);
  EXPECT_EQ(status, 0) << t;
  EXPECT_NE(t.find("Hand 1 (line 2): scores 185 / 975"), std::string::npos) << t;
  EXPECT_NE(t.find("turn 21, Bob (line 56): took the pile (16 cards) onto the 9s"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("Accuracy over the game:\n  Ann: "), std::string::npos) << t;
}

TEST(ReviewCommand, AnIllegalMoveIsMarkedAtItsLineAndNotEvaluated) {
  int status = 0;
  // Line 10: Dan draws in Cat's turn (the audit's turn-order finding).
  const std::string j = RunCanasta("review --rollouts 2 --max-rollouts 2 --format json " +
                                       std::string(CANASTA_SOURCE_DIR) +
                                       "/samples/classic/mistakes/out-of-turn.jsonl",
                                   &status);
  EXPECT_EQ(status, 0) << j;
  EXPECT_NE(j.find("{\"line\":10,\"turn\":2,\"seat\":3,\"player\":\"Dan\",\"phase\":\"draw\","
                   "\"played\":\"drew from the stock\",\"status\":\"illegal\""),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"why_key\":[\"illegal move\"],\"alternatives\":[],\"more\":0"),
            std::string::npos)
      << j;
}

// A hand whose deal the replay lost: the error gives the reason and its
// line, as `canasta tree` does.
TEST(ReviewCommand, AHandWhoseDealWasLostSaysWhy) {
  std::ifstream in(kSample);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t card = log.find("\"hands\":[[\"3D\"");
  ASSERT_NE(card, std::string::npos);
  log.replace(card, 14, "\"hands\":[[\"1X\"");
  const std::string path = ::testing::TempDir() + "review-lost-deal.jsonl";
  std::ofstream(path, std::ios::binary) << log;
  int status = 0;
  const std::string t = RunCanasta("review --hand 1 --rollouts 1 " + path, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(t.find("game 1 has no hand 1 the replay could follow (line 2: \"deal\" event: "
                   "\"hands\"[0][0] is \"1X\", not a card)"),
            std::string::npos)
      << t;
}

TEST(ReviewCommand, UsageErrors) {
  int status = 0;
  std::string t = RunCanasta("review --hand 99 --rollouts 2 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(t.find("game 1 has no hand 99"), std::string::npos) << t;
  t = RunCanasta("review --format xml " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  t = RunCanasta("review --rollouts 0 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  t = RunCanasta("review /nonexistent.jsonl", &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  // A cap of 0 for a key decision below the screen's is the same conflict
  // as any other cap below it.
  t = RunCanasta("review --rollouts 2 --screen-rollouts 10 --max-rollouts 0 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(t.find("--max-rollouts (for a key decision) is below"), std::string::npos) << t;
  // Hands and games count from 1: an explicit 0 is refused (it reviewed
  // every hand), as -1 is; left out, every hand is reviewed.
  for (const char* bad : {"--hand 0 ", "--game 0 ", "--hand -1 "}) {
    t = RunCanasta(std::string("review ") + bad + kSample, &status);
    EXPECT_EQ(WEXITSTATUS(status), 2) << bad;
    EXPECT_NE(t.find("; it must be at least 1"), std::string::npos) << t;
  }
  // A cap below 0 was taken as no cap at all; it is refused, named.
  t = RunCanasta("review --screen-rollouts -2 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(t.find("review: error: --screen-rollouts is -2; it must be 0 to 400000"),
            std::string::npos)
      << t;
  t = RunCanasta("review --max-rollouts 400001 --target-se -0.5 " + kSample, &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(t.find("review: error: --max-rollouts is 400001; it must be 0 to 400000"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("review: error: --target-se is -0.5; it must be 0 or more"), std::string::npos)
      << t;
}

}  // namespace
}  // namespace canasta

namespace canasta {
namespace {

// `canasta tree`: each decision shows the acting player's hand, the pile's
// top and size, and why it was frozen.
TEST(ReviewTree, NodesShowTheHandAndThePile) {
  int status = 0;
  const std::string dot = RunCanasta("tree --all --format dot " + kSample, &status);
  EXPECT_EQ(status, 0) << dot.substr(0, 400);
  // Bob's first play (line 6): his hand after the draw, suits in colour.
  EXPECT_NE(dot.find("<TD>turn 1 \u00b7 Bob \u00b7 line 6</TD></TR><TR><TD><B>melded 9S 9S 9D 2H; "
                     "added 2S to the 9s; discarded 3S</B></TD></TR><TR><TD>hand: 2\u2660 <FONT "
                     "COLOR=\"#c00000\">2\u2665</FONT> 3\u2660 "),
            std::string::npos)
      << dot.substr(0, 2000);
  EXPECT_NE(dot.find("pile: 1 card, 5\u2660 on top; frozen until the side melds"),
            std::string::npos);
  EXPECT_NE(dot.find("pile: 5 cards, <FONT COLOR=\"#c00000\">K\u2666</FONT> on top</TD>"),
            std::string::npos);
}

}  // namespace
}  // namespace canasta

namespace canasta {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// `canasta review -o review.html`: one page with no script and no external
// resource, rendered by headless Chromium (Debian's `chromium`): its DOM has
// the score table, the key decisions' rows and the hand's tree as inline SVG,
// and it takes a screenshot.
TEST(ReviewHtml, OneSelfContainedPageThatChromiumRenders) {
  const std::string dir = ::testing::TempDir();
  const std::string page = dir + "canasta-review-test.html";
  int status = 0;
  const std::string out = RunCanasta(
      "review --hand 1 --rollouts 4 --max-rollouts 4 -o " + page + " " + kSample, &status);
  ASSERT_EQ(status, 0) << out;
  const std::string html = ReadFile(page);
  ASSERT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u) << html.substr(0, 100);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // no network resource
  EXPECT_EQ(html.find("src="), std::string::npos);

  const char* chromium = "/usr/bin/chromium";
  if (std::system((std::string("test -x ") + chromium).c_str()) != 0)
    GTEST_SKIP() << "chromium is not installed (Debian package `chromium`): the HTML review "
                    "was written but not rendered";
  const std::string flags = " --headless --no-sandbox --disable-gpu --window-size=1200,900 ";
  // `timeout`: a browser that hangs fails the test instead of the run.
  const std::string browser = std::string("timeout 120 ") + chromium;
  std::string cmd = browser + flags + "--dump-dom file://" + page + " 2>/dev/null";
  std::string rendered;
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) rendered.append(buf.data(), n);
  pclose(p);
  // The parsed DOM (tbody inserted by the parser): the tables are there.
  EXPECT_NE(rendered.find("<table class=\"scores\"><tbody><tr><th>hand</th>"), std::string::npos)
      << rendered.substr(0, 1000);
  EXPECT_NE(rendered.find("<table class=\"accuracy\"><tbody>"), std::string::npos);
  EXPECT_NE(rendered.find("<tr class=\"decision\"><td>21</td><td>Bob</td><td>56</td><td>took the "
                          "pile (16 cards) onto the 9s</td>"),
            std::string::npos)
      << rendered;
  // The hand's tree, inline SVG: Graphviz's node groups (ids prefixed by
  // game and hand), the decision's box with the move played, the values.
  EXPECT_NE(rendered.find("<figure class=\"tree\"><svg "), std::string::npos) << rendered;
  size_t nodes = 0;
  for (size_t at = rendered.find("<g id=\"g1h1-node"); at != std::string::npos;
       at = rendered.find("<g id=\"g1h1-node", at + 1))
    ++nodes;
  EXPECT_GE(nodes, 8u) << rendered;
  EXPECT_NE(rendered.find(">took the pile (16 cards) onto the 9s</text>"), std::string::npos);
  EXPECT_NE(rendered.find(">values: hand points against the move played, 4 to 4 rollouts, seed "
                          "1</text>"),
            std::string::npos);
  EXPECT_NE(rendered.find(">best: "), std::string::npos);
  const std::string shot = dir + "canasta-review-test.png";
  std::remove(shot.c_str());
  cmd = browser + flags + "--screenshot=" + shot + " file://" + page +
        " >/dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  const std::string png = ReadFile(shot);
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

}  // namespace
}  // namespace canasta
