#include "render/inspect_report.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <variant>

#include <fmt/format.h>

#include "builds/readers/parallel.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/cluster.hpp"
#include "render/inspect_columns.hpp"
#include "render/inspect_records.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

/// Writes `text` out and clears it once it holds a chunk (64 KiB): a
/// library's table would otherwise sit whole in memory.
void flush_chunk(std::ostream& out, std::string& text) {
  constexpr std::size_t chunk_bytes = 1 << 16;
  if (text.size() < chunk_bytes) return;
  out << text;
  text.clear();
}

/// The table, an input at a time: each run's rows become cells (of every
/// column, both vendors': which are candidates is known at the input's
/// end) and the reports are let go; the input's table is laid out once its
/// last row is in, as widths come from every row.
class text_printer final : public inspect_printer {
 public:
  text_printer(std::ostream& out, const terminal& term, const inspect_table_options& view, unsigned workers)
      : out_(out), term_(term), view_(view), workers_(workers) {}

  void input(const input_report& heading, std::size_t kernel_count) override {
    end_input();
    heading_ = heading;
    kernel_count_ = kernel_count;
    amd_ = false;
    cells_.clear();
    cells_.reserve(kernel_count);
    unavailable_.clear();
    fewer_in_clusters_ = 0;
    fewer_example_.clear();
    compiler_differs_ = 0;
    compiler_example_.clear();
    widths_.assign(inspect_column_count, 0);
    notable_.assign(inspect_column_count, false);
    for (std::size_t c = 0; c < widths_.size(); ++c) widths_[c] = display_width(inspect_columns[c].header);
    pending_ = true;
  }

  void kernels(std::vector<kernel_report>& run) override {
    // The rows on every worker, a slice of 256 at a time, each slice with
    // its own widths.
    constexpr std::size_t slice_rows = 256;
    const std::size_t first = cells_.size();
    cells_.resize(first + run.size());
    std::vector<std::vector<std::size_t>> widths(inspect::slice_count(run.size(), slice_rows),
                                                 std::vector<std::size_t>(inspect_column_count));
    inspect::parallel_for_slices<std::monostate>(
        run.size(), slice_rows, workers_, [&](std::size_t s, std::size_t from, std::size_t end, std::monostate&) {
          for (std::size_t i = from; i < end; ++i) {
            const auto summary = run[i].summary();
            auto& row = cells_[first + i];
            row.reserve(inspect_column_count);
            for (std::size_t c = 0; c < inspect_column_count; ++c) {
              row.push_back(inspect_columns[c].cell(run[i], summary));
              widths[s][c] = std::max(widths[s][c], display_width(row.back().text));
            }
          }
        });
    for (const auto& slice : widths) {
      for (std::size_t c = 0; c < widths_.size(); ++c) widths_[c] = std::max(widths_[c], slice[c]);
    }
    for (const auto& r : run) {
      for (std::size_t c = 0; c < inspect_column_count; ++c) {
        if (inspect_columns[c].notable != nullptr && !notable_[c]) notable_[c] = inspect_columns[c].notable(r);
      }
      if (!r.has_occupancy()) ++unavailable_[r.unavailable];
      // Declared clusters: the blocks a cluster launch keeps, where fewer than the table shows.
      if (const query* q = r.nvidia(); q && cluster_limited(*q)) {
        ++fewer_in_clusters_;
        if (fewer_example_.empty()) {
          fewer_example_ = fmt::format("{} keeps {} of its {} blocks per SM in clusters of {}, {}",
                                       occcalc::detail::printable(r.kernel.demangled),
                                       occcalc::to_string(q->in_clusters.blocks_per_sm), q->result.blocks_per_sm,
                                       q->request.cluster->blocks(), percent_text(q->in_clusters.occupancy));
        }
      }
      if (const std::string difference = r.compiler_difference(); !difference.empty()) {
        if (compiler_differs_++ == 0) {
          compiler_example_ = occcalc::detail::printable(r.kernel.demangled) + ": " + difference;
        }
      }
      amd_ = amd_ || r.amd_target;
    }
  }

  void finish() override {
    end_input();
    out_ << text_;
    text_.clear();
  }

 private:
  void end_input() {
    if (!pending_) return;
    pending_ = false;
    const auto& input = heading_;
    std::string heading = fmt::format("{} ({}): {} kernel{}",
                                      input.file == "-" ? "standard input" : occcalc::detail::printable(input.file),
                                      input.kind, kernel_count_, kernel_count_ == 1 ? "" : "s");
    if (input.duplicate_entries > 0) {
      heading += fmt::format("; {} repeated cubin{} listed once", input.duplicate_entries,
                             input.duplicate_entries == 1 ? "" : "s");
    }
    if (input.skipped_entries > input.lto_entries) {
      heading += fmt::format("; {} PTX or other non-cubin entries not read", input.skipped_entries - input.lto_entries);
    }
    if (input.lto_entries > 0) {
      heading += fmt::format("; {} LTO IR entr{} (no resources until linked: inspect the binary nvlink -dlto makes)",
                             input.lto_entries, input.lto_entries == 1 ? "y" : "ies");
    }
    if (input.skipped_members > 0) {
      heading +=
          fmt::format("; {} member{} without GPU code", input.skipped_members, input.skipped_members == 1 ? "" : "s");
    }
    if (input.unread.lines > 0) {
      heading += fmt::format("; {} remark line{} not read ({})", input.unread.lines, input.unread.lines == 1 ? "" : "s",
                             occcalc::detail::printable(input.unread.first));
    }
    text_ += occcalc::cli::heading(heading, term_);
    if (cells_.empty()) return;
    // The columns the input's vendor has, then the ones shown: widths come
    // from the content.
    std::vector<std::size_t> candidates;  // into inspect_columns
    for (std::size_t c = 0; c < inspect_column_count; ++c) {
      const auto vendor = inspect_columns[c].vendor;
      if (vendor == column_vendor::any || (vendor == column_vendor::amd) == amd_) candidates.push_back(c);
    }
    // On a terminal, a column that says the same on every row (sm_90, 1024
    // (suggest)) is said once above the table, and its width goes to the
    // names; piped, every row stays whole for grep, and --wide and
    // --columns keep every column they show.
    if (term_.tty && !view_.wide && view_.columns.empty() && cells_.size() > 1) {
      std::vector<std::string> said;
      const auto same_everywhere = [&](std::size_t c) {
        return inspect_columns[c].id != "kernel" && std::all_of(cells_.begin(), cells_.end(), [&](const auto& row) {
                 return row[c].text == cells_.front()[c].text;
               });
      };
      std::vector<std::size_t> kept;
      for (const auto c : candidates) {
        if (same_everywhere(c)) {
          said.push_back(fmt::format("{} {}", inspect_columns[c].header, cells_.front()[c].text));
        } else {
          kept.push_back(c);
        }
      }
      candidates = std::move(kept);
      if (!said.empty())
        text_ += wrap_hanging("every kernel: " + occcalc::detail::join(said, ", "), 2, 4, term_.columns);
    }
    std::vector<const inspect_column*> columns;
    std::vector<std::size_t> widths;
    std::vector<bool> notable;
    for (const auto c : candidates) {
      columns.push_back(&inspect_columns[c]);
      widths.push_back(widths_[c]);
      notable.push_back(notable_[c]);
    }
    const auto shown = shown_columns(columns, widths, notable, view_, term_);
    std::vector<std::string> left_out;  // for the width, and said so
    for (std::size_t c = 0; c < columns.size() && view_.columns.empty(); ++c) {
      if (std::find(shown.begin(), shown.end(), c) == shown.end()) left_out.emplace_back(columns[c]->id);
    }
    std::vector<table_column> headers;
    for (const auto c : shown) headers.push_back({columns[c]->header, columns[c]->right_aligned});
    std::vector<std::vector<table_cell>> rows(cells_.size());
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      rows[k].reserve(shown.size());
      for (const auto c : shown) rows[k].push_back(std::move(cells_[k][candidates[c]]));
      std::vector<table_cell>().swap(cells_[k]);  // the rest of the row's cells, let go as it is taken
    }
    cells_.clear();
    table_layout layout;
    layout.elide_last = !view_.wide && term_.tty && columns[shown.back()]->id == "kernel";
    text_ += format_table(headers, rows, term_, layout);
    flush_chunk(out_, text_);
    if (!left_out.empty()) {
      text_ +=
          wrap_hanging("not shown for the width: " + occcalc::detail::join(left_out, ", ") + " (--wide shows them)", 2,
                       4, term_.columns);
    }
    if (fewer_in_clusters_ > 0) {
      const std::string note = fmt::format(
          "{} kernel{} declare{} thread block clusters, and a cluster launch keeps fewer blocks per SM "
          "than shown ({}); --json's cluster gives each one's",
          fewer_in_clusters_, fewer_in_clusters_ == 1 ? "" : "s", fewer_in_clusters_ == 1 ? "s" : "", fewer_example_);
      warn_note(note);
    }
    if (compiler_differs_ > 0) {
      warn_note(fmt::format("{} kernel{} with another occupancy than the compiler's own ({})", compiler_differs_,
                            compiler_differs_ == 1 ? "" : "s", compiler_example_));
    }
    for (const auto& [reason, count] : unavailable_) {
      warn_note(fmt::format("no occupancy for {} kernel{}: {}", count, count == 1 ? "" : "s",
                            occcalc::detail::printable(reason)));
    }
  }

  /// A note under the table, wrapped to the width as every line of text is,
  /// each line painted.
  void warn_note(const std::string& note) {
    const auto lines = wrap_lines(note, term_.columns - 2, term_.columns - 4);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      text_ += (i == 0 ? "  " : "    ") + paint(lines[i], style::warn, term_.colour) + "\n";
    }
  }

  std::ostream& out_;
  terminal term_;
  inspect_table_options view_;
  unsigned workers_;
  std::string text_;
  bool pending_ = false;
  input_report heading_;
  std::size_t kernel_count_ = 0;
  bool amd_ = false;
  std::vector<std::vector<table_cell>> cells_;  // per row, every column of inspect_columns
  std::vector<std::size_t> widths_;             // per column of inspect_columns
  std::vector<bool> notable_;                   // per column: a kernel's cell is one to act on
  std::map<std::string, std::size_t> unavailable_;
  std::size_t fewer_in_clusters_ = 0;
  std::size_t compiler_differs_ = 0;
  std::string compiler_example_;
  std::string fewer_example_;
};

}  // namespace

const std::array<format_renderer<inspect_render>, 3> inspect_renderers = {{
    {output_format::text,
     [](std::ostream& out, const terminal& term, const inspect_table_options& view, unsigned workers,
        const std::vector<std::string>&) -> std::unique_ptr<inspect_printer> {
       return std::make_unique<text_printer>(out, term, view, workers);
     }},
    {output_format::json,
     [](std::ostream& out, const terminal&, const inspect_table_options&, unsigned workers,
        const std::vector<std::string>& inputs) { return inspect_json_printer(out, workers, inputs); }},
    {output_format::csv, [](std::ostream& out, const terminal&, const inspect_table_options&, unsigned workers,
                            const std::vector<std::string>&) { return inspect_csv_printer(out, workers); }},
}};

}  // namespace occcalc::cli
