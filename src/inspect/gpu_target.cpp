#include "inspect/gpu_target.hpp"

#include <charconv>

#include "occcalc/amd/target.hpp"

namespace occcalc::inspect {

gpu_target parse_gpu_target(std::string_view name) {
  gpu_target t{std::string(name), gpu_vendor::unknown, 0};
  constexpr std::string_view nvidia_prefix = "sm_";
  if (name.substr(0, nvidia_prefix.size()) == nvidia_prefix) {
    const std::string_view digits = name.substr(nvidia_prefix.size());
    int sm = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sm);
    if (ec == std::errc() && end != digits.data() && sm > 0) {
      t.vendor = gpu_vendor::nvidia;
      t.sm = sm;
    }
  } else if (is_gfx_name(name)) {
    t.vendor = gpu_vendor::amd;
  }
  return t;
}

std::string_view suffix_of(target_feature feature) noexcept {
  switch (feature) {
    case target_feature::arch_specific: return "a";
    case target_feature::family: return "f";
    case target_feature::none: break;
  }
  return "";
}

gpu_target nvidia_target(int sm, target_feature feature) {
  return {"sm_" + std::to_string(sm) + std::string(suffix_of(feature)), gpu_vendor::nvidia, sm};
}

}  // namespace occcalc::inspect
