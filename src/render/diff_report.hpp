// Output of `occcalc diff`: text, and JSON (schema/diff.schema.json).
#pragma once

#include <string>

#include "builds/baseline.hpp"
#include "render/formats.hpp"

namespace occcalc::cli {

/// A compared pair of builds and how they were named.
struct diff_report {
  std::string old_input, new_input;
  baseline_diff diff;
  /// Whether a regression fails the run (`--fail-on-regression`): GitHub's
  /// annotations are errors then, warnings otherwise.
  bool fails_on_regression = false;
};

std::string diff_text(const diff_report& report, const terminal& term);
std::string diff_json(const diff_report& report);
/// `::error` per regressed kernel (the file of the new build) when the run
/// fails on a regression, `::warning` otherwise; `::notice` per new or
/// removed one; then the summary line.
std::string diff_github(const diff_report& report);
/// A SARIF 2.1.0 log: an error per regressed kernel, a note per new or
/// removed one.
std::string diff_sarif(const diff_report& report);
/// The summary and a table of the kernels that are not the same.
std::string diff_markdown(const diff_report& report);

/// How `diff` prints in one format.
using diff_render = std::string (*)(const diff_report& report, const terminal& term);

/// diff's formats: text, json, github, sarif and markdown.
extern const std::array<format_renderer<diff_render>, 5> diff_renderers;

}  // namespace occcalc::cli
