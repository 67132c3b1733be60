// Fuzz target for the ptxas / nvlink log reader: any text must read or fail
// with format_error, never crash or hang.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "inspect/compiler_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto reserve = [](int sm) -> std::optional<occcalc::inspect::shared_reserve> {
    constexpr int first_sm_in_linker_report = 90;
    constexpr std::int64_t reserve_bytes = 1024;
    if (sm <= 0) return std::nullopt;
    return occcalc::inspect::shared_reserve{reserve_bytes, sm >= first_sm_in_linker_report};
  };
  try {
    if (occcalc::inspect::is_compiler_log(text)) occcalc::inspect::read_compiler_log(text, reserve);
  } catch (const occcalc::inspect::format_error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
