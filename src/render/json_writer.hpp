// The one JSON writer: compact (batch lines, inspect records) or pretty
// (a single --json document, byte for byte as nlohmann's dump(2) prints it),
// streamed into a string; commas, nesting and indentation are its business.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "occcalc/common/optional_integer.hpp"

namespace occcalc::cli {

class json_writer {
 public:
  enum class style : std::uint8_t { compact, pretty };

  /// Appends to `out`.
  explicit json_writer(std::string& out, style s = style::compact) : out_(out), style_(s) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// The next member's key (inside an object).
  void key(std::string_view name);

  void value(std::int64_t v);
  void value(std::uint64_t v);
  void value(int v) { value(static_cast<std::int64_t>(v)); }
  /// Shortest round-trip digits, always with a fraction or an exponent (as
  /// nlohmann writes a float).
  void value(double v);
  void value(bool v);
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(const std::string& text) { value(std::string_view(text)); }
  void null();
  template <typename T>
  void value(const std::optional<T>& v) {
    if (v)
      value(*v);
    else
      null();
  }
  void value(optional_integer v) { value(std::optional<std::int64_t>(v)); }
  /// A member: `key` then `value`. A signed integer's, optional or not, is
  /// written in one piece in compact style.
  template <typename T>
  void member(std::string_view name, const T& v) {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      integer_member(name, static_cast<std::int64_t>(v));
    } else if constexpr (std::is_same_v<T, optional_integer> || std::is_same_v<T, std::optional<std::int64_t>>) {
      if (v)
        integer_member(name, *v);
      else
        null_member(name);
    } else {
      key(name);
      value(v);
    }
  }
  /// A document built with nlohmann (a table entry), written in this style.
  void value(const nlohmann::ordered_json& j);
  /// JSON text made elsewhere in compact style (a cached table entry); only
  /// in compact style, where it is written as it is.
  void raw(std::string_view compact_json);

  style format() const noexcept { return style_; }

 private:
  void open(char bracket);
  void close(char bracket);
  /// In compact style, writes a member's comma, quoted key and colon into
  /// `text` (room for `short_key_bytes` + 3) and returns their length; 0 when
  /// the key goes the general way (pretty style, not in an object yet or
  /// after a key, a long key or one to escape).
  std::size_t compact_key(char* text, std::string_view name);
  /// In compact style, appends a member whose value is `value_text` (JSON,
  /// at most 20 bytes) in one piece; false, having written nothing, where
  /// `compact_key` declines.
  bool compact_member(std::string_view name, std::string_view value_text);
  void integer_member(std::string_view name, std::int64_t v);
  void null_member(std::string_view name);
  /// Separates a new element from the one before it, and indents it.
  void next_element();
  void newline_and_indent(std::size_t depth);

  std::string& out_;
  style style_;
  /// Per open container: whether it has an element yet (chars, not
  /// vector<bool>'s bits: this is read and written at every element).
  std::vector<char> has_element_;
  bool after_key_ = false;
};

}  // namespace occcalc::cli
