#include "commands/batch_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/evaluated.hpp"
#include "builds/occupancy_floor.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/tables/json_input.hpp"
#include "render/json_writer.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

/// The batch key that tags a line for the caller; echoed, never computed with.
constexpr std::string_view batch_id_key = "id";

/// A value read from a line as compact JSON, through the one writer: one
/// number format and one string escaping for every output.
std::string json_text(const nlohmann::json& j) {
  std::string text;
  json_writer w(text);
  w.value(nlohmann::ordered_json(j));
  return text;
}

/// A value from the line as an error message repeats it: JSON, one line, at
/// most 80 characters.
std::string shown_value(const nlohmann::json& j) {
  const std::string text = json_text(j);
  return occcalc::detail::one_line(text, occcalc::detail::max_quoted_chars) +
         (text.size() > occcalc::detail::max_quoted_chars ? fmt::format(" ({} bytes)", text.size()) : "");
}

/// The `id` of a line that is an object with a valid one, else empty: an
/// error on the line still carries it where it can.
std::string batch_id(const nlohmann::json& line) {
  if (!line.is_object()) return {};
  const auto it = line.find(batch_id_key);
  if (it == line.end() || !(it->is_string() || it->is_number_integer())) return {};
  return json_text(*it);
}

/// Builds a request from one JSON Lines object; throws input_error. The `id`
/// is only checked here: `batch_id` gives it, for errors too.
occcalc::request request_from_json(const nlohmann::json& line) {
  if (!line.is_object()) throw occcalc::input_error("", "a request must be a JSON object");
  occcalc::request req;
  for (const auto& item : line.items()) {
    const auto& value = item.value();
    if (item.key() == batch_id_key) {
      if (!value.is_string() && !value.is_number_integer()) {
        throw occcalc::input_error(item.key(), shown_value(value) + " is not a string or an integer");
      }
      continue;
    }
    const auto* field = occcalc::find_request_field(item.key());
    if (field == nullptr) {
      // The unknown key is echoed (as the field and in the message) cut to a quoted value's length.
      throw occcalc::input_error(
          occcalc::detail::one_line(item.key(), occcalc::detail::max_quoted_chars),
          "is not a known field; known fields: " + occcalc::request_field_keys() + ", " + std::string(batch_id_key));
    }
    if (field->kind == occcalc::field_kind::flag) {
      if (!value.is_boolean()) throw occcalc::input_error(item.key(), shown_value(value) + " is not true or false");
      req.*(field->member) = std::string(value.get<bool>() ? occcalc::flag_set_text : occcalc::flag_unset_text);
      continue;
    }
    if (value.is_string()) {
      if (occcalc::detail::trim(value.get_ref<const std::string&>()).empty()) {
        throw occcalc::input_error(item.key(), "is empty; give a value, or leave the key out");
      }
      req.*(field->member) = value.get<std::string>();
    } else if (value.is_number_integer()) {
      // The number itself, never its text parsed again; an unsigned one past
      // 64 signed bits keeps its digits for the "not an integer" message.
      if (value.is_number_unsigned() &&
          value.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        req.*(field->member) = value.dump();
      } else {
        req.*(field->member) = occcalc::field_value::of_integer(value.get<std::int64_t>());
      }
    } else if (value.is_number_float() && field->key == "cc" && std::isfinite(value.get<double>())) {
      // A compute capability is written as a number too (8.6), as Python's cc=8.6.
      req.*(field->member) = value.dump();
    } else {
      throw occcalc::input_error(item.key(), shown_value(value) + " is not an integer or a string");
    }
  }
  return req;
}

/// Reads a flat request object (scalar values only: a batch line, a C
/// call's request) straight into `to` through nlohmann's SAX interface,
/// with no tree. Whatever else a text holds (a nested value, a repeated or
/// unknown key, a value its field does not take, a JSON error) stops it,
/// and the tree's reading answers: every message comes from that one path,
/// and `read_request_text`'s test holds the two to the same requests.
class flat_request_reader {
 public:
  explicit flat_request_reader(batch_line& to) : to_(to) {}

  bool null() { return false; }
  bool boolean(bool value) {
    if (field_ == nullptr || field_->kind != occcalc::field_kind::flag) return false;
    return take(std::string(value ? occcalc::flag_set_text : occcalc::flag_unset_text));
  }
  bool number_integer(std::int64_t value) {
    if (in_id_) {
      to_.id_json = std::to_string(value);
      return true;
    }
    if (field_ == nullptr || field_->kind == occcalc::field_kind::flag) return false;
    return take(occcalc::field_value::of_integer(value));
  }
  bool number_unsigned(std::uint64_t value) {
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    return number_integer(static_cast<std::int64_t>(value));
  }
  bool number_float(double, const std::string&) { return false; }
  bool string(std::string& value) {
    if (in_id_) {
      to_.id_json.clear();
      json_writer(to_.id_json).value(value);
      return true;
    }
    if (field_ == nullptr || field_->kind == occcalc::field_kind::flag || occcalc::detail::trim(value).empty()) {
      return false;
    }
    return take(std::move(value));
  }
  bool binary(nlohmann::json::binary_t&) { return false; }
  bool start_object(std::size_t) {
    if (opened_) return false;  // a nested object
    opened_ = true;
    return true;
  }
  bool key(std::string& name) {
    field_ = nullptr;
    in_id_ = name == batch_id_key;
    if (!in_id_) field_ = occcalc::find_request_field(name);
    if (!in_id_ && field_ == nullptr) return false;
    const std::uint64_t bit = in_id_ ? id_bit : std::uint64_t{1} << (field_ - std::begin(occcalc::request_fields));
    if ((seen_ & bit) != 0) return false;  // a repeated key
    seen_ |= bit;
    return true;
  }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return false; }
  bool end_array() { return false; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  static_assert(std::size(occcalc::request_fields) < 64, "a bit for each field and one for the id");
  static constexpr std::uint64_t id_bit = std::uint64_t{1} << 63;

  bool take(occcalc::field_value value) {
    to_.request.*(field_->member) = std::move(value);
    field_ = nullptr;
    return true;
  }

  batch_line& to_;
  const occcalc::request_field* field_ = nullptr;
  bool in_id_ = false;
  bool opened_ = false;
  std::uint64_t seen_ = 0;
};

}  // namespace

void read_request_text_as_tree(std::string_view text, std::string_view name, batch_line& to) {
  to = {};
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) {
    const bool in_batch = name.rfind("line ", 0) == 0;
    throw occcalc::input_error(
        "", fmt::format("{} is empty; {} must hold a request object", name, in_batch ? "every line" : "it"));
  }
  nlohmann::json parsed;
  try {
    parsed = occcalc::parse_json_strictly(text);
  } catch (const occcalc::error& e) {
    throw occcalc::input_error("", fmt::format("{} is not valid JSON: {}", name, e.what()));
  }
  to.id_json = batch_id(parsed);
  to.request = request_from_json(parsed);
}

void read_request_text(std::string_view text, std::string_view name, batch_line& to) {
  if (text.find('\0') == std::string_view::npos) {
    occcalc::clear(to.request);
    to.id_json.clear();
    flat_request_reader reader(to);
    if (nlohmann::json::sax_parse(text.begin(), text.end(), &reader)) return;
  }
  read_request_text_as_tree(text, name, to);
}

void read_batch_line(std::string_view line, std::int64_t line_number, batch_line& to) {
  read_request_text(line, fmt::format("line {}", line_number), to);
}

request_outcome append_request_answer(const occcalc::table& tables, std::string_view text, std::string_view name,
                                      const std::optional<double>& min_percent, request_answerer& answerer,
                                      std::string& to) {
  answerer.line.id_json.clear();
  const std::size_t start = to.size();
  request_outcome outcome;
  try {
    read_request_text(text, name, answerer.line);
    const evaluated e = evaluate_any(tables, answerer.line.request);
    outcome.below = below(occupancy_of(e), min_percent);
    const std::string_view gate = !min_percent ? "" : outcome.below ? "failed" : "passed";
    std::visit([&](const auto& q) { answerer.writer.append(to, q, answerer.line.id_json, gate); }, e);
  } catch (const occcalc::input_error& e) {
    outcome = {true, false};
    to.resize(start);
    to += error_text(e.field(), e.keyed_text(), answerer.line.id_json);
  } catch (const std::bad_alloc&) {
    throw;  // the caller's to handle: no room for an answer either
  } catch (const std::exception& e) {
    // Whatever else a request provokes is its own error: other requests keep their answers.
    outcome = {true, false};
    to.resize(start);
    to += error_text("", fmt::format("{}: {}", name, e.what()), answerer.line.id_json);
  }
  return outcome;
}

}  // namespace occcalc::cli
