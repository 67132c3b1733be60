/// \file common/problem.hpp
/// A refused input as a value (`input_problem`), for the checked
/// calculators of both vendors, which never throw; `input_error` throws the
/// same field and words.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc {

/// The largest count or size a request may hold: what `cuda_occupancy.h`'s
/// `int` fields hold.
inline constexpr std::int64_t max_request_value = std::numeric_limits<std::int32_t>::max();

/// The largest register count a request may hold (16 bits; ptxas stops at
/// 255, and anything above an architecture's maximum is a 0-block result).
inline constexpr std::int64_t max_request_registers = std::numeric_limits<std::uint16_t>::max();

static_assert(int_range{}.max == max_request_value, "a range holds what a request may hold by default");

/// A refused input: the request key it is about and what is wrong, as
/// `input_error` holds them (other fields named by `field_ref`).
struct input_problem {
  std::string field;
  std::string message;

  /// `threads 0 is outside [1, 2147483647]`: the words batch, Python and the
  /// C library give.
  std::string keyed_text() const {
    std::string text = spell_field_refs(message, [](std::string_view key) { return std::string(key); });
    return field.empty() ? text : field + " " + text;
  }
};

namespace detail {
/// `count_problem`'s refusal, apart from its test so that the test inlines
/// where a typed call checks every figure.
[[gnu::cold, gnu::noinline]] inline input_problem out_of_range(std::string_view field, std::int64_t value,
                                                               int_range range, std::string_view unit) {
  return input_problem{std::string(field),
                       std::to_string(value) + " is outside " + range_text(range) + std::string(unit)};
}
}  // namespace detail

/// `value` of `field` outside `range`: `0 is outside [1, 2147483647]`,
/// then `unit`; nothing when it lies in it.
inline std::optional<input_problem> count_problem(std::string_view field, std::int64_t value, int_range range,
                                                  std::string_view unit = {}) {
  if (value >= range.min && value <= range.max) return std::nullopt;
  return detail::out_of_range(field, value, range, unit);
}

}  // namespace occcalc
