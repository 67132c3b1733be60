#include "commands/inspect.hpp"

#include <iterator>
#include <optional>
#include <ostream>
#include <sstream>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/version.hpp"

#include "inspect/compiler_log.hpp"
#include "inspect/mapped_file.hpp"
#include "inspect/parallel.hpp"
#include "analysis/kernel_matcher.hpp"
#include "render/result_json.hpp"
#include "io/text_file.hpp"
#include "occcalc/error.hpp"
#include "occcalc/parse.hpp"
#include "analysis/policy.hpp"
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

inspect::inspection read_input(const occcalc::table& tables, const std::string& path, std::istream& in,
                               const kernel_matcher& filter) {
  inspect::inspect_options options;
  options.only_sm = filter.arch_sm;
  options.reserve = shared_reserve(tables);
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
std::vector<input_report> read_inputs(const occcalc::table& tables, const inspect_command& command,
                                      std::istream& in, Threads&& threads_for) {
  const kernel_matcher filter = make_kernel_matcher(command.kernel_pattern, command.arch);
  std::vector<input_report> reports;
  for (const auto& path : command.inputs) {
    auto inspected = read_input(tables, path, in, filter);
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
  switch (command.format) {
    case inspect_format::json: render_inspect_json(out, reports); break;
    case inspect_format::csv: render_inspect_csv(out, reports); break;
    case inspect_format::text: render_inspect_text(out, reports, colour); break;
  }
  out.flush();  // the table before the notes, where both reach one terminal or log
  for (const auto& r : reports) {
    if (r.kernels.empty() && command.kernel_pattern.empty() && command.arch.empty()) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", r.file);
    }
  }
  return exit_status::ok;
}

exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                      std::ostream& out, bool colour) {
  const policy p = parse_policy(command.policy_file, read_text_file(command.policy_file, "policy file"));
  const auto reports = read_inputs(tables, command, in, [&](const inspect::inspected_kernel& k) {
    const auto applied = limits_for(p, k);
    launch_overrides o = command.overrides;
    if (applied.limits.threads) o.threads = applied.limits.threads;
    return std::pair<launch_overrides, std::string>{o, "policy"};
  });
  std::vector<violation> violations;
  std::size_t checked = 0;
  for (const auto& r : reports) {
    if (r.kernels.empty()) {
      throw occcalc::error(fmt::format("{}: no GPU kernels {}to check", r.file,
                                       command.kernel_pattern.empty() && command.arch.empty() ? "" : "left "));
    }
    for (const auto& k : r.kernels) {
      check_kernel(p, limits_for(p, k.kernel), k, violations);
      ++checked;
    }
  }
  const auto failed = static_cast<std::size_t>(
      std::count_if(violations.begin(), violations.end(), [](const violation& v) { return !v.allowed_by; }));
  if (command.format == inspect_format::json) {
    nlohmann::ordered_json j;
    j["schema_version"] = occcalc::check_schema_version;
    j["passed"] = failed == 0;
    j["kernels_checked"] = checked;
    j["violations"] = nlohmann::ordered_json::array();
    for (const auto& v : violations) {
      nlohmann::ordered_json item;
      item["file"] = v.kernel->file;
      item["kernel"] = v.kernel->kernel.resources.name;
      item["name"] = v.kernel->kernel.demangled;
      item["arch"] = v.kernel->kernel.resources.arch;
      item["check"] = v.check;
      item["message"] = v.message;
      item["rule"] = v.rule;
      item["allowed"] = v.allowed_by != nullptr;
      item["allowed_by"] = v.allowed_by ? nlohmann::ordered_json(v.allowed_by->label) : nlohmann::ordered_json();
      item["reason"] = v.allowed_by ? nlohmann::ordered_json(v.allowed_by->reason) : nlohmann::ordered_json();
      j["violations"].push_back(std::move(item));
    }
    out << json_text(j, 2) << "\n";
  } else {
    for (const auto& v : violations) {
      const auto& k = v.kernel->kernel;
      std::string line = fmt::format("{} {} {} {}: {} [{}]", v.allowed_by ? paint("allowed", style::dim, colour)
                                                                           : paint("FAIL", style::bad, colour),
                                     v.kernel->file, k.resources.arch, k.demangled, v.message, v.rule);
      if (v.allowed_by) line += fmt::format(" (allowed by {}: {})", v.allowed_by->label, v.allowed_by->reason);
      out << line << "\n";
    }
    const std::size_t allowed = violations.size() - failed;
    out << paint(fmt::format("{}: {} kernel{} checked, {} violation{}{}", failed == 0 ? "passed" : "failed", checked,
                             checked == 1 ? "" : "s", failed, failed == 1 ? "" : "s",
                             allowed > 0 ? fmt::format(", {} allowed", allowed) : ""),
                 failed == 0 ? style::good : style::bad, colour)
        << "\n";
  }
  return failed == 0 ? exit_status::ok : exit_status::gate_failed;
}

}  // namespace occcalc::cli
