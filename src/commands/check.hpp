// `occcalc check`: the kernels of build outputs judged against a policy,
// the CI gate.
#pragma once

#include <iosfwd>

#include "commands/exit_status.hpp"
#include "commands/inspect.hpp"
#include "render/terminal.hpp"

namespace occcalc::cli {

/// Checks every kernel of every input against the policy: ok when all pass,
/// gate_failed on any violation not allowed, bad_input when an input could
/// not be read or held no kernels (each named on `err`; the others are
/// still checked and reported). Throws `occcalc::error` for a bad policy.
exit_status run_check(const occcalc::table& tables, const inspect_command& command, std::istream& in, std::ostream& out,
                      std::ostream& err, const terminal& term);

}  // namespace occcalc::cli
