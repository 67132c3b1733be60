// One line of `occcalc batch` read into a request.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "occcalc/request/request.hpp"

namespace occcalc::cli {

/// What a batch line asks.
struct batch_line {
  occcalc::request request;
  /// The line's `id` as JSON text (echoed on its answer); empty without one.
  std::string id_json;
};

/// Reads line `line_number` of a batch into `to` (cleared first), with the
/// strict reader every user JSON goes through (`parse_json_strictly`:
/// nlohmann's SAX events, no duplicate keys, bounded nesting). Throws
/// `occcalc::input_error`; `to.id_json` holds the id by then where the line
/// is an object with a valid one, so that the error can carry it.
void read_batch_line(std::string_view line, std::int64_t line_number, batch_line& to);

}  // namespace occcalc::cli
