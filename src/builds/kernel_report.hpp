// A kernel read from a build output, with its occupancy: what `inspect`
// prints and `check` judges.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/amd_query.hpp"
#include "analysis/evaluated.hpp"
#include "analysis/nvidia_query.hpp"
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

/// Where the block size a kernel is computed at comes from. `spelling`
/// gives the names inspect's `block_size_from` and check's `judged_at`
/// write: the schemas' contract.
enum class launch_source : std::uint8_t {
  /// No block size: none declared, none given, none found.
  none,
  /// `--threads`, or a launch given alike (`diff`'s new build's).
  threads_option,
  /// The policy's `threads`.
  policy,
  /// The kernel's required size (`.reqntid`, `reqd_work_group_size`).
  required,
  /// Its launch bounds' maximum (`.maxntid`), or a policy default clamped
  /// to it.
  launch_bounds,
  /// Declared none and given none: the size `occcalc suggest` picks.
  suggested,
  /// A Triton cache's metadata: `num_warps` x the warp size, the launch
  /// Triton's launcher makes.
  triton,
};

/// Every source's spelling, in the enumeration's order (`none` is empty).
inline constexpr std::array<std::string_view, 7> launch_source_spellings{
    "", "--threads", "policy", "required", "launch bounds", "suggested", "triton"};

constexpr std::string_view spelling(launch_source source) noexcept {
  return launch_source_spellings[static_cast<std::size_t>(source)];
}

/// One kernel of one input, and its occupancy if it can be computed.
struct kernel_report {
  /// The input file as given (`-` for standard input).
  std::string file;
  inspect::inspected_kernel kernel;
  /// The block size occupancy was computed at, and where it came from.
  std::optional<std::int64_t> block_size;
  launch_source block_size_from = launch_source::none;
  /// The dynamic shared memory per block it was computed with (--dyn-smem,
  /// a Triton kernel's metadata); empty for none.
  std::optional<std::int64_t> dynamic_shared_memory_bytes;
  /// The calculator's result, NVIDIA's or an AMD model's (one variant: a
  /// library's tens of thousands of reports hold one result each, not room
  /// for both); empty when it cannot be computed, with the reason in
  /// `unavailable`.
  std::optional<evaluated> evaluation;
  std::string unavailable;
  /// Whether the kernel's arch names an AMD target of the tables (so its
  /// figures are VGPRs, SGPRs, LDS and scratch), with or without a result.
  bool amd_target = false;
  /// A Triton kernel's config (`triton_metadata::config()`): what pairs it
  /// with its counterpart in another build; empty for other kernels.
  std::string triton_config;

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

/// A kernel as `check` judged it, kept for its violations: its report
/// without the result (848 of a report's 1,544 bytes), and the occupancy it
/// was judged at.
struct judged_kernel {
  std::string file;
  inspect::inspected_kernel kernel;
  std::optional<std::int64_t> block_size;
  std::optional<std::int64_t> dynamic_shared_memory_bytes;
  std::optional<double> occupancy;

  explicit judged_kernel(kernel_report&& r)
      : file(std::move(r.file)),
        kernel(std::move(r.kernel)),
        block_size(r.block_size),
        dynamic_shared_memory_bytes(r.dynamic_shared_memory_bytes),
        occupancy(r.launch_occupancy()) {}
  std::optional<double> launch_occupancy() const noexcept { return occupancy; }
};

/// One input's kernels, as read and reported.
struct input_report {
  std::string file;
  std::string kind;
  std::size_t skipped_entries = 0;
  std::size_t lto_entries = 0;
  std::size_t duplicate_entries = 0;
  std::size_t skipped_members = 0;
  inspect::unread_remarks unread;
  std::vector<kernel_report> kernels;
};

/// Where reports go as they are made, in input order: each input's heading
/// (`kernels` left empty) with the number of its kernels to come, then
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
