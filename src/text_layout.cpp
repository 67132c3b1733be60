#include "text_layout.hpp"

#include <fmt/format.h>

#include "occcalc/parse.hpp"

namespace occcalc::cli {

std::string display_name(occcalc::resource r) {
  std::string name(occcalc::to_string(r));
  for (char& c : name) c = c == '_' ? ' ' : c;
  return name;
}

std::string limiter_list(const occcalc::occupancy_result& result, std::string_view separator, bool for_people) {
  std::string text;
  for (const auto r : occcalc::nvidia_resources) {
    if (!result.limiters.contains(r)) continue;
    if (!text.empty()) text += separator;
    text += for_people ? display_name(r) : std::string(occcalc::to_string(r));
  }
  return text;
}

std::string row(std::string_view label, std::string_view value, std::string_view note) {
  std::string line = fmt::format("  {:<{}}{}", label, label_width, value);
  if (!note.empty()) line += fmt::format("  {}", note);
  return line + "\n";
}

std::string bytes_text(std::int64_t bytes) {
  if (bytes >= occcalc::bytes_per_kib && bytes % occcalc::bytes_per_kib == 0) {
    return fmt::format("{} B ({} KiB)", bytes, bytes / occcalc::bytes_per_kib);
  }
  return fmt::format("{} B", bytes);
}

}  // namespace occcalc::cli
