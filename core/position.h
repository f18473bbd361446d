// One deal of Canasta as a phase state machine: before play (threes laid out),
// then each turn's draw phase and play phase (meld, discard), until the deal
// is over. Each move is checked (Check, const) separately from being applied
// (Apply); Apply performs any physically possible move as recorded, so that
// an audit goes on meaningfully after an illegal one.
#ifndef CANASTA_CORE_POSITION_H_
#define CANASTA_CORE_POSITION_H_

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/card.h"
#include "core/dcheck.h"
#include "core/hooks.h"
#include "core/meld.h"
#include "core/rules.h"
#include "core/scoring.h"
#include "core/violation.h"

namespace canasta {

// --- Moves. `tag` is the caller's name for the move (the replay passes the
// log line); violations found later, at the end of a turn, point back to it.
struct DealMove {
  int dealer = 0;
  std::vector<std::vector<Card>> hands;
  std::vector<Card> upcards;
  std::optional<std::vector<Card>> stock;  // top card first
  // Each player's foot (002 L71, foot_size), by seat; empty: none dealt.
  std::vector<std::vector<Card>> feet;
  int tag = 0;
};
struct DrawMove {
  int player = 0;
  std::vector<Card> cards;
  int tag = 0;
  bool bonus = false;  // bonus cards after an initial meld (001 L37; log "bonus":true)
};
struct MeldPart {
  std::optional<Rank> to;  // add to the side's meld of this rank
  std::optional<Rank> as;  // rank of a new meld where the cards leave it open
  std::vector<Card> cards;
  bool sequence = false;   // a new sequence (log "as":"sequence"; 002 L67, L75)
  std::string id;          // the name a new meld is given (log "id")
  std::string to_id;       // or: add to the side's meld of this name (log "to")
};
struct TakePileMove {
  int player = 0;
  Card top;
  std::vector<Card> with;  // cards from the hand melded with the top card
  std::optional<Rank> to;  // or: the side's meld the top card is added to
  std::optional<int> count;  // the pile's size as the recorder saw it
  int tag = 0;
  // The top card goes into the hand with the pile (pile_top_to_hand); `with`
  // then lists the cards shown to prove the take, which stay in the hand.
  bool to_hand = false;
  // initial_meld_before_pile (001 L42): the melds laid from the hand as the
  // side's initial meld before the pile is taken, as one step with the take.
  std::vector<MeldPart> before;
};
struct MeldMove {
  int player = 0;
  std::vector<MeldPart> parts;
  int tag = 0;
};
struct DiscardMove {
  int player = 0;
  Card card;
  int tag = 0;
  // Laid face down (canasta-log/1 "face_down", optional): only the discard
  // that goes out may be (001 L74).
  bool face_down = false;
};
struct ThreeMove {
  int player = 0;
  Card card;
  std::optional<Card> replacement;
  int tag = 0;
};
struct AskOutMove {
  int player = 0;
  int tag = 0;
};
struct AnswerMove {
  int player = 0;
  bool yes = false;
  int tag = 0;
};
struct RetractMove {
  int player = 0;
  std::vector<Card> cards;
  int tag = 0;
};
// A special hand (001 L65-L71, readings R42, R44): after the draw from the
// stock, the whole hand laid down at once; the deal ends.
struct SpecialHandMove {
  int player = 0;
  std::vector<Card> cards;
  int tag = 0;
};
// The foot picked up (002 L71, foot_size): it becomes the player's hand.
struct FootMove {
  int player = 0;
  int tag = 0;
};
using Move = std::variant<DrawMove, TakePileMove, MeldMove, DiscardMove, ThreeMove, AskOutMove,
                          AnswerMove, RetractMove, SpecialHandMove, FootMove>;

enum class Phase : uint8_t {
  kBeforePlay,  // dealt, first turn not begun (threes may be laid out: readings R23)
  kDraw,        // a player's turn begins: draw or take the pile
  kPlay,        // drawn: meld, lay threes, discard
  kOver,        // the deal is over (someone went out, or the stock ran out)
};

// A violation pointing at an earlier move's tag (0: the move being checked).
struct TaggedViolation {
  int tag = 0;
  Violation violation;
};
using TaggedViolations = std::vector<TaggedViolation>;

class Position {
 public:
  // How far from its next card the recorded stock is searched for a card
  // drawn out of order (StockSlot), and the answer when it is not found.
  // Eight: a whole bonus draw (four cards in modern-american, 001 L37) left
  // out or written twice is still within reach, with room to spare.
  static constexpr size_t kStockSlipReach = 8;
  static constexpr size_t kNoSlot = size_t(-1);

  // `totals` are the sides' totals before this deal (they set the minimum).
  Position(const Rules& rules, const RuleHooks& hooks, std::vector<int> totals);

  // --- Setting up ---
  // Checks the deal (sizes, upcards, the pack) and lays it out.
  TaggedViolations Deal(const DealMove& deal);
  // Gives the storage of this position's growing vectors, emptied, to `next`
  // (a new deal's position): its melds' card vectors for `next`'s new melds,
  // and the pile, the melds, the threes and the turn's lists. This position
  // is left without melds or pile, so it is for a finished deal about to be
  // dropped.
  void PassMeldStorage(Position* next);

  // One card of the deal written as another (readings R127): the deal held
  // one `written` too many and no `meant`, and one of `seats` (a bit per
  // seat) holds `meant` in place of a `written`. Pending until a move shows
  // whose it is (SettleSwap).
  struct DealtSwap {
    Card written;
    Card meant;
    uint32_t seats = 0;
    bool pending() const { return seats != 0; }
  };
  const DealtSwap& dealt_swap() const { return swap_; }
  // Red threes `seat` held when play began and has not laid out since,
  // where the ruleset lays them out before play: each it lays out is late.
  int late_threes(int seat) const { return players_[seat].late_threes; }
  // `seat` held `meant` where the deal wrote `written`: its hand is
  // corrected. False (nothing changed) unless the swap is pending, `seat`
  // is one of its seats and holds a `written`.
  bool SettleSwap(int seat);

  // A turn's draw left out of the log, shown only after the turn ended
  // (readings R121): the stock's next cards, `cards` in order, go to
  // `seat`'s hand; the turn in play is not touched. Also once the deal is
  // over, before it is scored (the hand's record shows the draw). False
  // (nothing changed) unless they are the stock's next and no slip is open.
  bool GiveFromStock(int seat, const std::vector<Card>& cards);
  // Cards a draw took beyond the turn's due, that the next take from the
  // stock shows were never drawn (readings R128): back from `seat`'s hand
  // to the stock's top, in order. False (nothing changed) unless the seat
  // holds them and, where the stock was recorded, they are the cards last
  // taken from it.
  bool ReturnToStock(int seat, const std::vector<Card>& cards);

  // A discard left out of the log before the next seat's draw, whose card a
  // later take of the pile shows (readings R130): the card `from` still
  // holds goes to the hand of `to`, who took it with the pile. False
  // (nothing changed) unless `from` holds it and the seats differ.
  bool PassCard(int from, int to, Card c);
  // The same discard, whose card the next take of the pile names as its
  // top before anyone took the pile: the card `seat` still holds goes onto
  // the pile (readings R130). False (nothing changed) unless `seat` holds
  // it and it is a natural card other than a three (a card that would
  // freeze or block the pile is left as it is).
  bool PileCardLate(int seat, Card c);
  // A take of the pile made up for a line left out (readings R121) laid
  // `laid` from `seat`'s hand onto its side's meld of `rank`, and a later
  // line of the turn plays `laid`: the take laid `held` instead, a card of
  // the same kind the seat still holds. The two change places, and what
  // `laid` counted toward the initial meld `held` counts instead. False
  // (nothing changed) unless the meld holds `laid`, the seat holds `held`,
  // and both are wild cards or both naturals of `rank`.
  bool SwapLaidCard(int seat, Rank rank, Card laid, Card held);
  // Once the deal has ended (End), the red threes `seat` still holds were
  // laid out after all, their `three` lines left out of the record
  // (readings R151): they go to its side's threes, and the penalty End
  // charged for them (000 §7, readings R20) is taken back. False (nothing
  // changed) unless End has charged one for the seat.
  bool LayOutHeldThrees(int seat);
  // The side of `seat` made its initial meld in a line left out of the
  // record (readings R137): it has opened, its melds unknown. Later melds
  // are judged as an opened side's. False (nothing changed) if it had.
  bool MarkOpened(int seat);

  // A discard left out of the log before the next seat's red three
  // (readings R138): the turn in play, whose seat has drawn, ends without a
  // discard and `next`'s turn begins before its draw, as the next seat's
  // draw would begin it. Returns what that draw's check finds of the turn's
  // end (discard-missing, and the checks of any turn's end). Nothing changes
  // (nothing is returned) unless the seat in turn is in its play and `next`
  // is the seat after it. With `earns_bonus`, the bonus cards the turn's
  // discard would have earned (001 L37) are due, as after that discard: a
  // bonus draw after a discard left out (readings R140).
  TaggedViolations EndTurnUndiscarded(int next, bool earns_bonus = false);

  // A meld the log writes after the discard that ended its seat's turn
  // (readings R132): checked and laid for `m.player` as made before that
  // discard, in the turn just ended; the turn in play is not touched. Only
  // for a seat that keeps a card, and a side that has opened or whose
  // initial meld this is, judged as the turn's end judges one (readings
  // R141; not where an initial meld earns bonus cards): otherwise nothing
  // is laid (the caller then plays the meld as written).
  bool MayMeldAfterTurn(const MeldMove& m) const;
  TaggedViolations PlayMeldAfterTurn(const MeldMove& m);

  // --- Playing: checking is separate from applying ---
  TaggedViolations Check(const Move& move) const;
  void Apply(const Move& move);
  // Check then Apply, as the replay does.
  TaggedViolations Play(const Move& move);

  // The same, one kind of move at a time (no variant to build in the hot path).
  TaggedViolations Check(const DrawMove& m) const { return CheckDraw(m); }
  TaggedViolations Check(const TakePileMove& m) const { return CheckTakePile(m); }
  TaggedViolations Check(const MeldMove& m) const { return CheckMeld(m); }
  TaggedViolations Check(const DiscardMove& m) const { return CheckDiscard(m); }
  TaggedViolations Check(const ThreeMove& m) const { return CheckThree(m); }
  TaggedViolations Check(const AskOutMove& m) const { return CheckAskOut(m); }
  TaggedViolations Check(const AnswerMove& m) const { return CheckAnswer(m); }
  TaggedViolations Check(const RetractMove& m) const { return CheckRetract(m); }
  TaggedViolations Check(const SpecialHandMove& m) const { return CheckSpecialHand(m); }
  TaggedViolations Check(const FootMove& m) const { return CheckFoot(m); }
  void Apply(const DrawMove& m) {
    ApplyDraw(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const TakePileMove& m) {
    ApplyTakePile(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const MeldMove& m) {
    ApplyMeld(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const DiscardMove& m) {
    ApplyDiscard(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const ThreeMove& m) {
    ApplyThree(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const AskOutMove& m) {
    ApplyAskOut(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const AnswerMove& m) {
    ApplyAnswer(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const RetractMove& m) {
    ApplyRetract(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const SpecialHandMove& m) {
    ApplySpecialHand(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  void Apply(const FootMove& m) {
    ApplyFoot(m);
    CANASTA_DCHECK(InvariantsHold());
  }
  // A meld is weighed once: the apply takes the check's verdict on each
  // part (MeldRefusal, with the ruleset's hooks) instead of asking again.
  TaggedViolations Play(const MeldMove& m);
  // The usual discard and draw are checked and applied in one pass
  // (PlayUsualDiscard, PlayUsualDraw); any other goes the general way.
  TaggedViolations Play(const DiscardMove& m);
  TaggedViolations Play(const DrawMove& m);
  // The usual discard (the player in turn, in the play phase, keeping a card,
  // of a card held that no rule of the discard or the turn's end looks at)
  // and the usual draw (the player in turn, before playing, of the stock's
  // next cards, as many as due, no bonus cards due): checked and applied in
  // one pass. True when `m` is that move, applied with no finding; false,
  // with nothing changed, for any other. Position::Play asks them first.
  bool PlayUsualDiscard(const DiscardMove& m);
  bool PlayUsualDraw(const DrawMove& m);
  template <class M>
  TaggedViolations Play(const M& m) {
    TaggedViolations v = Check(m);
    Apply(m);
    return v;
  }

  // Checks that the deal may end now (someone went out, or the stock is gone
  // and the player in turn may refuse the pile) and settles the end of play
  // (undeclared red threes). `tag` is the end's tag.
  TaggedViolations End(int tag);

  // --- Scoring (000 §18) ---
  std::vector<ScoreBreakdown> Score() const;

  // --- Reading the state ---
  const Rules& rules() const { return *rules_; }
  Phase phase() const { return phase_; }
  int dealer() const { return dealer_; }
  int current_player() const { return current_; }
  const std::vector<int>& totals() const { return totals_; }  // before this deal
  int num_players() const { return rules_->num_players; }
  int side_of(int seat) const { return rules_->side_of(seat); }
  const CardCounts& hand(int seat) const { return players_[seat].hand; }
  // The seat's foot (002 L71, foot_size) while not picked up, and whether it was.
  const CardCounts& foot(int seat) const { return players_[seat].foot; }
  bool foot_taken(int seat) const { return players_[seat].foot_taken; }
  // The cards `player` plays from: the hand, or the foot not picked up
  // once the hand is empty (the player plays on from it: TakeUpFootPlayedOn).
  const CardCounts& Holding(int player) const {
    const Player& p = players_[player];
    return p.hand.empty() && FootPending(player) ? p.foot : p.hand;
  }
  // The ruleset deals a foot and `seat` has not picked it up: emptying the
  // hand does not go out (002 L71).
  bool FootPending(int seat) const {
    return rules_->feet() && seat >= 0 && seat < rules_->num_players && !players_[seat].foot_taken;
  }
  // The seat that may pick up the foot now (FootMove passes Check), or -1.
  int FootDue() const;
  // Whether `seat` picked up the foot after its discard and may lay out the
  // threes found in it before the next turn begins (readings R116).
  bool MayLayOutFootThrees(int seat) const { return seat >= 0 && seat == foot_threes_seat_; }
  const std::vector<Card>& pile() const { return pile_; }
  int stock_size() const { return stock_size_; }
  bool stock_known() const { return stock_ != nullptr; }
  // The next stock cards, when the deal recorded the stock.
  std::vector<Card> StockTop(int n) const;
  // Whether a draw of `c` now is the recorded stock's next card (true when
  // no stock was recorded). Inline: asked before every turn's draw.
  bool IsStockNext(Card c) const {
    return !stock_ || (stock_pos_ < stock_->size() && (*stock_)[stock_pos_] == c);
  }
  // How many of the recorded stock's next cards lie before `c`, when `c` is
  // not the next card nor the place a previous slip left for it, and is
  // within kStockSlipReach ahead; else 0 (readings R117, R123).
  int StockCardsBefore(Card c) const;
  // Whether a draw of `cards` now takes the recorded stock's next cards, in
  // order (true when no stock was recorded). Inline: asked before every
  // turn's draw.
  bool AreStockNext(const std::vector<Card>& cards) const {
    if (!stock_) return true;
    if (stock_pos_ + cards.size() > stock_->size()) return false;
    for (size_t i = 0; i < cards.size(); ++i)
      if ((*stock_)[stock_pos_ + i] != cards[i]) return false;
    return true;
  }
  // StockCardsBefore for a draw of `cards`: of its first card, or, where
  // that card is the stock's next and the draw is not the stock's next
  // cards, how many cards on the whole draw lies, up to kStockSlipReach
  // (its first card a copy of the card skipped); else 0 (readings R123).
  int StockCardsBeforeDraw(const std::vector<Card>& cards) const;
  // Whether the last card taken from the recorded stock did not match it, so
  // that the next may come from either of two places (readings R117).
  bool stock_slip_open() const { return stock_alt_ != kNoSlot; }
  const std::vector<Meld>& melds(int side) const { return sides_[side].melds; }
  const std::vector<Card>& threes(int side) const { return sides_[side].threes; }
  bool has_melded(int side) const { return sides_[side].opened; }
  int Minimum(int side) const;  // the side's initial-meld minimum now
  int went_out() const { return went_out_; }  // seat, or -1
  // The seat that went out with a special hand (-1: none), and its value
  // (0 when the cards make no special hand of the ruleset).
  int special_hand_player() const { return special_player_; }
  int special_hand_value() const { return special_value_; }
  bool drew_this_turn() const { return turn_.drew; }
  // The turn melded before drawing and has drawn nothing since: the draw was
  // left out of the record, or comes late (readings R121).
  bool draw_left_out() const { return turn_.draw_left_out; }
  // Bonus cards due after an initial meld (001 L37): the seat that draws
  // them (-1: none) and how many.
  int bonus_player() const { return bonus_count_ > 0 ? bonus_player_ : -1; }
  int bonus_count() const { return bonus_count_; }
  // Whether the turn card is still in the stock (turn_card_from_bottom, 001 L18).
  bool turn_card_in_stock() const {
    return rules_->turn_card_from_bottom > 0 && stock_size_ >= rules_->turn_card_from_bottom;
  }
  bool IsPileFrozenFor(int side) const;
  bool IsPileFrozen() const;  // by its cards alone
  // Why the pile is frozen for `side`: "wild", "red_three", "black_three"
  // (a card in it), "not_opened", or nullptr when it is not.
  const char* PileFrozenBy(int side) const;
  int CanastaCount(int side) const;
  SideSummary Summary(int side) const;
  int turns_played(int seat) const { return players_[seat].turns; }
  // The seat's turn number in this hand, from 1: a draw-phase move that
  // begins the seat's turn counts it already.
  int TurnNumber(int seat) const {
    return players_[seat].turns + (turn_.player == seat ? 0 : 1);
  }
  int pile_threes(int seat) const { return players_[seat].pile_threes; }
  // The current turn: is the side making its initial meld, and what counts so far.
  bool turn_opening() const { return turn_.opening && turn_.player == current_; }
  // Whether "may I go out?" was asked and waits for the partner's answer
  // (CheckAnswer refuses every answer otherwise).
  bool question_waiting() const { return turn_.asked; }
  // Whether the turn has taken the pile or melded (after which asking is
  // refused unless ask_out_after_melding: CheckAskOut).
  bool turn_took_pile_or_melded() const { return turn_.took_pile || turn_.melded; }
  int turn_initial_count() const { return turn_.initial_count; }
  // After taking the pile, the cards still able to count toward the initial
  // meld (those held before the take and not yet counted, 000 §13); null when
  // every card laid counts.
  const CardCounts* turn_count_limit() const {
    return turn_.from_hand_limited ? &turn_.from_hand : nullptr;
  }
  bool turn_melded() const { return turn_.melded; }
  // The current turn melded black threes (allowed only to a player going
  // out, unless the ruleset allows them at any time: 000 §8).
  bool turn_melded_black_threes() const { return !turn_.black_three_tags.empty(); }
  // The opening was judged when the pile was taken (initial_meld_before_pile):
  // what the turn melds after does not change it.
  bool turn_opening_judged() const { return turn_.opening_judged; }
  // Whether the end of the turn now, by a discard or by going out, is
  // refused for the initial meld (CheckTurnEnd's first finding), found
  // without wording it.
  bool TurnEndOpeningShort() const { return TurnEndJudgesOpening() && OpeningShort(); }
  // The current turn's answer to "may I go out?" (none if not answered).
  std::optional<bool> turn_answer() const { return turn_.answer; }
  const RuleHooks& hooks() const { return *hooks_; }

  // --- v2 hooks (core/hook_api.h) ---
  // The finding for a v2 hook's refusal (`answer.allowed` false): `id`
  // with the hook's reason, citing the ruleset's `sources` entry for the
  // hook or else the hook's file and line.
  TaggedViolation HookRefusal(CheckId id, HookId hook, const HookAnswer& answer) const;

  // The one statement of whether a meld or addition may be laid, used by
  // the meld and pile checks (and so by the move generator): the
  // composition rules (CheckMeldShape, with the v1 extra_meld_check), then
  // the v2 hook may_meld. `shape` is the meld after the play, `cards` the
  // cards laid on it now. Returns the finding, or nullopt when legal.
  // `wild_meld_open`, when given, says whether the side has an unfinished
  // meld of wild cards at this point of a move of several parts.
  std::optional<Violation> MeldRefusal(int player, const MeldShape& shape,
                                       const std::vector<Card>& cards, bool from_pile,
                                       std::optional<bool> wild_meld_open = std::nullopt) const;

  // The meld of `side` that cards of `rank` join: the side's meld of that
  // rank. For wild cards under one_unfinished_wild_meld, the unfinished
  // wild meld; with none, a new meld (nullptr) unless `adding` (a play
  // recorded with `to`), which names the side's latest wild canasta.
  const Meld* MeldFor(int side, Rank rank, bool adding) const;
  // The side's meld named `id` (Meld::id), or nullptr.
  const Meld* FindMeldById(int side, const std::string& id) const;
  // Whether `part` lays or extends a sequence (002 L67, L75): "as"
  // sequence, a reference to a sequence, or under sequence_melds natural
  // cards of more than one rank (readings R115). *target: the sequence it
  // extends (nullptr: a new one).
  bool IsSequencePart(int side, const MeldPart& part, const Meld** target) const;
  // Canastas of `side` that are sequences (sequence_canastas_to_go_out).
  int SequenceCanastaCount(int side) const;
  // Whether `side` holds an unfinished meld of wild cards
  // (one_unfinished_wild_meld; readings R40).
  bool HasUnfinishedWildMeld(int side) const;
  // Whether `rank` is dead: a side holds a natural canasta of it
  // (natural_canasta_closes_rank; 001 L28, readings R39).
  bool RankClosed(Rank rank) const;

  // The one rule about the pile used by both the check and the move
  // generator: can `player` take the pile by melding its top card with
  // `with` (or onto the meld `to`)? Returns the violations; empty if legal.
  TaggedViolations CheckTakePile(const TakePileMove& move) const;

 private:
  struct Player {
    CardCounts hand;
    CardCounts foot;          // dealt, not yet picked up (002 L71)
    bool foot_taken = false;
    int turns = 0;            // turns begun
    int pile_threes = 0;      // red threes from the pile, laid out with no replacement
    // Red threes still held when play began, where the ruleset lays them out
    // before play (000 §21 Hutto, readings R23; 002 Setup-7): each is late.
    int late_threes = 0;
    // Red threes reported still held at a turn's end (three-timing): each is
    // reported once, not at every turn it stays in the hand.
    int threes_kept_reported = 0;
    bool melded_before = false;  // made a meld before this turn (concealed going out)
    bool asked_out = false;      // asked "may I go out?" this deal (ask_out_once_per_hand)
  };
  struct Side {
    std::vector<Meld> melds;
    std::vector<Card> threes;
    std::vector<Card> special;  // a special hand laid down (001 L65)
    bool opened = false;       // made its initial meld this deal
    int minimum_increase = 0;  // 000 §10 retract-all penalty (readings R15)
    int penalties = 0;         // points lost (positive number)
  };
  struct Turn {
    int player = -1;
    bool drew = false;
    bool took_pile = false;
    bool melded = false;
    bool asked = false;
    std::optional<bool> answer;
    bool opening = false;       // the side had not opened when the turn began
    int initial_count = 0;      // counted toward the minimum so far
    int first_meld_tag = 0;
    int last_meld_tag = 0;
    CardCounts laid;            // cards laid on the table this turn
    CardCounts from_hand;       // cards held before taking the pile (count toward the minimum)
    bool from_hand_limited = false;
    CardCounts counted;         // cards on the table that counted toward the minimum
    std::vector<int> black_three_tags;
    bool illegal_meld = false;
    bool added_to_old_meld = false;
    // A meld before the turn's draw (reported once): the turn plays on as if
    // it had drawn, and a draw or take after it is its draw, come late
    // (readings R121).
    bool draw_left_out = false;
    Card top_to_hand;  // the top card taken into the hand, until it is melded
    // The opening's melds, by rank: what each counted toward the minimum,
    // which were laid, and which hold cards that came with the pile (no
    // splash: 001 L36 "laid down whole from your hand").
    std::array<int, 16> rank_count{};
    uint16_t ranks_laid = 0;
    uint16_t ranks_from_pile = 0;
    bool opening_judged = false;

    // As a default Turn, in place: the card counts and the vector keep
    // their storage (a turn is reset twice a turn).
    void Reset();
  };

  // The rank of the meld a take lays the top card on: its own, or for a wild
  // top card the meld it is taken onto or makes with the cards shown.
  Rank TakeRank(const TakePileMove& m) const;
  int CanastaBonus(const Meld& m) const;
  int UnfinishedPenalty(const Meld& m) const;
  // The kind of the card that freezes the pile ("wild", ...), or nullptr.
  const char* PileFreezer() const;
  // The pile rules a ruleset decides (frozen, blocked top, the forms of the
  // take) for a take whose physical checks are done: the findings into
  // *out; returns false when the take makes no meld worth checking.
  // *laid: the cards shown, then the top card, when the rules looked at
  // them (left empty otherwise).
  bool TakeRuleFindings(const TakePileMove& m, std::vector<Card>* laid, TaggedViolations* out,
                        int* held_at) const;

  // The rules of where wild cards and ranks may go that need the table, not
  // only the meld's shape (001 L25, L28, L59, L60, L63): dead ranks, the
  // rule of five, ranks with no or only initial wild cards, the side's
  // unfinished wild meld. `opening`: the side's initial-meld turn.
  std::optional<Violation> PlacementRefusal(int side, bool opening, const MeldShape& shape,
                                            const std::vector<Card>& cards,
                                            std::optional<bool> wild_meld_open) const;

  // Per-move checks (const) and applies.
  TaggedViolations CheckDraw(const DrawMove& m) const;
  // What the check of a meld move found of each part (MeldRefusal), for
  // the apply that follows it (Play). A part the check did not weigh (it
  // failed an earlier rule) is weighed by the apply.
  struct MeldVerdicts {
    uint32_t weighed = 0;  // bit i: part i was weighed
    uint32_t refused = 0;  // bit i: and refused
    uint32_t ranked = 0;   // bit i: weighed as a meld of ranks[i] (not a sequence)
    std::array<Rank, 32> ranks{};
    void Set(size_t part, bool refused_it) {
      if (part >= 32) return;
      weighed |= 1u << part;
      if (refused_it) refused |= 1u << part;
    }
    void SetRank(size_t part, Rank rank) {
      if (part >= 32) return;
      ranked |= 1u << part;
      ranks[part] = rank;
    }
  };
  TaggedViolations CheckMeld(const MeldMove& m, MeldVerdicts* verdicts = nullptr) const;
  TaggedViolations CheckDiscard(const DiscardMove& m) const;
  TaggedViolations CheckThree(const ThreeMove& m) const;
  TaggedViolations CheckAskOut(const AskOutMove& m) const;
  TaggedViolations CheckAnswer(const AnswerMove& m) const;
  TaggedViolations CheckRetract(const RetractMove& m) const;
  TaggedViolations CheckSpecialHand(const SpecialHandMove& m) const;
  TaggedViolations CheckFoot(const FootMove& m) const;
  void ApplyDraw(const DrawMove& m);
  void ApplyTakePile(const TakePileMove& m);
  void ApplyMeld(const MeldMove& m, const MeldVerdicts* verdicts = nullptr);
  void ApplyDiscard(const DiscardMove& m);
  void ApplyThree(const ThreeMove& m);
  void ApplyRetract(const RetractMove& m);
  void ApplySpecialHand(const SpecialHandMove& m);
  void ApplyFoot(const FootMove& m);
  // A player whose hand is empty and foot not picked up plays on: the
  // foot is picked up as the play needs (the check reported it).
  // In line: asked before every draw, meld and discard.
  void TakeUpFootPlayedOn(int player) {
    if (FootPending(player) && phase_ != Phase::kOver && players_[player].hand.empty())
      ApplyFoot(FootMove{player, 0});
  }
  // A hand emptied with the foot still to pick up (002 L71): under
  // foot_pickup next_turn a hand emptied by melding ends the turn.
  void HandEmptiedBeforeFoot(int player);
  void ApplyAskOut(const AskOutMove& m);
  void ApplyAnswer(const AnswerMove& m);

  // Shared pieces.
  void CheckTurn(int player, bool drawing, TaggedViolations* out) const;
  // Bonus cards due and not drawn before another move (001 L37).
  void CheckBonusDrawn(TaggedViolations* out) const;
  void CheckHeld(int player, const std::vector<Card>& cards, TaggedViolations* out) const;
  void CheckHeld(int player, Card card, TaggedViolations* out) const;
  // Whether `holding` has every card of `cards` (copies counted): CheckHeld's test.
  static bool HoldsAll(const CardCounts& holding, const std::vector<Card>& cards);
  void CheckFromStock(const std::vector<Card>& cards, TaggedViolations* out) const;
  // The threes `m`'s player keeps in the hand past the discard that should
  // have been laid out (000 §7; three-timing), before `m` is applied.
  int ThreesKeptAtDiscard(const DiscardMove& m) const {
    // A side that had not melded when the turn began may keep some
    // (threes_kept_before_meld; 001 L57, readings R43).
    const int kept = turn_.opening ? rules_->threes_kept_before_meld : 0;
    return rules_->LaidOutThreesIn(players_[m.player].hand) -
           (rules_->IsLaidOutThree(m.card) ? 1 : 0) - kept;
  }
  // The recorded stock after a slip of the log (docs/readings.md R117): where card `c`, drawn when
  // `pos` of the stock's cards were gone, lies in it: `pos` for the usual draw, else the nearest
  // place up to kStockSlipReach ahead (cards the log left out) or behind (a draw written twice),
  // else kNoSlot.
  size_t StockSlot(Card c, size_t pos) const;
  // One card drawn from the recorded stock at `pos`, where `alt` is the other
  // place the previous slip left for it (kNoSlot if none): whether it
  // matches, where the stock is after it, and the place the next card may
  // come from instead. Both the check and the draw follow it.
  struct StockStep {
    bool matched = true;
    size_t slot = kNoSlot;  // StockSlot, for a card that does not match
    size_t pos = 0;
    size_t alt = kNoSlot;
  };
  // The usual draw, the stock's next card, here; a slip out of line.
  StockStep StepStock(Card c, size_t pos, size_t alt) const {
    if (pos < stock_->size() && (*stock_)[pos] == c) {
      StockStep step;
      step.pos = pos + 1;
      return step;
    }
    return StepStockSlip(c, pos, alt);
  }
  StockStep StepStockSlip(Card c, size_t pos, size_t alt) const;
  // End-of-turn checks: the initial-meld minimum, black threes, the binding
  // answer, going out. `canastas_after` counts canastas once the turn's cards
  // are down; `going_out` says whether the hand is emptied.
  // `discard`: the turn's discard, when it is the move being checked.
  // `by`: how the player goes out ("discard", "meld", "pile"), for may_go_out.
  // The initial meld's findings for the turn so far (000 §8, §10; 001 L35,
  // L36, L108, L113): the minimum, per meld where each_meld_meets_minimum,
  // none after a splash, and initial_meld_condition. `tag` marks them.
  // Returns whether it found any; with `out` null it words nothing and
  // stops at the first (the move generator asks it at every turn end it weighs).
  bool OpeningFindings(TaggedViolations* out, int tag) const;
  // Whether the opening laid so far falls short (OpeningFindings finds it).
  bool OpeningShort() const { return turn_.opening && OpeningFindings(nullptr, 0); }
  // Whether the turn's end judges the opening (CheckTurnEnd).
  bool TurnEndJudgesOpening() const {
    return turn_.opening && turn_.melded && !turn_.opening_judged;
  }
  // A rank's shape after a meld move, valid only where its `known` is set:
  // left unbuilt, so that a move does not build all 16 of them.
  union ShapeSlot {
    ShapeSlot() {}
    MeldShape shape;
  };
  using MeldShapes = std::array<ShapeSlot, 16>;
  // The meld rules of `parts` laid by `player` now (CheckMeld without the
  // turn's order and going out).
  void CheckMeldParts(int player, const std::vector<MeldPart>& parts, MeldShapes* shapes,
                      std::array<bool, 16>* known, TaggedViolations* out,
                      MeldVerdicts* verdicts = nullptr) const;
  // Lays `parts` from the hand (ApplyMeld without going out).
  void LayParts(int player, const std::vector<MeldPart>& parts, int tag,
                const MeldVerdicts* verdicts = nullptr);
  // The usual meld move, checked and laid in one pass: one part of one
  // natural rank, new or added to the side's meld of that rank as named,
  // every card held, played in the player's own turn, and two cards or
  // more kept; its findings (a refusal of MeldRefusal) go to `out`. False,
  // with nothing changed, for any other move (Play then checks and applies
  // it the general way).
  bool PlayUsualMeld(const MeldMove& m, TaggedViolations* out);
  // A part's cards, taken from the hand already, laid on `base` (the side's
  // meld of `rank`; null: a new one), with the turn's record of them
  // (LayParts after the part's rank and meld are found).
  void LayOnRankMeld(int side, Rank rank, const Meld* base, const MeldPart& part, int tag,
                     bool refused);
  // The turn's record of a meld move laid (after its parts).
  void NoteMeldLaid(int tag) {
    if (turn_.opening) {
      if (!turn_.first_meld_tag) turn_.first_meld_tag = tag;
      turn_.last_meld_tag = tag;
    }
    turn_.melded = true;
  }
  // The take's own checks (CheckTakePile after the turn's order).
  void CheckTake(const TakePileMove& m, TaggedViolations* out) const;
  void CheckTurnEnd(bool going_out, int canastas_after, TaggedViolations* out,
                    Card discard = Card(), const char* by = "discard") const;
  // keep_a_card (001 L21): whether `player` may meld down to a single card
  // without going out. 001 L21 exempts the player who makes the side's
  // initial meld while the turn card is in the stock (the bonus cards of
  // 001 L37 refill the hand); false until the engine has a turn card.
  bool MayMeldDownToOne(int player) const;
  // The bonus cards (001 L37) the turn's discard earns `player`: 0 unless
  // the turn made the side's initial meld with the turn card in the stock.
  int BonusEarned(int player) const;
  // empty_pile_discard_restricted (001 L46): a card to avoid on an empty pile.
  bool EmptyPileAvoids(Card c) const;
  // Whether the player in turn asked "may I go out?" this turn.
  bool AskedThisTurn() const { return turn_.asked || turn_.answer.has_value(); }
  // The player in turn goes out: the side loses out_without_asking_penalty
  // if the player did not ask (house rule, partnership play).
  void ChargeGoingOut(int player);
  // Cards of `left` (the player in turn's cards kept after the discard) that
  // could still have been melded this turn, one meld or addition at a time
  // (002 L47: "meld as much as possible"); empty if none.
  std::vector<Card> StillMeldable(const CardCounts& left, int canastas_after) const;
  void BeginTurn(int player);
  // The turn's end after its discard: the bonus cards it earns, the next
  // seat's turn (ApplyDiscard, PlayUsualDiscard).
  void PassTurnAfterDiscard(int player);
  // The turn's record after its draw from the stock (ApplyDraw, PlayUsualDraw).
  void StockDrawn(const std::vector<Card>& cards);
  // The ruleset's hook `score` for one side's breakdown (position_score.cc).
  void ApplyScoreHook(int side, bool any_meld, ScoreBreakdown* b) const;
  void TakeFromStock(Card c);
  // The side's meld `found`, or a new one of `rank` when null: where cards are laid.
  Meld* MeldToLayOn(int side, Rank rank, const Meld* found);
  // A new, empty meld of `side` (the melds' vector grows once a deal), with
  // room for `room` cards, in a spare card vector when there is one.
  Meld* NewSideMeld(int side, size_t room);
  // The sequence part of a meld move (CheckMeldParts): its finding, or nullopt.
  std::optional<Violation> SequenceRefusal(int player, const Meld* target,
                                           const std::vector<Card>& before,
                                           const std::vector<Card>& cards) const;
  // In line: asked for every meld and take.
  Meld* FindMeld(int side, Rank rank) {
    for (Meld& m : sides_[side].melds)
      if (m.rank == rank) return &m;
    return nullptr;
  }
  const Meld* FindMeld(int side, Rank rank) const {
    for (const Meld& m : sides_[side].melds)
      if (m.rank == rank) return &m;
    return nullptr;
  }
  // Deal(): a stock that lacks one card of the pack while the deal holds one
  // card too many (a face dealt once too often, or `stock_extra`, a stock
  // card beyond the rest of the pack) is read as that card written for the
  // missing one (readings R127): one finding says so (the surplus finding,
  // reworded), and the recorded stock is followed. False when the deal is
  // not that case.
  bool SettleDealtSwap(const DealMove& d, const CardCounts& missing, Card stock_extra,
                       const std::array<int, kNumFaces>& surplus,
                       const std::array<size_t, kNumFaces>& finding_at, TaggedViolations* out);
  // What `cards` count toward the initial meld; with `from_hand`, only cards
  // found there (and taken from it) count. Cards that count go to *counted.
  int CountToward(const std::vector<Card>& cards, CardCounts* from_hand,
                  CardCounts* counted) const;
  void FinishTurn();
  // Settles the end of play; reports undeclared red threes into *out.
  void EndPlay(int tag, TaggedViolations* out);
  // A card a log made appear (laid or drawn though it was nowhere): counted
  // so that the Debug invariants can check that every card is accounted for.
  void Conjure(Card c) {
    if (c.valid()) ++surplus_[c.index()];
  }
  // The engine's own consistency (Debug builds, CANASTA_DCHECK): every copy
  // of every card is in exactly one place (hands, melds, pile, red threes
  // laid out, the unseen stock) counting conjured ones; hand counts add up;
  // melds count their cards right; the stock, pile and phase agree.
  bool InvariantsHold() const;

  const Rules* rules_;  // pointers, not references: a position can be assigned
  const RuleHooks* hooks_;
  std::vector<int> totals_;
  int dealer_ = 0;
  int current_ = 0;
  Phase phase_ = Phase::kBeforePlay;
  int went_out_ = -1;
  int special_player_ = -1;  // went out with a special hand
  int special_value_ = 0;
  int bonus_player_ = -1;
  int bonus_count_ = 0;
  bool concealed_ = false;
  int last_before_play_seat_ = -1;  // seat order of threes laid before play (readings R23)
  bool play_begun_ = false;          // the deal's first turn has begun
  int foot_threes_seat_ = -1;        // MayLayOutFootThrees
  std::vector<Player> players_;
  std::vector<Side> sides_;
  std::vector<Card> pile_;
  // The stock as dealt, top first (when known; never changed after the deal,
  // so that copies of the position share it).
  std::shared_ptr<const std::vector<Card>> stock_;
  size_t stock_pos_ = 0;                    // cards drawn from stock_
  size_t stock_alt_ = kNoSlot;  // after a slip: where the next card may come from instead
  bool drew_past_stock_ = false;  // the log drew from the empty stock (stock-empty once a hand)
  int stock_size_ = 0;
  CardCounts unseen_;  // cards not yet seen anywhere (the stock's contents)
  Turn turn_;
  bool ended_ = false;
  // Cards conjured by the log, per face; -1 for a card owed by a dealt swap.
  std::array<int, kNumFaces> surplus_{};
  DealtSwap swap_;
  // Card vectors of an earlier deal's melds (PassMeldStorage), reused by new
  // melds to save an allocation each. Never copied: a copy starts without.
  struct SpareCards {
    SpareCards() = default;
    SpareCards(const SpareCards&) {}
    SpareCards(SpareCards&&) = default;
    SpareCards& operator=(const SpareCards&) { return *this; }
    SpareCards& operator=(SpareCards&&) = default;
    std::vector<std::vector<Card>> vectors;
  };
  SpareCards spare_cards_;
};

}  // namespace canasta

#endif  // CANASTA_CORE_POSITION_H_
