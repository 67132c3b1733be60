// One evaluated request: what the renderers print.
#pragma once

#include <utility>
#include <vector>

#include "occcalc/common/waves.hpp"
#include "occcalc/nvidia/cluster.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc::cli {

/// A resolved request and its result.
struct query {
  occcalc::resolved_request request;
  occcalc::occupancy_result result;
  /// The grid's waves on the named GPU, when the request gave a grid; in
  /// clusters, of the blocks in clusters, where that figure is exact.
  std::optional<occcalc::waves> waves;
  /// The grid's waves on each product of a family with different SM counts,
  /// in the family's order.
  std::vector<std::pair<const occcalc::gpu*, occcalc::waves>> family_waves;
  /// With a cluster: the blocks an SM holds in a cluster launch and their
  /// occupancy, and on each device of `request.cluster_devices`, in its
  /// order, the clusters and the largest cluster size that fits.
  occcalc::cluster_launch in_clusters;
  std::vector<occcalc::cluster_capacity> clusters;
  std::vector<occcalc::cluster_range> largest_cluster_sizes;
  /// With a cluster and a grid, on each device: the grid's waves with the
  /// most blocks in clusters (the fewest waves) and with the fewest (the
  /// most; all zero where none may run).
  struct waves_range {
    occcalc::waves fewest;
    occcalc::waves most;
  };
  std::vector<waves_range> cluster_waves;
};

/// Whether the launch runs in clusters.
inline bool runs_in_clusters(const query& q) noexcept { return q.request.cluster.has_value(); }

/// The occupancy the launch is sure to get, in [0, 1]: in clusters, the
/// fewest blocks per SM a cluster launch keeps (docs/clusters.md), else the
/// result's. What every gate judges and every comparison compares.
inline double launch_occupancy(const query& q) noexcept {
  return runs_in_clusters(q) ? q.in_clusters.occupancy.fewest : q.result.occupancy();
}

/// Whether a cluster launch may keep fewer blocks per SM than the launch
/// holds without clusters: the cluster launch, not a resource, then limits
/// what `launch_occupancy` judges.
inline bool cluster_limited(const query& q) noexcept {
  return runs_in_clusters(q) && q.in_clusters.blocks_per_sm.fewest < q.result.blocks_per_sm;
}

/// Resolves `req` against `tables` and computes its occupancy; throws
/// `occcalc::input_error` for bad input.
inline query evaluate(occcalc::resolved_request resolved) {
  query q{std::move(resolved), {}, std::nullopt, {}, {}, {}, {}, {}};
  q.result = occcalc::compute_occupancy(*q.request.arch, q.request.launch);
  if (q.request.cluster) {
    const auto& arch = *q.request.arch;
    q.in_clusters = occcalc::in_clusters(arch, q.result);
    const std::int64_t blocks = q.result.blocks_per_sm;
    for (const auto& d : q.request.cluster_devices) {
      q.clusters.push_back(
          occcalc::cluster_capacity_on(arch, d.layout, d.sm_count, blocks, q.request.cluster->blocks()));
      q.largest_cluster_sizes.push_back(occcalc::largest_cluster_size(arch, d.layout, d.sm_count, blocks));
    }
  }
  if (q.request.grid_blocks && q.request.cluster) {
    // A wave is the clusters that run at once: blocks per wave = active clusters x their size.
    const std::int64_t grid = *q.request.grid_blocks;
    for (const auto& c : q.clusters) {
      q.cluster_waves.push_back({occcalc::compute_waves_of(grid, c.blocks_in_clusters.most),
                                 occcalc::compute_waves_of(grid, c.blocks_in_clusters.fewest)});
    }
    if (q.clusters.size() == 1 && q.clusters.front().blocks_in_clusters.exact())
      q.waves = q.cluster_waves.front().fewest;
  } else if (q.request.grid_blocks && q.request.sm_count) {
    q.waves = occcalc::compute_waves(*q.request.grid_blocks, *q.request.sm_count, q.result.blocks_per_sm);
  } else if (q.request.grid_blocks) {
    for (const occcalc::gpu* g : q.request.family) {
      q.family_waves.emplace_back(g,
                                  occcalc::compute_waves(*q.request.grid_blocks, g->sm_count, q.result.blocks_per_sm));
    }
  }
  return q;
}

/// The same from a request as typed.
inline query evaluate(const occcalc::table& tables, const occcalc::request& req) {
  return evaluate(occcalc::resolve(tables, req));
}

}  // namespace occcalc::cli
