/// \file request/target.hpp
/// The GPU a binary is built for, typed once from the spelling the
/// toolchains use: NVIDIA's `sm_90`, `sm_90a`, `sm_100f`, and AMD's target
/// ID, a processor and the features it fixes (`gfx90a`, `gfx90a:xnack+`,
/// `gfx942:sramecc-:xnack+`). `can_load` says whether a GPU runs an image
/// built for a target: the readers, `--arch` and Python ask it here.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "occcalc/amd/target.hpp"
#include "occcalc/nvidia/compute_capability.hpp"

namespace occcalc {

enum class gpu_vendor : std::uint8_t { unknown, nvidia, amd };

/// How an AMD image sets a target ID feature (LLVM AMDGPUUsage, "Target
/// ID"): not named (`any`: it runs with the feature on or off), `+` (on
/// only), `-` (off only).
enum class feature_setting : std::uint8_t { any, on, off };

/// The target ID features LLVM defines, in the order a target ID spells
/// them (alphabetical, as clang writes `gfx942:sramecc-:xnack+`).
inline constexpr std::array<std::string_view, 2> amd_target_features = {{"sramecc", "xnack"}};

/// An NVIDIA target's suffix letter: "", "a" or "f".
constexpr std::string_view suffix_of(target_features features) noexcept {
  switch (features) {
    case target_features::arch_specific: return "a";
    case target_features::family: return "f";
    case target_features::none: break;
  }
  return "";
}

/// A target's processor, its target ID features cut off: `gfx90a` for
/// `gfx90a:xnack+`; any other spelling whole.
constexpr std::string_view processor_of(std::string_view target) noexcept { return target.substr(0, target.find(':')); }

struct gpu_target {
  /// As the toolchains spell it: `sm_90a`, `gfx90a`, `gfx90a:xnack+` (AMD
  /// features in their canonical order); for an unknown vendor, the input's
  /// spelling, kept for messages; empty when the input names no target.
  std::string name;
  gpu_vendor vendor = gpu_vendor::unknown;
  /// NVIDIA: the SM number, 90 for `sm_90` and `sm_90a`; 0 otherwise.
  int sm = 0;
  /// NVIDIA: what the `a` or `f` suffix adds.
  target_features suffix = target_features::none;
  /// AMD: each of `amd_target_features`' settings.
  std::array<feature_setting, amd_target_features.size()> features{};

  /// The processor without its target ID features: `gfx90a` for
  /// `gfx90a:xnack+`; the whole name for NVIDIA.
  std::string_view processor() const noexcept { return processor_of(name); }
};

namespace detail {

/// The features of an AMD target ID after its processor (`:xnack+:sramecc-`)
/// into `t`, spelled canonically; false for an unknown, repeated or
/// malformed feature.
inline bool read_amd_features(std::string_view rest, gpu_target& t) {
  std::array<bool, amd_target_features.size()> seen{};
  while (!rest.empty()) {
    if (rest.front() != ':') return false;
    rest.remove_prefix(1);
    const std::size_t end = std::min(rest.find(':'), rest.size());
    const std::string_view feature = rest.substr(0, end);
    rest.remove_prefix(end);
    if (feature.size() < 2 || (feature.back() != '+' && feature.back() != '-')) return false;
    std::size_t i = 0;
    while (i < amd_target_features.size() && amd_target_features[i] != feature.substr(0, feature.size() - 1)) ++i;
    if (i == amd_target_features.size() || seen[i]) return false;
    seen[i] = true;
    t.features[i] = feature.back() == '+' ? feature_setting::on : feature_setting::off;
  }
  for (std::size_t i = 0; i < amd_target_features.size(); ++i) {
    if (t.features[i] == feature_setting::any) continue;
    t.name += ':';
    t.name += amd_target_features[i];
    t.name += t.features[i] == feature_setting::on ? '+' : '-';
  }
  return true;
}

}  // namespace detail

/// The target a spelling names: `sm_<digits>[a|f]` is NVIDIA; an LLVM
/// processor (`gfx90a`, `gfx11-generic`) with target ID features LLVM
/// defines (`:sramecc±`, `:xnack±`, any order, each once) is AMD. Anything
/// else (a compiler's `compute_90`, `gfx90a:foo+`, an empty name) is of no
/// vendor, its spelling kept for messages. Never throws.
inline gpu_target parse_gpu_target(std::string_view name) {
  gpu_target t;
  constexpr std::string_view nvidia_prefix = "sm_";
  if (name.substr(0, nvidia_prefix.size()) == nvidia_prefix) {
    const std::string_view digits = name.substr(nvidia_prefix.size());
    int sm = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sm);
    const std::string_view suffix(end, static_cast<std::size_t>(digits.data() + digits.size() - end));
    if (ec == std::errc() && end != digits.data() && sm > 0 && (suffix.empty() || suffix == "a" || suffix == "f")) {
      t.vendor = gpu_vendor::nvidia;
      t.sm = sm;
      t.suffix = features_of(name);
    }
  } else {
    const std::string_view processor = processor_of(name);
    if (is_gfx_name(processor)) {
      t.name = std::string(processor);
      if (detail::read_amd_features(name.substr(processor.size()), t)) {
        t.vendor = gpu_vendor::amd;
        return t;
      }
      t = gpu_target{};
    }
  }
  t.name = std::string(name);
  return t;
}

/// The NVIDIA target `sm_<sm>` with its suffix (`sm_100f`), as a cubin or a
/// fat binary entry gives it.
inline gpu_target nvidia_target(int sm, target_features suffix = target_features::none) {
  gpu_target t;
  t.name = "sm_" + std::to_string(sm) + std::string(suffix_of(suffix));
  t.vendor = gpu_vendor::nvidia;
  t.sm = sm;
  t.suffix = suffix;
  return t;
}

/// Whether a GPU of target `gpu` runs an image built for `image`. NVIDIA:
/// CUDA's binary compatibility (`loads_cubin`; `gpu`'s suffix is not read).
/// AMD: the same processor, and each feature the image fixes set alike on
/// the GPU, where `gpu` fixes it (`gfx90a` runs on any gfx90a;
/// `gfx90a:xnack+` on a gfx90a with XNACK on, and a GPU named without
/// features may be either). A generic target's image (`gfx11-generic`) is
/// matched by its own name only: which processors run it is not in the
/// tables.
inline bool can_load(const gpu_target& image, const gpu_target& gpu) noexcept {
  if (image.vendor != gpu.vendor) return false;
  if (image.vendor == gpu_vendor::nvidia) {
    constexpr int minors = 10;
    return loads_cubin({image.sm / minors, image.sm % minors}, image.suffix, {gpu.sm / minors, gpu.sm % minors});
  }
  if (image.vendor != gpu_vendor::amd || image.processor() != gpu.processor()) return false;
  for (std::size_t i = 0; i < image.features.size(); ++i) {
    const feature_setting a = image.features[i], b = gpu.features[i];
    if (a != feature_setting::any && b != feature_setting::any && a != b) return false;
  }
  return true;
}

}  // namespace occcalc
