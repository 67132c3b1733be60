// Output of `occcalc sweep`: terminal chart, CSV, JSON and SVG.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "occcalc/arch.hpp"
#include "occcalc/launch.hpp"
#include "occcalc/sweep.hpp"

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
};

/// The axis label of a figure, with its unit.
std::string axis_label(occcalc::sweep_variable v);

/// A bar chart of occupancy, `rows` lines high, at most `columns` points wide
/// (evenly sampled), the current value marked under the axis. Unicode block
/// elements, or ASCII when `ascii`.
std::string terminal_chart(const sweep_series& s, bool ascii, int rows = 8, int columns = 64);

/// `value,blocks_per_sm,active_warps_per_sm,occupancy,limiters` rows.
std::string sweep_csv(const sweep_series& s);

/// A standalone SVG document: one chart per series (occupancy against the
/// figure, each point's step, the current value marked), with a title.
std::string sweep_svg(const std::string& title, const std::vector<sweep_series>& charts);

}  // namespace occcalc::cli
