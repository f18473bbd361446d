// What the engine found wrong with a move. Every kind of finding has a stable
// id here; lint/checks.h gives each its name (e.g. "pile-frozen-needs-pair"),
// severity, source and documentation.
#ifndef CANASTA_CORE_VIOLATION_H_
#define CANASTA_CORE_VIOLATION_H_

#include <cstdint>
#include <string>
#include <vector>

namespace canasta {

enum class CheckId : uint8_t {
  // Input: the log itself (replay/).
  kLogNotCanastaLog,
  kLogBadJson,
  kLogBadEvent,
  kLogBadCard,
  kLogUnknownEvent,
  kLogOutOfPlace,
  kLogIncomplete,
  kLogUnknownRuleset,
  kLogPlayers,
  // The deal.
  kDealHandNumber,
  kDealDealer,
  kDealHandSize,
  kDealUpcard,
  kDealPack,
  kDealFoot,
  // Turns and cards.
  kTurnOrder,
  kTurnSequence,
  kCardNotHeld,
  kCardTooManyCopies,
  kStockMismatch,
  kStockEmpty,
  kDrawCount,
  // Threes.
  kThreeNotAllowed,
  kThreeTiming,
  kThreeReplacement,
  kRedThreeUndeclared,
  // The discard pile.
  kPileEmpty,
  kPileTopMismatch,
  kPileBlockedTop,
  kPileFrozenNeedsPair,
  kPileOneCard,
  kPileOntoCanasta,
  kPileTakeInvalid,
  kPileCount,
  kPileHouseRule,
  kStockOutMustTake,
  // Melds.
  kMeldTooSmall,
  kMeldTooBig,
  kMeldMixedRanks,
  kSequenceNotConsecutive,
  kSequenceMixedSuits,
  kSequenceTooManyWilds,
  kMeldTooFewNaturals,
  kMeldTooManyWilds,
  kMeldRedThree,
  kMeldBlackThree,
  kMeldTargetMissing,
  kMeldHouseRule,
  kMeldKeepACard,
  kInitialMeldMinimum,
  kInitialMeldCondition,
  kRetractNotAllowed,
  // Discards and going out.
  kDiscardWild,
  kDiscardMissing,
  kDiscardHouseRule,
  kDiscardEmptyPile,
  kDiscardFaceDown,
  kOutWithoutCanastas,
  kOutWithoutDiscard,
  kOutByDiscard,
  kOutWithoutAsking,
  kOutAskTiming,
  kOutAskNoPartner,
  kOutAnswerPlayer,
  kOutAnswerBinding,
  kOutHouseRule,
  kHandEndedEarly,
  kSpecialHandNotAllowed,
  kSpecialHandShape,
  kSpecialHandTiming,
  kFootPickup,
  kFootMissed,
  kRulesetHookFailed,
  // Scores and the game.
  kScoreHand,
  kScoreBreakdown,
  kScoreTotal,
  kGameEnd,
  kGameTotals,
  kGameWinner,
  kCount  // not a check
};

constexpr int kNumCheckIds = static_cast<int>(CheckId::kCount);

// How serious a finding is. Each check has a default (lint/checks.h); a
// ruleset's `checks` and the command line's --checks may change it.
enum class Severity : uint8_t { kError, kWarning, kNote };

// A finding of the engine, before the replay attaches it to a line.
struct Violation {
  CheckId id;
  std::string message;             // one sentence, no line number
  std::vector<std::string> notes;  // context: cards, values, the rule's source
};

using Violations = std::vector<Violation>;

}  // namespace canasta

#endif  // CANASTA_CORE_VIOLATION_H_
