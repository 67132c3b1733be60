// Fuzz target for the ptxas / nvlink log reader: any text must read or fail
// with format_error, never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "builds/kernel_report.hpp"
#include "builds/readers/compiler_log.hpp"
#include "fuzz_tables.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (!occcalc::inspect::is_compiler_log(text)) return 0;
    // The reader is a pure decoder; the reserve is taken out in analysis,
    // with the real tables.
    for (auto& k : occcalc::inspect::read_compiler_log(text)) {
      occcalc::cli::settle_static_shared_memory(fuzz_tables(), k);
    }
  } catch (const occcalc::inspect::format_error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
