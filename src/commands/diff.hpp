// `occcalc diff OLD NEW`: two builds compared kernel by kernel.
#pragma once

#include <iosfwd>
#include <string>

#include "builds/baseline.hpp"
#include "commands/exit_status.hpp"
#include "commands/inspect.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

struct diff_options {
  std::string old_input, new_input;
  /// Kernel filters and the launch overrides every kernel is reported with,
  /// as for inspect.
  inspect_command read;
  regression_thresholds thresholds;
  bool fail_on_regression = false;
};

/// Prints the comparison; exit 1 with `fail_on_regression` when a kernel
/// got worse, 2 when a side could not be read.
exit_status run_diff(const occcalc::table& tables, const diff_options& options, std::istream& in, std::ostream& out,
                     std::ostream& err, const terminal& term);

}  // namespace occcalc::cli
