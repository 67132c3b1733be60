#include "commands/inspect.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "analysis/policy.hpp"
#include "commands/diff.hpp"
#include "commands/read_inputs.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/version.hpp"
#include "render/check.hpp"
#include "render/inspect_report.hpp"
#include "render/json_writer.hpp"
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

/// The launch a kernel is checked at: the policy's `dyn_smem` and `cluster`
/// where it sets them, and its block size: the policy's `threads`, where it
/// sets one, but never beyond the kernel's launch bounds when it comes from
/// the defaults (the kernel cannot launch so; a rule that names a kernel and
/// a larger size is refused by `refuse_rules_beyond_bounds`).
std::pair<launch_overrides, std::string> policy_launch(const applied_limits& applied,
                                                       const inspect::inspected_kernel& k,
                                                       const launch_overrides& given) {
  launch_overrides o = given;
  if (applied.limits.dyn_smem_bytes) o.dyn_smem_bytes = applied.limits.dyn_smem_bytes;
  if (applied.limits.cluster) o.cluster = applied.limits.cluster;
  if (!applied.limits.threads) return {o, "--threads"};
  o.threads = applied.limits.threads;
  const auto& bounds = k.resources.max_threads;
  if (applied.threads_rule == defaults_label && bounds && *o.threads > inspect::volume(*bounds)) {
    o.threads = inspect::volume(*bounds);
    return {o, "launch bounds"};
  }
  return {o, "policy"};
}

/// The most kernels one message names before it counts the rest.
constexpr std::size_t max_named_kernels = 5;

/// A rule that gives a block size beyond the launch bounds of a kernel it
/// matches asks for a launch that cannot happen: a policy error naming both.
void refuse_rules_beyond_bounds(const std::string& origin, const policy& p, const std::vector<input_report>& reports) {
  std::string rule;
  std::int64_t threads = 0;
  std::vector<std::string> kernels;
  std::size_t count = 0;
  for (const auto& r : reports) {
    for (const auto& k : r.kernels) {
      const auto& res = k.kernel.resources;
      const auto bounds = res.required_threads ? res.required_threads : res.max_threads;
      if (!bounds) continue;
      const auto applied = limits_for(p, k.kernel);
      if (!applied.limits.threads || applied.threads_rule == defaults_label ||
          *applied.limits.threads <= inspect::volume(*bounds)) {
        continue;
      }
      if (count == 0) {
        rule = applied.threads_rule;
        threads = *applied.limits.threads;
      }
      if (applied.threads_rule != rule) continue;
      if (++count <= max_named_kernels) {
        kernels.push_back(fmt::format("{} ({}, {} threads)", res.name, res.arch.name, inspect::volume(*bounds)));
      }
    }
  }
  if (count == 0) return;
  std::string names;
  for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k;
  if (count > kernels.size()) names += fmt::format(" and {} more", count - kernels.size());
  throw occcalc::table_error(
      fmt::format("{}: {}: threads {} exceeds the launch bounds of {} kernel{} it matches: {}; give a block size "
                  "within them, or a pattern that leaves them out",
                  origin, rule, threads, count, count == 1 ? "" : "s", names));
}

/// With a baseline, the policy applies to what is new or regressed against
/// it: a violation of a kernel no worse than its baseline copy, at the same
/// launch, is excused with the baseline as the reason. Nothing unknown on
/// either side is excused.
void excuse_by_baseline(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& err, const std::vector<input_report>& reports, check_outcome& outcome) {
  outcome.baseline = {{}, {}, "no worse than in the baseline " + command.baseline, "baseline"};
  const auto before = read_side(tables, command.baseline, command, in, err);
  const auto after = build_kernels_of(reports, command.inputs);
  std::vector<const kernel_report*> today;
  for (const auto& r : reports) {
    for (const auto& k : r.kernels) today.push_back(&k);
  }
  const kernel_pairing pairing = pair_kernels(before, after);
  if (!pairing.ambiguities.empty()) {
    err << "occcalc: note: baseline: " << occcalc::detail::printable(ambiguity_note(pairing.ambiguities)) << "\n";
  }
  std::map<const kernel_report*, std::size_t> old_of;
  for (const auto& [old_index, new_index] : pairing.pairs) old_of.emplace(today[new_index], old_index);
  for (auto v = outcome.violations.begin(); v != outcome.violations.end();) {
    const kernel_report* kernel = v->kernel;
    const auto end = std::find_if(v, outcome.violations.end(), [&](const violation& x) { return x.kernel != kernel; });
    const auto old = old_of.find(kernel);
    if (old != old_of.end()) {
      const kernel_figures was = figures_like(tables, before[old->second], *kernel, command.overrides);
      const kernel_figures now = figures_of(*kernel);
      if (regressions_of(was, now, {}).empty()) {
        for (auto x = v; x != end; ++x) {
          if (x->allowed_by == nullptr && comparable(was, now, x->check)) x->allowed_by = &outcome.baseline;
        }
      }
    }
    v = end;
  }
}

/// A --kernel or --arch that leaves no kernel of any input is its own error,
/// not a pass over nothing nor "an input could not be read".
void require_matches(const inspect_command& command, const read_result& result) {
  if (!filters_kernels(command) || result.failed > 0) return;
  const bool any = std::any_of(result.reports.begin(), result.reports.end(),
                               [](const input_report& r) { return !r.kernels.empty(); });
  if (any) return;
  const std::string inputs = fmt::format("{} input{}", command.inputs.size(), command.inputs.size() == 1 ? "" : "s");
  if (!command.kernel_pattern.empty()) {
    throw occcalc::input_error("kernel", fmt::format("'{}' matches no kernel{} in the {}", command.kernel_pattern,
                                                     command.arch.empty() ? "" : " for " + command.arch, inputs));
  }
  throw occcalc::input_error("arch", fmt::format("'{}' matches no kernel in the {}", command.arch, inputs));
}

}  // namespace

exit_status run_inspect(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& out, std::ostream& err, const terminal& term) {
  // The records go out as they are made; the inputs without kernels are
  // noted once all are out.
  struct printing : report_sink {
    inspect_printer& printer;
    std::vector<std::string> without_kernels;
    std::size_t kernels_printed = 0;
    explicit printing(inspect_printer& p) : printer(p) {}
    void input(const input_report& heading, std::size_t kernel_count) override {
      if (kernel_count == 0) without_kernels.push_back(heading.file);
      kernels_printed += kernel_count;
      printer.input(heading, kernel_count);
    }
    void kernels(std::vector<kernel_report>& run) override { printer.kernels(run); }
  };
  const auto printer = find_renderer(inspect_renderers, command.format)(
      out, terminal_for(term, command.format), command.table, inspect_workers(command), command.inputs);
  printing sink(*printer);
  const std::size_t failed = read_inputs(
      tables, command, in, err,
      [&](const inspect::inspected_kernel&) {
        return std::pair<launch_overrides, std::string>{command.overrides, "--threads"};
      },
      sink);
  printer->finish();
  out.flush();  // the table before the notes, where both reach one terminal or log
  if (!filters_kernels(command)) {
    for (const auto& file : sink.without_kernels) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", occcalc::detail::printable(file));
    }
  }
  if (failed > 0) return exit_status::bad_input;
  // A filter that matched nothing anywhere is said, as check says it.
  if (sink.kernels_printed == 0) require_matches(command, {});
  return exit_status::ok;
}

std::string inspect_json_of(const occcalc::table& tables, const std::string& name, inspect::byte_view bytes) {
  inspect_command command;
  command.inputs = {name};
  command.format = output_format::json;
  command.contents = bytes;
  std::istringstream in;
  std::ostringstream out, err;
  std::string message;
  try {
    if (run_inspect(tables, command, in, out, err, terminal{}) == exit_status::ok) return out.str();
    // The input could not be read: the line inspect printed for it.
    constexpr std::string_view lead = "occcalc: error: ";
    std::string said = err.str();
    const auto at = said.find(lead);
    message = at == std::string::npos ? said : said.substr(at + lead.size());
    message = message.substr(0, message.find('\n'));
  } catch (const occcalc::error& e) {
    message = e.what();
  }
  std::string text;
  json_writer w(text);
  w.begin_object();
  w.member("schema_version", std::int64_t{occcalc::inspect_schema_version});
  w.key("error");
  w.begin_object();
  w.key("field");
  w.null();
  w.member("message", message);
  w.end_object();
  w.end_object();
  return text + "\n";
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
    return policy_launch(limits_for(p, k), k, command.overrides);
  });
  require_matches(command, result);
  refuse_rules_beyond_bounds(command.policy_file, p, result.reports);
  check_outcome outcome;
  for (const auto& r : result.reports) {
    if (r.kernels.empty() && !filters_kernels(command)) {
      // Nothing checked is never a pass.
      err << fmt::format("occcalc: error: {}: no GPU kernels to check\n", occcalc::detail::printable(r.file));
      ++result.failed;
      continue;
    }
    for (const auto& k : r.kernels) {
      check_kernel(p, limits_for(p, k.kernel), k, outcome.violations);
      ++outcome.kernels_checked;
      const auto same = [&](const judged_size& j) { return j.threads == k.block_size && j.from == k.block_size_from; };
      if (auto it = std::find_if(outcome.judged_at.begin(), outcome.judged_at.end(), same);
          it != outcome.judged_at.end()) {
        ++it->kernels;
      } else {
        outcome.judged_at.push_back({k.block_size, k.block_size_from, 1});
      }
    }
  }
  std::stable_sort(outcome.judged_at.begin(), outcome.judged_at.end(),
                   [](const judged_size& a, const judged_size& b) { return a.kernels > b.kernels; });
  const std::size_t suggested = std::accumulate(
      outcome.judged_at.begin(), outcome.judged_at.end(), std::size_t{0},
      [](std::size_t n, const judged_size& j) { return n + (j.from == suggested_block_size ? j.kernels : 0); });
  if (suggested > 0) {
    const std::string unset = fmt::format("{} kernel{} declare no block size and the policy gives {} none", suggested,
                                          suggested == 1 ? "" : "s", suggested == 1 ? "it" : "them");
    const std::string fix = "set defaults.threads (or a rule's threads) to the block size you launch";
    if (command.require_threads) throw occcalc::input_error("require_threads", unset + "; " + fix);
    err << "occcalc: warning: " << unset << ": judged at the size suggest picks, not your launch; " << fix << "\n";
  }
  if (!command.baseline.empty()) excuse_by_baseline(tables, command, in, err, result.reports, outcome);
  outcome.unreadable_inputs = result.failed;
  // With --kernel or --arch, entries for the kernels left out are not stale.
  if (!filters_kernels(command)) {
    outcome.unused_policy_entries = unused_entries(p, result.reports, outcome.violations);
  }
  out << render(outcome, terminal_for(term, command.format));
  if (command.format == output_format::github) {
    // The step summary: a table on the run's page.
    const char* summary = std::getenv("GITHUB_STEP_SUMMARY");
    if (summary != nullptr && *summary != '\0') {
      std::ofstream file(summary, std::ios::app | std::ios::binary);
      if (!(file << check_markdown(outcome)) || !file.flush()) {
        err << fmt::format("occcalc: error: GITHUB_STEP_SUMMARY {}: cannot append the summary\n",
                           occcalc::detail::printable(summary));
        return exit_status::bad_input;
      }
    }
  }
  if (result.failed > 0) return exit_status::bad_input;  // never a pass over what could not be read
  return outcome.failed() == 0 ? exit_status::ok : exit_status::gate_failed;
}

}  // namespace occcalc::cli
