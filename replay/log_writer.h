// Writes canasta-log/1 records (one JSON object per line), for self-play and
// the fault injector.
#ifndef CANASTA_REPLAY_LOG_WRITER_H_
#define CANASTA_REPLAY_LOG_WRITER_H_

#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/scoring.h"

namespace canasta {

std::string GameLine(const std::string& ruleset, const std::vector<std::string>& players);
std::string DealLine(int hand, const DealMove& deal);
std::string MoveLine(const Move& move);
std::string EndHandLine(int hand, const std::vector<ScoreBreakdown>& parts,
                        const std::vector<int>& totals);
std::string EndGameLine(const std::vector<int>& totals, std::optional<int> winner);
std::string NoteLine(const std::string& text);
std::string JsonString(const std::string& s);  // quoted and escaped

}  // namespace canasta

#endif  // CANASTA_REPLAY_LOG_WRITER_H_
