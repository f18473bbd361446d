// CANASTA_DCHECK(cond): an invariant of the engine, asserted in Debug builds
// (as Stockfish asserts its position's consistency after every move) and
// compiled out, its condition not even evaluated, where NDEBUG is defined
// (Release). For states the engine itself guarantees whatever the log says;
// never for a property of the input, which is a finding instead.
#ifndef CANASTA_CORE_DCHECK_H_
#define CANASTA_CORE_DCHECK_H_

#include <cassert>

#define CANASTA_DCHECK(cond) assert(cond)

#endif  // CANASTA_CORE_DCHECK_H_
