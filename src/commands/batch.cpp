#include "commands/batch.hpp"

#include <algorithm>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "analysis/evaluated.hpp"
#include "builds/occupancy_floor.hpp"
#include "builds/readers/parallel.hpp"
#include "commands/batch_line.hpp"
#include "io/cpus.hpp"
#include "io/line_reader.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/request.hpp"
#include "render/result_json.hpp"

namespace occcalc::cli {

namespace {

/// The longest batch line read: a real request is under a few hundred bytes.
constexpr std::size_t max_batch_line_bytes = std::size_t{1} << 20;

/// The answers to a run of lines: their output lines, in order, whether any
/// was an error, and the lines below the gate (their numbers and ids).
struct answers {
  std::string text;
  bool bad = false;
  std::vector<std::pair<std::int64_t, std::string>> below;
};

/// Answers line `line_number` (`too_long`: it was cut at the maximum),
/// appending its output line to `to`.
void answer_line(const occcalc::table& tables, const std::optional<double>& min_percent, const std::string& line,
                 bool too_long, std::int64_t line_number, request_answerer& worker, answers& to) {
  if (too_long) {
    to.bad = true;
    to.text += error_text("", fmt::format("line {} is longer than {} MiB; a request is a short JSON object",
                                          line_number, max_batch_line_bytes >> 20));
  } else {
    const request_outcome outcome =
        append_request_answer(tables, line, fmt::format("line {}", line_number), min_percent, worker, to.text);
    to.bad = to.bad || outcome.error;
    if (outcome.below) to.below.emplace_back(line_number, worker.line.id_json);
  }
  to.text += '\n';
}

/// Most lines read before they are answered: a block is answered on every
/// core, then written in order.
constexpr std::size_t batch_block_lines = 4096;
/// Most bytes of input read before they are answered (the block ends at the
/// line that reaches it): with the answers, which echo a line's id, what is
/// in flight stays under 64 MiB plus one line, however long the lines.
constexpr std::size_t batch_block_bytes = std::size_t{24} << 20;
/// The room a line keeps from block to block (a longer one gives it back).
constexpr std::size_t max_kept_line_bytes = std::size_t{64} << 10;
/// The lines below the gate that its message names.
constexpr std::size_t named_below_lines = 5;
/// Lines answered together into one text, by one thread.
constexpr std::size_t lines_per_run = 256;
/// Room reserved per line of a run's text: an answer is 1.3-1.6 KB, so the
/// text is not copied as it grows.
constexpr std::size_t answer_bytes_reserved = 2048;

}  // namespace

exit_status run_batch(const occcalc::table& tables, const std::optional<double>& min_percent,
                      const std::string& min_text, std::istream& in, std::ostream& out, std::ostream& err) {
  bool any_bad = false;
  std::int64_t below_count = 0;
  std::vector<std::string> named_below;
  const unsigned workers = usable_cpus();
  std::vector<std::string> lines(batch_block_lines);
  std::vector<char> too_long(batch_block_lines);
  std::vector<answers> results;
  std::int64_t lines_before = 0;
  line_reader reader(*in.rdbuf(), max_batch_line_bytes);
  // Line N of the output answers line N of the input, blank lines included.
  for (bool more = true; more;) {
    // A block: the lines waiting, up to the most. Before waiting for more
    // input, what is read is answered and handed over: a client that writes
    // one request and waits for its line (a coprocess) gets it.
    std::size_t count = 0;
    std::size_t bytes = 0;
    while (count < batch_block_lines && bytes < batch_block_bytes && (count == 0 || reader.input_waiting())) {
      bool cut = false;
      if (!reader.next(lines[count], cut)) {
        more = false;
        break;
      }
      bytes += lines[count].size();
      too_long[count++] = static_cast<char>(cut);
    }
    const auto runs = static_cast<std::size_t>(
        occcalc::detail::divide_round_up(static_cast<std::int64_t>(count), static_cast<std::int64_t>(lines_per_run)));
    results.assign(runs, {});
    inspect::parallel_for<request_answerer>(runs, workers, [&](std::size_t run, request_answerer& worker) {
      results[run].text.reserve(lines_per_run * answer_bytes_reserved);
      for (std::size_t i = run * lines_per_run; i < std::min(count, (run + 1) * lines_per_run); ++i) {
        answer_line(tables, min_percent, lines[i], too_long[i] != 0, lines_before + static_cast<std::int64_t>(i) + 1,
                    worker, results[run]);
      }
    });
    lines_before += static_cast<std::int64_t>(count);
    for (const auto& run : results) {
      any_bad = any_bad || run.bad;
      below_count += static_cast<std::int64_t>(run.below.size());
      for (const auto& [number, id] : run.below) {
        if (named_below.size() == named_below_lines) break;
        named_below.push_back(id.empty() ? std::to_string(number) : fmt::format("{} (id {})", number, id));
      }
      out.write(run.text.data(), static_cast<std::streamsize>(run.text.size()));
    }
    for (std::size_t i = 0; i < count; ++i) {
      // A long line's room goes back once answered: the budget holds.
      if (lines[i].capacity() > max_kept_line_bytes) std::string().swap(lines[i]);
    }
    if (!more || !reader.input_waiting()) out.flush();
  }
  if (below_count > 0) {
    out.flush();  // the results before the verdict, where both reach one terminal or log
    err << fmt::format("occcalc: gate failed: {} of {} line{} below --min-occupancy {}: line{} {}{}\n", below_count,
                       lines_before, lines_before == 1 ? "" : "s", min_text, below_count == 1 ? "" : "s",
                       occcalc::detail::printable(occcalc::detail::join(named_below, ", ")),
                       below_count > static_cast<std::int64_t>(named_below.size()) ? ", ..." : "");
  }
  if (any_bad) return exit_status::bad_input;
  return below_count > 0 ? exit_status::gate_failed : exit_status::ok;
}

}  // namespace occcalc::cli
