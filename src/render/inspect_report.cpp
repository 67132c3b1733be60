#include "render/inspect_report.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <ostream>
#include <variant>

#include <fmt/format.h>

#include "inspect/parallel.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/cluster.hpp"
#include "render/inspect_records.hpp"
#include "render/terminal.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

using inspect::dim3;

std::string optional_text(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string("?");
}

std::string spill_text(const inspect::kernel_resources& k) {
  if (k.vgpr_spills || k.sgpr_spills) {
    // AMD code objects count spilled registers, not bytes.
    return std::to_string(k.vgpr_spills.value_or(0) + k.sgpr_spills.value_or(0)) + "r";
  }
  if (!k.spill_store_bytes && !k.spill_load_bytes) return "?";
  return std::to_string(k.spill_store_bytes.value_or(0) + k.spill_load_bytes.value_or(0));
}

std::string block_text(const kernel_report& r) {
  if (!r.block_size) return "?";
  if (r.block_size_from == "launch bounds") return fmt::format("{} (bounds)", *r.block_size);
  if (r.block_size_from == suggested_block_size) return fmt::format("{} (suggest)", *r.block_size);
  if (r.block_size_from == triton_block_size) return fmt::format("{} (triton)", *r.block_size);
  if (r.block_size_from == "required") {
    return fmt::format("{} ({})", *r.block_size, r.kernel.resources.wave_size ? "reqd" : "reqntid");
  }
  return std::to_string(*r.block_size);
}

/// Writes `text` out and clears it once it holds a chunk (64 KiB): a
/// library's table would otherwise sit whole in memory.
void flush_chunk(std::ostream& out, std::string& text) {
  constexpr std::size_t chunk_bytes = 1 << 16;
  if (text.size() < chunk_bytes) return;
  out << text;
  text.clear();
}

enum class column_vendor { any, nvidia, amd };

/// One column of the inspect table. The array's order is the line's order.
struct inspect_column {
  std::string_view id;
  std::string_view header;
  bool right_aligned;
  /// 0: shown by default; else added, lowest first, while the width allows.
  int priority;
  /// Columns only one vendor's kernels have.
  column_vendor vendor;
  table_cell (*cell)(const kernel_report& r, const std::optional<occcalc::occupancy_summary>& s);
};

using summary_t = std::optional<occcalc::occupancy_summary>;

table_cell plain(std::string text) { return {std::move(text), std::nullopt}; }

const inspect_column inspect_columns[] = {
    {"arch", "arch", false, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(r.kernel.resources.arch.name); }},
    {"regs", "regs", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.registers)); }},
    {"sgprs", "sgprs", true, 2, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.sgprs)); }},
    {"agprs", "agprs", true, 3, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.agprs)); }},
    {"cap", "cap", true, 4, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) {
       const auto& cap = r.kernel.resources.register_cap;
       return plain(cap ? std::to_string(*cap) : "-");
     }},
    {"smem", "smem B", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) {
       // Static, plus the dynamic bytes of the launch (a Triton kernel's `shared`, --dyn-smem).
       const std::string own = optional_text(r.kernel.resources.static_shared_memory_bytes);
       const auto& dynamic = r.dynamic_shared_memory_bytes;
       return plain(dynamic && *dynamic > 0 ? fmt::format("{}+{}", own, *dynamic) : own);
     }},
    {"stack", "stack", true, 2, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) {
       const auto& k = r.kernel.resources;
       return plain(optional_text(inspect::stack_bytes(k.stack_size_bytes, k.stack_frame_bytes)));
     }},
    {"scratch", "scratch", true, 1, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) {
       return plain(optional_text(r.kernel.resources.stack_size_bytes));
     }},
    {"spill", "spill", true, 1, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(spill_text(r.kernel.resources)); }},
    {"bar", "bar", true, 5, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.barriers)); }},
    {"block", "block", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(block_text(r)); }},
    {"blocks", "blk/SM", true, 3, column_vendor::any,
     [](const kernel_report&, const summary_t& s) { return plain(s ? std::to_string(s->groups_per_unit) : "-"); }},
    {"waves", "waves", true, 1, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) {
       // The figure AMD's compiler prints (`; Occupancy:`): waves per SIMD
       // of the most a SIMD holds.
       const auto* amd = r.amd();
       return plain(amd ? fmt::format("{:g}/{}", amd->result.waves_per_simd, amd->result.max_waves_per_simd) : "-");
     }},
    {"occupancy", "occupancy", true, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) -> table_cell {
       if (!s) return plain("-");
       return {occupancy_text(s), occupancy_style(s->groups_per_unit > 0, s->occupancy() * occcalc::percent_per_unit)};
     }},
    {"limiter", "limited by", false, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) { return plain(s ? s->limiter_list("+", true) : "-"); }},
    {"kernel", "kernel", false, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(occcalc::detail::printable(r.kernel.demangled)); }},
};

/// The narrowest a kernel name is cut to before optional columns give way.
constexpr std::size_t min_kernel_columns = 40;

/// Indices into `candidates` of the columns to show: those `--columns`
/// names; every one with `--wide`; else the default ones and then the
/// optional ones by priority while the line fits the terminal with the
/// kernel name at least `min_kernel_columns` wide (or whole, when shorter).
std::vector<std::size_t> shown_columns(const std::vector<const inspect_column*>& candidates,
                                       const std::vector<std::size_t>& widths, const inspect_table_options& view,
                                       const terminal& term) {
  std::vector<std::size_t> shown;
  if (!view.columns.empty()) {
    for (const auto& id : view.columns) {
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        if (candidates[c]->id == id) shown.push_back(c);
      }
    }
    if (shown.empty()) shown.push_back(candidates.size() - 1);  // another vendor's columns only: the names
    return shown;
  }
  std::vector<bool> on(candidates.size());
  std::size_t used = 2;  // the indent
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    on[c] = view.wide || candidates[c]->priority == 0;
    if (on[c] && candidates[c]->id != "kernel") used += widths[c] + 1;
  }
  const std::size_t kernel = std::min(widths.back(), min_kernel_columns);
  for (int priority = 1; !view.wide; ++priority) {
    bool any = false;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (candidates[c]->priority != priority) continue;
      any = true;
      if (used + widths[c] + 1 + kernel <= term.columns) {
        on[c] = true;
        used += widths[c] + 1;
      }
    }
    if (!any) break;
  }
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (on[c]) shown.push_back(c);
  }
  return shown;
}

}  // namespace

std::string occupancy_text(const std::optional<occcalc::occupancy_summary>& summary) {
  return summary ? fmt::format("{:.1f}%", summary->occupancy() * occcalc::percent_per_unit) : std::string("-");
}

std::string inspect_column_ids() {
  std::string ids;
  for (const auto& c : inspect_columns) ids += (ids.empty() ? "" : ", ") + std::string(c.id);
  return ids;
}

bool is_inspect_column(std::string_view id) {
  return std::any_of(std::begin(inspect_columns), std::end(inspect_columns),
                     [&](const inspect_column& c) { return c.id == id; });
}

namespace {

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
    widths_.assign(std::size(inspect_columns), 0);
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
                                                 std::vector<std::size_t>(std::size(inspect_columns)));
    inspect::parallel_for_slices<std::monostate>(
        run.size(), slice_rows, workers_, [&](std::size_t s, std::size_t from, std::size_t end, std::monostate&) {
          for (std::size_t i = from; i < end; ++i) {
            const auto summary = run[i].summary();
            auto& row = cells_[first + i];
            row.reserve(std::size(inspect_columns));
            for (std::size_t c = 0; c < std::size(inspect_columns); ++c) {
              row.push_back(inspect_columns[c].cell(run[i], summary));
              widths[s][c] = std::max(widths[s][c], display_width(row.back().text));
            }
          }
        });
    for (const auto& slice : widths) {
      for (std::size_t c = 0; c < widths_.size(); ++c) widths_[c] = std::max(widths_[c], slice[c]);
    }
    for (const auto& r : run) {
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
    for (std::size_t c = 0; c < std::size(inspect_columns); ++c) {
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
    for (const auto c : candidates) {
      columns.push_back(&inspect_columns[c]);
      widths.push_back(widths_[c]);
    }
    const auto shown = shown_columns(columns, widths, view_, term_);
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
