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

/// What the architecture table says about an SM's reserved shared memory.
struct shared_reserve {
  /// Bytes the driver reserves per block
  /// (`shared_memory_reserved_per_block_bytes`).
  std::int64_t per_block_bytes = 0;
  /// Whether nvlink's `smem` figure includes them
  /// (`binary_shared_section_includes_reserved`).
  bool in_linker_report = false;
};

/// The table's `shared_reserve` for an SM version such as 90; empty for an SM
/// the table does not know, whose static shared memory is then reported
/// unknown where the reserve may be in it, rather than possibly 1 KiB off.
using shared_reserve_fn = std::function<std::optional<shared_reserve>(int sm)>;

/// The SM version of a cubin's ELF header: `e_flags` bits 8-15 from ELF ABI
/// version 8 (CUDA 13), the low byte before.
int cubin_sm(std::uint8_t abi_version, std::uint32_t flags) noexcept;

/// Reads every kernel (entry function) of a cubin. Device functions are not
/// kernels and are left out. A linked cubin that references
/// `.nv.reservedSmem.offset0` (CUDA 13, sm_90 and newer) counts the per-block
/// reserve in each
/// kernel's `.nv.shared.<kernel>` section; it is taken out so the figure is
/// ptxas's. Throws `format_error` on a malformed cubin.
std::vector<kernel_resources> read_cubin(byte_view cubin, const shared_reserve_fn& reserve);

}  // namespace occcalc::inspect
