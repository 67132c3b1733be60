#include "render/check_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "occcalc/common/text.hpp"
#include "occcalc/version.hpp"
#include "render/result_json.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

std::size_t check_outcome::failed() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(violations.begin(), violations.end(), [](const violation& v) { return !v.allowed_by; }));
}

std::string verdict_line(const check_outcome& outcome) {
  const std::size_t failed = outcome.failed();
  const std::size_t allowed = outcome.violations.size() - failed;
  std::string line =
      fmt::format("{}: {} kernel{} checked, {} violation{}", outcome.passed() ? "passed" : "failed",
                  outcome.kernels_checked, outcome.kernels_checked == 1 ? "" : "s", failed, failed == 1 ? "" : "s");
  if (allowed > 0) line += fmt::format(", {} allowed", allowed);
  if (outcome.unreadable_inputs > 0) {
    line += fmt::format(", {} input{} not read", outcome.unreadable_inputs, outcome.unreadable_inputs == 1 ? "" : "s");
  }
  // At what launch: a gate "at 50%" is only as good as the block size it judged.
  constexpr std::size_t named = 3;
  for (std::size_t i = 0; i < outcome.judged_at.size() && i < named; ++i) {
    const auto& j = outcome.judged_at[i];
    line += fmt::format("{}{}{} ({}) for {}", i == 0 ? "; judged at " : ", ",
                        j.threads ? std::to_string(*j.threads) : "no block size", i == 0 && j.threads ? " threads" : "",
                        j.from == launch_source::none ? "none" : spelling(j.from), j.kernels);
  }
  if (outcome.judged_at.size() > named) line += fmt::format(" and {} more sizes", outcome.judged_at.size() - named);
  return line;
}

std::string check_json(const check_outcome& outcome) {
  return pretty_document([&](json_writer& w) {
    w.begin_object();
    w.member("schema_version", occcalc::check_schema_version);
    w.member("passed", outcome.passed());
    w.member("kernels_checked", outcome.kernels_checked);
    w.key("judged_at");
    w.begin_array();
    for (const auto& size : outcome.judged_at) {
      w.begin_object();
      w.member("threads", size.threads);
      w.member("from", spelling(size.from));
      w.member("kernels", size.kernels);
      w.end_object();
    }
    w.end_array();
    w.member("unreadable_inputs", outcome.unreadable_inputs);
    w.member("unused_policy_entries", outcome.unused_policy_entries);
    w.key("violations");
    w.begin_array();
    for (const auto& v : outcome.violations) {
      const auto& k = v.kernel->kernel;
      w.begin_object();
      w.member("file", v.kernel->file);
      w.member("kernel", k.resources.name);
      w.member("name", k.demangled);
      w.member("arch", k.resources.arch.name);
      w.member("check", v.check);
      w.member("message", v.message);
      w.member("rule", v.rule);
      w.member("allowed", v.allowed_by != nullptr);
      w.member("allowed_by", v.allowed_by ? std::optional<std::string_view>(v.allowed_by->label) : std::nullopt);
      w.member("reason", v.allowed_by ? std::optional<std::string_view>(v.allowed_by->reason) : std::nullopt);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  });
}

std::string check_text(const check_outcome& outcome, const terminal& term) {
  // Per kernel: its verdict, name, target and file, then each violation.
  constexpr std::size_t indent = 8;
  std::string text;
  for (auto at = outcome.violations.begin(); at != outcome.violations.end();) {
    const auto* kernel = at->kernel;
    const auto end = std::find_if(at, outcome.violations.end(), [&](const violation& v) { return v.kernel != kernel; });
    const bool failed = std::any_of(at, end, [](const violation& v) { return v.allowed_by == nullptr; });
    const auto& k = kernel->kernel;
    text += labelled(
        failed ? "FAIL" : "allowed", failed ? style::bad : style::dim,
        occcalc::detail::printable(fmt::format("{} ({}, {})", k.demangled, k.resources.arch.name, kernel->file)),
        indent, indent, term);
    for (auto v = at; v != end; ++v) {
      std::string line = fmt::format("- {} [{}]", v->message, v->rule);
      if (v->allowed_by) line += fmt::format("; allowed by {}: {}", v->allowed_by->label, v->allowed_by->reason);
      text += wrap_hanging(occcalc::detail::printable(line), indent, indent + 2, term.columns);
    }
    at = end;
  }
  for (const auto& entry : outcome.unused_policy_entries) {
    text += paint(wrap_hanging(occcalc::detail::printable("note: " + entry + " (a stale policy entry?)"), 0, indent,
                               term.columns),
                  style::dim, term.colour);
  }
  std::string verdict = wrap_hanging(verdict_line(outcome), 0, 2, term.columns);
  if (!verdict.empty() && verdict.back() == '\n') verdict.pop_back();
  return text + paint(verdict, outcome.passed() ? style::good : style::bad, term.colour) + "\n";
}

const std::array<format_renderer<check_render>, 5> check_renderers = {{
    {output_format::text, check_text},
    {output_format::json, [](const check_outcome& outcome, const terminal&) { return check_json(outcome); }},
    {output_format::github, [](const check_outcome& outcome, const terminal&) { return check_github(outcome); }},
    {output_format::sarif, [](const check_outcome& outcome, const terminal&) { return check_sarif(outcome); }},
    {output_format::markdown, [](const check_outcome& outcome, const terminal&) { return check_markdown(outcome); }},
}};

}  // namespace occcalc::cli
