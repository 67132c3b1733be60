/// \file nvidia/cluster.hpp
/// Thread block clusters (compute capability 9.0 and later): how many
/// clusters of a launch run at once on a GPU, from where its clusters can run.
///
/// A cluster's blocks run at the same time on distinct SMs of one placement
/// domain (a GPC, or a part of one). With `b` the blocks an SM holds for the
/// launch (at most `max_cluster_blocks_per_sm` of them in a cluster launch)
/// and `c` blocks in a cluster, a domain of `d` SMs holds `floor(d * b / c)`
/// clusters when `d >= c`, and none otherwise (docs/clusters.md). Where the
/// domains were measured the answer is exact; where only a product's GPC
/// counts are published it is the range over every layout they allow; with
/// an SM count alone, an upper bound.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/cluster_shape.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// What an answer about clusters rests on.
enum class cluster_basis : std::uint8_t {
  /// The product's placement domains, measured: exact.
  measured,
  /// The product's published GPC counts: the range over their layouts.
  gpc_counts,
  /// The SM count alone (a product without a layout, or a part of a GPU):
  /// from none up to every SM's blocks.
  sm_count,
};

/// The name of a basis, as JSON spells it.
constexpr const char* to_string(cluster_basis basis) noexcept {
  switch (basis) {
    case cluster_basis::measured: return "measured";
    case cluster_basis::gpc_counts: return "gpc_counts";
    case cluster_basis::sm_count: break;
  }
  return "sm_count";
}

/// A figure known to lie in [fewest, most]; exact when the two agree.
struct cluster_range {
  std::int64_t fewest = 0;
  std::int64_t most = 0;

  constexpr bool exact() const noexcept { return fewest == most; }
};

/// A range as people read it: `8`, or `8 to 16`.
inline std::string to_string(const cluster_range& r) {
  return r.exact() ? std::to_string(r.most) : std::to_string(r.fewest) + " to " + std::to_string(r.most);
}

/// A fraction (an occupancy) known to lie in [fewest, most], both in [0, 1].
struct cluster_fraction {
  double fewest = 0.0;
  double most = 0.0;
};

/// `part / whole` for each end of `part`; 0 where `whole` is not positive.
inline cluster_fraction fraction_of(const cluster_range& part, std::int64_t whole) {
  if (whole <= 0) return {};
  const auto w = static_cast<double>(whole);
  return {static_cast<double>(part.fewest) / w, static_cast<double>(part.most) / w};
}

/// Clusters of a launch of one cluster size on one device.
struct cluster_capacity {
  cluster_basis basis = cluster_basis::sm_count;
  /// The layout used, for `measured` and `gpc_counts`.
  const cluster_layout* layout = nullptr;
  /// SMs on the device.
  std::int64_t sm_count = 0;
  /// Clusters that run at once (`cudaOccupancyMaxActiveClusters`).
  cluster_range clusters;
  /// Their blocks, and the blocks that run at once without clusters (every
  /// SM's `blocks_per_sm`).
  cluster_range blocks_in_clusters;
  std::int64_t blocks_without_clusters = 0;
  /// Cluster occupancy: blocks in clusters over blocks without; 0 when no
  /// block runs.
  cluster_fraction occupancy;
};

/// Clusters of `c` blocks that a domain of `d` SMs, each holding `b` of
/// their blocks, runs at once.
constexpr std::int64_t clusters_in_domain(std::int64_t d, std::int64_t b, std::int64_t c) noexcept {
  return d >= c ? d * b / c : 0;
}

/// Blocks an SM holds in a cluster launch: the launch's blocks per SM, capped
/// where the architecture's cap is known; the range spans the known caps
/// otherwise (from the portable cluster size's, as on Hopper, to none).
inline cluster_range cluster_blocks_per_sm(const nvidia_arch& arch, std::int64_t blocks_per_sm) {
  if (arch.max_cluster_blocks_per_sm)
    return {std::min(blocks_per_sm, *arch.max_cluster_blocks_per_sm),
            std::min(blocks_per_sm, *arch.max_cluster_blocks_per_sm)};
  return {std::min(blocks_per_sm, arch.max_cluster_size_portable.value_or(blocks_per_sm)), blocks_per_sm};
}

/// A launch per SM when it runs in clusters: the blocks a cluster launch
/// keeps (`cluster_blocks_per_sm`) and the occupancy they give, in [0, 1].
struct cluster_launch {
  cluster_range blocks_per_sm;
  cluster_fraction occupancy;
};

/// `result` (a launch's occupancy without clusters) run in clusters on `arch`.
inline cluster_launch in_clusters(const nvidia_arch& arch, const occupancy_result& result) {
  const cluster_range blocks = cluster_blocks_per_sm(arch, result.blocks_per_sm);
  const cluster_range warps{blocks.fewest * result.warps_per_block, blocks.most * result.warps_per_block};
  return {blocks, fraction_of(warps, result.max_warps_per_sm)};
}

namespace detail {

/// The most steps one range over GPC layouts may take (the loader's bounds
/// keep every table's layouts far below it); a layout past it answers as an
/// SM count alone, a wider range that is still true.
inline constexpr std::int64_t max_layout_search_steps = std::int64_t{1} << 16;

/// The steps `gpc_layout_clusters` takes for `tpcs` TPCs: for each GPC
/// count, GPCs x TPCs x TPCs per GPC (past the budget: one more than it).
inline std::int64_t layout_search_steps(const cluster_layout& layout, std::int64_t tpcs) noexcept {
  const std::int64_t over = max_layout_search_steps + 1;
  // Each factor is held at the budget first, so no product passes 2^63.
  const auto held = [&](std::int64_t v) { return std::clamp<std::int64_t>(v, 0, over); };
  std::int64_t steps = 0;
  for (const std::int64_t gpcs : layout.gpc_counts) {
    steps += std::min(over, held(gpcs) * (held(tpcs) + 1) * held(layout.max_tpcs_per_gpc));
    if (steps > max_layout_search_steps) return over;
  }
  return steps;
}

/// The fewest and most clusters over the layouts `layout.gpc_counts`
/// allows for `tpcs` TPCs: `b` holds the blocks per SM for the fewest and
/// for the most.
inline cluster_range gpc_layout_clusters(const cluster_layout& layout, std::int64_t tpcs, cluster_range b,
                                         std::int64_t c) {
  using index = std::size_t;
  const auto m = static_cast<index>(layout.max_tpcs_per_gpc);
  const auto n = static_cast<index>(tpcs);
  constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
  const auto whole = [&](index t, std::int64_t blocks) {
    return clusters_in_domain(static_cast<std::int64_t>(t) * layout.sms_per_tpc, blocks, c);
  };
  // split[t]: the fewest over the splits of a GPC of t TPCs into domains.
  std::vector<std::int64_t> split(m + 1, none);
  split[0] = 0;
  for (index t = 1; t <= m; ++t) {
    for (index part = 1; part <= t; ++part) split[t] = std::min(split[t], split[t - part] + whole(part, b.fewest));
  }
  cluster_range out{none, -1};
  for (const std::int64_t gpcs : layout.gpc_counts) {
    // Over the first k GPCs, holding t TPCs in all: the most clusters (hi),
    // and the fewest with no GPC split (lo0) and with one split (lo1).
    std::vector<std::int64_t> hi(n + 1, -1), lo0(n + 1, none), lo1(n + 1, none);
    hi[0] = lo0[0] = 0;
    for (std::int64_t k = 0; k < gpcs; ++k) {
      std::vector<std::int64_t> hi2(n + 1, -1), lo02(n + 1, none), lo12(n + 1, none);
      for (index t = 0; t <= n; ++t) {
        for (index g = 1; g <= m && t + g <= n; ++g) {
          if (hi[t] >= 0) hi2[t + g] = std::max(hi2[t + g], hi[t] + whole(g, b.most));
          if (lo0[t] != none) {
            lo02[t + g] = std::min(lo02[t + g], lo0[t] + whole(g, b.fewest));
            lo12[t + g] = std::min(lo12[t + g], lo0[t] + split[g]);
          }
          if (lo1[t] != none) lo12[t + g] = std::min(lo12[t + g], lo1[t] + whole(g, b.fewest));
        }
      }
      hi.swap(hi2);
      lo0.swap(lo02);
      lo1.swap(lo12);
    }
    if (hi[n] < 0) continue;  // no layout of this many GPCs
    out.most = std::max(out.most, hi[n]);
    out.fewest = std::min({out.fewest, lo0[n], lo1[n]});
  }
  return out.most < 0 ? cluster_range{} : out;
}

}  // namespace detail

/// What an answer on a device of `sm_count` SMs with `layout` (null for
/// none) rests on: its measured domains; its GPC counts, where the search
/// over their layouts stays within its budget; else its SM count alone.
inline cluster_basis cluster_basis_of(const cluster_layout* layout, std::int64_t sm_count) noexcept {
  if (!layout) return cluster_basis::sm_count;
  if (layout->measured()) return cluster_basis::measured;
  const bool searchable =
      layout->sms_per_tpc > 0 &&
      detail::layout_search_steps(*layout, sm_count / layout->sms_per_tpc) <= detail::max_layout_search_steps;
  return searchable ? cluster_basis::gpc_counts : cluster_basis::sm_count;
}

/// Clusters of `cluster_size` blocks that run at once on a device of
/// `sm_count` SMs, each holding `blocks_per_sm` of the launch's blocks; from
/// `layout` where there is one (null: the SM count alone).
inline cluster_range max_active_clusters(const nvidia_arch& arch, const cluster_layout* layout, std::int64_t sm_count,
                                         std::int64_t blocks_per_sm, std::int64_t cluster_size) {
  const cluster_range b = cluster_blocks_per_sm(arch, blocks_per_sm);
  if (cluster_size <= 0 || b.most <= 0 || sm_count <= 0) return {};
  cluster_range out;
  if (layout && layout->measured()) {
    for (const auto d : layout->domain_sms) {
      out.fewest += clusters_in_domain(d, b.fewest, cluster_size);
      out.most += clusters_in_domain(d, b.most, cluster_size);
    }
    return out;
  }
  // A 1-block cluster runs wherever a block does, on any layout: every SM
  // holds its blocks.
  if (cluster_size == 1) return {sm_count * b.fewest, sm_count * b.most};
  if (cluster_basis_of(layout, sm_count) == cluster_basis::gpc_counts) {
    out = detail::gpc_layout_clusters(*layout, sm_count / layout->sms_per_tpc, b, cluster_size);
  } else {
    out = {0, clusters_in_domain(sm_count, b.most, cluster_size)};
  }
  // A size past the portable one may not launch at all where not measured.
  if (cluster_size > arch.max_cluster_size_portable.value_or(0)) out.fewest = 0;
  return out;
}

/// The clusters of a launch of `cluster_size` blocks on a device:
/// `max_active_clusters`, their blocks and the cluster occupancy.
inline cluster_capacity cluster_capacity_on(const nvidia_arch& arch, const cluster_layout* layout,
                                            std::int64_t sm_count, std::int64_t blocks_per_sm,
                                            std::int64_t cluster_size) {
  cluster_capacity out;
  out.basis = cluster_basis_of(layout, sm_count);
  out.layout = out.basis == cluster_basis::sm_count ? nullptr : layout;
  out.sm_count = sm_count;
  out.clusters = max_active_clusters(arch, layout, sm_count, blocks_per_sm, cluster_size);
  out.blocks_in_clusters = {out.clusters.fewest * cluster_size, out.clusters.most * cluster_size};
  out.blocks_without_clusters = sm_count * blocks_per_sm;
  out.occupancy = fraction_of(out.blocks_in_clusters, out.blocks_without_clusters);
  return out;
}

/// The largest cluster size, up to `up_to` (by default the architecture's
/// largest), of which a cluster runs at once: `fewest` surely fits, `most`
/// may (`cudaOccupancyMaxPotentialClusterSize`: with non-portable sizes
/// allowed, up to the largest; without, up to the portable size); 0 when none
/// fits.
inline cluster_range largest_cluster_size(const nvidia_arch& arch, const cluster_layout* layout, std::int64_t sm_count,
                                          std::int64_t blocks_per_sm, std::optional<std::int64_t> up_to = {}) {
  cluster_range out;
  const std::int64_t last = std::min(up_to.value_or(arch.max_cluster_size()), arch.max_cluster_size());
  for (std::int64_t size = 1; size <= last; ++size) {
    const cluster_range r = max_active_clusters(arch, layout, sm_count, blocks_per_sm, size);
    if (r.fewest > 0) out.fewest = size;
    if (r.most > 0) out.most = size;
  }
  return out;
}

/// One cluster size of a sweep: `cluster_capacity_on` at that size.
struct cluster_sweep_point {
  std::int64_t cluster_size = 0;
  cluster_capacity capacity;
};

/// The clusters of a launch at every cluster size from `first` to `last`
/// (Nsight Compute's "Impact of Varying Cluster Size").
inline std::vector<cluster_sweep_point> cluster_sweep(const nvidia_arch& arch, const cluster_layout* layout,
                                                      std::int64_t sm_count, std::int64_t blocks_per_sm,
                                                      std::int64_t first, std::int64_t last, std::int64_t step = 1) {
  std::vector<cluster_sweep_point> points;
  for (std::int64_t size = first; size <= last; size += step) {
    points.push_back({size, cluster_capacity_on(arch, layout, sm_count, blocks_per_sm, size)});
  }
  return points;
}

/// The cluster size to use: the largest whose guaranteed cluster occupancy
/// (its `occupancy.fewest`) is the best any size of `points` guarantees;
/// larger clusters share more data, and none of these runs fewer blocks.
/// 0 when no size guarantees a running cluster.
inline std::int64_t best_cluster_size(const std::vector<cluster_sweep_point>& points) {
  std::int64_t best = 0;
  double best_occupancy = 0.0;
  for (const auto& p : points) {
    // Exact comparison: the occupancies share one denominator.
    if (p.capacity.clusters.fewest > 0 && p.capacity.occupancy.fewest >= best_occupancy) {
      best = p.cluster_size;
      best_occupancy = p.capacity.occupancy.fewest;
    }
  }
  return best;
}

}  // namespace occcalc
