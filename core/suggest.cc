#include "core/suggest.h"

#include <algorithm>

namespace canasta {

int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = int(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = int(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string NearestName(std::string_view word, const std::vector<std::string>& known, int limit) {
  std::string best;
  int best_distance = limit;
  for (const std::string& candidate : known) {
    // The distance is at least the lengths' difference: a name far longer or
    // shorter (a hostile key of a megabyte) is passed over without its
    // quadratic comparison.
    const size_t longer = std::max(word.size(), candidate.size());
    const size_t shorter = std::min(word.size(), candidate.size());
    if (longer - shorter >= size_t(best_distance)) continue;
    const int d = EditDistance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

}  // namespace canasta
