// The CI gate's policy file and its verdict on inspected kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "builds/kernel_matcher.hpp"
#include "builds/kernel_report.hpp"
#include "occcalc/nvidia/arch.hpp"

namespace occcalc::cli {

/// Limits a kernel must meet; every one optional. A rule sets some of them.
struct policy_limits {
  /// Block size the occupancy is computed at.
  std::optional<std::int64_t> threads;
  /// The launch's dynamic shared memory per block, and the cluster it
  /// launches in (for a kernel that declares none; a declared one stays).
  std::optional<std::int64_t> dyn_smem_bytes;
  std::optional<inspect::dim3> cluster;
  /// Lowest occupancy allowed, in percent.
  std::optional<double> min_occupancy_percent;
  /// Most registers per thread allowed.
  std::optional<std::int64_t> max_registers;
  /// Most stack per thread allowed, in bytes.
  std::optional<std::int64_t> max_stack_bytes;
  /// Whether any register spill is a violation.
  std::optional<bool> no_spills;
  /// Whether a kernel must declare its block size (`__launch_bounds__`, a
  /// required size; AMD: a maximum work-group size): one that does not is
  /// evaluated at the size `suggest` picks, which its launches may not use.
  std::optional<bool> require_declared_block_size;
};

/// A rule: limits for the kernels it matches.
struct policy_rule {
  kernel_matcher match;
  policy_limits limits;
  /// `rules[2] (gemm)`: how messages name it.
  std::string label;
};

/// A known violation that does not fail the gate, with its reason.
struct policy_allowance {
  kernel_matcher match;
  /// The check it excuses (`occupancy`, `registers`, `stack`, `spills`);
  /// empty for all of them.
  std::string check;
  std::string reason;
  std::string label;
};

/// A parsed policy file.
struct policy {
  policy_limits defaults;
  std::vector<policy_rule> rules;
  std::vector<policy_allowance> allow;
};

/// The checks a policy can make, as violations name them.
inline constexpr std::string_view policy_checks[] = {"occupancy", "registers", "stack", "spills", "block_size"};

/// Parses a policy file's text. Throws `occcalc::table_error` naming the
/// file, the entry and the field for anything malformed or unknown.
policy parse_policy(const std::string& origin, const std::string& json);

/// A kernel that breaks a limit.
struct violation {
  /// The kernel, kept by `check` once it has a violation (`check_kernel`
  /// leaves this null for its caller to fill).
  const judged_kernel* kernel = nullptr;
  /// One of `policy_checks`.
  std::string check;
  /// What was found and what was required, e.g. `occupancy 25.0% at 256
  /// threads is below 50%`.
  std::string message;
  /// Where the limit came from: `defaults` or a rule's label.
  std::string rule;
  /// The allowance that excuses it, or null.
  const policy_allowance* allowed_by = nullptr;
};

/// How a limit taken from the policy's `defaults` names where it came from.
inline constexpr const char* defaults_label = "defaults";

/// The limits that apply to a kernel: the defaults, overridden field by
/// field by each matching rule in file order; and where each came from.
struct applied_limits {
  policy_limits limits;
  std::string threads_rule, dyn_smem_rule, cluster_rule, occupancy_rule, registers_rule, stack_rule, spills_rule,
      block_size_rule;
};
applied_limits limits_for(const policy& p, const inspect::inspected_kernel& kernel);

/// Checks one kernel report (its occupancy computed at the policy's block
/// size) against `limits`; appends its violations.
void check_kernel(const policy& p, const applied_limits& limits, const kernel_report& report,
                  std::vector<violation>& out);

}  // namespace occcalc::cli
