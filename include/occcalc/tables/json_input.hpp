/// \file tables/json_input.hpp
/// Reading JSON that comes from users (table files, policies, batch lines) as
/// untrusted input: bounded nesting, no duplicate keys, numbers that fit, no
/// NUL bytes, and error messages of one bounded line. Linear in the text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc {

/// The deepest nesting of arrays and objects occcalc reads. Its own formats
/// nest four levels at most (a table's entry, its field, a list in it); the
/// limit keeps every later recursive step (copy, dump, destroy) shallow.
inline constexpr int max_json_depth = 64;

/// The most characters of a parser's own message an error repeats.
inline constexpr std::size_t max_json_message_chars = 160;

namespace detail {

/// The refusal of JSON nested deeper than `max_json_depth`.
inline error too_deep_json() {
  return error("nested more than " + std::to_string(max_json_depth) + " arrays and objects deep");
}

/// The refusal of an object that holds `name` twice.
inline error duplicate_json_key(const std::string& name) {
  return error("duplicate key " + occcalc::detail::quoted(name) + " in an object");
}

/// nlohmann's SAX events building the document, with the checks that make
/// untrusted JSON safe. (nlohmann's callback parser would do, but it rescans
/// the enclosing array at the end of every object: quadratic in the entries
/// of a table.)
class strict_json_builder {
 public:
  using json = nlohmann::json;

  explicit strict_json_builder(json& root) : root_(root) {}

  bool null() { return add(nullptr); }
  bool boolean(bool value) { return add(value); }
  bool number_integer(json::number_integer_t value) { return add(value); }
  bool number_unsigned(json::number_unsigned_t value) { return add(value); }
  bool number_float(json::number_float_t value, const json::string_t&) { return add(value); }
  bool string(json::string_t& value) { return add(std::move(value)); }
  bool binary(json::binary_t& value) { return add(json::binary(std::move(value))); }

  bool start_object(std::size_t) {
    open(json::value_t::object);
    keys_.emplace_back();
    return true;
  }
  bool key(json::string_t& name) {
    if (!keys_.back().insert(name).second) throw duplicate_json_key(name);
    key_ = std::move(name);
    return true;
  }
  bool end_object() {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    open(json::value_t::array);
    return true;
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    // Without nlohmann's "[json.exception.parse_error.101] " tag.
    std::string_view message = e.what();
    if (const auto tag_end = message.find("] "); message.rfind("[json.exception.", 0) == 0 && tag_end != message.npos) {
      message.remove_prefix(tag_end + 2);
    }
    throw error(one_line(message, max_json_message_chars));
  }

 private:
  /// Places `value` in the open container (or as the root); returns it.
  template <typename Value>
  json* place(Value&& value) {
    if (stack_.empty()) {
      root_ = json(std::forward<Value>(value));
      return &root_;
    }
    json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(json(std::forward<Value>(value)));
      return &parent.back();
    }
    json& slot = parent[key_];
    slot = json(std::forward<Value>(value));
    return &slot;
  }
  template <typename Value>
  bool add(Value&& value) {
    place(std::forward<Value>(value));
    return true;
  }
  void open(json::value_t type) {
    if (stack_.size() >= static_cast<std::size_t>(max_json_depth)) {
      throw too_deep_json();
    }
    // A child container is filled before its parent grows again, so the
    // pointer stays valid while it is open.
    stack_.push_back(place(type));
  }

  json& root_;
  std::vector<json*> stack_;
  std::vector<std::unordered_set<std::string>> keys_;
  std::string key_;
};

}  // namespace detail

/// Parses `text` as one JSON value, refusing what nlohmann would accept
/// silently or could not survive: an object with the same key twice (it would
/// keep the last), nesting deeper than `max_json_depth` (a recursive step
/// would overflow the stack), a number beyond a double's range, a NUL byte.
/// Linear in the text. Throws `occcalc::error` with a one-line message that
/// names no origin; the caller adds the file or line.
inline nlohmann::json parse_json_strictly(std::string_view text) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw error("a NUL byte at offset " + std::to_string(nul) + "; JSON text has none");
  }
  nlohmann::json root;
  detail::strict_json_builder builder(root);
  nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
  return root;
}

}  // namespace occcalc
