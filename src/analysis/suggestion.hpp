// What `occcalc suggest` concludes, for either vendor, before it is printed:
// every figure the text and JSON show, computed once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/limits.hpp"
#include "occcalc/amd/steps.hpp"
#include "occcalc/nvidia/cluster.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/request/amd.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc::cli {

/// NVIDIA: cudaOccMaxPotentialOccupancyBlockSize's search, the next step per
/// limiter and the dynamic shared memory N blocks leave.
struct nvidia_suggestion {
  const occcalc::resolved_request* resolved = nullptr;
  occcalc::dynamic_shared_memory_rule rule;
  /// --max-threads; 0 for the architecture's maximum.
  std::int64_t max_threads = 0;
  occcalc::block_size_choice choice;
  /// The block sizes as good as `choice` (smallest first), and the one among
  /// them occcalc recommends (`occcalc::recommended_block_size`).
  std::vector<std::int64_t> ties;
  std::int64_t recommended = 0;
  /// Whether --threads was given: the next steps start from it.
  bool threads_given = false;
  /// The launch as given.
  occcalc::occupancy_result now;
  /// --target as a fraction, and whether the launch already meets it.
  std::optional<double> target;
  bool target_met = false;
  std::vector<occcalc::next_step> steps;
  /// Where no step gets there alone: the cheapest changes of registers,
  /// shared memory and block size, one or two together.
  std::vector<occcalc::launch_changes> together;
  /// ptxas's register cap for `__launch_bounds__` of each step (registers
  /// steps only; 0 elsewhere).
  std::vector<std::int64_t> register_caps;
  /// --blocks and the dynamic shared memory that leaves them resident.
  std::optional<std::int64_t> blocks;
  std::optional<occcalc::dynamic_shared_memory_answer> dynamic;
  /// Blocks resident with cudaOccAvailableDynamicSMemPerBlock's answer, when
  /// it differs from the resident answer.
  std::optional<std::int64_t> resident_at_cuda_bytes;
  /// --cluster: the launch's clusters at every size on the device, the
  /// size given and the best (`occcalc::best_cluster_size`).
  std::vector<occcalc::cluster_sweep_point> cluster_points;
  std::int64_t cluster_size = 0;
  std::int64_t best_cluster_size = 0;
};

/// AMD under the HIP runtime's or RCP's model: HIP's
/// hipOccupancyMaxPotentialBlockSize (hip only) and, with --threads, the
/// model's next steps.
struct amd_suggestion {
  occcalc::resolved_amd_request resolved;
  /// Whether the block size search ran (hip; RCP has none): the fields
  /// from `choice` to `min_grid` are set only then.
  bool searched = false;
  occcalc::amd_hip_block_size_choice choice;
  /// The block size limit the search ran under (--max-threads, else the
  /// target's maximum work-group size).
  std::int64_t size_limit = 0;
  /// The resources that bound the work-items a unit holds.
  std::string alu_limiters;
  /// CUs (WGPs in WGP mode: HIP counts those as its multiprocessors) and the
  /// grid that fills them; 0 without a GPU or --sm-count.
  std::int64_t units = 0;
  std::int64_t min_grid = 0;
  /// Whether --threads was given: the next steps start from it.
  bool threads_given = false;
  /// The model's result for the launch as given.
  occcalc::amd_occupancy_result now;
  /// --target as a fraction, and whether the launch already meets it.
  std::optional<double> target;
  bool target_met = false;
  std::vector<occcalc::amd_next_step> steps;
  /// Where no step gets there alone: the cheapest changes, one or two.
  std::vector<occcalc::amd_launch_changes> together;
};

/// AMD under the compiler's model (`--model llvm`): the occupancy now and
/// what reaches the next level or the target, as LLVM's llvm-calc-occupancy
/// gives its next step.
struct amd_llvm_suggestion {
  occcalc::resolved_amd_request resolved;
  occcalc::amd_occupancy_result now;
  /// --target as a fraction, and whether the kernel already meets it.
  std::optional<double> target;
  bool target_met = false;
  /// Empty at the most a SIMD holds (or a target met): nothing to gain.
  std::optional<occcalc::amd_llvm_plan> plan;
};

}  // namespace occcalc::cli
