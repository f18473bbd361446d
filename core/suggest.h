// "Did you mean ...?": the nearest of some known names to a misspelt one,
// for every error message that names a parameter, hook, field or check.
#ifndef CANASTA_CORE_SUGGEST_H_
#define CANASTA_CORE_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace canasta {

// Levenshtein distance (insertions, deletions, substitutions).
int EditDistance(std::string_view a, std::string_view b);

// The known name nearest to `word` at a distance below `limit`, or "".
std::string NearestName(std::string_view word, const std::vector<std::string>& known,
                        int limit = 4);

}  // namespace canasta

#endif  // CANASTA_CORE_SUGGEST_H_
