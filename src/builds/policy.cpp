#include "builds/policy.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "builds/occupancy_floor.hpp"
#include "builds/readers/compiler_log.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

namespace {

using occcalc::detail::entry_reader;

constexpr std::int64_t policy_version = 1;
/// The largest cluster a policy may give: CUDA's largest (16 on 9.0 and
/// 10.0, non-portable) is checked on each kernel's architecture.
constexpr std::int64_t max_policy_cluster_blocks = 64;

/// Reads `kernel` (a regular expression, required) and the optional `arch`.
kernel_matcher read_matcher(entry_reader& reader) {
  const std::string pattern = reader.text("kernel");
  const std::string arch = reader.optional_text("arch");
  try {
    return make_kernel_matcher(pattern, arch);
  } catch (const occcalc::input_error& e) {
    reader.fail(e.field(), e.what());
  }
}

policy_limits read_limits(entry_reader& reader) {
  policy_limits l;
  l.threads = reader.optional_integer("threads", {1, occcalc::max_request_value});
  // The launch's dynamic shared memory and cluster, written as on the command line: 48K, "2x1x1" or 8.
  const auto launch_text = [&](std::string_view key) -> std::optional<std::string> {
    const auto* value = reader.optional_value(key);
    if (value == nullptr) return std::nullopt;
    if (value->is_number_integer()) return value->dump();
    if (!value->is_string()) reader.fail(key, value->dump() + " is not an integer or a string");
    return value->get<std::string>();
  };
  try {
    if (const auto text = launch_text("dyn_smem")) {
      l.dyn_smem_bytes = occcalc::parse_bytes("dyn_smem", *text, {0, occcalc::max_request_value});
    }
    if (const auto text = launch_text("cluster")) {
      const auto shape = occcalc::parse_cluster("cluster", *text, max_policy_cluster_blocks,
                                                " (an architecture's own limit is checked on each kernel)");
      l.cluster = inspect::dim3{shape.x, shape.y, shape.z};
    }
  } catch (const occcalc::input_error& e) {
    reader.fail(e.field(), e.what());
  }
  if (const auto* floor = reader.optional_value("min_occupancy")) {
    // Percent, as on the command line: 75 or "75%"; 0.75 is ambiguous.
    if (!floor->is_number() && !floor->is_string()) {
      reader.fail("min_occupancy", floor->dump() + " is not a percentage (75 or \"75%\")");
    }
    try {
      l.min_occupancy_percent =
          parse_occupancy_floor("min_occupancy", floor->is_string() ? floor->get<std::string>() : floor->dump());
    } catch (const occcalc::input_error& e) {
      reader.fail("min_occupancy", e.what());
    }
  }
  l.max_registers = reader.optional_integer("max_registers", {0, occcalc::max_request_registers});
  l.max_stack_bytes = reader.optional_integer("max_stack_bytes", {0, occcalc::max_request_value});
  if (reader.has("no_spills")) l.no_spills = reader.optional_boolean("no_spills");
  if (reader.has("require_declared_block_size")) {
    l.require_declared_block_size = reader.optional_boolean("require_declared_block_size");
  }
  return l;
}

/// What limits the occupancy `check` judges: the cluster launch, where it
/// keeps fewer blocks per SM than the resources allow, else the limiters.
std::string limited_by(const kernel_report& report) {
  if (report.compiler_occupancy()) {
    return "the compiler, at the kernel's own work-group size, which the remarks do not record";
  }
  const query* q = report.nvidia();
  if (q && cluster_limited(*q)) {
    return fmt::format("the cluster launch, which keeps {} of its {} blocks per SM",
                       occcalc::to_string(q->in_clusters.blocks_per_sm), q->result.blocks_per_sm);
  }
  return report.summary()->limiter_list(", ");
}

template <typename T>
void take(std::optional<T>& into, std::string& from, const std::optional<T>& value, const std::string& label) {
  if (!value) return;
  into = value;
  from = label;
}

}  // namespace

policy parse_policy(const std::string& origin, const std::string& json) {
  const nlohmann::json parsed = occcalc::detail::parse_strict({origin, json});
  entry_reader top(parsed, origin);
  top.integer("schema_version", {policy_version, policy_version});
  policy p;
  if (top.has("defaults")) {
    entry_reader reader(top.object("defaults"), origin + ": defaults");
    p.defaults = read_limits(reader);
    reader.finish();
  }
  if (top.has("rules")) {
    const auto& items = top.array("rules");
    for (std::size_t i = 0; i < items.size(); ++i) {
      entry_reader reader(items[i], fmt::format("{}: rules[{}]", origin, i));
      policy_rule rule;
      rule.match = read_matcher(reader);
      rule.limits = read_limits(reader);
      rule.label = fmt::format("rules[{}] ({})", i, rule.match.pattern);
      reader.finish();
      p.rules.push_back(std::move(rule));
    }
  }
  if (top.has("allow")) {
    const auto& items = top.array("allow");
    for (std::size_t i = 0; i < items.size(); ++i) {
      entry_reader reader(items[i], fmt::format("{}: allow[{}]", origin, i));
      policy_allowance a;
      a.match = read_matcher(reader);
      a.check = reader.optional_text("check");
      if (!a.check.empty() &&
          std::find(std::begin(policy_checks), std::end(policy_checks), a.check) == std::end(policy_checks)) {
        std::string names;
        for (const auto name : policy_checks) names += (names.empty() ? "" : ", ") + std::string(name);
        reader.fail("check", "'" + a.check + "' is not one of " + names);
      }
      a.reason = reader.text("reason");
      a.label = fmt::format("allow[{}] ({})", i, a.match.pattern);
      reader.finish();
      p.allow.push_back(std::move(a));
    }
  }
  top.finish();
  // A gate that checks nothing would pass every build: never a silent pass.
  const auto sets_a_check = [](const policy_limits& l) {
    return l.min_occupancy_percent || l.max_registers || l.max_stack_bytes || l.no_spills.value_or(false) ||
           l.require_declared_block_size.value_or(false);
  };
  const bool any = sets_a_check(p.defaults) || std::any_of(p.rules.begin(), p.rules.end(), [&](const policy_rule& r) {
                     return sets_a_check(r.limits);
                   });
  if (!any) {
    throw occcalc::table_error(origin +
                               ": the policy sets no limit (min_occupancy, max_registers, max_stack_bytes, "
                               "no_spills or require_declared_block_size, in defaults or a rule), so it would pass "
                               "every kernel");
  }
  return p;
}

applied_limits limits_for(const policy& p, const inspect::inspected_kernel& kernel) {
  applied_limits a;
  const std::string defaults = defaults_label;
  const auto apply = [&](const policy_limits& l, const std::string& label) {
    take(a.limits.threads, a.threads_rule, l.threads, label);
    take(a.limits.dyn_smem_bytes, a.dyn_smem_rule, l.dyn_smem_bytes, label);
    take(a.limits.cluster, a.cluster_rule, l.cluster, label);
    take(a.limits.min_occupancy_percent, a.occupancy_rule, l.min_occupancy_percent, label);
    take(a.limits.max_registers, a.registers_rule, l.max_registers, label);
    take(a.limits.max_stack_bytes, a.stack_rule, l.max_stack_bytes, label);
    take(a.limits.no_spills, a.spills_rule, l.no_spills, label);
    take(a.limits.require_declared_block_size, a.block_size_rule, l.require_declared_block_size, label);
  };
  apply(p.defaults, defaults);
  for (const auto& rule : p.rules) {
    if (rule.match.matches(kernel)) apply(rule.limits, rule.label);
  }
  return a;
}

void check_kernel(const policy& p, const applied_limits& applied, const kernel_report& report,
                  std::vector<violation>& out) {
  const auto& k = report.kernel.resources;
  const auto& l = applied.limits;
  const auto add = [&](std::string_view check, std::string message, const std::string& rule) {
    violation v{nullptr, std::string(check), std::move(message), rule, nullptr};
    for (const auto& a : p.allow) {
      if ((a.check.empty() || a.check == check) && a.match.matches(report.kernel)) {
        v.allowed_by = &a;
        break;
      }
    }
    out.push_back(std::move(v));
  };
  if (l.min_occupancy_percent) {
    if (!report.has_occupancy()) {
      add("occupancy", "occupancy unknown: " + report.unavailable, applied.occupancy_rule);
    } else if (const double occupancy = *report.launch_occupancy(); below_floor(occupancy, *l.min_occupancy_percent)) {
      // The compiler's own count is at the kernel's work-group size, which the remarks do not print.
      const std::string at =
          report.compiler_occupancy()
              ? fmt::format(" (clang's remark: {} of {} waves per SIMD)",
                            *report.kernel.resources.compiler_waves_per_simd, report.amd()->result.max_waves_per_simd)
              : fmt::format("{} at {} threads", launch_words(*report.evaluation), *report.block_size);
      add("occupancy",
          fmt::format("occupancy {:.2f}%{} is below {}% (limited by {})", occcalc::percent_hundredths(occupancy), at,
                      *l.min_occupancy_percent, limited_by(report)),
          applied.occupancy_rule);
    }
  }
  if (l.max_registers) {
    if (!k.registers) {
      add("registers", "register count unknown", applied.registers_rule);
    } else if (*k.registers > *l.max_registers) {
      add("registers", fmt::format("{} registers per thread exceeds {}", *k.registers, *l.max_registers),
          applied.registers_rule);
    }
  }
  const auto stack = inspect::stack_bytes(k.stack_size_bytes, k.stack_frame_bytes);
  if (l.max_stack_bytes) {
    if (!stack) {
      add("stack", "stack size unknown", applied.stack_rule);
    } else if (*stack > *l.max_stack_bytes) {
      add("stack", fmt::format("{} bytes of stack per thread exceeds {}", *stack, *l.max_stack_bytes),
          applied.stack_rule);
    }
  }
  if (l.require_declared_block_size.value_or(false) && !k.required_threads && !k.max_threads) {
    add("block_size",
        report.block_size_from == launch_source::suggested
            ? fmt::format("declares no block size (__launch_bounds__ or a required size); its occupancy is at the "
                          "{} threads suggest picks",
                          *report.block_size)
            : "declares no block size (__launch_bounds__ or a required size)",
        applied.block_size_rule);
  }
  if (l.no_spills && *l.no_spills) {
    if (k.vgpr_spills || k.sgpr_spills) {
      // AMD code objects record the spilled registers themselves.
      const auto vgprs = k.vgpr_spills.value_or(0);
      const auto sgprs = k.sgpr_spills.value_or(0);
      if (vgprs + sgprs > 0) {
        add("spills", fmt::format("spills: {} VGPRs and {} SGPRs spilled", vgprs, sgprs), applied.spills_rule);
      }
    } else if (k.spill_store_bytes || k.spill_load_bytes) {
      const auto stores = k.spill_store_bytes.value_or(0);
      const auto loads = k.spill_load_bytes.value_or(0);
      if (stores + loads > 0) {
        add("spills", fmt::format("spills: {} bytes stored, {} bytes loaded", stores, loads), applied.spills_rule);
      }
    } else if (!k.stack_frame_bytes && !stack) {
      add("spills", "spills unknown: the input records neither spills nor a stack frame", applied.spills_rule);
    } else if (k.stack_frame_bytes.value_or(*stack) > 0) {
      // Spills live in the stack frame; a binary records the frame but not
      // how much of it is spills, so a frame may hide them.
      add("spills",
          fmt::format("may spill: {}-byte stack frame, and a binary does not record spills (check the ptxas log, "
                      "or allow it)",
                      k.stack_frame_bytes.value_or(*stack)),
          applied.spills_rule);
    }
  }
}

}  // namespace occcalc::cli
