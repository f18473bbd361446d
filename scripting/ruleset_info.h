// Text about rulesets for the command line: `canasta rules list`, `rules
// show NAME` and `rules diff A B`. Values are printed in Lua syntax, so a
// line of `rules show` can be pasted into a ruleset file.
#ifndef CANASTA_SCRIPTING_RULESET_INFO_H_
#define CANASTA_SCRIPTING_RULESET_INFO_H_

#include <string>

#include "scripting/ruleset.h"

namespace canasta {

// Every parameter with its value and source, the chain of files, the hooks
// defined and, for an incomplete ruleset, what is missing.
std::string ShowRuleset(const Ruleset& ruleset);

// The parameters whose values differ (card_value rank by rank), each with
// both values and both sources; then the hooks that differ.
std::string DiffRulesets(const Ruleset& a, const Ruleset& b);

// Each built-in with its description; incomplete ones are marked.
std::string ListRulesets();

// Every hook a ruleset may define, from core/hook_api.cc's HookSpecs(): its
// signature, what it decides, its result, the fields of its ctx (or its
// arguments) and an example. `canasta rules hooks`; with `markdown` the hook
// reference of docs/lua-api.md, which a test keeps equal to this text.
std::string HookReference(bool markdown);

}  // namespace canasta

#endif  // CANASTA_SCRIPTING_RULESET_INFO_H_
