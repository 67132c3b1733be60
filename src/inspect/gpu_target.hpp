// The GPU a kernel was built for, typed once by the reader that found it: the
// vendor and, for NVIDIA, the SM number. Analysis decides the vendor and finds
// the table entry from these fields, never by re-reading the spelling.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace occcalc::inspect {

enum class gpu_vendor : std::uint8_t { unknown, nvidia, amd };

/// An NVIDIA target's feature suffix (nvcc's `-arch`): none (`sm_90`, runs on
/// later GPUs of its major), arch-specific `a` (`sm_90a`: that compute
/// capability alone), family `f` (`sm_100f`: its family, the same major).
enum class target_feature : std::uint8_t { none, arch_specific, family };

/// The suffix's letter: "", "a" or "f".
std::string_view suffix_of(target_feature feature) noexcept;

struct gpu_target {
  /// As the input spells it: `sm_90`, `sm_90a`, `gfx90a`; empty when the
  /// input names no target.
  std::string name;
  gpu_vendor vendor = gpu_vendor::unknown;
  /// NVIDIA: the SM number, 90 for `sm_90` and `sm_90a`; 0 otherwise.
  int sm = 0;
};

/// The target an input's spelling names: `sm_<digits>[suffix]` is NVIDIA,
/// `gfx<hex digits>` or a generic target (`gfx11-generic`) AMD; anything else (a compiler's `compute_90`, an
/// empty name) is unknown, its spelling kept for messages.
gpu_target parse_gpu_target(std::string_view name);

/// The NVIDIA target `sm_<sm>` with its suffix (`sm_100f`), as a cubin or
/// a fat binary entry gives it.
gpu_target nvidia_target(int sm, target_feature feature = target_feature::none);

}  // namespace occcalc::inspect
