// What each command's row in the command table runs, once the command line
// is parsed: the checks of which flags apply, then the command. No CLI11
// here (cli/app.cpp binds the options).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "commands/exit_status.hpp"
#include "commands/inspect.hpp"
#include "commands/limits.hpp"
#include "commands/suggest.hpp"
#include "commands/sweep.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/tables.hpp"

#include "render/formats.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// What the command line asked for, filled by CLI11.
struct options {
  occcalc::request request;
  std::vector<std::string> table_files;
  std::string min_occupancy;
  std::string colour = "auto";
  /// --json, --csv and --format as given: aliases, settled into `output`.
  bool json = false;
  bool csv = false;
  std::string format;
  /// The format to print, one of the command's choices (`chosen_format`).
  output_format output = output_format::text;
  /// The query's one-line answer.
  bool brief = false;
  std::string list_what = "all";
  bool list_ids = false;
  inspect_command inspect;
  /// --jobs as typed.
  std::string jobs;
  /// diff's sides and thresholds (as typed).
  std::string diff_old, diff_new, max_register_increase, max_stack_increase, max_occupancy_drop;
  bool fail_on_regression = false;
  suggest_options suggest;
  sweep_options sweep;
};

/// What a command's run function gets once the command line is parsed.
struct context {
  options& opts;
  /// Which request flags were given, in `request_fields` order.
  const std::vector<bool>& request_given;
  const occcalc::table& tables;
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  /// What the text output may use (--color, the environment, the terminal).
  terminal term;
};

using occcalc::flag_name;

/// The format `opts` asks for (`--format`, or its aliases `--json` and
/// `--csv`), one of `choices` (those of `command`, by name), else their
/// default; refuses two of them together, or a format the command does not
/// print.
output_format chosen_format(const options& opts, std::string_view command, const format_choices& choices);

exit_status run_inspect_command(context& c);
exit_status run_check_command(context& c);
exit_status run_diff_command(context& c);
exit_status run_query_command(context& c);
exit_status run_list_command(context& c);
exit_status run_batch_command(context& c);
exit_status run_suggest_command(context& c);
exit_status run_limits_command(context& c);
exit_status run_sweep_command(context& c);

}  // namespace occcalc::cli
