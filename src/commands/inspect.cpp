#include "commands/inspect.hpp"

#include <cstdlib>
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
#include "inspect/identify.hpp"
#include "inspect/mapped_file.hpp"
#include "inspect/parallel.hpp"
#include "io/directory.hpp"
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

inspect::inspect_options options_for(const kernel_matcher& filter) {
  inspect::inspect_options options;
  options.only_sm = filter.arch_sm;
  options.workers = workers();
  return options;
}

/// Reads one input given by name (`-` for standard input). Throws
/// `occcalc::error` naming it when it cannot be read or is not an input.
inspect::inspection read_input(const std::string& path, std::istream& in, const kernel_matcher& filter) {
  inspect::inspect_options options = options_for(filter);
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

/// Reads a file found in a directory: empty when it holds no GPU code (not
/// a GPU binary or compiler log, or a host file without device code).
/// Throws `occcalc::error` for one that should but cannot be read.
std::optional<inspect::inspection> read_found_file(const std::string& path, const kernel_matcher& filter) {
  const inspect::mapped_file file(path);
  if (inspect::identify(file.bytes()) == inspect::input_kind::unknown) return std::nullopt;
  inspect::inspect_options options = options_for(filter);
  options.done_with = [&file](inspect::byte_view used) { file.release(used); };
  try {
    auto inspected = inspect::inspect_bytes(file.bytes(), options);
    if (inspected.kernels.empty() && inspected.skipped_entries == 0) return std::nullopt;
    return inspected;
  } catch (const inspect::format_error& e) {
    throw occcalc::error(fmt::format("{}: {}", path, e.what()));
  }
}

/// What reading the inputs gave.
struct read_result {
  /// One per explicit input, and one per file of a directory that holds
  /// kernels.
  std::vector<input_report> reports;
  /// Inputs (or files, or directories) that could not be read; each had
  /// its error line.
  std::size_t failed = 0;
};

/// Reads every input and reports the kernels that pass the filter, each at
/// the block size `threads_for` gives. An input that cannot be read is one
/// error line on `err`, and the others are still read (grep's convention:
/// the exit code says so at the end). A directory is searched: what is a GPU
/// binary or compiler log is read, the rest counted (`verbose` lists it).
template <typename Threads>
read_result read_inputs(const occcalc::table& tables, const inspect_command& command, std::istream& in,
                        std::ostream& err, Threads&& threads_for) {
  const kernel_matcher filter = make_kernel_matcher(command.kernel_pattern, command.arch);
  read_result result;
  const auto report = [&](const std::string& path, inspect::inspection inspected) {
    input_report r{
        path, inspected.kind, inspected.skipped_entries, inspected.duplicate_entries, inspected.skipped_members, {}};
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
    r.kernels.reserve(static_cast<std::size_t>(
        std::count_if(reported.begin(), reported.end(), [](const auto& k) { return k.has_value(); })));
    for (auto& k : reported) {
      if (k) r.kernels.push_back(std::move(*k));
    }
    return r;
  };
  const auto fail = [&](const std::string& message) {
    err << "occcalc: error: " << message << "\n";
    ++result.failed;
  };
  for (const auto& path : command.inputs) {
    if (path == "-" || !is_directory(path)) {
      try {
        result.reports.push_back(report(path, read_input(path, in, filter)));
      } catch (const occcalc::error& e) {
        fail(e.what());
      }
      continue;
    }
    std::vector<std::string> unreadable;
    const auto files = files_under(path, unreadable);
    for (const auto& dir : unreadable) fail(dir + ": cannot read this directory");
    std::vector<std::string> skipped;
    std::size_t with_kernels = 0;
    for (const auto& file : files) {
      try {
        auto inspected = read_found_file(file, filter);
        if (!inspected) {
          skipped.push_back(file);
          continue;
        }
        auto r = report(file, std::move(*inspected));
        if (r.kernels.empty()) continue;  // none left after --kernel / --arch
        ++with_kernels;
        result.reports.push_back(std::move(r));
      } catch (const occcalc::error& e) {
        fail(e.what());
      }
    }
    if (!skipped.empty()) {
      err << fmt::format("occcalc: note: {}: {} file{} skipped, not GPU binaries or compiler logs{}\n", path,
                         skipped.size(), skipped.size() == 1 ? "" : "s", command.verbose ? ":" : " (-v lists them)");
      if (command.verbose) {
        for (const auto& file : skipped) err << "  " << file << "\n";
      }
    }
    if (with_kernels == 0) {
      fail(fmt::format("{}: no GPU kernels {}in {} file{}", path,
                       command.kernel_pattern.empty() && command.arch.empty() ? "" : "left ", files.size(),
                       files.size() == 1 ? "" : "s"));
    }
  }
  return result;
}

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
                        std::ostream& out, std::ostream& err, bool colour) {
  const auto result = read_inputs(tables, command, in, err, [&](const inspect::inspected_kernel&) {
    return std::pair<launch_overrides, std::string>{command.overrides, "--threads"};
  });
  find_renderer(inspect_renderers, command.format)(out, result.reports, colour);
  out.flush();  // the table before the notes, where both reach one terminal or log
  for (const auto& r : result.reports) {
    if (r.kernels.empty() && command.kernel_pattern.empty() && command.arch.empty()) {
      err << fmt::format("occcalc: note: {}: no GPU kernels found\n", r.file);
    }
  }
  return result.failed == 0 ? exit_status::ok : exit_status::bad_input;
}

exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      std::ostream& err, bool colour) {
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
      check_kernel(p, limits_for(p, k.kernel), k, outcome.violations);
      ++outcome.kernels_checked;
    }
  }
  outcome.unreadable_inputs = result.failed;
  // With --kernel or --arch, entries for the kernels left out are not stale.
  if (command.kernel_pattern.empty() && command.arch.empty()) {
    outcome.unused_policy_entries = unused_entries(p, result.reports, outcome.violations);
  }
  out << render(outcome, colour && !info(command.format).machine);
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
