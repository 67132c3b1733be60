#include "render/brief.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "occcalc/amd/summary.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "render/cluster.hpp"

namespace occcalc::cli {

std::string brief_text(std::string_view target, const occcalc::occupancy_summary& s) {
  const bool nvidia = s.model == "nvidia";
  std::string unit(s.unit);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
  return fmt::format(
      "{}: {:.1f}%, {} {} and {} of {} {} per {}, limited by {}\n", target, s.occupancy() * occcalc::percent_per_unit,
      s.groups_per_unit,
      nvidia ? (s.groups_per_unit == 1 ? "block" : "blocks") : (s.groups_per_unit == 1 ? "work-group" : "work-groups"),
      s.active_warps, s.max_warps, nvidia ? "warps" : "waves", unit, s.limiter_list(", ", true));
}

namespace {

/// `; in clusters of 16: 8 blocks per SM (50.0%), 7 at once (measured)`:
/// what a cluster launch keeps, and the clusters on each device asked for.
std::string cluster_words(const query& q) {
  if (!runs_in_clusters(q)) return {};
  std::string text =
      fmt::format("; in clusters of {}: {} blocks per SM ({})", q.request.cluster->blocks(),
                  occcalc::to_string(q.in_clusters.blocks_per_sm), percent_text(q.in_clusters.occupancy));
  for (std::size_t i = 0; i < q.clusters.size(); ++i) {
    const auto& c = q.clusters[i];
    const occcalc::gpu* g = q.request.cluster_devices[i].gpu;
    const std::string on = q.clusters.size() > 1 && g ? " on " + g->name : "";
    text += fmt::format(", {} at once{} ({})", occcalc::to_string(c.clusters), on, occcalc::to_string(c.basis));
  }
  return text;
}

}  // namespace

std::string brief_line(const query& q) {
  std::string line = brief_text(brief_target(q), occcalc::summarize(q.result));
  line.insert(line.size() - 1, cluster_words(q));
  return line;
}

std::string brief_line(const amd_query& q) {
  std::string line = brief_text(brief_target(q), occcalc::summarize(q.result));
  // Waves per SIMD: the figure AMD's tools and clang's Occupancy [waves/SIMD] count.
  line.insert(line.size() - 1,
              fmt::format("; {:g} of {} waves per SIMD", q.result.waves_per_simd, q.result.max_waves_per_simd));
  return line;
}

std::string brief_target(const query& q) {
  const std::string& id = q.request.arch->id;
  const std::string* named = q.request.device_name();
  return named ? fmt::format("{} ({})", *named, id) : id;
}

std::string brief_target(const amd_query& q) {
  const std::string& id = q.request.target->id;
  return q.request.named_gpu ? fmt::format("{} ({})", q.request.named_gpu->name, id) : id;
}

}  // namespace occcalc::cli
