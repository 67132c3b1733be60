#include "commands/sweep.hpp"

#include <fstream>
#include <functional>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/amd/sweep.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/cluster.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/nvidia/sweep.hpp"
#include "occcalc/request/amd.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/resolve.hpp"
#include "render/cluster.hpp"
#include "render/sweep_report.hpp"

namespace occcalc::cli {

namespace {

/// `table`'s names, then `more`'s, joined by `separator` (`last` before
/// the last).
template <typename Table>
std::string variable_names(const Table& table, std::initializer_list<std::string_view> more, std::string_view separator,
                           std::string_view last) {
  std::vector<std::string_view> names;
  for (const auto& row : table) names.push_back(row.name);
  names.insert(names.end(), more.begin(), more.end());
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? last : separator;
    out += names[i];
  }
  return out;
}

/// The row of `table` named `text`; throws naming every choice otherwise
/// (`more`: those that are not rows).
template <typename Table>
auto parse_variable(const Table& table, const std::string& text, std::initializer_list<std::string_view> more,
                    std::string_view vendor_note) {
  for (const auto& row : table) {
    if (text == row.name) return row.id;
  }
  throw occcalc::input_error("vary", occcalc::detail::quoted(text) + " is not one of " +
                                         variable_names(table, more, ", ", ", ") + std::string(vendor_note));
}

/// The most points a sweep may have: every register count, or every block
/// size, is far below it.
constexpr std::int64_t max_sweep_points = 100000;

/// The range from the options over the figure's default, checked: values
/// in [minimum, maximum], --to not below --from, a positive step, and not
/// more than `max_sweep_points` points. `where` names the target for errors.
occcalc::sweep_range checked_range(occcalc::sweep_range range, const sweep_options& options, bool bytes,
                                   std::int64_t minimum, std::int64_t maximum, const std::string& where) {
  const occcalc::int_range values{minimum, maximum};
  const auto parse = [&](const char* field, const std::string& text) {
    try {
      return bytes ? occcalc::parse_bytes(field, text, values) : occcalc::parse_count(field, text, values);
    } catch (const occcalc::input_error& e) {
      throw occcalc::input_error(field, std::string(e.what()) + where);
    }
  };
  if (!options.from.empty()) range.first = parse("from", options.from);
  if (!options.to.empty()) range.last = parse("to", options.to);
  if (!options.step.empty()) range.step = occcalc::parse_count("step", options.step, {1, occcalc::max_request_value});
  if (range.last < range.first) {
    throw occcalc::input_error("to", fmt::format("{} is below --from {}", range.last, range.first));
  }
  if ((range.last - range.first) / range.step + 1 > max_sweep_points) {
    throw occcalc::input_error("step", fmt::format("{} gives more than {} points from {} to {}", range.step,
                                                   max_sweep_points, range.first, range.last));
  }
  return range;
}

/// A sweep point of either vendor, from the neutral summary.
sweep_sample sample_of(std::int64_t value, const occcalc::occupancy_summary& r) {
  sweep_sample s{value, r.groups_per_unit, r.active_warps, r.occupancy(), {}, {}};
  for (std::size_t i = 0; i < r.limiter_count; ++i) {
    s.limiters.push_back(r.limiters[i]->key);
    s.limiter_labels.push_back(r.limiters[i]->label);
  }
  return s;
}

/// Shows a byte series in KiB, its ticks on whole KiB.
void in_kib(sweep_series& s, std::string axis) {
  s.tick_unit = occcalc::bytes_per_kib;
  s.display_scale = occcalc::bytes_per_kib;
  s.display_axis = std::move(axis);
}

sweep_series make_series(const occcalc::nvidia_arch& arch, const occcalc::launch_config& launch,
                         occcalc::sweep_variable v, occcalc::sweep_range range) {
  const auto points = occcalc::sweep(arch, launch, v, range);
  sweep_series s{std::string(occcalc::to_string(v)),
                 std::string(occcalc::info(v).axis),
                 {},
                 occcalc::cliffs(points),
                 occcalc::value_of(launch, v),
                 1,
                 1,
                 {}};
  for (const auto& p : points) s.points.push_back(sample_of(p.value, occcalc::summarize(p.result)));
  switch (v) {
    case occcalc::sweep_variable::threads: s.tick_unit = arch.warp_size_threads; break;
    case occcalc::sweep_variable::registers:
      s.tick_unit =
          std::max<std::int64_t>(1, arch.register_allocation_unit / std::max<std::int64_t>(1, arch.warp_size_threads));
      break;
    case occcalc::sweep_variable::shared_memory: in_kib(s, "shared memory per block (KiB)"); break;
    case occcalc::sweep_variable::barriers: break;
  }
  return s;
}

sweep_plan plan_for(const occcalc::resolved_request& resolved, const sweep_options& options) {
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;
  const auto variable = parse_variable(occcalc::sweep_variables, options.vary, {cluster_variable}, "");
  const bool threads = variable == occcalc::sweep_variable::threads;
  sweep_plan plan;
  plan.target_id = arch.id;
  // The GPU (or family) asked for leads, as in the query's heading.
  const std::string* named = resolved.device_name();
  const std::string device = named ? *named + ", " : std::string();
  plan.heading = fmt::format("{}{} ({})", device, arch.id, arch.family);
  plan.block_noun = "block";
  plan.per_unit = " per SM";
  plan.range = checked_range(occcalc::default_sweep_range(arch, variable), options,
                             variable == occcalc::sweep_variable::shared_memory, threads ? 1 : 0,
                             occcalc::max_request_value, threads ? " for threads" : "");
  plan.series = make_series(arch, launch, variable, plan.range);
  plan.now = sample_of(plan.series.current, occcalc::summarize(occcalc::compute_occupancy(arch, launch)));
  plan.svg_title = fmt::format("{}{} (compute capability {}): {} threads, {} registers, {} B shared memory per block",
                               device, arch.id, arch.compute_capability(), launch.threads_per_block,
                               launch.registers_per_thread, launch.requested_shared_memory_bytes());
  plan.svg_charts = [&arch, launch, variable, series = plan.series] {
    std::vector<sweep_series> charts;
    for (const auto v : {occcalc::sweep_variable::threads, occcalc::sweep_variable::registers,
                         occcalc::sweep_variable::shared_memory}) {
      charts.push_back(v == variable ? series : make_series(arch, launch, v, occcalc::default_sweep_range(arch, v)));
    }
    return charts;
  };
  return plan;
}

sweep_plan plan_for(const occcalc::resolved_amd_request& r, const sweep_options& options) {
  const auto& t = *r.target;
  const auto variable = parse_variable(occcalc::amd_sweep_variables, options.vary, {}, " (AMD)");
  if (variable == occcalc::amd_sweep_variable::sgprs && t.max_sgprs_per_wave == 0) {
    throw occcalc::input_error("vary",
                               "sgprs does not apply to " + t.id + " (" + t.family + "): it has no scalar registers");
  }
  if (variable == occcalc::amd_sweep_variable::agprs && t.max_agprs_per_wave == 0) {
    throw occcalc::input_error("vary",
                               "agprs does not apply to " + t.id + " (" + t.family + "): AGPRs exist on CDNA only");
  }
  const std::optional<std::int64_t> device_waves =
      r.named_gpu ? r.named_gpu->max_waves_per_simd : std::optional<std::int64_t>();
  // The SVG's charts are drawn after this returns: the lambdas hold copies.
  const auto series_of = [r, device_waves](occcalc::amd_sweep_variable v, const occcalc::sweep_range& range) {
    const auto points =
        occcalc::amd_sweep(*r.target, r.kernel, r.mode, r.model, r.work_group_size, v, range, device_waves);
    sweep_series s{std::string(occcalc::to_string(v)),
                   std::string(occcalc::info(v).axis),
                   {},
                   occcalc::cliffs(points),
                   occcalc::value_of(r.kernel, r.work_group_size, v),
                   1,
                   1,
                   {}};
    for (const auto& p : points) s.points.push_back(sample_of(p.value, occcalc::summarize(p.result)));
    switch (v) {
      case occcalc::amd_sweep_variable::threads: s.tick_unit = r.mode.wave_size; break;
      case occcalc::amd_sweep_variable::vgprs:
      case occcalc::amd_sweep_variable::agprs:
        // AGPRs are allocated with the VGPRs, in the same granules.
        for (const auto& file : r.target->vgpr_files) {
          if (file.wave_size == r.mode.wave_size) s.tick_unit = std::max<std::int64_t>(1, file.granule);
        }
        break;
      case occcalc::amd_sweep_variable::sgprs: s.tick_unit = std::max<std::int64_t>(1, r.target->sgpr_granule); break;
      case occcalc::amd_sweep_variable::lds: in_kib(s, "LDS per work-group (KiB)"); break;
    }
    return s;
  };
  const bool threads = variable == occcalc::amd_sweep_variable::threads;
  sweep_plan plan;
  plan.target_id = t.id;
  const auto now = occcalc::compute_amd_occupancy(t, r.kernel, r.mode, r.model, r.work_group_size, device_waves);
  plan.model = std::string(occcalc::to_string(r.model));
  plan.unit = now.per_wgp ? "wgp" : "cu";
  plan.heading = fmt::format("{}{} ({}), model {}", r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id,
                             t.family, plan.model);
  plan.block_noun = "work-group";
  plan.per_unit = now.per_wgp ? " per WGP" : " per CU";
  plan.range = checked_range(occcalc::default_amd_sweep_range(t, r.mode, variable), options,
                             variable == occcalc::amd_sweep_variable::lds, threads ? 1 : 0,
                             occcalc::max_amd_sweep_value(t, variable), " on " + t.id);
  plan.series = series_of(variable, plan.range);
  plan.now = sample_of(plan.series.current, occcalc::summarize(now));
  plan.svg_title = fmt::format("{}{} ({}, model {}): {} work-items, {} VGPRs, {} B LDS per work-group",
                               r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family, plan.model,
                               r.work_group_size, r.kernel.vgprs, r.kernel.lds_bytes);
  plan.svg_charts = [series_of, variable, r, series = plan.series] {
    std::vector<sweep_series> charts;
    for (const auto v :
         {occcalc::amd_sweep_variable::threads, occcalc::amd_sweep_variable::vgprs, occcalc::amd_sweep_variable::lds}) {
      charts.push_back(v == variable ? series : series_of(v, occcalc::default_amd_sweep_range(*r.target, r.mode, v)));
    }
    return charts;
  };
  return plan;
}

/// The block size occcalc suggest picks for a resolved request (whatever
/// block size it was resolved at): where the sweep varies threads and none
/// was given, the other charts are drawn at it. 0 when none can run.
std::int64_t suggested_threads(const occcalc::resolved_request& r) {
  const occcalc::dynamic_shared_memory_rule rule{r.launch.dynamic_shared_memory_bytes, 0};
  return occcalc::max_potential_block_size(*r.arch, r.launch, rule, 0).block_size;
}

std::int64_t suggested_threads(const occcalc::resolved_amd_request& r) {
  return occcalc::amd_hip_max_potential_block_size(*r.target, r.kernel, r.mode, 0).block_size;
}

/// `sweep --vary cluster`: the launch's clusters at each cluster size, on
/// the one GPU named or on --sm-count SMs.
exit_status run_cluster_sweep(const occcalc::table& tables, const occcalc::request& request,
                              const sweep_options& options, bool json, std::ostream& out, const terminal& term) {
  if (!options.svg_file.empty()) {
    throw occcalc::input_error("svg", "draws occupancy charts; a cluster sweep is a table (text, CSV or JSON)");
  }
  if (request.gfx || (request.gpu && occcalc::find_named_gpu(tables, request.gpu->text()).is_amd())) {
    throw occcalc::input_error("vary", "cluster applies to NVIDIA GPUs (9.0 and later)");
  }
  const occcalc::resolved_request r = occcalc::resolve(tables, request);
  const auto& arch = *r.arch;
  occcalc::require_clusters(arch, "vary", "cluster");
  const auto devices = occcalc::cluster_devices_of(tables, r);
  if (devices.size() > 1) occcalc::require_gpu(tables, "gpu", request.gpu->text());  // throws, naming the products
  if (devices.empty()) {
    throw occcalc::input_error("gpu", "is needed to sweep the cluster size (or " + occcalc::field_ref("sm_count") +
                                          "): clusters depend on how many SMs each GPC has");
  }
  cluster_sweep_plan plan;
  plan.arch = &arch;
  plan.device = devices.front();
  plan.sm_count_given = r.sm_count_given;
  plan.blocks_per_sm = occcalc::compute_occupancy(arch, r.launch).blocks_per_sm;
  plan.cluster_blocks_per_sm = occcalc::cluster_blocks_per_sm(arch, plan.blocks_per_sm);
  const auto range = checked_range({1, arch.max_cluster_size(), 1}, options, false, 1, arch.max_cluster_size(),
                                   " blocks for " + arch.id);
  plan.points = occcalc::cluster_sweep(arch, plan.device.layout, plan.device.sm_count, plan.blocks_per_sm, range.first,
                                       range.last, range.step);
  plan.best_size = occcalc::best_cluster_size(plan.points);
  plan.launch_words = fmt::format("{} threads, {} registers, {} B shared memory per block", r.launch.threads_per_block,
                                  r.launch.registers_per_thread, r.launch.requested_shared_memory_bytes());
  out << (json ? cluster_sweep_json(plan) : options.csv ? cluster_sweep_csv(plan) : cluster_sweep_text(plan, term));
  return exit_status::ok;
}

}  // namespace

std::string vary_choices() {
  return variable_names(occcalc::sweep_variables, {cluster_variable}, ", ", " or ") +
         " (AMD: " + variable_names(occcalc::amd_sweep_variables, {}, ", ", " or ") + ")";
}

exit_status run_sweep(const occcalc::table& tables, const occcalc::request& request, const sweep_options& options,
                      bool json, std::ostream& out, const terminal& term) {
  if (json && options.csv) throw occcalc::input_error("csv", "cannot be given together with --json");
  if (request.cluster) {
    throw occcalc::input_error("cluster",
                               "does not apply to sweep; " + occcalc::field_ref("vary") + " cluster varies it");
  }
  if (occcalc::detail::trim(options.vary) == cluster_variable)
    return run_cluster_sweep(tables, request, options, json, out, term);
  if (request.sm_count) {
    throw occcalc::input_error("sm_count", "applies to sweep only with " + occcalc::field_ref("vary") + " cluster");
  }
  occcalc::request at = request;
  if (!at.threads && occcalc::detail::trim(options.vary) == "threads") {
    // Varying the block size needs none to start from: the one suggest
    // picks marks "now", and draws the other charts.
    at.threads = occcalc::field_value::of_integer(1);
    const std::int64_t threads =
        std::visit([](const auto& resolved) { return suggested_threads(resolved); }, occcalc::resolve_any(tables, at));
    if (threads <= 0) throw occcalc::input_error("threads", "is required: no block size can run with these resources");
    at.threads = occcalc::field_value::of_integer(threads);
  }
  const sweep_plan plan =
      std::visit([&](const auto& resolved) { return plan_for(resolved, options); }, occcalc::resolve_any(tables, at));
  const sweep_series& series = plan.series;
  if (options.svg_file == "-") {  // the SVG on standard output, instead of the text
    if (json || options.csv)
      throw occcalc::input_error("svg", "- (standard output) cannot be given with --json or --csv");
    out << sweep_svg(plan.svg_title, plan.svg_charts());
    return exit_status::ok;
  }
  if (!options.svg_file.empty()) {
    std::ofstream file(options.svg_file, std::ios::binary);
    if (!(file << sweep_svg(plan.svg_title, plan.svg_charts())) || !file.flush()) {
      throw occcalc::error(fmt::format("{}: cannot write the SVG file", options.svg_file));
    }
  }

  out << (json ? sweep_json(plan) : options.csv ? sweep_csv(series) : sweep_text(plan, term));
  return exit_status::ok;
}

}  // namespace occcalc::cli
