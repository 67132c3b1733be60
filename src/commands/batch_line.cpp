#include "commands/batch_line.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/tables/json_input.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

/// The batch key that tags a line for the caller; echoed, never computed with.
constexpr std::string_view batch_id_key = "id";

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
    } else {
      throw occcalc::input_error(item.key(), shown_value(value) + " is not an integer or a string");
    }
  }
  return req;
}

}  // namespace

void read_batch_line(std::string_view line, std::int64_t line_number, batch_line& to) {
  to = {};
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    throw occcalc::input_error("", fmt::format("line {} is empty; every line must hold a request object", line_number));
  }
  nlohmann::json parsed;
  try {
    parsed = occcalc::parse_json_strictly(line);
  } catch (const occcalc::error& e) {
    throw occcalc::input_error("", fmt::format("line {} is not valid JSON: {}", line_number, e.what()));
  }
  to.id_json = batch_id(parsed);
  to.request = request_from_json(parsed);
}

}  // namespace occcalc::cli
