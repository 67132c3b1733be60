// One line of `occcalc batch` read into a request: a typed path for the
// lines requests are made of, and the strict JSON reader for every other.
#pragma once

#include <cstdint>
#include <memory>
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

/// Reads batch lines; one per thread, as it keeps its parser's buffers from
/// line to line.
///
/// A plain line (printable ASCII without a backslash: a JSON object of known
/// fields, each once, with values of their kinds) goes from RapidJSON's SAX
/// events straight into the request: no document, no text round trip. Any
/// other line (escapes, other bytes, unknown or repeated keys, nesting,
/// fractions, invalid JSON) goes to the strict reader
/// (`occcalc::parse_json_strictly`), which gives every error its message.
/// Both read a plain line alike (tests/commands/batch_line_test.cpp).
class batch_line_reader {
 public:
  batch_line_reader();
  ~batch_line_reader();
  batch_line_reader(const batch_line_reader&) = delete;
  batch_line_reader& operator=(const batch_line_reader&) = delete;

  /// Reads line `line_number` into `to` (cleared first). Throws
  /// `occcalc::input_error`; `to.id_json` holds the id by then where the line
  /// is an object with a valid one, so that the error can carry it.
  void read(std::string_view line, std::int64_t line_number, batch_line& to);

  /// The typed path alone: true when `line` is plain and was read into `to`;
  /// false (with `to` in any state) for a line only the strict path reads.
  bool read_plain(std::string_view line, batch_line& to);

  /// The strict path alone (what `read` does when `read_plain` declines).
  static void read_strictly(std::string_view line, std::int64_t line_number, batch_line& to);

 private:
  struct parser;
  std::unique_ptr<parser> parser_;
};

}  // namespace occcalc::cli
