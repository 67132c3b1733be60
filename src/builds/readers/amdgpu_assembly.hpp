// AMD GPU assembly (`clang -S`, `hipcc --save-temps`): the twin of a ptxas
// log. Each kernel's resources come from the code object metadata the
// assembly carries (`.amdgpu_metadata`, the YAML form of what a code object
// holds as MessagePack), and the target from `amdhsa.target` or
// `.amdgcn_target`.
#pragma once

#include <string_view>
#include <vector>

#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// Whether `text` is AMDGPU assembly with code object metadata.
bool is_amdgpu_assembly(std::string_view text) noexcept;

/// The kernels of the assembly's `amdhsa.kernels`, with the figures a code
/// object's metadata gives. Throws `format_error` naming the line for a
/// malformed value.
std::vector<kernel_resources> read_amdgpu_assembly(std::string_view text);

}  // namespace occcalc::inspect
