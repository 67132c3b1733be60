// One line of `occcalc batch` read into a request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "occcalc/request/request.hpp"
#include "occcalc/tables/tables.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

/// What a batch line asks.
struct batch_line {
  occcalc::request request;
  /// The line's `id` as JSON text (echoed on its answer); empty without one.
  std::string id_json;
};

/// Reads a request's JSON text into `to` (cleared first), with the strict
/// reader every user JSON goes through (`parse_json_strictly`: nlohmann's
/// SAX events, no duplicate keys, bounded nesting). `name` names the text in
/// errors: `line 3` of a batch, or `the request`. Throws
/// `occcalc::input_error`; `to.id_json` holds the id by then where the text
/// is an object with a valid one, so that the error can carry it.
void read_request_text(std::string_view text, std::string_view name, batch_line& to);

/// `read_request_text` through a JSON tree alone: the path that words every
/// refusal, which a flat request object skips (its test compares the two).
void read_request_text_as_tree(std::string_view text, std::string_view name, batch_line& to);

/// `read_request_text` for line `line_number` of a batch.
void read_batch_line(std::string_view line, std::int64_t line_number, batch_line& to);

/// What answering one request needs from one answer to the next: its
/// buffers, kept by a thread (a batch's worker, a C caller's thread).
struct request_answerer {
  batch_line line;
  result_writer writer;
};

/// How an answer went, for a batch's gate and exit status.
struct request_outcome {
  /// The answer is an error object.
  bool error = false;
  /// The occupancy is below the gate (`min_percent`).
  bool below = false;
};

/// Appends to `to` the answer `occcalc batch` gives request text `text`,
/// without a newline: the result (`result.schema.json`), with `gate`
/// `passed` or `failed` where `min_percent` is given, or an error object
/// (`field`, `message`) naming `text` as `name` where it is not JSON.
request_outcome append_request_answer(const occcalc::table& tables, std::string_view text, std::string_view name,
                                      const std::optional<double>& min_percent, request_answerer& answerer,
                                      std::string& to);

}  // namespace occcalc::cli
