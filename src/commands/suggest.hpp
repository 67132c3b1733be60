// `occcalc suggest`: the block size with the most resident threads, the
// next step for each limiting resource, and the dynamic shared memory N
// blocks leave.
#pragma once

#include <iosfwd>
#include <string>

#include "commands/exit_status.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/request/request.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

/// What `suggest` was asked, beyond the usual kernel flags.
struct suggest_options {
  /// Cap on the block size (`--max-threads`), as typed; empty for none.
  std::string max_threads;
  /// Dynamic shared memory per thread in bytes (`--dyn-smem-per-thread`).
  std::string dynamic_per_thread;
  /// Target occupancy in percent (`--target`).
  std::string target;
  /// Resident blocks to leave dynamic shared memory for (`--blocks`).
  std::string blocks;
};

/// Runs `suggest`; throws `input_error` for bad input.
exit_status run_suggest(const occcalc::table& tables, occcalc::request request, const suggest_options& options,
                        bool json, std::ostream& out, const terminal& term);

}  // namespace occcalc::cli
