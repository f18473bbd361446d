// One record of a canasta-log/1 file (docs/log-format.md), decoded but
// not yet checked against any rule. LogReader fills it; the replay applies it.
#ifndef CANASTA_REPLAY_EVENT_H_
#define CANASTA_REPLAY_EVENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/card.h"
#include "core/violation.h"

namespace canasta {

enum class EventType : uint8_t {
  kGame,
  kDeal,
  kThree,
  kDraw,
  kTakePile,
  kMeld,
  kDiscard,
  kAskOut,
  kAnswer,
  kSpecialHand,
  kRetract,
  kFoot,  // the player picks up the foot (002 L71; foot_size)
  kNote,
  kEndHand,
  kEndGame
};

// The "type" string of the log: "game", "take_pile", "end_hand", ...
const char* EventTypeName(EventType type);

// One entry of a meld event's "melds": a new meld, or an addition (`to`).
struct MeldSpec {
  std::optional<std::string> to;  // rank ("K", "7", "wild") or an id
  std::optional<std::string> id;  // name given to a new meld
  std::optional<std::string> as;  // declared rank of a new meld, or "wild"
  std::vector<Card> cards;
};

// Fields not used by an event's type stay empty. Cards are stored as parsed
// ("10H" becomes TH). Optional fields are nullopt when absent (or null).
struct Event {
  EventType type = EventType::kNote;
  int line = 0;
  // False when a field was missing or invalid: the problems were reported and
  // the replay must not apply this event (its fields may be partly filled).
  bool ok = true;

  // game
  std::string format;
  std::string ruleset;  // "" when absent
  std::vector<std::string> players;

  // Every type but game, deal, end_hand and end_game (optional for note).
  std::optional<int> player;

  // deal / end_hand
  std::optional<int> hand;
  std::optional<int> dealer;
  std::vector<std::vector<Card>> hands;
  std::vector<Card> upcard;
  std::optional<std::vector<Card>> stock;
  std::optional<std::vector<std::vector<Card>>> feet;

  // three / discard
  std::optional<Card> card;
  std::optional<Card> replacement;

  // draw / special_hand / retract
  std::vector<Card> cards;
  bool bonus = false;

  // take_pile: `with` is empty when absent; the reader guarantees that "with",
  // "to" or "to_hand" was present on an ok event.
  std::optional<Card> top;
  std::vector<Card> with;
  std::optional<std::string> to;
  std::optional<int> count;
  bool to_hand = false;  // the top card goes into the hand (pile_top_to_hand)
  bool face_down = false;  // discard: laid face down (the discard that goes out, 001 L74)
  // The initial meld laid from the hand before the take (initial_meld_before_pile).
  std::vector<MeldSpec> before;

  // meld
  std::vector<MeldSpec> melds;

  // answer
  std::optional<bool> yes;

  // note
  std::string text;

  // end_hand / end_game
  std::optional<std::vector<int>> scores;
  std::optional<std::vector<int>> totals;
  std::optional<int> winner;
  // Per side: (part name, value) in file order.
  std::optional<std::vector<std::vector<std::pair<std::string, int>>>> breakdown;
};

// Something wrong with the log's input itself (not with the game it records).
struct InputProblem {
  int line = 0;  // 1-based
  CheckId id = CheckId::kLogBadEvent;
  std::string message;
};

}  // namespace canasta

#endif  // CANASTA_REPLAY_EVENT_H_
