// The occcalc command line: subcommands, options and exit codes.
#pragma once

#include <iosfwd>

namespace occcalc::cli {

/// The process exit codes, documented in README.md.
enum class exit_status : int {
  ok = 0,           ///< Success (and every gate passed).
  gate_failed = 1,  ///< A result is below --min-occupancy.
  bad_input = 2,    ///< Bad flags, values, tables or batch lines.
};

/// Runs occcalc with the given arguments and streams; returns the exit code.
exit_status run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace occcalc::cli
