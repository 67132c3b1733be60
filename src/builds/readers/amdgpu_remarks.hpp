// The AMDGPU compiler's resource remarks (`clang -Rpass-analysis=
// kernel-resource-usage`, through hipcc too): per kernel its SGPRs, VGPRs,
// AGPRs, scratch, LDS and spills, as ptxas -v gives them for CUDA. They do
// not name the target: `--arch gfx90a` gives it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// Whether `text` holds kernel-resource-usage remarks.
bool is_amdgpu_remarks(std::string_view text) noexcept;

/// The kernel-resource-usage remarks a reader does not read: a key it does
/// not know (a newer clang's), a figure that is an expression, a line
/// without a figure, or a figure before the first `Function Name:`. They
/// are counted and the first named, never silently dropped.
struct unread_remarks {
  std::size_t lines = 0;
  /// The first of them: `line N: KEY: VALUE`.
  std::string first;
};

/// One record per `Function Name:` remark, in order, with the arch left
/// empty. The remark's `VGPRs` excludes the AGPRs: it is `arch_vgprs`, and
/// analysis charges the target's total. Every line clang-19 and clang-22
/// print is read, but a figure clang-22 prints as an expression (an OpenCL
/// kernel's `foo.num_vgpr`: unknown, and named in `unread`); any other line
/// goes to `unread` too. Throws `format_error` naming the line for a count
/// that is corrupt (negative, or followed by other characters).
std::vector<kernel_resources> read_amdgpu_remarks(std::string_view text, unread_remarks* unread = nullptr);

}  // namespace occcalc::inspect
