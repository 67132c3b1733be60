// Kernels' resource usage read from a CUDA cubin (an EM_CUDA ELF file),
// without the CUDA toolkit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "inspect/bytes.hpp"
#include "inspect/kernel_resources.hpp"

namespace occcalc::inspect {

/// Answers, for an SM version such as 90, how many reserved bytes the
/// linker puts in each kernel's shared memory section of a linked cubin: 0 where it puts
/// none, empty for an SM the architecture table does not know (the static
/// shared memory is then unknown rather than possibly 1 KiB off).
using reserved_in_section_fn = std::function<std::optional<std::int64_t>(int sm)>;

/// The SM version of a cubin's ELF header: `e_flags` bits 8-15 from ELF ABI
/// version 8 (CUDA 13), the low byte before.
int cubin_sm(std::uint8_t abi_version, std::uint32_t flags) noexcept;

/// Reads every kernel (entry function) of a cubin. Device functions are not
/// kernels and are left out. Throws `format_error` on a malformed cubin.
std::vector<kernel_resources> read_cubin(byte_view cubin, const reserved_in_section_fn& reserved_in_section);

}  // namespace occcalc::inspect
