// Fuzz target for the binary readers: any bytes given to inspect must read
// or fail with format_error, never crash, hang or read out of bounds.
//
// Built two ways (tests/fuzz/CMakeLists.txt): with clang's libFuzzer and
// sanitizers (`cmake --preset fuzz`), and as a plain replay program that
// runs every file it is given, which CTest runs over the fixtures and the
// saved corpus.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "inspect/inspect.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  occcalc::inspect::inspect_options options;
  // What the architecture table gives: a 1 KiB reserve, in nvlink's
  // figure from sm_90.
  options.reserve = [](int sm) -> std::optional<occcalc::inspect::shared_reserve> {
    constexpr int first_sm_in_linker_report = 90;
    constexpr std::int64_t reserve_bytes = 1024;
    if (sm <= 0) return std::nullopt;
    return occcalc::inspect::shared_reserve{reserve_bytes, sm >= first_sm_in_linker_report};
  };
  options.workers = 1;
  try {
    occcalc::inspect::inspect_bytes({data, size}, options);
  } catch (const occcalc::inspect::format_error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
