#include "lint/checks.h"

#include <array>
#include <cstdlib>

namespace canasta {
namespace {

constexpr Severity kE = Severity::kError;
constexpr Severity kW = Severity::kWarning;

// One entry per CheckId, in enum order (checked below at compile time).
// Sources cite the seeds as docs/readings.md explains: "000 §n" (section), "001 Lnn"
// (line), "002 Setup-n / Play-n", "An" (an ambiguity's recommended reading);
// the log-* checks cite the log format, canasta-log/1 (log-format.md).
constexpr std::array<CheckInfo, kNumCheckIds> kChecks = {{
    // --- Input: the log itself ---
    {CheckId::kLogNotCanastaLog, "log-not-canasta-log", kE, "log",
     "The file is not a canasta-log/1 log: its first record is not a valid game header",
     "canasta-log/1 Shape, game"},
    {CheckId::kLogBadJson, "log-bad-json", kE, "log", "A line is not valid JSON",
     "canasta-log/1 Shape"},
    {CheckId::kLogBadEvent, "log-bad-event", kE, "log",
     "An event is malformed: a field is missing, of the wrong type or out of range",
     "canasta-log/1 Events"},
    {CheckId::kLogBadCard, "log-bad-card", kE, "log", "A card string is not a valid card",
     "canasta-log/1 Cards"},
    {CheckId::kLogUnknownEvent, "log-unknown-event", kE, "log", "An event has an unknown type",
     "canasta-log/1 Shape"},
    {CheckId::kLogOutOfPlace, "log-out-of-place", kE, "log",
     "An event appears where it cannot, such as a move before any deal", "canasta-log/1 Events"},
    {CheckId::kLogIncomplete, "log-incomplete", kW, "log",
     "The log stops before a hand or the game is finished", "canasta-log/1 end_hand, end_game"},
    {CheckId::kLogUnknownRuleset, "log-unknown-ruleset", kE, "log",
     "The game's ruleset cannot be found or loaded", "canasta-log/1 game.ruleset"},
    {CheckId::kLogPlayers, "log-player-count", kE, "log",
     "The number of players does not fit the ruleset", "000 §5, §21; canasta-log/1 game"},
    // --- The deal ---
    {CheckId::kDealHandNumber, "deal-hand-number", kE, "deal",
     "Hand numbers do not run 1, 2, 3, ... without gaps", "canasta-log/1 deal.hand"},
    {CheckId::kDealDealer, "deal-dealer", kE, "deal",
     "The dealer is not a seat, or the deal did not pass to the left", "000 §6"},
    {CheckId::kDealHandSize, "deal-hand-size", kE, "deal",
     "A seat is dealt the wrong number of cards, or the deal has the wrong number of hands",
     "000 §5, §6, §21"},
    {CheckId::kDealUpcard, "deal-upcard", kE, "deal",
     "The upcards do not follow the ruleset's turning rule",
     "000 §6, readings R4; 002 Setup-6; 004 L7; 001 L17"},
    {CheckId::kDealPack, "deal-pack", kE, "deal",
     "The hands, upcards and stock do not make up the pack", "000 §1, §6"},
    {CheckId::kDealFoot, "deal-foot", kE, "deal",
     "The deal's feet do not fit the ruleset: missing, one per seat, or the wrong size, or "
     "dealt under a ruleset without a foot",
     "002 L71; readings R116"},
    // --- Turns and cards ---
    {CheckId::kTurnOrder, "turn-order", kE, "turn",
     "A player moves out of turn, or the seat does not exist", "000 §5, §11"},
    {CheckId::kTurnSequence, "turn-sequence", kE, "turn",
     "A move is out of sequence: drawing twice, melding before drawing, playing after the end",
     "000 §11, §12, §17"},
    {CheckId::kCardNotHeld, "card-not-held", kE, "card", "A player plays a card they do not hold",
     "000 §11"},
    {CheckId::kCardTooManyCopies, "card-too-many-copies", kE, "card",
     "A card is drawn of which every copy in the pack is already accounted for", "000 §1"},
    {CheckId::kStockMismatch, "stock-mismatch", kE, "stock",
     "A card drawn is not the next card of the recorded stock", "000 §12"},
    {CheckId::kStockEmpty, "stock-empty", kE, "stock", "A card is drawn from an empty stock",
     "000 §15"},
    {CheckId::kDrawCount, "draw-count", kE, "draw",
     "A turn draws the wrong number of cards from the stock", "000 §12, §21; readings R10"},
    // --- Threes ---
    {CheckId::kThreeNotAllowed, "three-not-allowed", kE, "three",
     "A card laid out as a three is not a red three, or a red three is discarded", "000 §7"},
    {CheckId::kThreeTiming, "three-timing", kW, "three",
     "A red three is laid out at the wrong moment for the ruleset", "000 §7, §21 Hutto; readings R6, R23"},
    {CheckId::kThreeReplacement, "three-replacement", kE, "three",
     "A red three's replacement card is missing, or given where none is due", "000 §7"},
    {CheckId::kRedThreeUndeclared, "red-three-undeclared", kE, "three",
     "A red three is still in a hand when play ends", "000 §7; readings R20"},
    // --- The discard pile ---
    {CheckId::kPileEmpty, "pile-empty", kE, "pile", "The discard pile is taken while empty",
     "000 §12"},
    {CheckId::kPileTopMismatch, "pile-top-mismatch", kE, "pile",
     "The card recorded as the pile's top is not the top of the discard pile", "000 §12"},
    {CheckId::kPileBlockedTop, "pile-blocked-top", kE, "pile",
     "The pile is taken while a wild card or a black three is on top", "000 §14"},
    {CheckId::kPileFrozenNeedsPair, "pile-frozen-needs-pair", kE, "pile",
     "A frozen pile is taken without a natural pair matching the top card", "000 §13, §14"},
    {CheckId::kPileOneCard, "pile-one-card", kE, "pile",
     "A player holding one card takes a pile of one card", "000 §14, §17; readings R11"},
    {CheckId::kPileOntoCanasta, "pile-onto-canasta", kE, "pile",
     "The top discard is added directly to a completed canasta", "000 §13"},
    {CheckId::kPileTakeInvalid, "pile-take-invalid", kE, "pile",
     "The top discard does not make a legal meld with the cards shown", "000 §13; 002 Play-4"},
    {CheckId::kPileCount, "pile-count", kW, "pile",
     "The recorded size of the pile differs from its true size",
     "000 §12; canasta-log/1 take_pile"},
    {CheckId::kPileHouseRule, "pile-house-rule", kE, "pile",
     "The pile is taken against the ruleset's own may_take_pile hook", "the ruleset's hook"},
    {CheckId::kStockOutMustTake, "stock-out-must-take", kE, "stock",
     "With the stock gone, a player did not take a discard they were bound to take",
     "000 §15; readings R12"},
    // --- Melds ---
    {CheckId::kMeldTooSmall, "meld-too-small", kE, "meld", "A new meld has too few cards",
     "000 §8"},
    {CheckId::kMeldTooBig, "meld-too-big", kE, "meld",
     "A meld would hold more cards than the ruleset allows", "001 L23"},
    {CheckId::kMeldMixedRanks, "meld-mixed-ranks", kE, "meld",
     "A meld mixes natural cards of different ranks", "000 §8"},
    {CheckId::kSequenceNotConsecutive, "meld-sequence-not-consecutive", kE, "meld",
     "A sequence has a gap its wild cards do not fill, a rank twice, or a rank outside the order",
     "002 L67, L75; readings R115"},
    {CheckId::kSequenceMixedSuits, "meld-sequence-mixed-suits", kE, "meld",
     "A sequence mixes suits", "002 L67, L75"},
    {CheckId::kSequenceTooManyWilds, "meld-sequence-too-many-wilds", kE, "meld",
     "A sequence holds more wild cards than the ruleset allows", "readings R115"},
    {CheckId::kMeldTooFewNaturals, "meld-too-few-naturals", kE, "meld",
     "A meld has too few natural cards", "000 §8"},
    {CheckId::kMeldTooManyWilds, "meld-too-many-wilds", kE, "meld",
     "A meld holds too many wild cards", "000 §8, §9; readings R1"},
    {CheckId::kMeldRedThree, "meld-red-three", kE, "meld", "A red three is melded", "000 §7"},
    {CheckId::kMeldBlackThree, "meld-black-three", kE, "meld",
     "Black threes are melded other than the ruleset allows", "000 §8; 002 Play-7; 001 L48"},
    {CheckId::kMeldTargetMissing, "meld-target-missing", kE, "meld",
     "Cards are added to a meld the side does not have", "000 §8"},
    {CheckId::kMeldHouseRule, "meld-house-rule", kE, "meld",
     "A meld breaks a rule of the ruleset's own meld hook", "the ruleset's hook"},
    {CheckId::kMeldKeepACard, "meld-keep-a-card", kE, "meld",
     "A player who cannot go out melds down to a single card", "001 L21; readings R38"},
    {CheckId::kInitialMeldMinimum, "initial-meld-minimum", kE, "meld",
     "The side's initial meld does not reach the minimum count", "000 §8, §10"},
    {CheckId::kInitialMeldCondition, "initial-meld-condition", kE, "meld",
     "The side's initial meld lacks the meld the ruleset asks of it", "001 L35, L108"},
    {CheckId::kRetractNotAllowed, "retract-not-allowed", kE, "meld",
     "Cards are taken back from the table where the rules do not allow it", "000 §8, §10"},
    // --- Discards and going out ---
    {CheckId::kDiscardWild, "discard-wild", kE, "discard",
     "A wild card is discarded where the ruleset forbids it", "002 Play-8; readings R26"},
    {CheckId::kDiscardMissing, "discard-missing", kE, "discard",
     "A turn ends without the discard it needs", "000 §8, §11"},
    {CheckId::kDiscardHouseRule, "discard-house-rule", kE, "discard",
     "A discard breaks the ruleset's own may_discard hook", "the ruleset's hook"},
    {CheckId::kDiscardEmptyPile, "discard-empty-pile", kE, "discard",
     "A seven, wild card or ace is discarded on an empty pile while the player holds another "
     "card",
     "001 L46; readings R45"},
    {CheckId::kDiscardFaceDown, "discard-face-down", kE, "discard",
     "A discard that does not go out is laid face down", "001 L74"},
    {CheckId::kOutWithoutCanastas, "out-without-canastas", kE, "out",
     "A player goes out without the canastas the side needs", "000 §9, §17, §21"},
    {CheckId::kOutWithoutDiscard, "out-without-discard", kE, "out",
     "A player goes out by melding every card where a final discard is required",
     "002 Play-8, Play-11; 001 L74; readings R29"},
    {CheckId::kOutByDiscard, "out-by-discard", kE, "out",
     "A player discards the last card where the ruleset lets players go out only by melding",
     "house rule: last_discard_goes_out"},
    {CheckId::kOutWithoutAsking, "out-without-asking", kE, "out",
     "A player goes out without asking \"May I go out?\" where the ruleset requires it",
     "house rule: ask_to_go_out"},
    {CheckId::kOutAskTiming, "out-ask-timing", kE, "out",
     "\"May I go out?\" is asked outside the player's turn or after melding", "000 §17"},
    {CheckId::kOutAskNoPartner, "out-ask-no-partner", kE, "out",
     "\"May I go out?\" is asked in a game without partners", "000 §17, §21"},
    {CheckId::kOutAnswerPlayer, "out-answer-player", kE, "out",
     "An answer comes with no question asked, or not from the asker's partner", "000 §17"},
    {CheckId::kOutAnswerBinding, "out-answer-binding", kE, "out",
     "A player does not follow the partner's binding answer", "000 §17"},
    {CheckId::kOutHouseRule, "out-house-rule", kE, "out",
     "A player goes out against the ruleset's own may_go_out hook", "the ruleset's hook"},
    {CheckId::kHandEndedEarly, "hand-ended-early", kE, "hand",
     "The hand ends with nobody out while cards remain in the stock", "000 §11, §15"},
    {CheckId::kSpecialHandNotAllowed, "special-hand-not-allowed", kE, "hand",
     "A special hand is declared under a ruleset that has none", "001 L65"},
    {CheckId::kSpecialHandShape, "special-hand-shape", kE, "hand",
     "The cards declared as a special hand are not one of the ruleset's, or not the whole "
     "hand of 14 cards",
     "001 L65-L71; readings R42"},
    {CheckId::kSpecialHandTiming, "special-hand-timing", kE, "hand",
     "A special hand is declared before the draw, after taking the pile, or by a side that has "
     "melded",
     "001 L65; readings R44"},
    {CheckId::kFootPickup, "hand-foot-pickup", kE, "hand",
     "The foot is picked up while the hand still holds cards, a second time, under a ruleset "
     "without a foot, or at the wrong moment for foot_pickup",
     "002 L71; readings R116"},
    {CheckId::kFootMissed, "hand-foot-missed", kE, "hand",
     "A player whose hand is empty plays on without picking up the foot",
     "002 L71; readings R116"},
    {CheckId::kRulesetHookFailed, "ruleset-hook-failed", kE, "ruleset",
     "A hook of the ruleset failed; the engine's default answer was used instead",
     "docs/lua-api.md"},
    // --- Scores and the game ---
    {CheckId::kScoreHand, "score-hand", kE, "score",
     "A recorded hand score differs from the true score", "000 §18"},
    {CheckId::kScoreBreakdown, "score-breakdown", kE, "score",
     "A part of a recorded score breakdown differs from the true part", "000 §18"},
    {CheckId::kScoreTotal, "score-total", kE, "score",
     "A recorded running total differs from the true running total", "000 §19"},
    {CheckId::kGameEnd, "game-end", kE, "game",
     "The game ends before a side reaches the target, or goes on after it ended", "000 §19; readings R17"},
    {CheckId::kGameTotals, "game-totals", kE, "game",
     "The recorded final totals differ from the true totals", "000 §19"},
    {CheckId::kGameWinner, "game-winner", kE, "game",
     "The recorded winner is not the side with the highest total", "000 §19; readings R17"},
}};

// --- Compile-time checks of the table ---

constexpr bool StrEqual(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// Lower-case words of [a-z0-9] joined by single '-'.
constexpr bool IsKebabCase(const char* s) {
  if (*s == '\0' || *s == '-') return false;
  char prev = '\0';
  for (; *s != '\0'; ++s) {
    const char c = *s;
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && prev == '-')) return false;
    prev = c;
  }
  return prev != '-';
}

constexpr bool NonEmpty(const char* s) { return s != nullptr && *s != '\0'; }

// Every CheckId has exactly one entry, at its own index.
constexpr bool EntriesInEnumOrder() {
  for (int i = 0; i < kNumCheckIds; ++i) {
    if (static_cast<int>(kChecks[i].id) != i) return false;
  }
  return true;
}

constexpr bool NamesUnique() {
  for (int i = 0; i < kNumCheckIds; ++i) {
    for (int j = i + 1; j < kNumCheckIds; ++j) {
      if (StrEqual(kChecks[i].name, kChecks[j].name)) return false;
    }
  }
  return true;
}

constexpr bool NamesWellFormed() {
  for (const CheckInfo& c : kChecks) {
    if (!NonEmpty(c.name) || !IsKebabCase(c.name)) return false;
  }
  return true;
}

constexpr bool TextsPresent() {
  for (const CheckInfo& c : kChecks) {
    if (!NonEmpty(c.category) || !NonEmpty(c.summary) || !NonEmpty(c.source)) return false;
  }
  return true;
}

static_assert(EntriesInEnumOrder(),
              "lint/checks.cc: kChecks needs exactly one entry per CheckId, in enum order");
static_assert(NamesUnique(), "lint/checks.cc: check names must be unique");
static_assert(NamesWellFormed(), "lint/checks.cc: check names must be kebab-case");
static_assert(TextsPresent(), "lint/checks.cc: every check needs a category, summary, source");
static_assert(StrEqual(kChecks[static_cast<int>(CheckId::kPileFrozenNeedsPair)].name,
                       "pile-frozen-needs-pair"),
              "the name pile-frozen-needs-pair is documented and must not change");

}  // namespace

const CheckInfo& GetCheck(CheckId id) {
  const int i = static_cast<int>(id);
  if (i < 0 || i >= kNumCheckIds) std::abort();  // CheckId::kCount is not a check
  return kChecks[i];
}

const std::vector<CheckInfo>& AllChecks() {
  static const std::vector<CheckInfo>* const kAll =
      new std::vector<CheckInfo>(kChecks.begin(), kChecks.end());
  return *kAll;
}

std::optional<CheckId> FindCheck(std::string_view name) {
  for (const CheckInfo& c : kChecks) {
    if (name == c.name) return c.id;
  }
  return std::nullopt;
}

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

}  // namespace canasta
