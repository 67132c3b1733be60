#include "render/json_writer.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/json_string.hpp"

namespace occcalc::cli {

namespace {

/// nlohmann's dump(2) indentation.
constexpr std::size_t indent_spaces = 2;
/// How far the string is grown ahead at least: a batch answer (1.3-1.6 KB)
/// in one growth.
constexpr std::size_t growth_bytes = 2048;
/// The longest shortest-round-trip double: sign, 17 digits, a point and a
/// three-digit exponent with its sign, and the ".0" added after.
constexpr std::size_t longest_double_bytes = 32;

}  // namespace

void json_writer::grow(std::size_t bytes) { out_.resize(end_ + std::max(bytes, growth_bytes)); }

void json_writer::append(std::string_view bytes) {
  char* at = room(bytes.size());
  byte_words::copy_bytes(at, bytes.data(), bytes.size());
  end_ += bytes.size();
}

void json_writer::newline_and_indent(std::size_t depth) {
  const std::size_t spaces = depth * indent_spaces;
  char* at = room(spaces + 1);
  *at = '\n';
  std::memset(at + 1, ' ', spaces);
  end_ += spaces + 1;
}

void json_writer::next_element() {
  if (after_key_) {  // the value of a member: its key placed it
    after_key_ = false;
    return;
  }
  if (has_element_.empty()) return;  // the document itself
  if (has_element_.back() != 0) append(',');
  has_element_.back() = 1;
  if (style_ == style::pretty) newline_and_indent(has_element_.size());
}

void json_writer::open(char bracket) {
  next_element();
  append(bracket);
  has_element_.push_back(0);
}

void json_writer::close(char bracket) {
  const bool any = has_element_.back() != 0;
  has_element_.pop_back();
  if (any && style_ == style::pretty) newline_and_indent(has_element_.size());
  append(bracket);
  if (has_element_.empty()) settle();  // the document is whole
}

void json_writer::general_key(std::string_view name) {
  next_element();
  value_text(name);
  append(style_ == style::pretty ? std::string_view(": ") : std::string_view(":"));
  after_key_ = true;
}

char* json_writer::integer_text(char* at, std::int64_t v) {
  const fmt::format_int digits(v);
  byte_words::copy_bytes(at, digits.data(), digits.size());
  return at + digits.size();
}

void json_writer::value(std::int64_t v) {
  next_element();
  written_to(integer_text(room(longest_integer_bytes), v));
  scalar_written();
}

void json_writer::value(std::uint64_t v) {
  next_element();
  const fmt::format_int digits(v);
  append(std::string_view(digits.data(), digits.size()));
  scalar_written();
}

void json_writer::value(double v) {
  next_element();
  char* at = room(longest_double_bytes);
  // fmt's shortest round-trip digits (at most 24 bytes), compiled: no "{}"
  // parsed at run time, and written through a plain pointer.
  char* end = fmt::format_to(at, FMT_COMPILE("{}"), v);
  if (std::find_if(at, end, [](char c) { return c == '.' || c == 'e'; }) == end) {
    std::memcpy(end, ".0", 2);
    end += 2;
  }
  written_to(end);
  scalar_written();
}

void json_writer::value(bool v) {
  next_element();
  append(v ? std::string_view("true") : std::string_view("false"));
  scalar_written();
}

void json_writer::value(std::string_view text) {
  next_element();
  value_text(text);
  scalar_written();
}

void json_writer::value_text(std::string_view text) {
  if (!plain_json_text(text)) {
    std::string escaped;
    append_json_string(escaped, text);
    append(escaped);
    return;
  }
  char* at = room(text.size() + 2);
  *at = '"';
  byte_words::copy_bytes(at + 1, text.data(), text.size());
  at[text.size() + 1] = '"';
  end_ += text.size() + 2;
}

void json_writer::null() {
  next_element();
  append(std::string_view("null"));
  scalar_written();
}

void json_writer::value(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::object:
      begin_object();
      for (const auto& [name, item] : j.items()) {
        key(name);
        value(item);
      }
      end_object();
      return;
    case nlohmann::ordered_json::value_t::array:
      begin_array();
      for (const auto& item : j) value(item);
      end_array();
      return;
    case nlohmann::ordered_json::value_t::string: value(j.get_ref<const std::string&>()); return;
    case nlohmann::ordered_json::value_t::boolean: value(j.get<bool>()); return;
    case nlohmann::ordered_json::value_t::number_integer: value(j.get<std::int64_t>()); return;
    case nlohmann::ordered_json::value_t::number_unsigned: value(j.get<std::uint64_t>()); return;
    case nlohmann::ordered_json::value_t::number_float: value(j.get<double>()); return;
    default: null(); return;
  }
}

void json_writer::raw(std::string_view compact_json) {
  next_element();
  append(compact_json);
  scalar_written();
}

}  // namespace occcalc::cli
