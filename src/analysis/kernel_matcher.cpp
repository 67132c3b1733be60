#include "analysis/kernel_matcher.hpp"

#include <re2/re2.h>

#include "occcalc/amd/target.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

namespace {

/// What RE2 may spend on one compiled pattern; a pattern that needs more is an
/// error, not a slow match (real kernel filters need a few KiB).
constexpr std::int64_t max_pattern_memory_bytes = 8 << 20;

}  // namespace

bool kernel_matcher::matches(const inspect::inspected_kernel& k) const {
  if (arch_sm && k.resources.arch.sm != *arch_sm) return false;
  if (amd_target && k.resources.arch.name != *amd_target) return false;
  return pattern.empty() || RE2::PartialMatch(k.demangled, *kernel) || RE2::PartialMatch(k.resources.name, *kernel);
}

kernel_matcher make_kernel_matcher(const std::string& pattern, const std::string& arch) {
  kernel_matcher m;
  m.pattern = pattern;
  if (!pattern.empty()) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(max_pattern_memory_bytes);
    auto compiled = std::make_shared<const RE2>(pattern, options);
    if (!compiled->ok()) {
      throw occcalc::input_error(
          "kernel", occcalc::detail::quoted(pattern) + " is not a valid RE2 regular expression: " + compiled->error());
    }
    m.kernel = std::move(compiled);
  }
  const std::string lowered = occcalc::detail::lower(occcalc::detail::trim(arch));
  if (lowered.rfind("gfx", 0) == 0) {
    // The readers' own rule for a processor name, generic targets included (gfx11-generic).
    if (!occcalc::is_gfx_name(lowered))
      throw occcalc::input_error(
          "arch", occcalc::detail::quoted(arch) + " is not an AMD target such as gfx90a, gfx1100 or gfx11-generic");
    m.amd_target = lowered;
  } else if (!arch.empty()) {
    const auto cc = occcalc::parse_compute_capability("arch", arch);
    m.arch_sm = cc.major * 10 + cc.minor;
  }
  return m;
}

}  // namespace occcalc::cli
