#include "render/inspect_report.hpp"

#include <algorithm>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/json_writer.hpp"
#include "render/result_json.hpp"
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

std::string limiters_text(const std::optional<occcalc::occupancy_summary>& summary) {
  return summary ? summary->limiter_list("+") : std::string("-");
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

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string csv_optional(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::string csv_dim3(const std::optional<dim3>& d) { return d ? dim3_text(*d) : std::string(); }

/// Writes `text` out once it holds a chunk: a large library's JSON would
/// otherwise sit whole in memory.
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
     [](const kernel_report& r, const summary_t&) { return plain(r.kernel.resources.arch); }},
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
       return plain(optional_text(r.kernel.resources.static_shared_memory_bytes));
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
    {"occupancy", "occupancy", true, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) -> table_cell {
       if (!s) return plain("-");
       return {occupancy_text(s), occupancy_style(s->groups_per_unit > 0, s->occupancy() * occcalc::percent_per_unit)};
     }},
    {"limiter", "limited by", false, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) { return plain(s ? s->limiter_list("+", true) : "-"); }},
    {"kernel", "kernel", false, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(r.kernel.demangled); }},
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

std::string dim3_text(const dim3& d) { return fmt::format("{}x{}x{}", d[0], d[1], d[2]); }

std::string occupancy_text(const std::optional<occcalc::occupancy_summary>& summary) {
  return summary ? fmt::format("{:.1f}%", summary->occupancy() * occcalc::percent_per_unit) : std::string("-");
}

void render_inspect_text(std::ostream& out, const std::vector<input_report>& inputs, const terminal& term,
                         const inspect_table_options& view) {
  std::string text;
  for (const auto& input : inputs) {
    std::string heading = fmt::format("{} ({}): {} kernel{}", input.file == "-" ? "standard input" : input.file,
                                      input.kind, input.kernels.size(), input.kernels.size() == 1 ? "" : "s");
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
    text += occcalc::cli::heading(heading, term);
    if (input.kernels.empty()) continue;
    // Every cell of every column the input's vendor has, then the columns
    // shown: widths come from the content.
    const bool amd =
        std::any_of(input.kernels.begin(), input.kernels.end(), [](const kernel_report& r) { return r.amd_target; });
    std::vector<const inspect_column*> candidates;
    for (const auto& c : inspect_columns) {
      if (c.vendor == column_vendor::any || (c.vendor == column_vendor::amd) == amd) candidates.push_back(&c);
    }
    std::vector<std::vector<table_cell>> cells;
    cells.reserve(input.kernels.size());
    std::vector<std::size_t> widths(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) widths[c] = display_width(candidates[c]->header);
    std::map<std::string, std::size_t> unavailable;
    for (const auto& r : input.kernels) {
      const auto summary = r.summary();
      std::vector<table_cell> row;
      row.reserve(candidates.size());
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        row.push_back(candidates[c]->cell(r, summary));
        widths[c] = std::max(widths[c], display_width(row.back().text));
      }
      cells.push_back(std::move(row));
      if (!r.has_occupancy()) ++unavailable[r.unavailable];
    }
    const auto shown = shown_columns(candidates, widths, view, term);
    std::vector<table_column> headers;
    for (const auto c : shown) headers.push_back({candidates[c]->header, candidates[c]->right_aligned});
    std::vector<std::vector<table_cell>> rows(cells.size());
    for (std::size_t k = 0; k < cells.size(); ++k) {
      rows[k].reserve(shown.size());
      for (const auto c : shown) rows[k].push_back(std::move(cells[k][c]));
    }
    table_layout layout;
    layout.elide_last = !view.wide && candidates[shown.back()]->id == "kernel";
    text += format_table(headers, rows, term, layout);
    flush_chunk(out, text);
    for (const auto& [reason, count] : unavailable) {
      text += paint(fmt::format("  no occupancy for {} kernel{}: {}", count, count == 1 ? "" : "s", reason),
                    style::warn, term.colour) +
              "\n";
    }
  }
  out << text;
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

void render_inspect_json(std::ostream& out, const std::vector<input_report>& inputs) {
  result_writer results;
  // One record per line, compact, so a library's 40,000 kernels stream out.
  std::string text = fmt::format("{{\"schema_version\":{},\"kernels\":[", occcalc::inspect_schema_version);
  bool first = true;
  for (const auto& input : inputs) {
    for (const auto& r : input.kernels) {
      const auto& k = r.kernel.resources;
      text += first ? "\n" : ",\n";
      first = false;
      json_writer w(text);
      w.begin_object();
      w.member("file", r.file);
      w.member("origin", k.origin);
      w.member("kernel", k.name);
      w.member("name", r.kernel.demangled);
      w.member("arch", k.arch);
      for (const auto& [name, value] :
           {std::pair<std::string_view, const std::optional<std::int64_t>&>{"registers", k.registers},
            {"register_cap", k.register_cap},
            {"min_blocks_per_sm", k.min_blocks_per_sm},
            {"static_smem_bytes", k.static_shared_memory_bytes},
            {"stack_frame_bytes", k.stack_frame_bytes},
            {"stack_size_bytes", k.stack_size_bytes},
            {"local_memory_bytes", k.local_memory_bytes},
            {"spill_store_bytes", k.spill_store_bytes},
            {"spill_load_bytes", k.spill_load_bytes},
            {"barriers", k.barriers},
            {"agprs", k.agprs},
            {"sgprs", k.sgprs},
            {"wave_size", k.wave_size},
            {"vgpr_spills", k.vgpr_spills},
            {"sgpr_spills", k.sgpr_spills}}) {
        w.member(name, value);
      }
      w.member("wgp_mode", k.wgp_mode);
      for (const auto& [name, value] :
           {std::pair<std::string_view, const std::optional<dim3>&>{"max_threads", k.max_threads},
            {"required_threads", k.required_threads},
            {"cluster_dims", k.cluster_dims}}) {
        w.key(name);
        if (value) {
          w.begin_array();
          for (const auto extent : *value) w.value(extent);
          w.end_array();
        } else {
          w.null();
        }
      }
      w.member("block_size", r.block_size);
      w.key("block_size_from");
      if (r.block_size)
        w.value(r.block_size_from);
      else
        w.null();
      w.key("occupancy");
      if (r.evaluation)
        std::visit([&](const auto& q) { results.write(w, q); }, *r.evaluation);
      else
        w.null();
      w.key("occupancy_unavailable");
      if (r.has_occupancy())
        w.null();
      else
        w.value(r.unavailable);
      w.end_object();
      flush_chunk(out, text);
    }
  }
  text += first ? "]}\n" : "\n]}\n";
  out << text;
}

void render_inspect_csv(std::ostream& out, const std::vector<input_report>& inputs) {
  std::string text =
      "file,origin,arch,kernel,name,registers,register_cap,static_smem_bytes,stack_frame_bytes,stack_size_bytes,"
      "local_memory_bytes,spill_store_bytes,spill_load_bytes,barriers,max_threads,required_threads,cluster_dims,"
      "block_size,block_size_from,blocks_per_sm,active_warps_per_sm,occupancy,limiters,occupancy_unavailable,agprs,"
      "sgprs,"
      "wave_size,vgpr_spills,sgpr_spills,wgp_mode,min_blocks_per_sm\n";
  for (const auto& input : inputs) {
    for (const auto& r : input.kernels) {
      const auto& k = r.kernel.resources;
      const auto summary = r.summary();
      const bool result = summary.has_value();
      text += fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
          csv_field(r.file), csv_field(k.origin), csv_field(k.arch), csv_field(k.name), csv_field(r.kernel.demangled),
          csv_optional(k.registers), csv_optional(k.register_cap), csv_optional(k.static_shared_memory_bytes),
          csv_optional(k.stack_frame_bytes), csv_optional(k.stack_size_bytes), csv_optional(k.local_memory_bytes),
          csv_optional(k.spill_store_bytes), csv_optional(k.spill_load_bytes), csv_optional(k.barriers),
          csv_dim3(k.max_threads), csv_dim3(k.required_threads), csv_dim3(k.cluster_dims), csv_optional(r.block_size),
          r.block_size ? csv_field(r.block_size_from) : "", result ? std::to_string(summary->groups_per_unit) : "",
          result ? std::to_string(summary->active_warps) : "", result ? fmt::format("{}", summary->occupancy()) : "",
          csv_field(result ? limiters_text(summary) : ""), csv_field(r.unavailable), csv_optional(k.agprs),
          csv_optional(k.sgprs), csv_optional(k.wave_size), csv_optional(k.vgpr_spills), csv_optional(k.sgpr_spills),
          k.wgp_mode ? (*k.wgp_mode ? "true" : "false") : "", csv_optional(k.min_blocks_per_sm));
      flush_chunk(out, text);
    }
  }
  out << text;
}

const std::array<format_renderer<inspect_render>, 3> inspect_renderers = {{
    {output_format::text, render_inspect_text},
    {output_format::json, [](std::ostream& out, const std::vector<input_report>& inputs, const terminal&,
                             const inspect_table_options&) { render_inspect_json(out, inputs); }},
    {output_format::csv, [](std::ostream& out, const std::vector<input_report>& inputs, const terminal&,
                            const inspect_table_options&) { render_inspect_csv(out, inputs); }},
}};

}  // namespace occcalc::cli
