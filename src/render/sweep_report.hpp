// Output of `occcalc sweep`: terminal chart, CSV, JSON and SVG.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/sweep.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// One point of a sweep as the renderers need it, for either vendor.
struct sweep_sample {
  std::int64_t value = 0;
  /// Blocks per SM (AMD: work-groups per CU or WGP).
  std::int64_t blocks = 0;
  /// Warps per SM (AMD: waves per CU or WGP).
  std::int64_t active_warps = 0;
  double occupancy = 0.0;
  /// The limiters' JSON names.
  std::vector<std::string_view> limiters;
  /// The limiters as people read them (`shared memory`, `VGPRs`).
  std::vector<std::string_view> limiter_labels;
};

/// One swept series and where the launch sits on it.
struct sweep_series {
  /// The figure's `--vary` name (`regs`) and its axis label with its unit.
  std::string name;
  std::string axis;
  std::vector<sweep_sample> points;
  std::vector<occcalc::sweep_cliff> cliffs;
  /// The launch's own value of the figure.
  std::int64_t current = 0;
  /// The SVG's ticks fall on multiples of this: a warp (wave) of threads,
  /// the register allocation granule, 1 KiB of shared memory.
  std::int64_t tick_unit = 1;
  /// The SVG shows values divided by this (1024: KiB), under `display_axis`.
  std::int64_t display_scale = 1;
  std::string display_axis;
};

/// What one vendor's sweep produced, for the shared output.
struct sweep_plan {
  std::string target_id;
  /// The text heading's subject: `sm_70 (Volta)`, `gfx90a (CDNA2), model llvm`.
  std::string heading;
  /// AMD only: the model and the unit (cu or wgp).
  std::string model, unit;
  /// What the blocks are called in the text, one of them (`block`,
  /// `work-group`), and what they are counted per (` per CU`, or empty).
  std::string block_noun;
  std::string per_unit;
  occcalc::sweep_range range;
  sweep_series series;
  sweep_sample now;
  std::string svg_title;
  /// The SVG's three charts (threads, registers, shared memory or LDS).
  std::function<std::vector<sweep_series>()> svg_charts;
};

/// The widest terminal chart, in points.
inline constexpr std::size_t max_chart_columns = 64;

/// A bar chart of occupancy, `rows` lines high, at most `columns` points wide
/// (evenly sampled), the current value marked under the axis when the range
/// holds it (and coloured). Unicode block elements, or ASCII without UTF-8.
std::string terminal_chart(const sweep_series& s, const terminal& term, int rows, int columns);

/// `value,blocks_per_sm,active_warps_per_sm,occupancy,limiters` rows.
std::string sweep_csv(const sweep_series& s);

/// The text report: heading, chart, where the launch sits and the cliffs.
std::string sweep_text(const sweep_plan& plan, const terminal& term);

/// The JSON report (schema/sweep.schema.json).
std::string sweep_json(const sweep_plan& plan);

/// A standalone SVG document: one chart per series (occupancy against the
/// figure, each point's step, the current value marked), with a title.
std::string sweep_svg(const std::string& title, const std::vector<sweep_series>& charts);

/// The SVG's ticks for values in [lo, hi]: multiples of `unit` times the
/// smallest power of two that gives at most `max_ticks`.
std::vector<std::int64_t> round_ticks(std::int64_t lo, std::int64_t hi, std::int64_t unit, std::size_t max_ticks);

}  // namespace occcalc::cli
