#include "render/brief.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "occcalc/common/percent.hpp"

namespace occcalc::cli {

std::string brief_text(std::string_view target, const occcalc::occupancy_summary& s) {
  const bool nvidia = s.model == "nvidia";
  std::string unit(s.unit);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
  return fmt::format(
      "{}: {:.1f}%, {} {} and {} of {} {} per {}, limited by {}\n", target, s.occupancy() * occcalc::percent_per_unit,
      s.groups_per_unit,
      nvidia ? (s.groups_per_unit == 1 ? "block" : "blocks") : (s.groups_per_unit == 1 ? "work-group" : "work-groups"),
      s.active_warps, s.max_warps, nvidia ? "warps" : "waves", unit, s.limiter_list(", ", true));
}

std::string brief_target(const query& q) {
  const std::string& id = q.request.arch->id;
  const std::string* named = q.request.device_name();
  return named ? fmt::format("{} ({})", *named, id) : id;
}

std::string brief_target(const amd_query& q) {
  const std::string& id = q.request.target->id;
  return q.request.named_gpu ? fmt::format("{} ({})", q.request.named_gpu->name, id) : id;
}

}  // namespace occcalc::cli
