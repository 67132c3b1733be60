#include "builds/baseline.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "builds/readers/parallel.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/request/target.hpp"

namespace occcalc::cli {

namespace {

std::string text_of(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "?"; }

/// Where a comparison files each figure that changed.
struct change_lists {
  std::vector<std::string>* regressions;
  std::vector<std::string>* improvements;
  std::vector<std::string>* others;
};

void file(std::vector<std::string>* list, std::string line) {
  if (list != nullptr) list->push_back(std::move(line));
}

/// Records one figure's change: a regression when it got worse by more than
/// `slack` or became unknown, an improvement when it got better, another
/// change otherwise (it became known: nothing to compare it with). A figure
/// with no better or worse (shared memory, declared block size) has
/// `directed` false.
template <typename T, typename Text>
void compare_figure(const char* what, const std::optional<T>& before, const std::optional<T>& after, bool directed,
                    bool higher_is_worse, T slack, Text&& text, const change_lists& lists) {
  if (before == after) return;
  std::string line = fmt::format("{} {} -> {}", what, text(before), text(after));
  if (!directed) return file(lists.others, std::move(line));
  if (!after) return file(lists.regressions, line + " (unknown now)");
  if (!before) return file(lists.others, std::move(line));
  const T worse_by = higher_is_worse ? *after - *before : *before - *after;
  if (worse_by > slack) return file(lists.regressions, std::move(line));
  if (worse_by < T{}) return file(lists.improvements, std::move(line));
  file(lists.others, std::move(line));
}

/// Occupancy in percent as every gate shows and compares it (two decimals).
std::optional<double> shown_percent(const std::optional<double>& occupancy) {
  if (!occupancy) return std::nullopt;
  return occcalc::percent_hundredths(*occupancy);
}

void compare_all(const kernel_figures& b, const kernel_figures& a, const regression_thresholds& t,
                 const change_lists& lists) {
  const auto count = [](const std::optional<std::int64_t>& v) { return text_of(v); };
  compare_figure("registers", b.registers, a.registers, true, true, t.registers, count, lists);
  compare_figure("spills", b.spills, a.spills, true, true, std::int64_t{0}, count, lists);
  compare_figure("stack bytes", b.stack_bytes, a.stack_bytes, true, true, t.stack_bytes, count, lists);
  // Both at one block size, unless each input states its own (Triton's), which then shows apart.
  const std::string at =
      a.block_size && b.block_size == a.block_size ? fmt::format(" at {} threads", *a.block_size) : std::string();
  compare_figure("block size", b.block_size, a.block_size, false, false, std::int64_t{0}, count, lists);
  compare_figure(("occupancy" + at).c_str(), shown_percent(b.occupancy), shown_percent(a.occupancy), true, false,
                 t.occupancy_points,
                 [](const std::optional<double>& v) { return v ? fmt::format("{:.2f}%", *v) : "?"; }, lists);
  compare_figure("static smem bytes", b.static_smem_bytes, a.static_smem_bytes, false, true, std::int64_t{0}, count,
                 lists);
  compare_figure("dynamic smem bytes", std::optional<std::int64_t>(b.dyn_smem_bytes.value_or(0)),
                 std::optional<std::int64_t>(a.dyn_smem_bytes.value_or(0)), false, true, std::int64_t{0}, count, lists);
  // The declared block size has no better or worse: a change is shown.
  const auto declared = [](const kernel_figures& f) {
    if (!f.declared_block_size) return std::string("none");
    return fmt::format("{} ({})", *f.declared_block_size, f.declared_required ? "required" : "launch bounds");
  };
  if (declared(b) != declared(a)) {
    file(lists.others, fmt::format("declared block size {} -> {}", declared(b), declared(a)));
  }
  // Clusters have no better or worse of their own: what they cost shows in the occupancy.
  const auto clusters = [](const kernel_figures& f) {
    return f.cluster_dims ? inspect::dim3_text(*f.cluster_dims) : std::string("none");
  };
  if (clusters(b) != clusters(a)) {
    file(lists.others, fmt::format("declared clusters {} -> {}", clusters(b), clusters(a)));
  }
}

/// The block size `k` declares into `f`: required, else its launch bounds'
/// maximum, else none.
void set_declared_block_size(const inspect::kernel_resources& k, kernel_figures& f) {
  f.declared_required = k.required_threads.has_value();
  if (k.required_threads) {
    f.declared_block_size = inspect::volume(*k.required_threads);
  } else if (k.max_threads) {
    f.declared_block_size = inspect::volume(*k.max_threads);
  } else {
    f.declared_block_size.reset();
  }
}

}  // namespace

kernel_report report_at_own_launch(const occcalc::table& tables, const build_kernel& k, const launch_overrides& given) {
  if (!k.own_launch()) return report_kernel(tables, k.file, k.kernel, given);
  launch_overrides launch = given;
  launch.threads = k.block_size;
  launch.dyn_smem_bytes = k.dynamic_shared_memory_bytes;
  return report_kernel(tables, k.file, k.kernel, launch, launch_source::triton);
}

namespace {

/// The figures of a kernel at its launch, where it gets `occupancy`.
kernel_figures figures_from(const kernel_record& r, std::optional<double> occupancy) {
  const auto& k = r.kernel.resources;
  kernel_figures f;
  f.kernel = k.name;
  f.arch = k.arch.name;
  f.name = r.kernel.demangled;
  f.file = r.file;
  f.registers = k.registers;
  f.static_smem_bytes = k.static_shared_memory_bytes;
  f.stack_bytes = inspect::stack_bytes(k.stack_size_bytes, k.stack_frame_bytes);
  f.spills = inspect::spill_total(k.vgpr_spills, k.sgpr_spills, k.spill_store_bytes, k.spill_load_bytes);
  set_declared_block_size(k, f);
  f.block_size = r.block_size;
  f.dyn_smem_bytes = r.dynamic_shared_memory_bytes;
  f.occupancy = occupancy;
  f.cluster_dims = k.cluster_dims;
  return f;
}

}  // namespace

kernel_figures figures_of(const kernel_report& r) { return figures_from(r, r.launch_occupancy()); }

kernel_figures figures_of(const judged_kernel& k) { return figures_from(k, k.occupancy); }

kernel_figures figures_like(const occcalc::table& tables, const build_kernel& old,
                            const std::optional<std::int64_t>& block_size,
                            const std::optional<std::int64_t>& dyn_smem_bytes, const launch_overrides& given) {
  // A launch the input states (Triton's metadata) is part of the kernel:
  // a config whose shared memory doubled must not be judged at the new size.
  if (old.own_launch()) return figures_of(report_at_own_launch(tables, old, given));
  // The old kernel's resources at today's launch: its own declared size
  // would choose another block size, so it is set aside for the occupancy
  // and shown apart.
  launch_overrides launch = given;
  if (block_size) launch.threads = block_size;
  launch.dyn_smem_bytes = dyn_smem_bytes;
  inspect::inspected_kernel kernel = old.kernel;
  kernel.resources.required_threads.reset();
  kernel.resources.max_threads.reset();
  kernel_figures f = figures_of(report_kernel(tables, old.file, std::move(kernel), launch));
  set_declared_block_size(old.kernel.resources, f);
  return f;
}

std::size_t baseline_diff::count(change_kind kind) const noexcept {
  return static_cast<std::size_t>(
      std::count_if(changes.begin(), changes.end(), [&](const kernel_change& c) { return c.kind == kind; }));
}

std::vector<std::string> regressions_of(const kernel_figures& before, const kernel_figures& after,
                                        const regression_thresholds& thresholds) {
  std::vector<std::string> regressions;
  compare_all(before, after, thresholds, {&regressions, nullptr, nullptr});
  return regressions;
}

bool comparable(const kernel_figures& before, const kernel_figures& after, std::string_view check) {
  const auto both = [](const auto& a, const auto& b) { return a.has_value() && b.has_value(); };
  if (check == "occupancy") return both(before.occupancy, after.occupancy);
  if (check == "registers") return both(before.registers, after.registers);
  if (check == "stack") return both(before.stack_bytes, after.stack_bytes);
  // A binary records no spills: its stack frame stands for them, the same
  // evidence on both sides or none.
  if (check == "spills") {
    return both(before.spills, after.spills) ||
           (!before.spills && !after.spills && both(before.stack_bytes, after.stack_bytes));
  }
  return check == "block_size";
}

baseline_diff compare_builds(const occcalc::table& tables, const kernel_store& before, const kernel_store& after,
                             const launch_overrides& given, const regression_thresholds& thresholds, unsigned workers) {
  const kernel_pairing pairing = pair_kernels(before, after);
  baseline_diff diff;
  diff.ambiguities = pairing.ambiguities;
  const auto report = [&](const build_kernel& k) { return report_at_own_launch(tables, k, given); };
  // Each pair's two evaluations on every worker, a run at a time, each into
  // its own slot to keep the order; an unchanged pair leaves its slot empty.
  constexpr std::size_t run_pairs = 4096;
  std::vector<std::optional<kernel_change>> run;
  for (std::size_t first = 0; first < pairing.pairs.size(); first += run_pairs) {
    run.assign(std::min(run_pairs, pairing.pairs.size() - first), std::nullopt);
    inspect::parallel_for<std::monostate>(run.size(), workers, [&](std::size_t j, std::monostate&) {
      const auto [old_index, new_index] = pairing.pairs[first + j];
      const kernel_report today = report(after[new_index]);
      kernel_change change{
          change_kind::changed,
          figures_like(tables, before[old_index], today.block_size, today.dynamic_shared_memory_bytes, given),
          figures_of(today),
          {},
          {},
          {}};
      compare_all(*change.before, *change.after, thresholds,
                  {&change.regressions, &change.improvements, &change.other_changes});
      if (change.regressions.empty() && change.improvements.empty() && change.other_changes.empty()) return;
      change.kind = !change.regressions.empty()    ? change_kind::regressed
                    : !change.improvements.empty() ? change_kind::improved
                                                   : change_kind::changed;
      run[j] = std::move(change);
    });
    for (auto& change : run) {
      if (change) {
        diff.changes.push_back(std::move(*change));
      } else {
        ++diff.unchanged;
      }
    }
  }
  for (const auto i : pairing.added) {
    diff.changes.push_back({change_kind::added, std::nullopt, figures_of(report(after[i])), {}, {}, {}});
  }
  for (const auto i : pairing.removed) {
    diff.changes.push_back({change_kind::removed, figures_of(report(before[i])), std::nullopt, {}, {}, {}});
  }
  // What needs attention first; within a kind, the new build's order.
  const auto rank = [](change_kind kind) {
    constexpr change_kind order[] = {change_kind::regressed, change_kind::added, change_kind::removed,
                                     change_kind::improved, change_kind::changed};
    return std::find(std::begin(order), std::end(order), kind) - std::begin(order);
  };
  std::stable_sort(diff.changes.begin(), diff.changes.end(),
                   [&](const kernel_change& a, const kernel_change& b) { return rank(a.kind) < rank(b.kind); });
  return diff;
}

}  // namespace occcalc::cli
