// The occcalc command line: subcommands, options and exit codes.
#pragma once

#include <iosfwd>

namespace occcalc::cli {

/// The process exit codes, documented in README.md.
enum class exit_status : int {
  ok = 0,           ///< Success (and every gate passed).
  gate_failed = 1,  ///< A result is below --min-occupancy.
  bad_input = 2,    ///< Bad flags, values, tables or batch lines; or the run could not complete
                    ///< (the output could not be written, memory ran out).
};

/// Runs occcalc with the given arguments and streams; returns the exit code.
/// Never throws: an exception that escapes a command becomes one line on
/// `err` and `bad_input`, and so does an `out` that failed to take the output.
exit_status run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace occcalc::cli
