// AMD GPU code objects (ELF, EM_AMDGPU): each kernel's resources from the
// AMDGPU metadata note (MessagePack) and its kernel descriptor.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "builds/readers/bytes.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// The kernels of an AMDGPU code object (relocatable or linked). Throws
/// `format_error` when it has no metadata note or the note is malformed.
std::vector<kernel_resources> read_amdgpu_code_object(const elf_file& elf);

/// The target ID a code object's `amdhsa.target` or a bundle triple names,
/// its features kept: `amdgcn-amd-amdhsa--gfx90a:xnack+` -> `gfx90a:xnack+`.
/// Empty if it names none.
std::string amdgpu_target_of(std::string_view triple);

}  // namespace occcalc::inspect
