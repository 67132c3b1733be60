#include "commands/inspect.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "analysis/policy.hpp"
#include "commands/diff.hpp"
#include "commands/read_inputs.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "render/check.hpp"
#include "render/inspect_report.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

namespace {

/// The policy's rules that matched no kernel and allow entries that excused
/// no violation, by label.
std::vector<std::string> unused_entries(const policy& p, const std::vector<input_report>& reports,
                                        const std::vector<violation>& violations) {
  std::vector<std::string> unused;
  for (const auto& rule : p.rules) {
    const bool used = std::any_of(reports.begin(), reports.end(), [&](const input_report& r) {
      return std::any_of(r.kernels.begin(), r.kernels.end(),
                         [&](const kernel_report& k) { return rule.match.matches(k.kernel); });
    });
    if (!used) unused.push_back(rule.label + " matched no kernel");
  }
  for (const auto& allowance : p.allow) {
    const bool used = std::any_of(violations.begin(), violations.end(),
                                  [&](const violation& v) { return v.allowed_by == &allowance; });
    if (!used) unused.push_back(allowance.label + " excused no violation");
  }
  return unused;
}

}  // namespace

exit_status run_inspect(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& out, std::ostream& err, const terminal& term) {
  // The records go out as they are made; the inputs without kernels are
  // noted once all are out.
  struct printing : report_sink {
    inspect_printer& printer;
    std::vector<std::string> without_kernels;
    explicit printing(inspect_printer& p) : printer(p) {}
    void input(const input_report& heading, std::size_t kernel_count) override {
      if (kernel_count == 0) without_kernels.push_back(heading.file);
      printer.input(heading, kernel_count);
    }
    void kernels(std::vector<kernel_report>& run) override { printer.kernels(run); }
  };
  const auto printer = find_renderer(inspect_renderers, command.format)(out, terminal_for(term, command.format),
                                                                        command.table, inspect_workers(command));
  printing sink(*printer);
  const std::size_t failed = read_inputs(
      tables, command, in, err,
      [&](const inspect::inspected_kernel&) {
        return std::pair<launch_overrides, std::string>{command.overrides, "--threads"};
      },
      sink);
  printer->finish();
  out.flush();  // the table before the notes, where both reach one terminal or log
  if (command.kernel_pattern.empty() && command.arch.empty()) {
    for (const auto& file : sink.without_kernels) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", file);
    }
  }
  return failed == 0 ? exit_status::ok : exit_status::bad_input;
}

exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      std::ostream& err, const terminal& term) {
  const policy p = parse_policy(command.policy_file, read_text_file(command.policy_file, "policy file"));
  const check_render render = find_renderer(check_renderers, command.format);
  if (render == nullptr) {
    throw occcalc::input_error("format", std::string(info(command.format).name) + " is not a format of check; give " +
                                             format_names(check_renderers));
  }
  auto result = read_inputs(tables, command, in, err, [&](const inspect::inspected_kernel& k) {
    const auto applied = limits_for(p, k);
    launch_overrides o = command.overrides;
    if (applied.limits.threads) o.threads = applied.limits.threads;
    return std::pair<launch_overrides, std::string>{o, "policy"};
  });
  // With a baseline, the policy applies to what regressed against it (and
  // to new kernels): a violation of a kernel no worse than before is
  // excused, with the baseline as the reason.
  std::map<std::pair<std::string, std::string>, kernel_figures> baseline;
  const policy_allowance by_baseline{{}, {}, "no worse than in the baseline " + command.baseline, "baseline"};
  if (!command.baseline.empty()) {
    inspect_command read = command;
    read.kernel_pattern.clear();
    read.arch.clear();
    for (auto& f : read_side(tables, command.baseline, read, in, err)) {
      baseline.emplace(std::make_pair(f.kernel, f.arch), std::move(f));
    }
  }
  check_outcome outcome;
  for (const auto& r : result.reports) {
    if (r.kernels.empty()) {
      // Nothing checked is never a pass.
      err << fmt::format("occcalc: error: {}: no GPU kernels {}to check\n", r.file,
                         command.kernel_pattern.empty() && command.arch.empty() ? "" : "left ");
      ++result.failed;
      continue;
    }
    for (const auto& k : r.kernels) {
      const std::size_t first = outcome.violations.size();
      check_kernel(p, limits_for(p, k.kernel), k, outcome.violations);
      ++outcome.kernels_checked;
      if (baseline.empty() || first == outcome.violations.size()) continue;
      const auto old = baseline.find({k.kernel.resources.name, k.kernel.resources.arch});
      if (old == baseline.end() || !regressions_of(old->second, figures_of(k), {}).empty()) continue;
      for (std::size_t v = first; v < outcome.violations.size(); ++v) {
        if (outcome.violations[v].allowed_by == nullptr) outcome.violations[v].allowed_by = &by_baseline;
      }
    }
  }
  outcome.unreadable_inputs = result.failed;
  // With --kernel or --arch, entries for the kernels left out are not stale.
  if (command.kernel_pattern.empty() && command.arch.empty()) {
    outcome.unused_policy_entries = unused_entries(p, result.reports, outcome.violations);
  }
  out << render(outcome, terminal_for(term, command.format));
  if (command.format == output_format::github) {
    // The step summary: a table on the run's page.
    const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
    if (summary != nullptr && *summary != '\0') {
      std::ofstream file(summary, std::ios::app | std::ios::binary);
      if (!(file << check_markdown(outcome)) || !file.flush()) {
        err << fmt::format("occcalc: error: GITHUB_STEP_SUMMARY {}: cannot append the summary\n", summary);
        return exit_status::bad_input;
      }
    }
  }
  if (result.failed > 0) return exit_status::bad_input;  // never a pass over what could not be read
  return outcome.failed() == 0 ? exit_status::ok : exit_status::gate_failed;
}

}  // namespace occcalc::cli
