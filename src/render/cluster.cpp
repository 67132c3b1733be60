#include "render/cluster.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "occcalc/common/percent.hpp"
#include "occcalc/version.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

using occcalc::cluster_basis;
using occcalc::cluster_range;

std::string range_text(const cluster_range& r) { return occcalc::to_string(r); }

/// `{fewest, most}` of a range or a fraction as a JSON member.
template <typename Range>
void write_range(json_writer& w, std::string_view name, const Range& r) {
  w.key(name);
  w.begin_object();
  w.member("fewest", r.fewest);
  w.member("most", r.most);
  w.end_object();
}

/// One cluster size's answer as a JSON object.
void write_point(json_writer& w, const occcalc::cluster_sweep_point& p) {
  const auto& c = p.capacity;
  w.begin_object();
  w.member("cluster_size", p.cluster_size);
  write_range(w, "max_active_clusters", c.clusters);
  write_range(w, "blocks_in_clusters", c.blocks_in_clusters);
  write_range(w, "cluster_occupancy", c.occupancy);
  w.end_object();
}

/// The device an answer is on: `H200 (132 SMs)`, or `66 SMs of H200
/// (--sm-count)`.
std::string device_words(const occcalc::cluster_device& d, bool sm_count_given) {
  return d.gpu && !sm_count_given ? fmt::format("{} ({} SMs)", d.gpu->name, d.sm_count)
                                  : device_text(d.sm_count, "SMs", d.gpu ? &d.gpu->name : nullptr, true);
}

/// What an answer rests on, for its note.
std::string basis_note(const occcalc::cluster_capacity& c) {
  switch (c.basis) {
    case cluster_basis::measured:
      return fmt::format("measured: placement domains of {} SMs", fmt::join(c.layout->domain_sms, ", "));
    case cluster_basis::gpc_counts:
      return fmt::format("a range: not measured; the fewest and most of any layout of {} GPCs of up to {} SMs",
                         fmt::join(c.layout->gpc_counts, " or "), c.layout->max_tpcs_per_gpc * c.layout->sms_per_tpc);
    case cluster_basis::sm_count: break;
  }
  return "a range: no layout known; from none to every SM's blocks (tools/gpu/run measures one)";
}

}  // namespace

std::string percent_text(const occcalc::cluster_fraction& f) {
  const auto one = [](double x) { return fmt::format("{:.1f}%", x * occcalc::percent_per_unit); };
  return one(f.fewest) == one(f.most) ? one(f.most) : one(f.fewest) + " to " + one(f.most);
}

std::string cluster_text(const query& q, const terminal& term) {
  if (!q.request.cluster) return {};
  const auto& arch = *q.request.arch;
  const auto& shape = *q.request.cluster;
  const std::int64_t size = shape.blocks();
  std::string text =
      "\n" +
      heading(fmt::format("Clusters of {} ({})", counted(size, "block", "blocks"), occcalc::to_string(shape)), term);
  const bool portable = size <= arch.max_cluster_size_portable.value_or(0);
  text += row("portable", portable ? "yes" : "no",
              portable ? fmt::format("up to {} blocks launch on every GPU from {}", *arch.max_cluster_size_portable,
                                     arch.compute_capability())
                       : "needs cudaFuncAttributeNonPortableClusterSizeAllowed",
              term.columns);
  text += row(
      "blocks per SM",
      fmt::format("{} ({})", range_text(q.in_clusters.blocks_per_sm), percent_text(q.in_clusters.occupancy)),
      arch.max_cluster_blocks_per_sm
          ? fmt::format("a cluster launch keeps at most {} on an SM on {}", *arch.max_cluster_blocks_per_sm, arch.id)
          : fmt::format("how many a cluster launch keeps on an SM on {} is not measured", arch.id),
      term.columns);
  if (q.clusters.empty()) {
    text +=
        row("max active clusters", "-",
            "name a GPU (--gpu) or its SMs (--sm-count): clusters depend on how many SMs each GPC has", term.columns);
  }
  for (std::size_t i = 0; i < q.clusters.size(); ++i) {
    const auto& c = q.clusters[i];
    text += "\n" + heading("On " + device_words(q.request.cluster_devices[i], q.request.sm_count_given), term);
    text += row("max active clusters", range_text(c.clusters), basis_note(c), term.columns);
    text +=
        row("cluster occupancy", percent_text(c.occupancy),
            fmt::format("{} of {} blocks run in clusters", range_text(c.blocks_in_clusters), c.blocks_without_clusters),
            term.columns);
    text += row("largest cluster", range_text(q.largest_cluster_sizes[i]),
                fmt::format("blocks, of at most {} on {}", arch.max_cluster_size(), arch.id), term.columns);
    if (i < q.cluster_waves.size() && !q.waves) {
      // The grid's waves where they are a range, or one of a family's (exact ones alone are shown in
      // full above, under Waves).
      const auto& w = q.cluster_waves[i];
      text += row("waves per SM",
                  w.fewest.blocks_per_wave == 0 ? std::string("-")
                  : w.most.blocks_per_wave == 0 ? fmt::format("{:.2f} or more", w.fewest.waves_per_sm)
                  : c.blocks_in_clusters.exact()
                      ? fmt::format("{:.2f}", w.fewest.waves_per_sm)
                      : fmt::format("{:.2f} to {:.2f}", w.fewest.waves_per_sm, w.most.waves_per_sm),
                  fmt::format("{} blocks / blocks in clusters", *q.request.grid_blocks), term.columns);
    }
  }
  return text;
}

void write_cluster_launch(json_writer& w, const query& q) {
  w.key("cluster");
  w.begin_object();
  w.member("blocks", q.request.cluster->blocks());
  write_range(w, "blocks_per_sm", q.in_clusters.blocks_per_sm);
  write_range(w, "occupancy", q.in_clusters.occupancy);
  w.end_object();
}

void write_cluster(json_writer& w, const query& q) {
  w.key("cluster");
  if (!q.request.cluster) {
    w.null();
    return;
  }
  const auto& arch = *q.request.arch;
  w.begin_object();
  w.member("blocks", q.request.cluster->blocks());
  w.member("portable", q.request.cluster->blocks() <= arch.max_cluster_size_portable.value_or(0));
  write_range(w, "blocks_per_sm", q.in_clusters.blocks_per_sm);
  write_range(w, "occupancy", q.in_clusters.occupancy);
  w.key("devices");
  w.begin_array();
  for (std::size_t i = 0; i < q.clusters.size(); ++i) {
    const auto& c = q.clusters[i];
    const occcalc::gpu* g = q.request.cluster_devices[i].gpu;
    w.begin_object();
    w.key("gpu");
    if (g)
      w.value(g->name);
    else
      w.null();
    w.member("sm_count", c.sm_count);
    w.member("basis", occcalc::to_string(c.basis));
    w.key("layout");
    if (c.layout)
      w.value(c.layout->id);
    else
      w.null();
    write_range(w, "max_active_clusters", c.clusters);
    write_range(w, "blocks_in_clusters", c.blocks_in_clusters);
    w.member("blocks_without_clusters", c.blocks_without_clusters);
    write_range(w, "cluster_occupancy", c.occupancy);
    write_range(w, "largest_cluster_size", q.largest_cluster_sizes[i]);
    // With a grid: its waves, grid / blocks in clusters; the most is null where no cluster may run.
    w.key("waves_per_sm");
    if (i < q.cluster_waves.size() && q.cluster_waves[i].fewest.blocks_per_wave > 0) {
      const auto& waves = q.cluster_waves[i];
      w.begin_object();
      w.member("fewest", waves.fewest.waves_per_sm);
      w.member("most", waves.most.blocks_per_wave > 0 ? std::optional<double>(waves.most.waves_per_sm)
                                                      : std::optional<double>());
      w.end_object();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

std::string cluster_sweep_text(const cluster_sweep_plan& plan, const terminal& term) {
  const auto& arch = *plan.arch;
  std::string text =
      heading(fmt::format("{}, {} ({}): clusters by size; {}", device_words(plan.device, plan.sm_count_given), arch.id,
                          arch.family, plan.launch_words),
              term);
  std::vector<std::vector<table_cell>> rows;
  for (const auto& p : plan.points) {
    const auto& c = p.capacity;
    rows.push_back({{std::to_string(p.cluster_size) + (p.cluster_size == plan.best_size ? " *" : "")},
                    {range_text(c.clusters)},
                    {range_text(c.blocks_in_clusters)},
                    {percent_text(c.occupancy)}});
  }
  text += "\n" +
          format_table({{"size", true}, {"clusters", true}, {"blocks in clusters", true}, {"cluster occupancy", true}},
                       rows, term, {});
  const auto& basis = plan.points.empty() ? occcalc::cluster_capacity{} : plan.points.front().capacity;
  text += "\n" + wrap(fmt::format("{} blocks per SM without clusters ({} in all); {}.", plan.blocks_per_sm,
                                  basis.blocks_without_clusters, basis_note(basis)),
                      0, term.columns);
  text += wrap(plan.best_size > 0 ? fmt::format("* {}: the largest cluster with the best guaranteed cluster occupancy.",
                                                plan.best_size)
                                  : std::string("No cluster size is sure to run a cluster of this launch."),
               0, term.columns);
  return text;
}

std::string cluster_sweep_csv(const cluster_sweep_plan& plan) {
  std::string text =
      "cluster_size,clusters_fewest,clusters_most,blocks_in_clusters_fewest,blocks_in_clusters_most,"
      "cluster_occupancy_fewest,cluster_occupancy_most\n";
  for (const auto& p : plan.points) {
    const auto& c = p.capacity;
    text += fmt::format("{},{},{},{},{},{},{}\n", p.cluster_size, c.clusters.fewest, c.clusters.most,
                        c.blocks_in_clusters.fewest, c.blocks_in_clusters.most, c.occupancy.fewest, c.occupancy.most);
  }
  return text;
}

std::string cluster_sweep_json(const cluster_sweep_plan& plan) {
  return pretty_document([&](json_writer& w) {
    w.begin_object();
    w.member("schema_version", occcalc::sweep_schema_version);
    w.member("arch", plan.arch->id);
    w.member("vary", "cluster");
    w.key("gpu");
    if (plan.device.gpu)
      w.value(plan.device.gpu->name);
    else
      w.null();
    w.member("sm_count", plan.device.sm_count);
    const auto basis = plan.points.empty() ? occcalc::cluster_basis::sm_count : plan.points.front().capacity.basis;
    w.member("basis", occcalc::to_string(basis));
    w.key("layout");
    if (plan.device.layout)
      w.value(plan.device.layout->id);
    else
      w.null();
    w.member("blocks_per_sm", plan.blocks_per_sm);
    write_range(w, "cluster_blocks_per_sm", plan.cluster_blocks_per_sm);
    w.member("best_cluster_size", plan.best_size);
    w.key("points");
    w.begin_array();
    for (const auto& p : plan.points) write_point(w, p);
    w.end_array();
    w.end_object();
  });
}

namespace {

const occcalc::cluster_sweep_point& point_of(const nvidia_suggestion& s, std::int64_t size) {
  return s.cluster_points[static_cast<std::size_t>(size - s.cluster_points.front().cluster_size)];
}

std::string point_words(const occcalc::cluster_sweep_point& p) {
  const auto& c = p.capacity;
  return fmt::format("{} clusters at once, {} of the blocks", range_text(c.clusters), percent_text(c.occupancy));
}

}  // namespace

std::string cluster_advice_text(const nvidia_suggestion& s, const terminal& term) {
  const auto& r = *s.resolved;
  const auto& now = point_of(s, s.cluster_size);
  std::string text = "\n" + heading(fmt::format("Cluster size for {} threads on {}", r.launch.threads_per_block,
                                                device_words(r.cluster_devices.front(), r.sm_count_given)),
                                    term);
  text += row("now", std::to_string(s.cluster_size), point_words(now), term.columns);
  if (s.best_cluster_size == 0) {
    text += row("best", "-", "no cluster size is sure to run a cluster of this launch", term.columns);
  } else {
    const auto& best = point_of(s, s.best_cluster_size);
    text += row("best", std::to_string(s.best_cluster_size),
                point_words(best) +
                    "; the largest with the best guaranteed cluster occupancy (sweep --vary "
                    "cluster lists every size)",
                term.columns);
  }
  text += wrap(basis_note(now.capacity) + ".", 2, term.columns - 2);
  return text;
}

void write_cluster_advice(json_writer& w, const nvidia_suggestion& s) {
  const auto& now = point_of(s, s.cluster_size);
  w.begin_object();
  w.member("sm_count", now.capacity.sm_count);
  w.member("basis", occcalc::to_string(now.capacity.basis));
  w.key("layout");
  if (now.capacity.layout)
    w.value(now.capacity.layout->id);
  else
    w.null();
  w.key("now");
  write_point(w, now);
  w.member("best_cluster_size", s.best_cluster_size);
  w.key("best");
  if (s.best_cluster_size)
    write_point(w, point_of(s, s.best_cluster_size));
  else
    w.null();
  w.end_object();
}

}  // namespace occcalc::cli
