// One kernel of a build: the record every view of a kernel extends.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "builds/readers/inspect_bytes.hpp"

namespace occcalc::cli {

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

/// One kernel of a build: the file it was read from, what the binary
/// states (its typed target and resources, `inspected_kernel`), and the
/// launch it is judged at. Each view of a kernel extends it with what it
/// adds: `kernel_report` the result, `judged_kernel` the occupancy `check`
/// judged, `build_kernel` its path within its input.
struct kernel_record {
  /// The input file as given (`-` for standard input).
  std::string file;
  inspect::inspected_kernel kernel;
  /// The block size it is computed at, and where that came from.
  std::optional<std::int64_t> block_size;
  launch_source block_size_from = launch_source::none;
  /// The dynamic shared memory per block it is computed with (--dyn-smem,
  /// a Triton kernel's metadata); empty for none.
  std::optional<std::int64_t> dynamic_shared_memory_bytes;
  /// A Triton kernel's config (`triton_metadata::config()`): what pairs it
  /// with its counterpart in another build, whatever directory Triton's hash
  /// put either in; empty for other kernels.
  std::string triton_config;

  /// Whether the launch is the one its input states (Triton's metadata),
  /// which wins over the command's.
  bool own_launch() const noexcept { return block_size_from == launch_source::triton && block_size; }
};

}  // namespace occcalc::cli
