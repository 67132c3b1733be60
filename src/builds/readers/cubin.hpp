// Kernels' resource usage read from a CUDA cubin (an EM_CUDA ELF file),
// without the CUDA toolkit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "builds/readers/bytes.hpp"
#include "builds/readers/kernel_resources.hpp"

namespace occcalc::inspect {

/// The SM version of a cubin's ELF header: `e_flags` bits 8-15 from ELF ABI
/// version 8 (CUDA 13), the low byte before.
int cubin_sm(std::uint8_t abi_version, std::uint32_t flags) noexcept;

/// Reads every kernel (entry function) of a cubin. Device functions are not
/// kernels and are left out. A linked cubin that references
/// `.nv.reservedSmem.offset0` (CUDA 13, sm_90 and newer) counts the per-block
/// reserve in each kernel's `.nv.shared.<kernel>` section: its kernels are
/// marked `section_with_reserve`. Throws `format_error` on a malformed cubin.
std::vector<kernel_resources> read_cubin(byte_view cubin);

}  // namespace occcalc::inspect
