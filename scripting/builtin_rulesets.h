// The built-in rulesets: rulesets/*.lua compiled into the program by
// cmake/embed_rulesets.cmake, so `canasta` needs no data files at run time.
#ifndef CANASTA_SCRIPTING_BUILTIN_RULESETS_H_
#define CANASTA_SCRIPTING_BUILTIN_RULESETS_H_

#include <vector>

namespace canasta {

struct BuiltinRuleset {
  const char* name;    // the file name without ".lua", e.g. "two-handed"
  const char* source;  // the Lua text of the file
};

// Every built-in, in the order of the file names (the generated table).
const std::vector<BuiltinRuleset>& BuiltinRulesets();

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_BUILTIN_RULESETS_H_
