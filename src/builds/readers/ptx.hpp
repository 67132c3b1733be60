// PTX text, a file or a fat binary's entry: each entry's launch directives
// (`.maxntid`, `.reqntid`, `.maxnreg`, `.minnctapersm`,
// `.reqnctapercluster`) and the target, read directly. Registers, shared
// memory and stack are ptxas's to decide: the commands run ptxas when it is
// on PATH (`ptxas -v`, read as a compiler log) and say so when it is not.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "builds/readers/kernel_resources.hpp"

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
