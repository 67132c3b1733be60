#include "render/text_layout.hpp"

#include <fmt/format.h>

#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

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

std::string device_text(std::int64_t count, std::string_view units, const std::string* gpu_name, bool count_given) {
  if (gpu_name == nullptr) return fmt::format("{} {}", count, units);
  return count_given ? fmt::format("{} {} of {} (--sm-count)", count, units, *gpu_name) : *gpu_name;
}

}  // namespace occcalc::cli
