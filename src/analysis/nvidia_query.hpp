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
  /// The grid's waves on the named GPU, when the request gave a grid.
  std::optional<occcalc::waves> waves;
  /// The grid's waves on each product of a family with different SM counts
  /// (`family_grid::per_product`).
  std::vector<std::pair<const occcalc::gpu*, occcalc::waves>> family_waves;
  /// With a cluster: the blocks an SM holds in a cluster launch and their
  /// occupancy, and on each device of `request.cluster_devices`, in its
  /// order, the clusters and the largest cluster size that fits.
  occcalc::cluster_launch in_clusters;
  std::vector<occcalc::cluster_capacity> clusters;
  std::vector<occcalc::cluster_range> largest_cluster_sizes;
};

/// Resolves `req` against `tables` and computes its occupancy; throws
/// `occcalc::input_error` for bad input.
inline query evaluate(occcalc::resolved_request resolved) {
  query q{std::move(resolved), {}, std::nullopt, {}, {}, {}, {}};
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
  if (q.request.grid_blocks && q.request.sm_count) {
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
