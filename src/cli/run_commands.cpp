#include "cli/run_commands.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "builds/occupancy_floor.hpp"
#include "cli/parse_errors.hpp"
#include "commands/batch.hpp"
#include "commands/check.hpp"
#include "commands/diff.hpp"
#include "commands/list.hpp"
#include "commands/query.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "render/check_report.hpp"
#include "render/diff_report.hpp"
#include "render/formats.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

namespace {

/// The request fields `inspect` and `check` take from the command line; the
/// others come from the input.
constexpr std::string_view inspect_fields[] = {"threads", "dyn_smem", "carveout", "model"};

}  // namespace

/// Refuses a query-only flag that a command does not take.
void refuse(bool given, const char* key, const std::string& why) {
  if (given) throw occcalc::input_error(key, why);
}

/// Refuses the request flags a command that reads kernels from its inputs
/// does not take.
void refuse_kernel_fields(const context& c, std::string_view name) {
  for (std::size_t i = 0; i < std::size(occcalc::request_fields); ++i) {
    const auto key = occcalc::request_fields[i].key;
    if (!c.request_given[i] ||
        std::find(std::begin(inspect_fields), std::end(inspect_fields), key) != std::end(inspect_fields)) {
      continue;
    }
    throw occcalc::input_error(std::string(key),
                               fmt::format("does not apply to {}: it comes from each kernel of the input", name));
  }
}

namespace {

/// The most threads --jobs may ask for.
constexpr std::int64_t max_jobs = 1024;

/// --jobs, checked, into `command`.
void read_jobs(const options& opts, inspect_command& command) {
  if (!opts.jobs.empty()) {
    command.jobs = static_cast<unsigned>(occcalc::parse_count("jobs", opts.jobs, {1, max_jobs}));
  }
}

}  // namespace

output_format chosen_format(const options& opts, std::string_view command, const format_choices& choices) {
  refuse(opts.json && opts.csv, "csv", "cannot be given together with --json");
  refuse(opts.json && !opts.format.empty(), "json", "cannot be given together with --format; --json is --format json");
  refuse(opts.csv && !opts.format.empty(), "csv", "cannot be given together with --format; --csv is --format csv");
  // An alias is its format's name.
  const char* alias = opts.json ? "json" : opts.csv ? "csv" : nullptr;
  if (alias == nullptr && opts.format.empty()) return choices.default_format();
  const std::string_view name = alias != nullptr ? std::string_view(alias) : std::string_view(opts.format);
  if (const auto format = find_output_format(name); format && choices.contains(*format)) return *format;
  if (alias != nullptr) {
    throw occcalc::input_error(alias, fmt::format("does not apply to {}: it prints {}", command, choices.names()));
  }
  throw occcalc::input_error(
      "format", choices.size() == 1 ? fmt::format("{} is not {}, the one format {} prints",
                                                  occcalc::detail::quoted(opts.format), choices.names(), command)
                                    : occcalc::detail::quoted(opts.format) + " is not one of " + choices.names());
}

namespace {

exit_status run_inspect_or_check(context& c, bool is_check) {
  auto& opts = c.opts;
  read_jobs(opts, opts.inspect);
  const std::string_view name = is_check ? "check" : "inspect";
  refuse_kernel_fields(c, name);
  refuse(!opts.min_occupancy.empty(), "min_occupancy",
         fmt::format("does not apply to {}; put a min_occupancy in a policy file for occcalc check", name));
  auto& command = opts.inspect;
  for (const auto& column : command.table.columns) {
    if (!is_inspect_column(column)) {
      throw occcalc::input_error("columns",
                                 fmt::format("'{}' is not a column; the columns are {}", column, inspect_column_ids()));
    }
  }
  refuse(command.table.wide && !command.table.columns.empty(), "wide", "cannot be given together with --columns");
  command.format = opts.output;
  command.overrides = parse_overrides(opts.request);
  return is_check ? run_check(c.tables, command, c.in, c.out, c.err, c.term)
                  : run_inspect(c.tables, command, c.in, c.out, c.err, c.term);
}

}  // namespace

exit_status run_diff_command(context& c) {
  auto& opts = c.opts;
  refuse_kernel_fields(c, "diff");
  refuse(!opts.min_occupancy.empty(), "min_occupancy", "does not apply to diff; use --max-occupancy-drop");
  diff_options o;
  o.old_input = opts.diff_old;
  o.new_input = opts.diff_new;
  read_jobs(opts, opts.inspect);
  o.read = opts.inspect;
  o.read.format = opts.output;
  o.read.overrides = parse_overrides(opts.request);
  if (!opts.max_register_increase.empty()) {
    o.thresholds.registers =
        occcalc::parse_count("max_register_increase", opts.max_register_increase, {0, occcalc::max_request_registers});
  }
  if (!opts.max_stack_increase.empty()) {
    o.thresholds.stack_bytes =
        occcalc::parse_bytes("max_stack_increase", opts.max_stack_increase, {0, occcalc::max_request_value});
  }
  if (!opts.max_occupancy_drop.empty()) {
    o.thresholds.occupancy_points = parse_percentage_points("max_occupancy_drop", opts.max_occupancy_drop);
  }
  o.fail_on_regression = opts.fail_on_regression;
  return run_diff(c.tables, o, c.in, c.out, c.err, c.term);
}

exit_status run_query_command(context& c) {
  return run_query(c.tables,
                   {c.opts.request, c.opts.min_occupancy, c.opts.output == output_format::json, c.opts.brief, c.term},
                   c.out, c.err);
}

exit_status run_list_command(context& c) {
  if (const std::string wrong = choice_error("list", c.opts.list_what, {"archs", "gpus", "amd", "all"});
      !wrong.empty()) {
    throw occcalc::error(wrong);
  }
  return run_list(c.tables, {c.opts.list_what, c.opts.output == output_format::json, c.opts.list_ids, c.term}, c.out);
}

exit_status run_batch_command(context& c) {
  return run_batch(c.tables, parse_min_occupancy(c.opts.min_occupancy), c.opts.min_occupancy, c.in, c.out, c.err);
}

exit_status run_inspect_command(context& c) { return run_inspect_or_check(c, false); }
exit_status run_check_command(context& c) { return run_inspect_or_check(c, true); }

exit_status run_suggest_command(context& c) {
  refuse(!c.opts.min_occupancy.empty(), "min_occupancy", "does not apply to suggest");
  refuse(c.opts.request.grid.has_value(), "grid", "does not apply to suggest; min grid size needs --gpu or --sm-count");
  return run_suggest(c.tables, c.opts.request, c.opts.suggest, c.opts.output == output_format::json, c.out, c.term);
}

exit_status run_limits_command(context& c) {
  refuse(!c.opts.min_occupancy.empty(), "min_occupancy", "does not apply to limits");
  refuse(c.opts.request.grid.has_value(), "grid", "does not apply to limits");
  return run_limits(c.tables, c.opts.request, c.opts.output == output_format::json, c.out, c.term);
}

exit_status run_sweep_command(context& c) {
  refuse(!c.opts.min_occupancy.empty(), "min_occupancy", "does not apply to sweep");
  refuse(c.opts.request.grid.has_value(), "grid", "does not apply to sweep");
  if (c.opts.sweep.ascii) c.term.utf8 = false;
  c.opts.sweep.csv = c.opts.output == output_format::csv;
  return run_sweep(c.tables, c.opts.request, c.opts.sweep, c.opts.output == output_format::json, c.out, c.term);
}

}  // namespace occcalc::cli
