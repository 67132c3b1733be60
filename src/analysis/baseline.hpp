// Comparing two builds kernel by kernel: what `occcalc diff` shows and what
// `check --baseline` excuses. Each side is a build output (read as inspect
// reads it) or a saved `inspect --json`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_report.hpp"

namespace occcalc::cli {

/// The figures of one kernel on one architecture that a comparison reads;
/// each empty where the input does not record it.
struct kernel_figures {
  /// The mangled name and the architecture: what identifies a kernel
  /// across builds.
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
  std::optional<std::int64_t> block_size;
  /// Occupancy in [0, 1] at `block_size`.
  std::optional<double> occupancy;
};

/// The figures of one kernel reported.
kernel_figures figures_of(const kernel_report& report);

/// The figures of every kernel reported.
std::vector<kernel_figures> figures_of(const std::vector<input_report>& reports);

/// The figures in a saved `occcalc inspect --json` (schema 2 or 3). Throws
/// `occcalc::table_error` naming `origin` and the record for anything else.
std::vector<kernel_figures> figures_from_inspect_json(const std::string& origin, const std::string& text);

/// Whether `text` is JSON (a saved inspect --json) rather than a build output
/// or a compiler log.
bool looks_like_json(const std::string& text);

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
  /// What got worse beyond the thresholds, what got better, and what else
  /// changed (worse within the thresholds; shared memory, block size), each
  /// as `registers 32 -> 40`.
  std::vector<std::string> regressions;
  std::vector<std::string> improvements;
  std::vector<std::string> other_changes;
};

/// Two builds compared: every kernel that changed, appeared or went away.
struct baseline_diff {
  std::vector<kernel_change> changes;
  std::size_t unchanged = 0;
  std::size_t count(change_kind kind) const noexcept;
  bool regressed() const noexcept { return count(change_kind::regressed) > 0; }
};

/// Compares `before` with `after`, kernels matched by mangled name and
/// architecture (the first of several with one key). Changes come
/// regressed first, then new, removed, improved and otherwise changed.
baseline_diff compare_builds(const std::vector<kernel_figures>& before, const std::vector<kernel_figures>& after,
                             const regression_thresholds& thresholds);

/// What `after` regressed in against `before` (empty: no worse).
std::vector<std::string> regressions_of(const kernel_figures& before, const kernel_figures& after,
                                        const regression_thresholds& thresholds);

}  // namespace occcalc::cli
