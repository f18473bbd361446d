// Helpers shared by the files that implement Position (position*.cc) and
// the meld rules (meld.cc); not part of the engine's interface.
#ifndef CANASTA_CORE_POSITION_INTERNAL_H_
#define CANASTA_CORE_POSITION_INTERNAL_H_

#include <string>
#include <utility>

#include "core/position.h"

namespace canasta {
namespace position_internal {

// Calls `f` out of line: a check's findings are worded there, so that the
// usual move, which has none, returns early from a cheap call.
template <typename F>
[[gnu::noinline]] void OutOfLine(F&& f) {
  f();
}

// Calls `f` out of line and out of the hot text, returning what it returns:
// for what the usual move never reaches (a refusal, a rare branch), so that
// the checks' usual path stays short in the instruction cache
// (docs/performance.md, "Timed against counted").
template <typename F>
[[gnu::noinline, gnu::cold]] decltype(auto) Rare(F&& f) {
  return f();
}

inline std::string Seat(int seat) { return "seat " + std::to_string(seat); }

// A finding of the move being checked (tag 0) or of an earlier one, with its
// "rule:" note.
inline TaggedViolation Tv(CheckId id, std::string message, std::string source, int tag = 0) {
  return TaggedViolation{tag, Violation{id, std::move(message), {"rule: " + std::move(source)}}};
}

inline std::string Plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}
inline std::string Plural(int n, const char* word, const char* words) {
  return std::to_string(n) + " " + (n == 1 ? word : words);
}

}  // namespace position_internal
}  // namespace canasta

#endif  // CANASTA_CORE_POSITION_INTERNAL_H_
