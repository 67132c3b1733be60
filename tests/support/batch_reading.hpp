// What reading a request text gives, as one line to compare: its id and
// each field as typed (integers marked), or its error. The batch line test
// and the CLI fuzzer compare read_request_text with the tree's reading.
#pragma once

#include <string>
#include <string_view>

#include "commands/batch_line.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc::test {

using request_reader = void (*)(std::string_view, std::string_view, cli::batch_line&);

inline std::string reading_of(request_reader read, std::string_view text) {
  cli::batch_line to;
  try {
    read(text, "line 1", to);
  } catch (const input_error& e) {
    return "error " + std::string(e.field()) + ": " + e.what() + " id " + to.id_json;
  }
  std::string out = "id " + to.id_json;
  for (const auto& field : request_fields) {
    const auto& value = to.request.*(field.member);
    if (value) out += " " + std::string(field.key) + (value->integer() ? "=#" : "=") + value->text();
  }
  return out;
}

}  // namespace occcalc::test
