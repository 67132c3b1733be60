#include "render/json_string.hpp"

#include <cstring>

#include <nlohmann/json.hpp>

namespace occcalc::cli {

void append_json_string(std::string& out, std::string_view text) {
  // Plain ASCII (every key and nearly every value) goes as it is; anything
  // else through nlohmann's escaping, which also replaces invalid UTF-8.
  if (!plain_json_text(text)) {
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  const std::size_t at = out.size();
  out.resize(at + text.size() + 2);  // one growth for the quotes and the text
  out[at] = '"';
  std::memcpy(&out[at + 1], text.data(), text.size());
  out.back() = '"';
}

}  // namespace occcalc::cli
