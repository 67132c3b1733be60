// A kernel read from a build output, with its occupancy: what `inspect`
// prints and `check` judges.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/amd_query.hpp"
#include "analysis/evaluated.hpp"
#include "analysis/nvidia_query.hpp"
#include "builds/kernel_record.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "occcalc/common/summary.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc::cli {

/// Launch figures the user gives for every kernel (the binary cannot know
/// them), parsed once; empty when not given.
struct launch_overrides {
  std::optional<std::int64_t> threads;
  std::optional<std::int64_t> dyn_smem_bytes;
  /// The cluster the launch uses (a policy's `cluster`), for a kernel that
  /// declares none.
  std::optional<inspect::dim3> cluster;
  /// Whether `--carveout` was given (AMD kernels refuse it, `default` too),
  /// and the percentage it asks for (empty for `default`).
  bool carveout_given = false;
  std::optional<int> carveout_percent;
  /// The AMD model (`--model`); AMD kernels only (NVIDIA kernels have one).
  std::optional<occcalc::amd_model> model;
};

/// One kernel of one input, at its launch, and its occupancy if it can be
/// computed.
struct kernel_report : kernel_record {
  /// The calculator's result, NVIDIA's or an AMD model's (one variant: a
  /// library's tens of thousands of reports hold one result each, not room
  /// for both); empty when it cannot be computed, with the reason in
  /// `unavailable`.
  std::optional<evaluated> evaluation;
  std::string unavailable;
  /// Whether the kernel's arch names an AMD target of the tables (so its
  /// figures are VGPRs, SGPRs, LDS and scratch), with or without a result.
  bool amd_target = false;

  bool has_occupancy() const noexcept { return evaluation.has_value(); }
  /// The NVIDIA result, or null.
  const query* nvidia() const noexcept { return evaluation ? std::get_if<query>(&*evaluation) : nullptr; }
  /// The AMD result, or null.
  const amd_query* amd() const noexcept { return evaluation ? std::get_if<amd_query>(&*evaluation) : nullptr; }
  /// The result as every vendor-neutral output reads it; empty without one.
  std::optional<occcalc::occupancy_summary> summary() const noexcept;
  /// The occupancy its launches are sure to get, in [0, 1]
  /// (`launch_occupancy`: in its declared clusters, what a cluster launch
  /// keeps); what `check` judges and `diff` compares. Empty without a result.
  std::optional<double> launch_occupancy() const noexcept;
  /// The compiler's own occupancy where it stands for the kernel's: an AMD
  /// remark's `Occupancy [waves/SIMD]`, under the compiler's model, for a
  /// kernel whose block size was not declared or given (the remarks do not
  /// print its flat work-group size; the compiler's figure follows it). In
  /// [0, 1]; empty otherwise.
  std::optional<double> compiler_occupancy() const noexcept;
  /// Where the compiler's own occupancy (an AMD remark's) differs from
  /// occcalc's at the block size used: both, in words; empty where they
  /// agree or there is none.
  std::string compiler_difference() const;
};

/// A kernel as `check` judged it, kept for its violations: its record
/// without the result (a report's largest part), and the occupancy it was
/// judged at.
struct judged_kernel : kernel_record {
  std::optional<double> occupancy;

  explicit judged_kernel(kernel_report&& r) : judged_kernel(r.launch_occupancy(), std::move(r)) {}
  std::optional<double> launch_occupancy() const noexcept { return occupancy; }

 private:
  judged_kernel(std::optional<double> judged_at, kernel_report&& r)
      : kernel_record(std::move(r)), occupancy(judged_at) {}
};

/// One input as read: what it is and what its reader passed over; its
/// kernels' reports follow it to the sink.
struct input_report {
  std::string file;
  std::string kind;
  std::size_t skipped_entries = 0;
  std::size_t lto_entries = 0;
  std::size_t duplicate_entries = 0;
  std::size_t skipped_members = 0;
  inspect::unread_remarks unread;
};

/// Where reports go as they are made, in input order: each input's heading
/// with the number of its kernels to come, then
/// those kernels' reports in runs. A library's tens of thousands of reports
/// need not all be held at once: a sink that writes each run as it comes
/// keeps one run.
class report_sink {
 public:
  virtual ~report_sink() = default;
  virtual void input(const input_report& heading, std::size_t kernel_count) = 0;
  /// The next reports of the last input; the sink may move from them.
  virtual void kernels(std::vector<kernel_report>& run) = 0;
  /// Whether the sink reads the reports' occupancy. One that keeps the
  /// kernels to judge them later (`diff`'s store) is handed
  /// `report_launch`'s reports, which compute nothing.
  virtual bool evaluates() const { return true; }
};

/// Makes `k.static_shared_memory_bytes` ptxas's figure: takes the bytes the
/// driver reserves per block out of a section figure that holds them
/// (`k.shared_memory_read_as`), with the architecture table's reserve. The
/// figure becomes unknown on an architecture the table does not know, where
/// it may be 1 KiB off. Returns why the figure cannot be right (a section
/// smaller than the reserve it must hold), or empty.
std::string settle_static_shared_memory(const occcalc::table& tables, inspect::kernel_resources& k);

/// Parses the launch overrides as typed, once, before any kernel is read, so
/// a bad value is one error rather than one per kernel. Throws `input_error`.
launch_overrides parse_overrides(const occcalc::request& typed);

/// Computes the occupancy of `kernel` at its required block size if it has
/// one, else at `threads` (if given; no occupancy when it exceeds the launch
/// bounds), else at its launch bounds' maximum, else at the block size
/// `occcalc suggest` picks for it (`suggested`).
kernel_report report_kernel(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                            const launch_overrides& overrides,
                            launch_source threads_from = launch_source::threads_option);

/// `report_kernel`'s report without its occupancy: the kernel, its static
/// shared memory settled, and the block size it declares or is given
/// (none where `report_kernel` would search for one).
kernel_report report_launch(const occcalc::table& tables, std::string file, inspect::inspected_kernel kernel,
                            const launch_overrides& overrides,
                            launch_source threads_from = launch_source::threads_option);

}  // namespace occcalc::cli
