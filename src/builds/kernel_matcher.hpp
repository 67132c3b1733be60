// Which kernels a filter, a policy rule or an allowance is about.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "builds/kernel_pattern.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "occcalc/request/target.hpp"

namespace occcalc::cli {

/// Kernels whose demangled or mangled name matches `kernel` (every kernel
/// when the pattern is empty), on the SM version `arch_sm` or the AMD target
/// `amd_target` if given.
struct kernel_matcher {
  std::string pattern;
  /// The compiled pattern (RE2: linear time in the name, no recursion);
  /// shared, as RE2 objects do not copy.
  std::shared_ptr<const name_pattern> kernel;
  std::optional<int> arch_sm;
  /// An AMD target (`gfx90a`, `gfx90a:xnack+`) instead of an SM version:
  /// the kernels a GPU of that target loads (`can_load`), so `gfx90a`
  /// takes every variant and `gfx90a:xnack+` those built for XNACK on or
  /// for either setting.
  std::optional<occcalc::gpu_target> amd_target;

  bool matches(const inspect::inspected_kernel& k) const;
};

/// Builds a matcher from an RE2 pattern (searched anywhere in the name) and
/// an architecture in any spelling `--cc` takes, or an AMD target (either may
/// be empty). Throws `input_error` naming `kernel` or `arch`.
kernel_matcher make_kernel_matcher(const std::string& pattern, const std::string& arch);

}  // namespace occcalc::cli
