// The GPU a kernel was built for, typed once by the reader that found it: the
// vendor and, for NVIDIA, the SM number. Analysis decides the vendor and finds
// the table entry from these fields, never by re-reading the spelling.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace occcalc::inspect {

enum class gpu_vendor : std::uint8_t { unknown, nvidia, amd };

struct gpu_target {
  /// As the input spells it: `sm_90`, `sm_90a`, `gfx90a`; empty when the
  /// input names no target.
  std::string name;
  gpu_vendor vendor = gpu_vendor::unknown;
  /// NVIDIA: the SM number, 90 for `sm_90` and `sm_90a`; 0 otherwise.
  int sm = 0;
};

/// The target an input's spelling names: `sm_<digits>[suffix]` is NVIDIA,
/// `gfx<hex digits>` AMD; anything else (a compiler's `compute_90`, an
/// empty name) is unknown, its spelling kept for messages.
gpu_target parse_gpu_target(std::string_view name);

/// The NVIDIA target `sm_<sm>`, as a cubin's ELF header gives it.
gpu_target nvidia_target(int sm);

}  // namespace occcalc::inspect
