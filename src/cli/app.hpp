// The occcalc command line: subcommands, options and exit codes.
#pragma once

#include <iosfwd>

#include "commands/exit_status.hpp"

namespace occcalc::cli {

/// Runs occcalc with the given arguments and streams; returns the exit code.
/// Never throws: an exception that escapes a command becomes one line on
/// `err` and `bad_input`, and so does an `out` that failed to take the output.
exit_status run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace occcalc::cli
