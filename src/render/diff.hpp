// Output of `occcalc diff`: text, and JSON (schema/diff.schema.json).
#pragma once

#include <string>

#include "analysis/baseline.hpp"

namespace occcalc::cli {

/// A compared pair of builds and how they were named.
struct diff_report {
  std::string old_input, new_input;
  baseline_diff diff;
};

std::string diff_text(const diff_report& report, bool colour);
std::string diff_json(const diff_report& report);

}  // namespace occcalc::cli
