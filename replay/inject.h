// The fault injector: plays a clean simulated game and makes one known
// mistake in it, at a known line, to prove that the auditor catches it.
// Mistakes in play are made while the game is generated (the game then goes
// on consistently from the position the mistake left); mistakes in the score
// sheet or the file itself are edits of the finished log.
#ifndef CANASTA_REPLAY_INJECT_H_
#define CANASTA_REPLAY_INJECT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/violation.h"
#include "replay/simulate.h"

namespace canasta {

enum class FaultKind : uint8_t {
  kCardNotHeld,         // a discard of a card the player does not hold -> card-not-held
  kStockMismatch,       // a draw that disagrees with the recorded stock -> stock-mismatch
  kFrozenPileNoPair,    // a frozen pile taken with one natural and a wild -> pile-frozen-needs-pair
  kTooManyWilds,        // a meld where wild cards are not outnumbered -> meld-too-many-wilds
  kInitialMeldTooLow,   // an initial meld under the minimum -> initial-meld-minimum
  kOutWithoutCanastas,  // going out without the canastas required -> out-without-canastas
  kOutOfTurn,           // the next player draws instead -> turn-order
  kWrongHandScore,      // end_hand scores altered -> score-hand
  kWrongTotal,          // end_hand totals altered -> score-total
  kWrongWinner,         // end_game winner altered -> game-winner
  kTruncatedFile,       // the file cut in the middle of a line -> log-bad-json
  kCorruptedLine,       // one line's bytes garbled -> log-bad-json
  // Sequences (002 L67, L75; readings R115), where the ruleset has them:
  kSequenceGap,           // three cards of a suit, not consecutive -> meld-sequence-not-consecutive
  kSequenceMixedSuits,    // three consecutive ranks of two suits -> meld-sequence-mixed-suits
  kSequenceTooManyWilds,  // more wild cards than a sequence holds -> meld-sequence-too-many-wilds
  kFootEarly,           // the foot picked up while the hand holds cards -> hand-foot-pickup
  kCount
};

const char* FaultName(FaultKind kind);
// The finding the auditor must report, at the injected line.
CheckId ExpectedCheck(FaultKind kind);

struct InjectedFault {
  FaultKind kind;
  int line = 0;           // where the mistake is
  CheckId expected;
  std::string log;        // the whole game, with the mistake
  std::string description;
};

// Plays game `seed` and injects `kind` at its first opportunity on or after
// the `skip`-th one. nullopt when the game offered no opportunity.
std::optional<InjectedFault> InjectFault(const RulesetChoice& ruleset, uint64_t seed,
                                         FaultKind kind, int skip = 0,
                                         const SimulateOptions& options = SimulateOptions());

}  // namespace canasta

#endif  // CANASTA_REPLAY_INJECT_H_
