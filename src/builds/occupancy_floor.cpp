#include "builds/occupancy_floor.hpp"

#include <cctype>
#include <cmath>
#include <exception>

#include <fmt/format.h>

#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"

namespace occcalc::cli {

namespace {

struct typed_percent {
  double value = 0.0;
  bool has_percent_sign = false;
};

/// A number with an optional trailing `%`, in [0, 100].
typed_percent read_percent(const std::string& field, std::string_view text) {
  typed_percent out;
  std::string digits(text);
  if (!digits.empty() && digits.back() == '%') {
    digits.pop_back();
    out.has_percent_sign = true;
  }
  std::size_t used = 0;
  try {
    // std::stod accepts leading blanks, "inf" and hex: refused below.
    if (!digits.empty() && (std::isdigit(static_cast<unsigned char>(digits.front())) || digits.front() == '.')) {
      out.value = std::stod(digits, &used);
    }
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != digits.size() || !std::isfinite(out.value) ||
      digits.find_first_of("xXpP") != std::string::npos) {
    throw occcalc::input_error(field, occcalc::detail::quoted(std::string(text)) +
                                          " is not a percentage; write one in [0, 100], like 75 or 75%");
  }
  if (out.value > occcalc::percent_per_unit) {
    throw occcalc::input_error(field, std::string(text) + " is outside [0, 100]");
  }
  return out;
}

}  // namespace

double parse_occupancy_floor(const std::string& field, std::string_view text) {
  const typed_percent p = read_percent(field, text);
  if (!p.has_percent_sign && p.value > 0.0 && p.value <= 1.0) {
    const double as_fraction = p.value * occcalc::percent_per_unit;
    throw occcalc::input_error(
        field, fmt::format("{0} is ambiguous: {0}% or, read as a fraction, {1:g}%? Floors are percent: write {1:g} or "
                           "{1:g}% for {1:g}%, or {0}% for {0}%",
                           text, as_fraction));
  }
  return p.value;
}

std::optional<double> parse_min_occupancy(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_occupancy_floor("min_occupancy", text);
}

double parse_percentage_points(const std::string& field, std::string_view text) {
  return read_percent(field, text).value;
}

}  // namespace occcalc::cli
