// Fuzz target for the binary readers: any bytes given to inspect must read
// or fail with format_error, never crash, hang or read out of bounds.
//
// Built two ways (tests/fuzz/CMakeLists.txt): with clang's libFuzzer and
// sanitizers (`cmake --preset fuzz`), and as a plain replay program that
// runs every file it is given, which CTest runs over the fixtures and the
// saved corpus.
#include <cstddef>
#include <cstdint>

#include "builds/kernel_report.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "fuzz_tables.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  occcalc::inspect::inspect_options options;
  options.workers = 1;
  try {
    // The readers are pure decoders; the reserve is taken out in analysis,
    // with the real tables.
    for (auto& k : occcalc::inspect::inspect_bytes({data, size}, options).kernels) {
      occcalc::cli::settle_static_shared_memory(fuzz_tables(), k.resources);
    }
  } catch (const occcalc::inspect::format_error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
