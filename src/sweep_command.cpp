#include "sweep_command.hpp"

#include <fstream>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/parse.hpp"
#include "occcalc/sweep.hpp"
#include "occcalc/version.hpp"
#include "render_sweep.hpp"
#include "terminal.hpp"
#include "text_layout.hpp"

namespace occcalc::cli {

namespace {

constexpr double percent = 100.0;

occcalc::sweep_variable parse_variable(const std::string& text) {
  for (const auto v : {occcalc::sweep_variable::threads, occcalc::sweep_variable::registers,
                       occcalc::sweep_variable::shared_memory, occcalc::sweep_variable::barriers}) {
    if (text == occcalc::to_string(v)) return v;
  }
  throw occcalc::input_error("vary", "'" + text + "' is not one of threads, regs, smem, barriers");
}

/// The most points a sweep may have: every register count, or every block
/// size, is far below it.
constexpr std::int64_t max_sweep_points = 100000;

sweep_sample sample_of(std::int64_t value, const occcalc::occupancy_result& r) {
  sweep_sample s{value, r.blocks_per_sm, r.active_warps_per_sm, r.occupancy(), {}};
  for (const auto res : occcalc::nvidia_resources) {
    if (r.limiters.contains(res)) s.limiters.push_back(occcalc::to_string(res));
  }
  return s;
}

sweep_series make_series(const occcalc::nvidia_arch& arch, const occcalc::launch_config& launch,
                         occcalc::sweep_variable v, occcalc::sweep_range range) {
  const auto points = occcalc::sweep(arch, launch, v, range);
  sweep_series s{std::string(occcalc::to_string(v)), axis_label(v), {}, occcalc::cliffs(points),
                 occcalc::value_of(launch, v)};
  for (const auto& p : points) s.points.push_back(sample_of(p.value, p.result));
  return s;
}

}  // namespace

exit_status run_sweep(const occcalc::table& tables, const occcalc::request& request, const sweep_options& options,
                      bool json, std::ostream& out, bool colour) {
  const occcalc::resolved_request resolved = occcalc::resolve(tables, request);
  const auto& arch = *resolved.arch;
  const auto& launch = resolved.launch;
  const auto variable = parse_variable(options.vary);
  if (json && options.csv) throw occcalc::input_error("csv", "cannot be given together with --json");
  occcalc::sweep_range range = occcalc::default_sweep_range(arch, variable);
  const occcalc::int_range values{0, occcalc::max_request_value};
  const bool bytes = variable == occcalc::sweep_variable::shared_memory;
  const auto parse = [&](const char* field, const std::string& text) {
    return bytes ? occcalc::parse_bytes(field, text, values) : occcalc::parse_count(field, text, values);
  };
  if (!options.from.empty()) range.first = parse("from", options.from);
  if (!options.to.empty()) range.last = parse("to", options.to);
  if (!options.step.empty()) range.step = parse("step", options.step);
  if (variable == occcalc::sweep_variable::threads && range.first < 1) {
    throw occcalc::input_error("from", std::to_string(range.first) + " is outside [1, 2147483647] for threads");
  }
  if (range.step < 1) throw occcalc::input_error("step", std::to_string(range.step) + " is outside [1, 2147483647]");
  if (range.last < range.first) {
    throw occcalc::input_error("to", fmt::format("{} is below --from {}", range.last, range.first));
  }
  if ((range.last - range.first) / range.step + 1 > max_sweep_points) {
    throw occcalc::input_error("step", fmt::format("{} gives more than {} points from {} to {}", range.step,
                                                   max_sweep_points, range.first, range.last));
  }
  const sweep_series series = make_series(arch, launch, variable, range);

  if (!options.svg_file.empty()) {
    std::vector<sweep_series> charts;
    for (const auto v : {occcalc::sweep_variable::threads, occcalc::sweep_variable::registers,
                         occcalc::sweep_variable::shared_memory}) {
      charts.push_back(v == variable ? series : make_series(arch, launch, v, occcalc::default_sweep_range(arch, v)));
    }
    const std::string title = fmt::format(
        "{}{} (compute capability {}): {} threads, {} registers, {} B shared memory per block",
        resolved.named_gpu ? resolved.named_gpu->name + ", " : std::string(), arch.id, arch.compute_capability(),
        launch.threads_per_block, launch.registers_per_thread, launch.requested_shared_memory_bytes());
    std::ofstream file(options.svg_file, std::ios::binary);
    if (!(file << sweep_svg(title, charts)) || !file.flush()) {
      throw occcalc::error(fmt::format("{}: cannot write the SVG file", options.svg_file));
    }
  }

  if (json) {
    nlohmann::ordered_json j;
    j["schema_version"] = occcalc::result_schema_version;
    j["arch"] = arch.id;
    j["vary"] = occcalc::to_string(variable);
    j["current"] = {{"value", series.current},
                    {"occupancy", occcalc::compute_occupancy(arch, launch).occupancy()}};
    j["points"] = nlohmann::ordered_json::array();
    for (const auto& p : series.points) {
      nlohmann::ordered_json point;
      point["value"] = p.value;
      point["blocks_per_sm"] = p.blocks;
      point["active_warps_per_sm"] = p.active_warps;
      point["occupancy"] = p.occupancy;
      point["limiters"] = p.limiters;
      j["points"].push_back(std::move(point));
    }
    j["cliffs"] = nlohmann::ordered_json::array();
    for (const auto& c : series.cliffs) {
      j["cliffs"].push_back({{"before", c.before}, {"after", c.after}, {"occupancy_before", c.occupancy_before},
                             {"occupancy_after", c.occupancy_after}});
    }
    out << j.dump(2) << "\n";
    return exit_status::ok;
  }
  if (options.csv) {
    out << sweep_csv(series);
    return exit_status::ok;
  }
  std::string text = paint(fmt::format("{} ({}): occupancy as {} varies from {} to {} in steps of {}", arch.id,
                                       arch.family, axis_label(variable), range.first, range.last, range.step),
                           style::bold, colour) +
                     "\n\n";
  const auto now = occcalc::compute_occupancy(arch, launch);
  text += terminal_chart(series, options.ascii);
  text += fmt::format("\nnow: {} {}, {} blocks, {:.1f}% (limited by {})\n", series.current, axis_label(variable),
                      now.blocks_per_sm, now.occupancy() * percent, limiter_list(now, ", "));
  text += "\n" + paint("Cliffs (where occupancy steps)", style::bold, colour) + "\n";
  if (series.cliffs.empty()) text += "  none in this range\n";
  // The nearest cliff on each side of the current value is what matters.
  for (const auto& c : series.cliffs) {
    const char* mark = c.after <= series.current   ? "  (below now)"
                       : c.before >= series.current ? ""
                                                    : "  <- now";
    text += fmt::format("  {:>8} -> {:<8} {:6.1f}% -> {:6.1f}%{}\n", c.before, c.after, c.occupancy_before * percent,
                        c.occupancy_after * percent, mark);
  }
  out << text;
  return exit_status::ok;
}

}  // namespace occcalc::cli
