// `occcalc limits`: for a target and a block size, the most registers per
// thread and shared memory per block each occupancy level allows (AMD: the
// most VGPRs, SGPRs and LDS per waves-per-SIMD level, as the compiler
// counts).
#pragma once

#include <iosfwd>

#include "commands/exit_status.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/tables.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// Runs `limits`; throws `input_error` for bad input.
exit_status run_limits(const occcalc::table& tables, occcalc::request request, bool json, std::ostream& out,
                       const terminal& term);

}  // namespace occcalc::cli
