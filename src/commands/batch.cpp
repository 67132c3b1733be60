#include "commands/batch.hpp"

#include <algorithm>
#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/query.hpp"
#include "commands/gate.hpp"
#include "inspect/parallel.hpp"
#include "io/cpus.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/request.hpp"
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
    const auto field = std::find_if(std::begin(occcalc::request_fields), std::end(occcalc::request_fields),
                                    [&](const auto& f) { return f.key == item.key(); });
    if (field == std::end(occcalc::request_fields)) {
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

/// The longest batch line read: a real request is under a few hundred bytes.
constexpr std::size_t max_batch_line_bytes = std::size_t{1} << 20;

/// Reads one line (without its newline) into `line`, keeping at most
/// `max_batch_line_bytes` and skipping the rest; false at the end of input.
/// `too_long` tells whether anything was skipped.
bool read_bounded_line(std::istream& in, std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < max_batch_line_bytes) {
      line += static_cast<char>(c);
    } else {
      too_long = true;
    }
  }
  in.setstate(std::ios::eofbit);
  return any;
}

/// The answers to a run of lines: their output lines, in order, and whether
/// any was an error or below the gate.
struct answers {
  std::string text;
  bool bad = false;
  bool below = false;
};

/// Answers line `line_number` (`too_long`: it was cut at the maximum),
/// appending its output line to `to`.
void answer_line(const occcalc::table& tables, const std::optional<double>& min_percent, const std::string& line,
                 bool too_long, std::int64_t line_number, result_writer& writer, answers& to) {
  std::string id_json;
  const std::size_t start = to.text.size();
  try {
    if (too_long) {
      throw occcalc::input_error("", fmt::format("line {} is longer than {} MiB; a request is a short JSON object",
                                                 line_number, max_batch_line_bytes >> 20));
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      throw occcalc::input_error("",
                                 fmt::format("line {} is empty; every line must hold a request object", line_number));
    }
    nlohmann::json parsed;
    try {
      parsed = occcalc::parse_json_strictly(line);
    } catch (const occcalc::error& e) {
      throw occcalc::input_error("", fmt::format("line {} is not valid JSON: {}", line_number, e.what()));
    }
    id_json = batch_id(parsed);
    const evaluated e = evaluate_any(tables, request_from_json(parsed));
    to.below = to.below || below(occupancy_of(e), min_percent);
    std::visit([&](const auto& q) { writer.append(to.text, q, id_json); }, e);
  } catch (const occcalc::input_error& e) {
    to.bad = true;
    to.text.resize(start);
    to.text += json_text(
        error_json(e.field(), e.field().empty() ? e.what() : fmt::format("{} {}", e.field(), e.what()), id_json));
  } catch (const std::exception& e) {
    // Whatever else a line provokes is its own error: the other lines keep
    // their answers.
    to.bad = true;
    to.text.resize(start);
    to.text += json_text(error_json("", fmt::format("line {}: {}", line_number, e.what()), id_json));
  }
  to.text += '\n';
}

/// Most lines read before they are answered: a block is answered on every
/// core, then written in order.
constexpr std::size_t batch_block_lines = 4096;
/// Lines answered together into one text, by one thread.
constexpr std::size_t lines_per_run = 256;
/// Room reserved per line of a run's text: an answer is 1.3-1.6 KB, so the
/// text is not copied as it grows.
constexpr std::size_t answer_bytes_reserved = 2048;

}  // namespace

exit_status run_batch(const occcalc::table& tables, const std::optional<double>& min_percent, std::istream& in,
                      std::ostream& out) {
  bool any_bad = false;
  bool any_below = false;
  const unsigned workers = usable_cpus();
  std::vector<std::string> lines(batch_block_lines);
  std::vector<char> too_long(batch_block_lines);
  std::vector<answers> results;
  std::int64_t lines_before = 0;
  // Line N of the output answers line N of the input, blank lines included.
  for (bool more = true; more;) {
    // A block: the lines waiting, up to the most. Before waiting for more
    // input, what is read is answered and handed over: a client that writes
    // one request and waits for its line (a coprocess) gets it.
    std::size_t count = 0;
    while (count < batch_block_lines && (count == 0 || in.rdbuf()->in_avail() > 0)) {
      bool cut = false;
      if (!read_bounded_line(in, lines[count], cut)) {
        more = false;
        break;
      }
      too_long[count++] = static_cast<char>(cut);
    }
    const auto runs = static_cast<std::size_t>(
        occcalc::detail::divide_round_up(static_cast<std::int64_t>(count), static_cast<std::int64_t>(lines_per_run)));
    results.assign(runs, {});
    inspect::parallel_for<result_writer>(runs, workers, [&](std::size_t run, result_writer& writer) {
      results[run].text.reserve(lines_per_run * answer_bytes_reserved);
      for (std::size_t i = run * lines_per_run; i < std::min(count, (run + 1) * lines_per_run); ++i) {
        answer_line(tables, min_percent, lines[i], too_long[i] != 0, lines_before + static_cast<std::int64_t>(i) + 1,
                    writer, results[run]);
      }
    });
    lines_before += static_cast<std::int64_t>(count);
    for (const auto& run : results) {
      any_bad = any_bad || run.bad;
      any_below = any_below || run.below;
      out.write(run.text.data(), static_cast<std::streamsize>(run.text.size()));
    }
    if (!more || in.rdbuf()->in_avail() <= 0) out.flush();
  }
  if (any_bad) return exit_status::bad_input;
  return any_below ? exit_status::gate_failed : exit_status::ok;
}

}  // namespace occcalc::cli
