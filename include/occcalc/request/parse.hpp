/// \file request/parse.hpp
/// Parsers for the text a user types for each request field. The command line
/// and `occcalc batch` share them, so a value means the same in both.
///
/// Every parser throws `input_error` naming the field, the value and what is
/// allowed; none accepts trailing junk.
#pragma once

#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/checked.hpp"
#include "occcalc/nvidia/cluster_shape.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/nvidia/launch.hpp"

namespace occcalc {

/// Bytes per KiB, for the `K` / `KiB` suffix.
inline constexpr std::int64_t bytes_per_kib = 1024;

/// One request field's value as given: the text typed on the command line,
/// or the integer a JSON batch line holds, kept as the number it is (it is
/// never formatted to be parsed again).
class field_value {
 public:
  field_value(std::string text) : text_(std::move(text)) {}  // NOLINT: implicit, as the text it holds
  field_value(const char* text) : text_(text) {}             // NOLINT
  field_value(std::string_view text) : text_(text) {}        // NOLINT

  /// A JSON integer.
  static field_value of_integer(std::int64_t value) {
    field_value v{std::string()};
    v.integer_ = value;
    return v;
  }

  /// The integer, when the value is one.
  const std::optional<std::int64_t>& integer() const noexcept { return integer_; }
  /// The text as typed; empty for an integer (see `text()`).
  const std::string& typed() const noexcept { return text_; }
  /// The value as text: as typed, or the integer in decimal (for the fields
  /// that are names, such as a compute capability given as 70).
  std::string text() const { return integer_ ? std::to_string(*integer_) : text_; }

  friend bool operator==(const field_value& v, std::string_view text) { return !v.integer_ && v.text_ == text; }
  friend bool operator!=(const field_value& v, std::string_view text) { return !(v == text); }

 private:
  std::string text_;
  std::optional<std::int64_t> integer_;
};

/// Parses a whole number in `range` for `field`.
inline std::int64_t parse_count(const std::string& field, std::string_view text, int_range range) {
  const std::string_view trimmed = detail::trim(text);
  const auto value = detail::parse_decimal(trimmed);
  if (!value) {
    throw input_error(
        field, detail::quoted(trimmed) + " is not an integer; expected an integer in " + detail::range_text(range));
  }
  if (*value < range.min || *value > range.max) {
    throw input_error(field, std::string(trimmed) + " is outside " + detail::range_text(range));
  }
  return *value;
}

/// Checks a count that is already a number (a figure read from a binary)
/// against `range`, with `parse_count`'s message; returns it. `unit` (` bytes`)
/// follows the range in the message.
inline std::int64_t check_count(const std::string& field, std::int64_t value, int_range range,
                                std::string_view unit = {}) {
  if (auto problem = count_problem(field, value, range, unit)) throw input_error(field, problem->message);
  return value;
}

/// `parse_count` of a field value: an integer is only checked. (A template,
/// so text arguments choose the overload above without ambiguity.)
template <typename Value, std::enable_if_t<std::is_same_v<Value, field_value>, int> = 0>
std::int64_t parse_count(const std::string& field, const Value& value, int_range range) {
  if (value.integer()) return check_count(field, *value.integer(), range);
  return parse_count(field, std::string_view(value.typed()), range);
}

/// Parses a size in bytes: digits, optionally followed by `B`, or by `K` or
/// `KiB` (any case) for KiB. The result lies in `range`.
inline std::int64_t parse_bytes(const std::string& field, std::string_view text, int_range range) {
  const std::string_view trimmed = detail::trim(text);
  std::string_view digits = trimmed;
  std::int64_t multiplier = 1;
  const std::string low = detail::lower(trimmed);
  for (const auto& [suffix, factor] :
       {std::pair<std::string_view, std::int64_t>{"kib", bytes_per_kib}, {"k", bytes_per_kib}, {"b", 1}}) {
    if (low.size() > suffix.size() && low.compare(low.size() - suffix.size(), suffix.size(), suffix) == 0) {
      digits = detail::trim(trimmed.substr(0, trimmed.size() - suffix.size()));
      multiplier = factor;
      break;
    }
  }
  const auto value = detail::parse_decimal(digits);
  if (!value) {
    // KB and MB may mean powers of 1000 or of 1024: not read, but the
    // spellings that are said which.
    std::string hint;
    for (const auto& [unit, kib] : {std::pair<std::string_view, std::int64_t>{"kb", 1}, {"mb", bytes_per_kib}}) {
      if (low.size() <= unit.size() || low.compare(low.size() - unit.size(), unit.size(), unit) != 0) continue;
      const auto n = detail::parse_decimal(detail::trim(std::string_view(low).substr(0, low.size() - unit.size())));
      if (n && *n <= range.max / (kib * bytes_per_kib)) {
        hint = "; write " + std::to_string(*n * kib) + "K or " + std::to_string(*n * kib * bytes_per_kib) +
               " (K is KiB, 1024 bytes)";
      }
    }
    throw input_error(field, detail::quoted(trimmed) +
                                 " is not a size; expected bytes, or KiB with a K or KiB suffix, in " +
                                 detail::range_text(range) + hint);
  }
  if (*value < range.min || *value > range.max / multiplier || *value * multiplier < range.min) {
    throw input_error(field, std::string(trimmed) + " is outside " + detail::range_text(range) + " bytes");
  }
  return *value * multiplier;
}

/// `parse_bytes` of a field value: an integer is a count of bytes, only
/// checked.
template <typename Value, std::enable_if_t<std::is_same_v<Value, field_value>, int> = 0>
std::int64_t parse_bytes(const std::string& field, const Value& value, int_range range) {
  if (value.integer()) return check_count(field, *value.integer(), range, " bytes");
  return parse_bytes(field, std::string_view(value.typed()), range);
}

/// Parses a carveout: `default` (empty result), `max-shared` (100),
/// `max-l1` (0), or a percentage 0-100 (an optional `%` allowed).
inline std::optional<int> parse_carveout(const std::string& field, std::string_view text) {
  const std::string low = detail::lower(detail::trim(text));
  if (low == "default") return std::nullopt;
  if (low == "max-shared") return 100;
  if (low == "max-l1") return 0;
  std::string_view digits = low;
  if (!digits.empty() && digits.back() == '%') digits.remove_suffix(1);
  const auto value = detail::parse_decimal(digits);
  if (!value || *value < 0 || *value > 100) {
    throw input_error(field, detail::quoted(detail::trim(text)) + std::string(detail::carveout_expected));
  }
  return static_cast<int>(*value);
}

/// `parse_carveout` of a field value: an integer is a percentage.
template <typename Value, std::enable_if_t<std::is_same_v<Value, field_value>, int> = 0>
std::optional<int> parse_carveout(const std::string& field, const Value& value) {
  if (!value.integer()) return parse_carveout(field, std::string_view(value.typed()));
  const std::int64_t percent = *value.integer();
  if (percent < 0 || percent > 100) {
    throw input_error(field, detail::quoted(std::to_string(percent)) + std::string(detail::carveout_expected));
  }
  return static_cast<int>(percent);
}

/// Parses a cache preference: `none`, `shared`, `l1` or `equal`.
inline cache_preference parse_cache(const std::string& field, std::string_view text) {
  const std::string low = detail::lower(detail::trim(text));
  if (low == "none") return cache_preference::none;
  if (low == "shared") return cache_preference::shared;
  if (low == "l1") return cache_preference::l1;
  if (low == "equal") return cache_preference::equal;
  throw input_error(field, detail::quoted(detail::trim(text)) + std::string(detail::cache_expected));
}

/// Parses a thread block cluster: `N` blocks, or `XxYxZ` (`XxY`, `z` 1)
/// with each dimension 1 or more and at most `max_blocks` blocks in all.
/// `limits` ends the out-of-range message (which sizes the architecture
/// allows, and why).
inline cluster_shape parse_cluster(const std::string& field, std::string_view text, std::int64_t max_blocks,
                                   std::string_view limits) {
  const std::string_view trimmed = detail::trim(text);
  const std::string low = detail::lower(trimmed);
  std::int64_t dims[3] = {1, 1, 1};
  std::size_t count = 0;
  std::string_view rest = low;
  bool ok = true;
  while (ok) {
    const std::size_t x = rest.find('x');
    const auto value = detail::parse_decimal(rest.substr(0, x));
    ok = value && count < 3;
    if (ok) dims[count++] = *value;
    if (x == std::string_view::npos) break;
    rest.remove_prefix(x + 1);
  }
  if (!ok) {
    throw input_error(field,
                      detail::quoted(trimmed) + " is not a cluster; expected its blocks (8) or its shape (2x2x1, 4x2)");
  }
  const cluster_shape shape{dims[0], dims[1], dims[2]};
  const std::int64_t most = std::min<std::int64_t>(max_blocks, max_request_value);
  // Each factor checked before the products, which cannot overflow then.
  if (shape.x < 1 || shape.y < 1 || shape.z < 1 || shape.x > most || shape.y > most || shape.z > most ||
      shape.x * shape.y > most || shape.blocks() > most) {
    throw input_error(field, std::string(trimmed) + " is outside [1, " + std::to_string(max_blocks) + "] blocks" +
                                 std::string(limits));
  }
  return shape;
}

/// `parse_cluster` of a field value: an integer is a count of blocks.
template <typename Value, std::enable_if_t<std::is_same_v<Value, field_value>, int> = 0>
cluster_shape parse_cluster(const std::string& field, const Value& value, std::int64_t max_blocks,
                            std::string_view limits) {
  const std::string text = value.text();
  return parse_cluster(field, std::string_view(text), max_blocks, limits);
}

}  // namespace occcalc
