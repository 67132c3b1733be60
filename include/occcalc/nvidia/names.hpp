/// \file nvidia/names.hpp
/// The names of the calculator's resources and cache preferences, as JSON
/// keys, requests and the tables spell them: apart from the calculator, whose
/// includes stay light (`<string_view>` costs a translation unit as much as
/// the calculator itself).
#pragma once

#include <string_view>

#include "occcalc/nvidia/arch_figures.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// The name of a cache preference, as `parse_cache` and the tables spell it.
constexpr std::string_view to_string(cache_preference cache) noexcept {
  switch (cache) {
    case cache_preference::shared: return "shared";
    case cache_preference::l1: return "l1";
    case cache_preference::equal: return "equal";
    case cache_preference::none: break;
  }
  return "none";
}

/// The resource's name as used in JSON keys (`shared_memory`).
constexpr std::string_view to_string(resource r) noexcept {
  switch (r) {
    case resource::warps: return "warps";
    case resource::registers: return "registers";
    case resource::shared_memory: return "shared_memory";
    case resource::blocks: return "blocks";
    case resource::barriers: break;
  }
  return "barriers";
}

}  // namespace occcalc
