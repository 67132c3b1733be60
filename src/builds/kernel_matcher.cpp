#include "builds/kernel_matcher.hpp"

#include "occcalc/amd/target.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

bool kernel_matcher::matches(const inspect::inspected_kernel& k) const {
  if (arch_sm && k.resources.arch.sm != *arch_sm) return false;
  if (amd_target && !occcalc::can_load(k.resources.arch, *amd_target)) return false;
  return pattern.empty() || kernel->search(k.demangled) || kernel->search(k.resources.name);
}

kernel_matcher make_kernel_matcher(const std::string& pattern, const std::string& arch) {
  kernel_matcher m;
  m.pattern = pattern;
  if (!pattern.empty()) m.kernel = compile_name_pattern(pattern);
  const std::string lowered = occcalc::detail::lower(occcalc::detail::trim(arch));
  if (lowered.rfind("gfx", 0) == 0) {
    // The readers' own rule for a target ID, generic targets included (gfx11-generic).
    occcalc::gpu_target target = occcalc::parse_gpu_target(lowered);
    if (target.vendor != occcalc::gpu_vendor::amd)
      throw occcalc::input_error("arch", occcalc::detail::quoted(arch) +
                                             " is not an AMD target such as gfx90a, gfx90a:xnack+ or gfx11-generic");
    m.amd_target = std::move(target);
  } else if (!arch.empty()) {
    const auto cc = occcalc::parse_compute_capability("arch", arch);
    m.arch_sm = cc.major * 10 + cc.minor;
  }
  return m;
}

}  // namespace occcalc::cli
