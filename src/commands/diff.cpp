#include "commands/diff.hpp"

#include <ostream>

#include <fmt/format.h>

#include "builds/read_build.hpp"
#include "builds/read_store.hpp"
#include "occcalc/error.hpp"
#include "render/diff_report.hpp"

namespace occcalc::cli {

exit_status run_diff(const occcalc::table& tables, const diff_options& options, std::istream& in, std::ostream& out,
                     std::ostream& err, const terminal& term) {
  if (options.old_input == "-" && options.new_input == "-") {
    throw occcalc::input_error("new", "and old cannot both be standard input");
  }
  // The two sides are read at once (a saved baseline's JSON is read on one
  // thread), each saying what it has to say apart; the old side's notes and
  // error come first, as though it had been read first.
  background_store old_side(tables, options.old_input, options.read, options.read.overrides, in);
  background_store new_side(tables, options.new_input, options.read, options.read.overrides, in);
  const kernel_store before = old_side.get(err);
  const kernel_store after = new_side.get(err);
  if (filters_kernels(options.read) && before.empty() && after.empty()) {
    // A filter that leaves nothing to compare is never "no regressions".
    const bool by_name = !options.read.kernel_pattern.empty();
    throw occcalc::input_error(by_name ? "kernel" : "arch",
                               fmt::format("'{}' matches no kernel in either build",
                                           by_name ? options.read.kernel_pattern : options.read.arch));
  }
  const diff_report report{
      options.old_input, options.new_input,
      compare_builds(tables, before, after, options.read.overrides, options.thresholds, reading_workers(options.read)),
      options.fail_on_regression};
  if (!report.diff.ambiguities.empty()) {
    err << "occcalc: note: " << occcalc::detail::printable(ambiguity_note(report.diff.ambiguities)) << "\n";
  }
  out << find_renderer(diff_renderers, options.read.format)(report, terminal_for(term, options.read.format));
  return options.fail_on_regression && report.diff.regressed() ? exit_status::gate_failed : exit_status::ok;
}

}  // namespace occcalc::cli
