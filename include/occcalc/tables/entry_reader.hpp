/// \file tables/entry_reader.hpp
/// Reads one JSON object of a table or policy file strictly: types, ranges,
/// required and unknown fields, each error naming the file, the entry and
/// the field.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "occcalc/common/fixed_list.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/tables/json_input.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc {

namespace detail {

/// Largest value of any count or size in a table.
inline constexpr std::int64_t max_table_value = std::numeric_limits<std::int32_t>::max();
/// Largest warp size a table may give: keeps every product of request values
/// and table values inside 64 bits.
inline constexpr std::int64_t max_table_warp_size = 1024;

/// Reads the fields of one JSON object, checking types and ranges, and
/// rejects the fields it was never asked for.
class entry_reader {
 public:
  entry_reader(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail_entry("is not an object");
  }

  [[noreturn]] void fail(std::string_view key, const std::string& problem) const {
    throw table_error(where_ + ": field '" + std::string(key) + "': " + problem);
  }
  [[noreturn]] void fail_entry(const std::string& problem) const { throw table_error(where_ + ": " + problem); }

  bool has(std::string_view key) const {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.push_back(key);
    return object_.find(key) != object_.end();
  }

  std::int64_t integer(std::string_view key, int_range range) {
    const auto& value = require(key);
    if (!value.is_number_integer()) fail(key, value.dump() + " is not an integer");
    const std::int64_t n = value.is_number_unsigned() && value.get<std::uint64_t>() > max_table_value
                               ? max_table_value + 1
                               : value.get<std::int64_t>();
    if (n < range.min || n > range.max) fail(key, value.dump() + " is outside " + range_text(range));
    return n;
  }

  std::optional<std::int64_t> optional_integer(std::string_view key, int_range range) {
    if (!has(key)) return std::nullopt;
    return integer(key, range);
  }

  std::optional<double> optional_number(std::string_view key, double min, double max) {
    if (!has(key)) return std::nullopt;
    const auto& value = require(key);
    if (!value.is_number()) fail(key, value.dump() + " is not a number");
    const double n = value.get<double>();
    if (!(n >= min && n <= max)) {
      fail(key, value.dump() + " is outside [" + nlohmann::json(min).dump() + ", " + nlohmann::json(max).dump() + "]");
    }
    return n;
  }

  bool optional_boolean(std::string_view key) {
    if (!has(key)) return false;
    const auto& value = require(key);
    if (!value.is_boolean()) fail(key, value.dump() + " is not true or false");
    return value.get<bool>();
  }

  std::string text(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail(key, value.dump() + " is not a non-empty string");
    }
    // Text from a file is printed (names, titles, patterns): a control
    // character in it could drive the terminal or start a line.
    const auto& text = value.get_ref<const std::string&>();
    const auto control = std::find_if(text.begin(), text.end(), [](char c) {
      return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) == 0x7f;
    });
    if (control != text.end()) {
      fail(key, detail::quoted(text) + " holds a control character; text fields hold printable text");
    }
    return text;
  }

  std::string optional_text(std::string_view key) { return has(key) ? text(key) : std::string(); }

  std::vector<std::string> texts(std::string_view key) {
    const auto& value = array(key);
    std::vector<std::string> out;
    for (const auto& item : value) {
      if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
        fail(key, item.dump() + " is not a non-empty string");
      }
      out.push_back(item.get<std::string>());
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  std::vector<std::int64_t> integers(std::string_view key, int_range range) {
    std::vector<std::int64_t> out;
    for (const auto& item : array(key)) {
      if (!item.is_number_integer() || item.get<std::int64_t>() < range.min || item.get<std::int64_t>() > range.max) {
        fail(key, item.dump() + " is not an integer in " + range_text(range));
      }
      out.push_back(item.get<std::int64_t>());
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  /// `integers`, held in place: a list longer than `Capacity` is refused.
  template <std::size_t Capacity>
  fixed_list<std::int64_t, Capacity> fixed_integers(std::string_view key, int_range range) {
    const auto values = integers(key, range);
    if (values.size() > Capacity) {
      fail(key,
           "holds " + std::to_string(values.size()) + " values; at most " + std::to_string(Capacity) + " are allowed");
    }
    fixed_list<std::int64_t, Capacity> out;
    for (const std::int64_t value : values) out.push_back(value);
    return out;
  }

  const nlohmann::json& array(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_array()) fail(key, "is not an array");
    return value;
  }

  /// The value of `key` as given, of any type, or null when absent: for a
  /// field its reader types itself.
  const nlohmann::json* optional_value(std::string_view key) {
    if (!has(key)) return nullptr;
    return &require(key);
  }

  const nlohmann::json& object(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_object()) fail(key, "is not an object");
    return value;
  }

  /// Fails if the object has a field that was never read.
  void finish() const {
    if (read_.size() == object_.size()) return;  // every field was read once
    for (const auto& item : object_.items()) {
      if (std::find(read_.begin(), read_.end(), item.key()) != read_.end()) continue;
      const auto close = detail::closest_word(item.key(), known_);
      fail(item.key(), close ? "is not a known field; did you mean '" + std::string(*close) + "'?"
                             : std::string("is not a known field"));
    }
  }

  const std::string& where() const { return where_; }

 private:
  const nlohmann::json& require(std::string_view key) {
    const auto it = object_.find(key);
    if (it == object_.end()) {
      // A misspelling of it among the fields given is the likely cause:
      // within two edits, so another real field is not taken for one.
      std::vector<std::string_view> given;
      for (const auto& item : object_.items()) given.push_back(item.key());
      constexpr std::size_t typo_edits = 2;
      const auto typo = detail::closest_word(key, given, typo_edits);
      fail(key, typo ? "is missing; '" + std::string(*typo) + "' looks like a misspelling of it"
                     : std::string("is missing"));
    }
    if (std::find(read_.begin(), read_.end(), key) == read_.end()) read_.push_back(key);
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.push_back(key);
    return *it;
  }

  const nlohmann::json& object_;
  std::string where_;
  /// Fields read so far (the keys are the callers' literals).
  std::vector<std::string_view> read_;
  /// Every key asked for, read or not: the candidates of a did-you-mean.
  mutable std::vector<std::string_view> known_;
};

inline constexpr int_range positive{1, max_table_value};
inline constexpr int_range non_negative{0, max_table_value};

template <typename Enum, std::size_t N>
Enum read_enum(entry_reader& reader, std::string_view key,
               const std::array<std::pair<std::string_view, Enum>, N>& names) {
  const std::string value = reader.text(key);
  for (const auto& [name, e] : names) {
    if (name == value) return e;
  }
  std::string allowed;
  for (const auto& entry : names) allowed += (allowed.empty() ? "" : ", ") + std::string(entry.first);
  reader.fail(key, "'" + value + "' is not one of " + allowed);
}

inline source read_source(entry_reader& reader) {
  source s;
  s.id = reader.text("id");
  s.title = reader.text("title");
  s.url = reader.text("url");
  reader.finish();
  return s;
}

}  // namespace detail

}  // namespace occcalc
