// The process exit codes, documented in README.md.
#pragma once

namespace occcalc::cli {

/// The process exit codes, documented in README.md.
enum class exit_status : int {
  ok = 0,           ///< Success (and every gate passed).
  gate_failed = 1,  ///< A result is below --min-occupancy, or a kernel broke the policy.
  bad_input = 2,    ///< Bad flags, values, tables or batch lines; or the run could not complete
                    ///< (the output could not be written, memory ran out).
};

}  // namespace occcalc::cli
