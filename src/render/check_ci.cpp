// check's CI formats: GitHub workflow commands, SARIF 2.1.0 for code
// scanning, and a Markdown table for step summaries and pull requests.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/version.hpp"
#include "render/check.hpp"
#include "render/github_commands.hpp"
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
  std::string text = fmt::format("{} ({}): {} [{}]", k.demangled, k.resources.arch, v.message, v.rule);
  if (v.allowed_by) text += fmt::format(" (allowed by {}: {})", v.allowed_by->label, v.allowed_by->reason);
  return text;
}

/// A Markdown table cell: pipes escaped, lines joined.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

/// Inline code in a Markdown cell, so `<` in a template name is text.
std::string code(std::string_view text) {
  const bool has_tick = text.find('`') != std::string_view::npos;
  const std::string fence = has_tick ? "`` " : "`";
  const std::string close = has_tick ? " ``" : "`";
  return fence + cell(text) + close;
}

}  // namespace

std::string check_github(const check_outcome& outcome) {
  std::string out;
  for (const auto& v : outcome.violations) {
    out +=
        fmt::format("::{} file={},title={}::{}\n", v.allowed_by ? "warning" : "error", command_property(v.kernel->file),
                    command_property("occcalc check: " + v.check), command_data(violation_text(v)));
  }
  for (const auto& entry : outcome.unused_policy_entries) {
    out += fmt::format("::warning title={}::{}\n", command_property("occcalc check: unused policy entry"),
                       command_data(entry));
  }
  if (outcome.unreadable_inputs > 0) {
    out += fmt::format("::error title={}::{}\n", command_property("occcalc check: unreadable inputs"),
                       command_data(fmt::format("{} input{} could not be read; see the log", outcome.unreadable_inputs,
                                                outcome.unreadable_inputs == 1 ? "" : "s")));
  }
  out += verdict_line(outcome) + "\n";
  return out;
}

std::string check_markdown(const check_outcome& outcome) {
  std::string out = fmt::format("### occcalc check: {}\n\n", outcome.passed() ? "passed" : "failed");
  out += verdict_line(outcome) + ".\n";
  for (const auto& entry : outcome.unused_policy_entries) out += "\n- unused policy entry: " + cell(entry);
  if (!outcome.unused_policy_entries.empty()) out += "\n";
  if (outcome.violations.empty()) return out;
  out += "\n| | file | arch | kernel | check | finding | rule |\n|---|---|---|---|---|---|---|\n";
  for (const auto& v : outcome.violations) {
    const auto& k = v.kernel->kernel;
    std::string finding = cell(v.message);
    if (v.allowed_by) finding += " (allowed: " + cell(v.allowed_by->reason) + ")";
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", v.allowed_by ? "allowed" : "**fail**",
                       code(v.kernel->file), cell(k.resources.arch), code(k.demangled), cell(v.check), finding,
                       cell(v.rule));
  }
  return out;
}

std::string check_sarif(const check_outcome& outcome) {
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const auto& rule : check_rules) {
    rules.push_back({{"id", rule.id},
                     {"name", rule.id},
                     {"shortDescription", {{"text", rule.description}}},
                     {"defaultConfiguration", {{"level", "error"}}}});
  }
  const auto rule_index = [](std::string_view id) {
    for (std::size_t i = 0; i < std::size(check_rules); ++i) {
      if (check_rules[i].id == id) return static_cast<std::int64_t>(i);
    }
    return std::int64_t{-1};
  };
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& v : outcome.violations) {
    const auto& k = v.kernel->kernel;
    nlohmann::ordered_json result;
    result["ruleId"] = v.check;
    result["ruleIndex"] = rule_index(v.check);
    result["level"] = v.allowed_by ? "note" : "error";
    result["message"] = {{"text", violation_text(v)}};
    result["locations"] = nlohmann::ordered_json::array(
        {{{"physicalLocation", {{"artifactLocation", {{"uri", artifact_uri(v.kernel->file)}}}}},
          {"logicalLocations",
           nlohmann::ordered_json::array(
               {{{"name", k.demangled}, {"fullyQualifiedName", k.resources.name}, {"kind", "function"}}})}}});
    // Code scanning tells results apart by these: one per kernel, arch and check.
    result["partialFingerprints"] = {
        {"occcalcKernel/v1", fmt::format("{}:{}:{}", k.resources.name, k.resources.arch, v.check)}};
    if (v.allowed_by) {
      result["suppressions"] =
          nlohmann::ordered_json::array({{{"kind", "external"}, {"justification", v.allowed_by->reason}}});
    }
    result["properties"] = {
        {"kernel", k.resources.name}, {"name", k.demangled}, {"arch", k.resources.arch}, {"rule", v.rule}};
    results.push_back(std::move(result));
  }
  return sarif_log(std::move(rules), std::move(results), outcome.unreadable_inputs == 0,
                   {{"kernelsChecked", outcome.kernels_checked}, {"unreadableInputs", outcome.unreadable_inputs}});
}

}  // namespace occcalc::cli
