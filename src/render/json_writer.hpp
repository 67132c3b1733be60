// The one JSON writer: compact (batch lines, inspect records) or pretty
// (a single --json document, laid out byte for byte as nlohmann's dump(2)),
// streamed into a string; commas, nesting and indentation are its business.
// It writes in place: the string is grown ahead and each member is written
// into it through a pointer, its key (a literal, mostly) and its value in
// fixed-size moves, with no call per member.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "occcalc/common/optional_integer.hpp"
#include "render/byte_words.hpp"
#include "render/json_string.hpp"

namespace occcalc::cli {

class json_writer {
 public:
  enum class style : std::uint8_t { compact, pretty };

  /// Appends to `out`. Until the document is whole (its outermost array or
  /// object closed, or its one value written) or the writer goes, `out` may
  /// hold room past the text: one writer at a time on a string, and the
  /// string read when the document is whole.
  explicit json_writer(std::string& out, style s = style::compact) : out_(out), end_(out.size()), style_(s) {}
  ~json_writer() { settle(); }
  json_writer(const json_writer&) = delete;
  json_writer& operator=(const json_writer&) = delete;

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// The next member's key (inside an object).
  [[gnu::always_inline]] void key(std::string_view name) {
    if (char* at = compact_key(name, 0)) {
      written_to(at);
      after_key_ = true;
      return;
    }
    general_key(name);
  }

  void value(std::int64_t v);
  void value(std::uint64_t v);
  void value(int v) { value(static_cast<std::int64_t>(v)); }
  /// Shortest round-trip digits (fmt's), always with a fraction or an
  /// exponent. nlohmann's grisu2 writes the same but for about 1 in 4,000
  /// ratios, where it writes 17 digits of the same double.
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
  /// An array of texts.
  void value(const std::vector<std::string>& texts) {
    begin_array();
    for (const auto& text : texts) value(text);
    end_array();
  }
  /// A member: `key` then `value`. A signed integer's, optional or not, is
  /// written in one piece in compact style.
  template <typename T>
  [[gnu::always_inline]] void member(std::string_view name, const T& v) {
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
  /// A value read from the input with nlohmann (a batch line's id, a value
  /// an error message repeats), written in this style.
  void value(const nlohmann::ordered_json& j);
  /// JSON text made elsewhere in compact style (a cached table entry); only
  /// in compact style, where it is written as it is.
  void raw(std::string_view compact_json);

  style format() const noexcept { return style_; }

 private:
  /// Room for `bytes` more after the text: a pointer to the text's end, with
  /// the string grown where it has less (what lies past the end is scratch).
  char* room(std::size_t bytes) {
    if (out_.size() - end_ < bytes) grow(bytes);
    return out_.data() + end_;
  }
  void grow(std::size_t bytes);
  /// The text now ends at `at`, a pointer into the room.
  void written_to(const char* at) noexcept { end_ = static_cast<std::size_t>(at - out_.data()); }
  /// Cuts the string back to the text.
  void settle() noexcept { out_.resize(end_); }
  /// After a value that is not a container: a document of its own is whole.
  void scalar_written() noexcept {
    if (has_element_.empty()) settle();
  }
  void append(std::string_view bytes);
  void append(char c) {
    *room(1) = c;
    ++end_;
  }

  void open(char bracket);
  void close(char bracket);
  /// In compact style, writes a member's comma, quoted key and colon with
  /// room for `value_bytes` after them, and returns where the value goes;
  /// null, having written nothing, where the key goes the general way
  /// (pretty style, not in an object yet or after a key, a long key or one
  /// to escape). Always inline (as are the members that call it): a literal
  /// key's size is then known, so its test and its copy fold to a few moves.
  [[gnu::always_inline]] char* compact_key(std::string_view name, std::size_t value_bytes) {
    if (style_ != style::compact || after_key_ || has_element_.empty() || name.size() > short_key_bytes ||
        !plain_json_text(name)) {
      return nullptr;
    }
    char* at = room(name.size() + 4 + value_bytes);
    *at = ',';
    at += has_element_.back();  // the comma stays only after an element
    has_element_.back() = 1;
    *at++ = '"';
    byte_words::copy_bytes(at, name.data(), name.size());
    at += name.size();
    *at++ = '"';
    *at++ = ':';
    return at;
  }
  void general_key(std::string_view name);
  /// A JSON string (no element separator), escaped where it must be.
  void value_text(std::string_view text);
  [[gnu::always_inline]] void integer_member(std::string_view name, std::int64_t v) {
    if (char* at = compact_key(name, longest_integer_bytes)) {
      written_to(integer_text(at, v));
      return;
    }
    key(name);
    value(v);
  }
  [[gnu::always_inline]] void null_member(std::string_view name) {
    if (char* at = compact_key(name, 4)) {
      std::memcpy(at, "null", 4);
      written_to(at + 4);
      return;
    }
    key(name);
    null();
  }
  /// Writes `v`'s digits at `at` (room for `longest_integer_bytes`) and
  /// returns their end.
  static char* integer_text(char* at, std::int64_t v);
  /// Separates a new element from the one before it, and indents it.
  void next_element();
  void newline_and_indent(std::size_t depth);

  /// Keys up to this long are written in one piece (the longest key in the
  /// schemas has 35 bytes).
  static constexpr std::size_t short_key_bytes = 60;
  /// -9223372036854775808
  static constexpr std::size_t longest_integer_bytes = 20;

  std::string& out_;
  /// The text's size in `out_`, which may be longer (room ahead).
  std::size_t end_;
  style style_;
  /// Per open container: whether it has an element yet (0 or 1). A string,
  /// not vector<bool>'s bits (this is read and written at every element) nor
  /// a vector: its first 15 levels need no allocation, and a writer is made
  /// for every batch answer.
  std::string has_element_;
  bool after_key_ = false;
};

/// A whole pretty document, as a `--json` output prints it: what
/// `write(json_writer&)` writes, then a newline. The writer is gone before
/// the newline goes on (it cuts its string back to the text as it goes).
template <typename Write>
std::string pretty_document(Write&& write) {
  std::string text;
  {
    json_writer w(text, json_writer::style::pretty);
    write(w);
  }
  text += '\n';
  return text;
}

}  // namespace occcalc::cli
