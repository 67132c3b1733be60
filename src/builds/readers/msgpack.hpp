// A bounds-checked MessagePack reader: enough of the format for the AMDGPU
// metadata note (maps, arrays, strings, integers, booleans, floats).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "builds/readers/bytes.hpp"

namespace occcalc::inspect::msgpack {

/// One decoded value. Strings and binaries view the input, which must
/// outlive the value.
struct value {
  enum class kind : std::uint8_t { nil, boolean, integer, floating, string, binary, array, map, extension };
  kind type = kind::nil;
  bool boolean = false;
  /// The integer, when it fits an int64 (`integer_fits`).
  std::int64_t integer = 0;
  bool integer_fits = true;
  double floating = 0.0;
  /// String or binary bytes.
  std::string_view text;
  std::vector<value> items;
  std::vector<std::pair<value, value>> entries;

  /// The value of the map entry whose key is the string `key`; null if this
  /// is not a map or has no such entry.
  const value* find(std::string_view key) const noexcept;
  /// The integer, if this is one that fits an int64.
  std::optional<std::int64_t> as_integer() const noexcept;
  /// The string, if this is one.
  std::optional<std::string_view> as_string() const noexcept;
};

/// Decodes the one value `bytes` holds (trailing bytes are an error).
/// Nesting deeper than 64 levels, counts that cannot fit the remaining
/// bytes and truncation throw `format_error`; memory stays proportional to
/// the input.
value parse(byte_view bytes);

}  // namespace occcalc::inspect::msgpack
