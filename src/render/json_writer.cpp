#include "render/json_writer.hpp"

#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/json_string.hpp"

namespace occcalc::cli {

namespace {

/// nlohmann's dump(2) indentation.
constexpr std::size_t indent_spaces = 2;
/// Keys up to this long are written in one append (the longest key in the
/// schemas has 35 bytes).
constexpr std::size_t short_key_bytes = 60;

}  // namespace

void json_writer::newline_and_indent(std::size_t depth) {
  out_ += '\n';
  out_.append(depth * indent_spaces, ' ');
}

void json_writer::next_element() {
  if (after_key_) {  // the value of a member: its key placed it
    after_key_ = false;
    return;
  }
  if (has_element_.empty()) return;  // the document itself
  if (has_element_.back() != 0) out_ += ',';
  has_element_.back() = 1;
  if (style_ == style::pretty) newline_and_indent(has_element_.size());
}

void json_writer::open(char bracket) {
  next_element();
  out_ += bracket;
  has_element_.push_back(0);
}

void json_writer::close(char bracket) {
  const bool any = has_element_.back() != 0;
  has_element_.pop_back();
  if (any && style_ == style::pretty) newline_and_indent(has_element_.size());
  out_ += bracket;
}

// inline: GCC then folds it into its three callers (3% of batch's instructions
// when it was a call).
inline std::size_t json_writer::compact_key(char* text, std::string_view name) {
  // A compact member's comma, quoted key and colon go in one append with its
  // value where it can: every member of every batch answer starts here.
  if (style_ != style::compact || after_key_ || has_element_.empty() || name.size() > short_key_bytes ||
      !plain_json_text(name)) {
    return 0;
  }
  std::size_t size = 0;
  if (has_element_.back() != 0) text[size++] = ',';
  has_element_.back() = 1;
  text[size++] = '"';
  std::memcpy(text + size, name.data(), name.size());
  size += name.size();
  text[size++] = '"';
  text[size++] = ':';
  return size;
}

void json_writer::key(std::string_view name) {
  char text[short_key_bytes + 3];
  if (const std::size_t size = compact_key(text, name); size != 0) {
    out_.append(text, size);
  } else {
    next_element();
    append_json_string(out_, name);
    out_ += style_ == style::pretty ? ": " : ":";
  }
  after_key_ = true;
}

bool json_writer::compact_member(std::string_view name, std::string_view value_text) {
  constexpr std::size_t longest_value = 20;  // -9223372036854775808
  char text[short_key_bytes + 3 + longest_value];
  if (value_text.size() > longest_value) return false;
  const std::size_t size = compact_key(text, name);
  if (size == 0) return false;
  std::memcpy(text + size, value_text.data(), value_text.size());
  out_.append(text, size + value_text.size());
  return true;
}

void json_writer::integer_member(std::string_view name, std::int64_t v) {
  const fmt::format_int digits(v);
  if (compact_member(name, std::string_view(digits.data(), digits.size()))) return;
  key(name);
  value(v);
}

void json_writer::null_member(std::string_view name) {
  if (compact_member(name, "null")) return;
  key(name);
  null();
}

void json_writer::value(std::int64_t v) {
  next_element();
  const fmt::format_int digits(v);
  out_.append(digits.data(), digits.size());
}

void json_writer::value(std::uint64_t v) {
  next_element();
  const fmt::format_int digits(v);
  out_.append(digits.data(), digits.size());
}

void json_writer::value(double v) {
  next_element();
  char digits[32];
  const auto end = fmt::format_to_n(digits, sizeof digits, "{}", v).out;
  const std::string_view text(digits, static_cast<std::size_t>(end - digits));
  out_ += text;
  if (text.find_first_of(".e") == std::string_view::npos) out_ += ".0";
}

void json_writer::value(bool v) {
  next_element();
  out_ += v ? "true" : "false";
}

void json_writer::value(std::string_view text) {
  next_element();
  append_json_string(out_, text);
}

void json_writer::null() {
  next_element();
  out_ += "null";
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
  out_ += compact_json;
}

}  // namespace occcalc::cli
