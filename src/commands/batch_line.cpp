#include "commands/batch_line.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/error.hpp"
#include "occcalc/tables/json_input.hpp"
#include "render/json_string.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

/// The batch key that tags a line for the caller; echoed, never computed with.
constexpr std::string_view batch_id_key = "id";

/// The request field named `key`; nullptr for none.
const occcalc::request_field* field_named(std::string_view key) noexcept {
  const auto field = std::find_if(std::begin(occcalc::request_fields), std::end(occcalc::request_fields),
                                  [&](const auto& f) { return f.key == key; });
  return field == std::end(occcalc::request_fields) ? nullptr : &*field;
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
    const auto* field = field_named(item.key());
    if (field == nullptr) {
      std::string known;
      for (const auto& f : occcalc::request_fields) known += (known.empty() ? "" : ", ") + std::string(f.key);
      throw occcalc::input_error(item.key(),
                                 "is not a known field; known fields: " + known + ", " + std::string(batch_id_key));
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

/// Whether every byte of `line` is printable ASCII, a tab or a carriage
/// return (a line written on Windows), and none a backslash: a line whose
/// strings hold exactly the bytes between their quotes, with no escape and
/// no UTF-8 for the two readers to differ on.
bool plain_line(std::string_view line) noexcept {
  return std::all_of(line.begin(), line.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte >= 0x20 && byte < 0x7f && c != '\\') || c == '\t' || c == '\r';
  });
}

/// Bit of `batch_line_handler::seen_` that marks the `id`; the fields' bits
/// are their indices in `request_fields`.
constexpr std::uint32_t id_bit = std::uint32_t{1} << std::size(occcalc::request_fields);
static_assert(std::size(occcalc::request_fields) < 32, "a field's bit fits in seen_");

/// RapidJSON's SAX events of a plain line, into a `batch_line`. Returns false
/// (RapidJSON then stops) at anything the strict path must read: a value
/// other than an object at the top, a nested value, an unknown or repeated
/// key, a null, a fraction, an integer past 64 signed bits, a value of the
/// wrong kind, an empty string.
class batch_line_handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, batch_line_handler> {
 public:
  explicit batch_line_handler(batch_line& to) : to_(to) {}

  bool Default() { return false; }
  bool StartObject() { return depth_++ == 0; }
  bool EndObject(rapidjson::SizeType) { return true; }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    const std::string_view key(text, length);
    std::uint32_t bit = id_bit;
    field_ = nullptr;
    if (key != batch_id_key) {
      field_ = field_named(key);
      if (field_ == nullptr) return false;
      bit = std::uint32_t{1} << (field_ - std::begin(occcalc::request_fields));
    }
    if ((seen_ & bit) != 0) return false;
    seen_ |= bit;
    return true;
  }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    const std::string_view value(text, length);
    if (depth_ != 1) return false;
    if (field_ == nullptr) {
      append_json_string(to_.id_json, value);
      return true;
    }
    if (field_->kind == occcalc::field_kind::flag || occcalc::detail::trim(value).empty()) return false;
    to_.request.*(field_->member) = value;
    return true;
  }
  bool Bool(bool value) {
    if (depth_ != 1 || field_ == nullptr || field_->kind != occcalc::field_kind::flag) return false;
    to_.request.*(field_->member) = value ? occcalc::flag_set_text : occcalc::flag_unset_text;
    return true;
  }
  bool Int(int value) { return integer(value); }
  bool Uint(unsigned value) { return integer(value); }
  bool Int64(std::int64_t value) { return integer(value); }
  bool Uint64(std::uint64_t value) {
    return value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) &&
           integer(static_cast<std::int64_t>(value));
  }

 private:
  bool integer(std::int64_t value) {
    if (depth_ != 1) return false;
    if (field_ == nullptr) {
      const fmt::format_int digits(value);
      to_.id_json.assign(digits.data(), digits.size());
      return true;
    }
    if (field_->kind == occcalc::field_kind::flag) return false;
    to_.request.*(field_->member) = occcalc::field_value::of_integer(value);
    return true;
  }

  batch_line& to_;
  int depth_ = 0;
  /// The fields (and the id) read so far, one bit each.
  std::uint32_t seen_ = 0;
  /// The field of the last key; nullptr for the id.
  const occcalc::request_field* field_ = nullptr;
};

}  // namespace

/// RapidJSON's reader, whose buffers a thread keeps from line to line.
struct batch_line_reader::parser {
  rapidjson::Reader reader;
};

batch_line_reader::batch_line_reader() : parser_(std::make_unique<parser>()) {}
batch_line_reader::~batch_line_reader() = default;

bool batch_line_reader::read_plain(std::string_view line, batch_line& to) {
  if (!plain_line(line)) return false;
  to = {};
  batch_line_handler handler(to);
  rapidjson::MemoryStream stream(line.data(), line.size());
  // Strict RFC 8259: no comments, trailing commas, NaN, or text after the
  // object. A document that stops early (the handler declined) is an error.
  return !parser_->reader.Parse<rapidjson::kParseNoFlags>(stream, handler).IsError();
}

void batch_line_reader::read_strictly(std::string_view line, std::int64_t line_number, batch_line& to) {
  to = {};
  nlohmann::json parsed;
  try {
    parsed = occcalc::parse_json_strictly(line);
  } catch (const occcalc::error& e) {
    throw occcalc::input_error("", fmt::format("line {} is not valid JSON: {}", line_number, e.what()));
  }
  to.id_json = batch_id(parsed);
  to.request = request_from_json(parsed);
}

void batch_line_reader::read(std::string_view line, std::int64_t line_number, batch_line& to) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    to = {};
    throw occcalc::input_error("", fmt::format("line {} is empty; every line must hold a request object", line_number));
  }
  if (!read_plain(line, to)) read_strictly(line, line_number, to);
}

}  // namespace occcalc::cli
