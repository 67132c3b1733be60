// Comparing two builds kernel by kernel: what `occcalc diff` shows and what
// `check --baseline` excuses. Each side is a build output (read as inspect
// reads it) or a saved `inspect --json`; both keep every kernel's raw figures,
// and both sides' occupancy is computed at the same launch when compared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "builds/kernel_matcher.hpp"
#include "builds/kernel_report.hpp"
#include "builds/kernel_store.hpp"

namespace occcalc::cli {

/// The kernel reported as inspect would: at its own launch where the input
/// states one, else at `given`.
kernel_report report_at_own_launch(const occcalc::table& tables, const build_kernel& k, const launch_overrides& given);

/// The figures of one kernel that a comparison shows, at one launch; each
/// empty where unknown.
struct kernel_figures {
  /// The mangled name and the architecture.
  std::string kernel;
  std::string arch;
  std::string name;
  std::string file;
  std::optional<std::int64_t> registers;
  std::optional<std::int64_t> static_smem_bytes;
  /// Stack per thread with callees where recorded, else the frame.
  std::optional<std::int64_t> stack_bytes;
  /// Spilled bytes stored and loaded (CUDA logs), or spilled VGPRs and
  /// SGPRs (AMD code objects).
  std::optional<std::int64_t> spills;
  /// The block size the kernel declares: required (`.reqntid`) or its
  /// launch bounds' maximum (`.maxntid`), and which.
  std::optional<std::int64_t> declared_block_size;
  bool declared_required = false;
  /// The block size occupancy was computed at; the same on both sides of a
  /// compared pair.
  std::optional<std::int64_t> block_size;
  /// Occupancy in [0, 1] at `block_size`: in the kernel's declared
  /// clusters, what a cluster launch keeps (`launch_occupancy`).
  std::optional<double> occupancy;
  /// The clusters the kernel declares (`__cluster_dims__`,
  /// `.reqnctapercluster`, Triton's `num_ctas`); empty for none.
  std::optional<inspect::dim3> cluster_dims;
  /// The dynamic shared memory per block occupancy was computed with; empty
  /// for none.
  std::optional<std::int64_t> dyn_smem_bytes;
};

/// The figures of one kernel reported, or judged by `check`.
kernel_figures figures_of(const kernel_report& report);
kernel_figures figures_of(const judged_kernel& kernel);

/// The figures of `old`'s kernel at the launch the new build's kernel was
/// reported at (`block_size` and `dyn_smem_bytes`, with `given`'s carveout
/// and model): like with like, whatever block size the old build declared. A
/// kernel whose input states its own launch (Triton's metadata) is taken at
/// that launch: its block size and shared memory are part of the kernel.
kernel_figures figures_like(const occcalc::table& tables, const build_kernel& old,
                            const std::optional<std::int64_t>& block_size,
                            const std::optional<std::int64_t>& dyn_smem_bytes, const launch_overrides& given);

/// How much worse a kernel may get before it counts as a regression.
struct regression_thresholds {
  std::int64_t registers = 0;
  std::int64_t stack_bytes = 0;
  /// In percentage points of occupancy.
  double occupancy_points = 0.0;
};

enum class change_kind { regressed, improved, changed, added, removed };

/// One kernel that is not the same in both builds.
struct kernel_change {
  change_kind kind = change_kind::changed;
  /// Empty for a new kernel (`before`) or a removed one (`after`).
  std::optional<kernel_figures> before, after;
  /// What got worse beyond the thresholds (or became unknown), what got
  /// better, and what else changed (worse within the thresholds; became
  /// known; shared memory, declared block size), each as `registers 32 -> 40`.
  std::vector<std::string> regressions;
  std::vector<std::string> improvements;
  std::vector<std::string> other_changes;
};

/// Two builds compared: every kernel that changed, appeared or went away.
struct baseline_diff {
  std::vector<kernel_change> changes;
  std::size_t unchanged = 0;
  /// Kernels whose copies nothing but their figures tells apart:
  /// `name (arch, 2 old and 2 new)`.
  std::vector<std::string> ambiguities;
  std::size_t count(change_kind kind) const noexcept;
  bool regressed() const noexcept { return count(change_kind::regressed) > 0; }
};

/// Which kernel of one build is which of the other: indexes into `before`
/// and `after`.
struct kernel_pairing {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<std::size_t> added, removed;
  std::vector<std::string> ambiguities;
};

/// Pairs the kernels of two builds: by the file as reported, name and
/// architecture; then by the file's path relative to its input; then, for
/// Triton's kernels, by their config; then by name and architecture alone; each where the key is unique on both sides.
/// Copies of a kernel in one file pair by the entry each came from where
/// both sides hold the same entries. Copies no
/// key tells apart are paired in order of their figures (equal builds pair
/// equal copies, so unchanged code never fails and a changed copy never
/// hides) and named in `ambiguities`. Nothing is dropped.
kernel_pairing pair_kernels(const kernel_store& before, const kernel_store& after);

/// One note for all the ambiguities: how many, and the first few.
std::string ambiguity_note(const std::vector<std::string>& ambiguities);

/// Compares `before` with `after`: the new kernels reported as inspect would
/// at `given`, each old one at its new pair's launch. Changes come regressed
/// first, then new, removed, improved and otherwise changed.
/// The evaluations run on up to `workers` threads.
baseline_diff compare_builds(const occcalc::table& tables, const kernel_store& before, const kernel_store& after,
                             const launch_overrides& given, const regression_thresholds& thresholds,
                             unsigned workers = 1);

/// What `after` regressed in against `before` (empty: no worse), a figure
/// known before and unknown after included.
std::vector<std::string> regressions_of(const kernel_figures& before, const kernel_figures& after,
                                        const regression_thresholds& thresholds);

/// Whether the figure a policy check (`occupancy`, `registers`, `stack`,
/// `spills`, `block_size`) reads is known on both sides: a baseline excuses
/// nothing it cannot compare.
bool comparable(const kernel_figures& before, const kernel_figures& after, std::string_view check);

}  // namespace occcalc::cli
