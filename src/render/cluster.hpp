// Thread block clusters of a query, in text and JSON (docs/clusters.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/nvidia_query.hpp"
#include "analysis/suggestion.hpp"
#include "render/json_writer.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// An occupancy range in percent, one decimal: `50.0%`, or `50.0% to 100.0%`.
std::string percent_text(const occcalc::cluster_fraction& f);

/// The cluster section of a query's text; empty without a cluster.
std::string cluster_text(const query& q, const terminal& term);

/// The `cluster` member of a query's JSON: null without a cluster.
void write_cluster(json_writer& w, const query& q);

/// An inspect record's `cluster`: what a cluster launch of the kernel's
/// declared cluster keeps per SM.
void write_cluster_launch(json_writer& w, const query& q);

/// `sweep --vary cluster`: a launch's clusters at each cluster size on one
/// device.
struct cluster_sweep_plan {
  const occcalc::nvidia_arch* arch = nullptr;
  /// The GPU and its layout, or --sm-count SMs (with the GPU they are part of).
  occcalc::cluster_device device;
  bool sm_count_given = false;
  /// What the launch holds per SM, and what a cluster launch keeps.
  std::int64_t blocks_per_sm = 0;
  occcalc::cluster_range cluster_blocks_per_sm;
  std::vector<occcalc::cluster_sweep_point> points;
  /// `occcalc::best_cluster_size` of the points.
  std::int64_t best_size = 0;
  /// The launch, for the heading: threads, registers, shared memory.
  std::string launch_words;
};

/// suggest --cluster: the size given and the best, in text and as the
/// `cluster` member of suggest's JSON.
std::string cluster_advice_text(const nvidia_suggestion& s, const terminal& term);
void write_cluster_advice(json_writer& w, const nvidia_suggestion& s);

std::string cluster_sweep_text(const cluster_sweep_plan& plan, const terminal& term);
std::string cluster_sweep_csv(const cluster_sweep_plan& plan);
std::string cluster_sweep_json(const cluster_sweep_plan& plan);

}  // namespace occcalc::cli
