// Scoring a hand (000 §18) and the game (000 §19).
#ifndef CANASTA_CORE_SCORING_H_
#define CANASTA_CORE_SCORING_H_

#include <string>
#include <vector>

namespace canasta {

// One side's score for a hand, part by part, as a scorekeeper writes it.
struct ScoreBreakdown {
  int canastas = 0;    // canasta bonuses
  int red_threes = 0;  // red-three bonuses (negative for a side with no meld)
  int going_out = 0;   // going-out bonus
  int melded = 0;      // value of the melded cards
  int in_hand = 0;     // value of the cards left in the side's hands (<= 0)
  int penalties = 0;   // penalties (<= 0)
  int house = 0;       // a ruleset hook's adjustment
  int total() const {
    return canastas + red_threes + going_out + melded + in_hand + penalties + house;
  }
};

// The names of the parts, as canasta-log/1's `breakdown` spells them.
struct BreakdownPart {
  const char* name;
  int ScoreBreakdown::*field;
};
const std::vector<BreakdownPart>& BreakdownParts();

}  // namespace canasta

#endif  // CANASTA_CORE_SCORING_H_
