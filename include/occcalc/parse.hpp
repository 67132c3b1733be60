/// \file parse.hpp
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
#include <utility>

#include "occcalc/arch.hpp"
#include "occcalc/error.hpp"

namespace occcalc {

/// Bytes per KiB, for the `K` / `KiB` suffix.
inline constexpr std::int64_t bytes_per_kib = 1024;

/// The largest count or size a request may hold: what `cuda_occupancy.h`'s
/// `int` fields hold.
inline constexpr std::int64_t max_request_value = std::numeric_limits<std::int32_t>::max();

/// The largest register count a request may hold (16 bits; ptxas stops at
/// 255, and anything above an architecture's maximum is a 0-block result).
inline constexpr std::int64_t max_request_registers = std::numeric_limits<std::uint16_t>::max();

/// An inclusive range of allowed integers.
struct int_range {
  std::int64_t min = 0;
  std::int64_t max = max_request_value;
};

namespace detail {

inline std::string range_text(int_range range) {
  return "[" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
}

inline std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

inline std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

/// Parses an optionally signed run of decimal digits; empty if the text is
/// anything else or does not fit in 64 bits.
inline std::optional<std::int64_t> parse_decimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/// The most characters of a value an error message repeats.
inline constexpr std::size_t max_quoted_chars = 80;

/// At most `max_chars` characters of `text` on one line: control characters
/// (a newline, a terminal escape) written as `\xNN`, and `...` where it was cut.
inline std::string one_line(std::string_view text, std::size_t max_chars) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  std::size_t shown = 0;
  for (const char c : text) {
    if (shown == max_chars) break;
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    } else {
      out += c;
    }
    ++shown;
  }
  if (shown < text.size()) out += "...";
  return out;
}

/// A value as error messages show it: in quotes, on one line, at most
/// `max_quoted_chars` characters, with its length when it was cut.
inline std::string quoted(std::string_view text) {
  std::string out = "'" + one_line(text.substr(0, max_quoted_chars), max_quoted_chars) + "'";
  if (text.size() > max_quoted_chars) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace detail

/// Parses a whole number in `range` for `field`.
inline std::int64_t parse_count(const std::string& field, std::string_view text, int_range range) {
  const std::string_view trimmed = detail::trim(text);
  const auto value = detail::parse_decimal(trimmed);
  if (!value) {
    throw input_error(field, detail::quoted(trimmed) + " is not an integer; expected an integer in " +
                                 detail::range_text(range));
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
  if (value < range.min || value > range.max) {
    throw input_error(field, std::to_string(value) + " is outside " + detail::range_text(range) + std::string(unit));
  }
  return value;
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
    throw input_error(field, detail::quoted(trimmed) +
                                 " is not a size; expected bytes, or KiB with a K or KiB suffix, in " +
                                 detail::range_text(range));
  }
  if (*value < range.min || *value > range.max / multiplier || *value * multiplier < range.min) {
    throw input_error(field, std::string(trimmed) + " is outside " + detail::range_text(range) + " bytes");
  }
  return *value * multiplier;
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
    throw input_error(field, detail::quoted(detail::trim(text)) +
                                 " is not a carveout; expected default, max-shared, max-l1 or a "
                                 "percentage in [0, 100]");
  }
  return static_cast<int>(*value);
}

/// Parses a cache preference: `none`, `shared`, `l1` or `equal`.
inline cache_preference parse_cache(const std::string& field, std::string_view text) {
  const std::string low = detail::lower(detail::trim(text));
  if (low == "none") return cache_preference::none;
  if (low == "shared") return cache_preference::shared;
  if (low == "l1") return cache_preference::l1;
  if (low == "equal") return cache_preference::equal;
  throw input_error(field, detail::quoted(detail::trim(text)) +
                               " is not a cache preference; expected none, shared, l1 or equal");
}

/// The name of a cache preference, as `parse_cache` accepts it.
constexpr std::string_view to_string(cache_preference cache) noexcept {
  switch (cache) {
    case cache_preference::shared: return "shared";
    case cache_preference::l1: return "l1";
    case cache_preference::equal: return "equal";
    case cache_preference::none: break;
  }
  return "none";
}

/// A compute capability.
struct compute_capability {
  int major = 0;
  int minor = 0;
};

/// Parses a compute capability written as `7.0`, `7`, `70`, `sm_70`,
/// `compute_70`, or an arch-specific target such as `sm_90a` or `sm_100f`.
/// Bare `10` to `19` are refused as ambiguous (1.x or 1x.0). Throws for
/// anything else; whether it is supported is for the table.
inline compute_capability parse_compute_capability(const std::string& field, std::string_view text) {
  const std::string low = detail::lower(detail::trim(text));
  const auto fail = [&]() -> input_error {
    return input_error(field, detail::quoted(detail::trim(text)) +
                                  " is not a compute capability; expected e.g. 7.0, 70, sm_70 or "
                                  "compute_70");
  };
  std::string_view body = low;
  bool prefixed = false;
  for (const std::string_view prefix : {"sm_", "compute_"}) {
    if (body.substr(0, prefix.size()) == prefix) {
      body.remove_prefix(prefix.size());
      prefixed = true;
      break;
    }
  }
  if (prefixed && !body.empty() && (body.back() == 'a' || body.back() == 'f')) body.remove_suffix(1);
  if (const auto dot = body.find('.'); dot != std::string_view::npos) {
    if (prefixed) throw fail();
    const auto major = detail::parse_decimal(body.substr(0, dot));
    const auto minor = detail::parse_decimal(body.substr(dot + 1));
    if (!major || !minor || body[0] == '+' || body[0] == '-' || body[dot + 1] == '+' ||
        body[dot + 1] == '-' || *major > 99 || *minor > 9) {
      throw fail();
    }
    return {static_cast<int>(*major), static_cast<int>(*minor)};
  }
  const auto digits = detail::parse_decimal(body);
  if (!digits || body.empty() || body[0] == '+' || body[0] == '-' || *digits > 999) throw fail();
  if (!prefixed && body.size() == 1) return {static_cast<int>(*digits), 0};
  // Two bare digits from 10 to 19 read two ways: `10` is 1.0 in the nvcc
  // spelling (sm_10) and 10.0 to someone who means Blackwell. Neither
  // reading is guessed; the prefixed and dotted forms stay unambiguous.
  if (!prefixed && body.size() == 2 && body[0] == '1') {
    const std::string old_reading = std::string(1, body[0]) + "." + body[1];
    const std::string new_reading = std::string(body) + ".0";
    throw input_error(field, detail::quoted(detail::trim(text)) + " is ambiguous: compute capability " +
                                 old_reading + " or " + new_reading + "; write " + old_reading + " or " +
                                 new_reading + " (or sm_" + std::string(body) + " for " + old_reading + ")");
  }
  if (body.size() < 2) throw fail();
  return {static_cast<int>(*digits / 10), static_cast<int>(*digits % 10)};
}

}  // namespace occcalc
