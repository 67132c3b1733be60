// inspect's records for programs, JSON and CSV: each written as its run
// of reports comes, so a library's tens of thousands of kernels stream out.
#pragma once

#include <iosfwd>
#include <memory>

#include "render/inspect_report.hpp"

namespace occcalc::cli {

/// An object per kernel, one per line, in `{"schema_version", "kernels"}`
/// (schema/inspect.schema.json); each run's made on up to `workers` threads.
std::unique_ptr<inspect_printer> inspect_json_printer(std::ostream& out, unsigned workers,
                                                      const std::vector<std::string>& inputs);

/// A header row, then a row per kernel (RFC 4180 quoting); each run's made
/// on up to `workers` threads.
std::unique_ptr<inspect_printer> inspect_csv_printer(std::ostream& out, unsigned workers);

}  // namespace occcalc::cli
