#include "kernel_matcher.hpp"

#include "inspect/compiler_log.hpp"
#include "occcalc/error.hpp"
#include "occcalc/parse.hpp"

namespace occcalc::cli {

bool kernel_matcher::matches(const inspect::inspected_kernel& k) const {
  if (arch_sm && inspect::sm_number(k.resources.arch) != *arch_sm) return false;
  if (amd_target && k.resources.arch != *amd_target) return false;
  return pattern.empty() || std::regex_search(k.demangled, kernel) || std::regex_search(k.resources.name, kernel);
}

kernel_matcher make_kernel_matcher(const std::string& pattern, const std::string& arch) {
  kernel_matcher m;
  m.pattern = pattern;
  try {
    m.kernel = std::regex(pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw occcalc::input_error("kernel", "'" + pattern + "' is not a valid regular expression: " + e.what());
  }
  const std::string lowered = occcalc::detail::lower(occcalc::detail::trim(arch));
  if (lowered.rfind("gfx", 0) == 0) {
    const bool valid = lowered.size() > 3 && lowered.find_first_not_of("0123456789abcdef", 3) == std::string::npos;
    if (!valid) throw occcalc::input_error("arch", "'" + arch + "' is not an AMD target such as gfx90a or gfx1100");
    m.amd_target = lowered;
  } else if (!arch.empty()) {
    const auto cc = occcalc::parse_compute_capability("arch", arch);
    m.arch_sm = cc.major * 10 + cc.minor;
  }
  return m;
}

}  // namespace occcalc::cli
