#include "commands/inspect.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "analysis/kernel_matcher.hpp"
#include "analysis/policy.hpp"
#include "inspect/compiler_log.hpp"
#include "inspect/mapped_file.hpp"
#include "inspect/parallel.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "render/check.hpp"
#include "render/inspect_report.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

namespace {

/// Threads to read and report with.
unsigned workers() { return std::max(1u, std::thread::hardware_concurrency()); }

/// Fewest kernels worth more threads than one.
constexpr std::size_t min_parallel_kernels = 1024;

/// No per-thread state.
struct stateless {};

inspect::inspection read_input(const std::string& path, std::istream& in, const kernel_matcher& filter) {
  inspect::inspect_options options;
  options.only_sm = filter.arch_sm;
  options.workers = workers();
  try {
    if (path == "-") {
      const auto text = inspect::read_stream(in, "standard input");
      return inspect::inspect_bytes({text.data(), text.size()}, options);
    }
    const inspect::mapped_file file(path);
    options.done_with = [&file](inspect::byte_view used) { file.release(used); };
    return inspect::inspect_bytes(file.bytes(), options);
  } catch (const inspect::format_error& e) {
    throw occcalc::error(fmt::format("{}: {}", path == "-" ? "standard input" : path, e.what()));
  }
}

/// Reads every input and reports the kernels that pass the filter, each at
/// the block size `threads_for` gives.
template <typename Threads>
std::vector<input_report> read_inputs(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                                      Threads&& threads_for) {
  const kernel_matcher filter = make_kernel_matcher(command.kernel_pattern, command.arch);
  std::vector<input_report> reports;
  for (const auto& path : command.inputs) {
    auto inspected = read_input(path, in, filter);
    input_report report{path, inspected.kind, inspected.skipped_entries, inspected.duplicate_entries, {}};
    // A library holds tens of thousands of kernels: filter them and compute
    // their occupancy on every core, each into its own slot to keep the order.
    auto& kernels = inspected.kernels;
    std::vector<std::optional<kernel_report>> reported(kernels.size());
    inspect::parallel_for<stateless>(
        kernels.size(), kernels.size() >= min_parallel_kernels ? workers() : 1, [&](std::size_t i, stateless&) {
          if (!filter.matches(kernels[i])) return;
          auto [overrides, from] = threads_for(kernels[i]);
          reported[i] = report_kernel(tables, path, std::move(kernels[i]), overrides, from);
        });
    report.kernels.reserve(static_cast<std::size_t>(
        std::count_if(reported.begin(), reported.end(), [](const auto& r) { return r.has_value(); })));
    for (auto& r : reported) {
      if (r) report.kernels.push_back(std::move(*r));
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace

exit_status run_inspect(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& out, std::ostream& err, bool colour) {
  const auto reports = read_inputs(tables, command, in, [&](const inspect::inspected_kernel&) {
    return std::pair<launch_overrides, std::string>{command.overrides, "--threads"};
  });
  find_renderer(inspect_renderers, command.format)(out, reports, colour);
  out.flush();  // the table before the notes, where both reach one terminal or log
  for (const auto& r : reports) {
    if (r.kernels.empty() && command.kernel_pattern.empty() && command.arch.empty()) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", r.file);
    }
  }
  return exit_status::ok;
}

exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      bool colour) {
  const policy p = parse_policy(command.policy_file, read_text_file(command.policy_file, "policy file"));
  const auto reports = read_inputs(tables, command, in, [&](const inspect::inspected_kernel& k) {
    const auto applied = limits_for(p, k);
    launch_overrides o = command.overrides;
    if (applied.limits.threads) o.threads = applied.limits.threads;
    return std::pair<launch_overrides, std::string>{o, "policy"};
  });
  check_outcome outcome;
  for (const auto& r : reports) {
    if (r.kernels.empty()) {
      throw occcalc::error(fmt::format("{}: no GPU kernels {}to check", r.file,
                                       command.kernel_pattern.empty() && command.arch.empty() ? "" : "left "));
    }
    for (const auto& k : r.kernels) {
      check_kernel(p, limits_for(p, k.kernel), k, outcome.violations);
      ++outcome.kernels_checked;
    }
  }
  const check_render render = find_renderer(check_renderers, command.format);
  if (render == nullptr) {
    throw occcalc::input_error("format", std::string(info(command.format).name) + " is not a format of check; give " +
                                             format_names(check_renderers));
  }
  out << render(outcome, colour);
  return outcome.failed() == 0 ? exit_status::ok : exit_status::gate_failed;
}

}  // namespace occcalc::cli
