// PTX text: each entry's launch directives (`.maxntid`, `.reqntid`,
// `.maxnreg`) and the target, read directly (`.minnctapersm` is ptxas's to
// turn into a register cap, which its report gives). Registers and
// shared memory are ptxas's to decide: the driver runs ptxas when ptxas is on
// PATH (`ptxas -v`, read as a compiler log) and says so when it is not.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inspect/kernel_resources.hpp"

namespace occcalc::inspect {

/// Whether `text` is PTX: a `.version` and a `.target` directive near the
/// start.
bool is_ptx(std::string_view text) noexcept;

/// The `.target` of the PTX (`sm_80`), empty when it names none.
std::string ptx_target(std::string_view text);

/// Every `.entry` with its directives and the target as its arch; figures
/// only ptxas decides are left unknown. Throws `format_error` naming the
/// line for a malformed directive.
std::vector<kernel_resources> read_ptx(std::string_view text);

}  // namespace occcalc::inspect
