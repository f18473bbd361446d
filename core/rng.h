// The random numbers of self-play, rollouts and move sampling.
#ifndef CANASTA_CORE_RNG_H_
#define CANASTA_CORE_RNG_H_

#include <cstdint>

namespace canasta {

// A small deterministic generator (splitmix64): the same seed gives the same
// games on every platform, unlike std::uniform_int_distribution.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int Below(int n) { return n <= 1 ? 0 : int(Next() % uint64_t(n)); }

 private:
  uint64_t state_;
};

}  // namespace canasta

#endif  // CANASTA_CORE_RNG_H_
