# CANASTA_SANITIZE: AddressSanitizer (with LeakSanitizer) and UBSan on every
# target, any UB report fatal. CANASTA_BUILD_FUZZERS adds libFuzzer's coverage
# instrumentation (fuzzer-no-link) to every library; the fuzz targets link
# libFuzzer itself (-fsanitize=fuzzer, in fuzz/CMakeLists.txt).
if(CANASTA_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CANASTA_BUILD_FUZZERS needs clang with libFuzzer "
                        "(apt-get install clang-14 libclang-rt-14-dev; "
                        "cmake -DCMAKE_CXX_COMPILER=clang++-14 ...)")
  endif()
  set(CANASTA_SANITIZE ON)
endif()

# CANASTA_SANITIZERS picks the sanitizers: address,undefined by default (CI's
# build). A long fuzzing campaign may set it to "undefined" alone, several
# times faster per input, and leave memory errors to the CI's ASan runs
# (docs/fuzzing.md, "Long runs").
set(CANASTA_SANITIZERS "address,undefined" CACHE STRING
    "Sanitizers for CANASTA_SANITIZE / CANASTA_BUILD_FUZZERS (comma-separated)")
if(CANASTA_SANITIZE)
  set(CANASTA_SANITIZER_FLAGS
      -fsanitize=${CANASTA_SANITIZERS}
      # Any UB report stops the program, so that a test or a fuzzer fails.
      -fno-sanitize-recover=undefined
      # RapidJSON 1.1.0 (Debian's rapidjson-dev) adds an offset to a null
      # pointer in internal/stack.h:117 (Stack::Reserve on a stack not yet
      # allocated), which clang's pointer-overflow check reports on the first
      # parse ("applying non-zero offset 4 to null pointer"); fixed upstream
      # after 1.1.0, not in Debian. The check is left out only for that.
      -fno-sanitize=pointer-overflow
      -fno-omit-frame-pointer)
  add_compile_options(${CANASTA_SANITIZER_FLAGS})
  add_link_options(${CANASTA_SANITIZER_FLAGS})
endif()

if(CANASTA_BUILD_FUZZERS)
  # Coverage for libFuzzer in every object; a program linked without
  # -fsanitize=fuzzer (the tests, the CLI) gets the sanitizer runtime's no-op
  # callbacks.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
