// libFuzzer target "sheet": see fuzz/entry_points.h and docs/fuzzing.md.
#include <cstddef>
#include <cstdint>

#include "fuzz/entry_points.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  canasta::fuzz::ImportSheet(data, size);
  return 0;
}
