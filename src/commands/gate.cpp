#include "commands/gate.hpp"

#include <cmath>
#include <exception>

#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

std::optional<double> parse_min_occupancy(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_percent("min_occupancy", text);
}

double parse_percent(const std::string& field, const std::string& text) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value)) {
    throw occcalc::input_error(field,
                               occcalc::detail::quoted(text) + " is not a number; expected a percentage in [0, 100]");
  }
  if (value < 0.0 || value > 100.0) throw occcalc::input_error(field, text + " is outside [0, 100]");
  return value;
}

}  // namespace occcalc::cli
