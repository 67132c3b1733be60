// check's CI formats: GitHub workflow commands, SARIF 2.1.0 for code
// scanning, and a Markdown table for step summaries and pull requests.
#include <fmt/format.h>

#include "occcalc/common/text.hpp"
#include "occcalc/version.hpp"
#include "render/check_report.hpp"
#include "render/github_commands.hpp"
#include "render/markdown.hpp"
#include "render/result_json.hpp"
#include "render/sarif.hpp"

namespace occcalc::cli {

namespace {

/// What each check means, for SARIF's rules and the Markdown legend.
struct check_rule {
  std::string_view id;
  std::string_view description;
};

constexpr check_rule check_rules[] = {
    {"occupancy", "Theoretical occupancy at the policy's block size is below the policy's floor."},
    {"registers", "Registers per thread exceed the policy's maximum."},
    {"stack", "Stack per thread exceeds the policy's maximum."},
    {"spills", "The kernel spills registers, or may (a binary records its stack frame, not its spills)."},
    {"block_size", "The kernel declares no block size (__launch_bounds__ or a required size)."},
};

/// The one-line description of a violation every CI format shows.
std::string violation_text(const violation& v) {
  const auto& k = v.kernel->kernel;
  std::string text = fmt::format("{} ({}): {} [{}]", k.demangled, k.resources.arch.name, v.message, v.rule);
  if (v.allowed_by) text += fmt::format(" (allowed by {}: {})", v.allowed_by->label, v.allowed_by->reason);
  return text;
}

/// The violations worst first: failing before allowed; within each, the
/// lowest occupancy first (unknown lowest of all), then the input's order.
std::vector<const violation*> worst_first(const check_outcome& outcome) {
  // Each violation's sort key, computed once: allowed or not, occupancy.
  std::vector<std::pair<std::pair<bool, double>, const violation*>> keyed;
  for (const auto& v : outcome.violations) {
    keyed.push_back({{v.allowed_by != nullptr, v.kernel->launch_occupancy().value_or(-1.0)}, &v});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const violation*> order;
  for (const auto& [key, v] : keyed) order.push_back(v);
  return order;
}

}  // namespace

std::string check_github(const check_outcome& outcome) {
  const auto order = worst_first(outcome);
  std::vector<annotation> errors, warnings;
  if (outcome.unreadable_inputs > 0) {
    errors.push_back({"", "occcalc check: unreadable inputs",
                      fmt::format("{} input{} could not be read; see the log", outcome.unreadable_inputs,
                                  outcome.unreadable_inputs == 1 ? "" : "s")});
  }
  for (const auto* v : order) {
    (v->allowed_by ? warnings : errors).push_back({v->kernel->file, "occcalc check: " + v->check, violation_text(*v)});
  }
  for (const auto& entry : outcome.unused_policy_entries) {
    warnings.push_back({"", "occcalc check: unused policy entry", entry});
  }
  constexpr std::string_view full = "this step's log lists them all";
  std::string out = annotations("error", errors, "errors", full) + annotations("warning", warnings, "warnings", full);
  if (errors.size() > github_annotations_per_level || warnings.size() > github_annotations_per_level) {
    // The full report, folded in the log; indented, so no line of it can be
    // taken for a workflow command.
    out += "::group::occcalc check: every violation\n";
    for (const auto* v : order) {
      out +=
          fmt::format("  {} {}\n", v->allowed_by ? "allowed" : "FAIL", occcalc::detail::printable(violation_text(*v)));
    }
    out += "::endgroup::\n";
  }
  out += verdict_line(outcome) + "\n";
  return out;
}

std::string check_markdown(const check_outcome& outcome) {
  std::string out = fmt::format("### occcalc check: {}\n\n", outcome.passed() ? "passed" : "failed");
  out += verdict_line(outcome) + ".\n";
  if (!outcome.violations.empty()) {
    // Counts first: what a reviewer needs when the table is cut.
    out += "\n| check | failed | allowed |\n|---|---|---|\n";
    for (const auto& rule : check_rules) {
      std::size_t failed = 0, allowed = 0;
      for (const auto& v : outcome.violations) {
        if (v.check == rule.id) ++(v.allowed_by ? allowed : failed);
      }
      if (failed + allowed > 0) out += fmt::format("| {} | {} | {} |\n", rule.id, failed, allowed);
    }
  }
  std::size_t entries = 0;
  for (const auto& entry : outcome.unused_policy_entries) {
    if (++entries > max_markdown_rows) break;
    out += "\n- unused policy entry: " + markdown_cell(entry);
  }
  if (outcome.unused_policy_entries.size() > max_markdown_rows) {
    out +=
        fmt::format("\n- and {} more unused policy entries", outcome.unused_policy_entries.size() - max_markdown_rows);
  }
  if (!outcome.unused_policy_entries.empty()) out += "\n";
  if (outcome.violations.empty()) return out;
  out += "\n| | file | arch | kernel | check | finding | rule |\n|---|---|---|---|---|---|---|\n";
  const auto order = worst_first(outcome);
  append_rows(
      out, order.size(),
      [&](std::size_t i) {
        const auto* v = order[i];
        const auto& k = v->kernel->kernel;
        std::string finding = markdown_cell(v->message);
        if (v->allowed_by) finding += " (allowed: " + markdown_cell(v->allowed_by->reason) + ")";
        return fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", v->allowed_by ? "allowed" : "**fail**",
                           markdown_code(v->kernel->file), markdown_cell(k.resources.arch.name),
                           markdown_code(k.demangled), markdown_cell(v->check), finding, markdown_cell(v->rule));
      },
      "(the worst come first); `occcalc check --format sarif` or the text report lists them all");
  return out;
}

std::string check_sarif(const check_outcome& outcome) {
  static const std::vector<sarif_rule> rules = [] {
    std::vector<sarif_rule> list;
    for (const auto& rule : check_rules) list.push_back({rule.id, rule.description, "error"});
    return list;
  }();
  const auto rule_index = [](std::string_view id) {
    for (std::size_t i = 0; i < std::size(check_rules); ++i) {
      if (check_rules[i].id == id) return static_cast<std::int64_t>(i);
    }
    return std::int64_t{-1};
  };
  return pretty_document([&](json_writer& w) {
    sarif_writer log(w, rules);
    for (const auto& v : outcome.violations) {
      const auto& k = v.kernel->kernel;
      log.result(
          {v.check,
           rule_index(v.check),
           v.allowed_by ? "note" : "error",
           violation_text(v),
           v.kernel->file,
           k.demangled,
           k.resources.name,
           // Code scanning tells results apart by these: one per kernel, arch and check.
           fmt::format("{}:{}:{}", k.resources.name, k.resources.arch.name, v.check),
           v.allowed_by ? std::optional<std::string_view>(v.allowed_by->reason) : std::nullopt,
           {{{"kernel", k.resources.name}, {"name", k.demangled}, {"arch", k.resources.arch.name}, {"rule", v.rule}}}});
    }
    log.finish(outcome.unreadable_inputs == 0, [&](json_writer& invocation) {
      invocation.member("kernelsChecked", outcome.kernels_checked);
      invocation.member("unreadableInputs", outcome.unreadable_inputs);
    });
  });
}

}  // namespace occcalc::cli
