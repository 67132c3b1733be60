#include "commands/diff.hpp"

#include <ostream>

#include "commands/read_inputs.hpp"
#include "inspect/mapped_file.hpp"
#include "io/directory.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "render/diff.hpp"

namespace occcalc::cli {

namespace {

/// The first bytes of a file, enough to tell JSON from a binary.
bool is_saved_json(const std::string& path) {
  if (path == "-" || is_directory(path)) return false;
  const inspect::mapped_file file(path);
  const auto text = file.bytes().as_text();
  return looks_like_json(std::string(text.substr(0, 64)));
}

}  // namespace

std::vector<kernel_figures> read_side(const occcalc::table& tables, const std::string& path,
                                      const inspect_command& read, std::istream& in, std::ostream& err) {
  if (is_saved_json(path)) return figures_from_inspect_json(path, read_text_file(path, "saved inspect --json"));
  inspect_command one = read;
  one.inputs = {path};
  const auto result = read_inputs(tables, one, in, err, [&](const inspect::inspected_kernel&) {
    return std::pair<launch_overrides, std::string>{read.overrides, "--threads"};
  });
  if (result.failed > 0) throw occcalc::error(path + ": could not be read (see above)");
  return figures_of(result.reports);
}

exit_status run_diff(const occcalc::table& tables, const diff_options& options, std::istream& in, std::ostream& out,
                     std::ostream& err, const terminal& term) {
  if (options.old_input == "-" && options.new_input == "-") {
    throw occcalc::input_error("new", "and old cannot both be standard input");
  }
  const auto before = read_side(tables, options.old_input, options.read, in, err);
  const auto after = read_side(tables, options.new_input, options.read, in, err);
  const diff_report report{options.old_input, options.new_input, compare_builds(before, after, options.thresholds)};
  out << find_renderer(diff_renderers, options.read.format)(report, terminal_for(term, options.read.format));
  return options.fail_on_regression && report.diff.regressed() ? exit_status::gate_failed : exit_status::ok;
}

}  // namespace occcalc::cli
