// The AMDGPU compiler's resource remarks (`clang -Rpass-analysis=
// kernel-resource-usage`, through hipcc too): per kernel its SGPRs, VGPRs,
// AGPRs, scratch, LDS and spills, as ptxas -v gives them for CUDA. They do
// not name the target: `--arch gfx90a` gives it.
#pragma once

#include <string_view>
#include <vector>

#include "inspect/kernel_resources.hpp"

namespace occcalc::inspect {

/// Whether `text` holds kernel-resource-usage remarks.
bool is_amdgpu_remarks(std::string_view text) noexcept;

/// One record per `Function Name:` remark, in order, with the arch left
/// empty. The remark's `VGPRs` excludes the AGPRs: it is `arch_vgprs`, and
/// analysis charges the target's total. Throws `format_error` naming the line
/// for a figure that is not a count.
std::vector<kernel_resources> read_amdgpu_remarks(std::string_view text);

}  // namespace occcalc::inspect
