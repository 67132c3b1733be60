/// \file json_input.hpp
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

#include "occcalc/error.hpp"
#include "occcalc/parse.hpp"

namespace occcalc {

/// The deepest nesting of arrays and objects occcalc reads. Its own formats
/// nest four levels at most (a table's entry, its field, a list in it); the
/// limit keeps every later recursive step (copy, dump, destroy) shallow.
inline constexpr int max_json_depth = 64;

/// The most characters of a parser's own message an error repeats.
inline constexpr std::size_t max_json_message_chars = 160;


/// Parses `text` as one JSON value, refusing what nlohmann would accept
/// silently or could not survive: an object with the same key twice (it would
/// keep the last), nesting deeper than `max_json_depth` (a recursive step
/// would overflow the stack), a number beyond a double's range, a NUL byte.
/// Throws `occcalc::error` with a one-line message that names no origin; the
/// caller adds the file or line.
inline nlohmann::json parse_json_strictly(std::string_view text) {
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw error("a NUL byte at offset " + std::to_string(nul) + "; JSON text has none");
  }
  std::vector<std::unordered_set<std::string>> keys_per_object;
  const auto callback = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using event_t = nlohmann::json::parse_event_t;
    if (event == event_t::object_start || event == event_t::array_start) {
      if (depth >= max_json_depth) {
        throw error("nested more than " + std::to_string(max_json_depth) + " arrays and objects deep");
      }
    }
    if (event == event_t::object_start) keys_per_object.emplace_back();
    if (event == event_t::object_end) keys_per_object.pop_back();
    if (event == event_t::key) {
      const auto& name = parsed.get_ref<const std::string&>();
      if (!keys_per_object.back().insert(name).second) {
        throw error("duplicate key " + detail::quoted(name) + " in an object");
      }
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), callback);
  } catch (const nlohmann::json::exception& e) {
    // Without nlohmann's "[json.exception.parse_error.101] " tag.
    std::string_view message = e.what();
    if (const auto tag_end = message.find("] "); message.rfind("[json.exception.", 0) == 0 && tag_end != message.npos) {
      message.remove_prefix(tag_end + 2);
    }
    throw error(detail::one_line(message, max_json_message_chars));
  }
}

}  // namespace occcalc
