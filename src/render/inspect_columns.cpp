#include "render/inspect_columns.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "occcalc/common/percent.hpp"
#include "occcalc/common/text.hpp"
#include "render/text_layout.hpp"

namespace occcalc::cli {

namespace {

std::string optional_text(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string("?");
}

/// The spill figure the column shows (`inspect::spill_total`): spilled
/// registers where an AMD code object records them, else bytes.
std::optional<std::int64_t> spill_of(const inspect::kernel_resources& k) {
  return inspect::spill_total(k.vgpr_spills, k.sgpr_spills, k.spill_store_bytes, k.spill_load_bytes);
}

/// Whether the kernel spills.
bool spills(const inspect::kernel_resources& k) { return spill_of(k).value_or(0) > 0; }

std::string spill_text(const inspect::kernel_resources& k) {
  const auto total = spill_of(k);
  if (!total) return "?";
  // AMD code objects count spilled registers, not bytes.
  return std::to_string(*total) + (k.vgpr_spills || k.sgpr_spills ? "r" : "");
}

std::string block_text(const kernel_report& r) {
  if (!r.block_size) return "?";
  switch (r.block_size_from) {
    case launch_source::launch_bounds: return fmt::format("{} (bounds)", *r.block_size);
    case launch_source::suggested: return fmt::format("{} (suggest)", *r.block_size);
    case launch_source::triton: return fmt::format("{} (triton)", *r.block_size);
    case launch_source::required:
      return fmt::format("{} ({})", *r.block_size, r.kernel.resources.wave_size ? "reqd" : "reqntid");
    case launch_source::none:
    case launch_source::threads_option:
    case launch_source::policy: break;
  }
  return std::to_string(*r.block_size);
}

table_cell plain(std::string text) { return {std::move(text), std::nullopt}; }

/// The narrowest a kernel name is cut to before optional columns give way.
constexpr std::size_t min_kernel_columns = 40;

}  // namespace

extern const inspect_column inspect_columns[] = {
    {"arch", "arch", false, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(r.kernel.resources.arch.name); }, nullptr},
    {"regs", "regs", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.registers)); },
     nullptr},
    {"sgprs", "sgprs", true, 2, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.sgprs)); }, nullptr},
    {"agprs", "agprs", true, 3, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.agprs)); }, nullptr},
    {"cap", "cap", true, 4, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) {
       const auto& cap = r.kernel.resources.register_cap;
       return plain(cap ? std::to_string(*cap) : "-");
     },
     nullptr},
    {"smem", "smem B", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) {
       // Static, plus the dynamic bytes of the launch (a Triton kernel's `shared`, --dyn-smem).
       const std::string own = optional_text(r.kernel.resources.static_shared_memory_bytes);
       const auto& dynamic = r.dynamic_shared_memory_bytes;
       return plain(dynamic && *dynamic > 0 ? fmt::format("{}+{}", own, *dynamic) : own);
     },
     nullptr},
    {"stack", "stack", true, 2, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) {
       const auto& k = r.kernel.resources;
       return plain(optional_text(inspect::stack_bytes(k.stack_size_bytes, k.stack_frame_bytes)));
     },
     nullptr},
    {"scratch", "scratch", true, 1, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.stack_size_bytes)); },
     nullptr},
    {"spill", "spill", true, 1, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(spill_text(r.kernel.resources)); },
     [](const kernel_report& r) { return spills(r.kernel.resources); }},
    {"bar", "bar", true, 5, column_vendor::nvidia,
     [](const kernel_report& r, const summary_t&) { return plain(optional_text(r.kernel.resources.barriers)); },
     nullptr},
    {"block", "block", true, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(block_text(r)); }, nullptr},
    {"blocks", "blk/SM", true, 3, column_vendor::any,
     [](const kernel_report&, const summary_t& s) { return plain(s ? std::to_string(s->groups_per_unit) : "-"); },
     nullptr},
    {"waves", "waves", true, 1, column_vendor::amd,
     [](const kernel_report& r, const summary_t&) {
       // The figure AMD's compiler prints (`; Occupancy:`): waves per SIMD
       // of the most a SIMD holds.
       const auto* amd = r.amd();
       return plain(amd ? fmt::format("{:g}/{}", amd->result.waves_per_simd, amd->result.max_waves_per_simd) : "-");
     },
     nullptr},
    {"occupancy", "occupancy", true, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) -> table_cell {
       if (!s) return plain("-");
       return {occupancy_text(s), occupancy_style(s->groups_per_unit > 0, s->occupancy() * occcalc::percent_per_unit)};
     },
     nullptr},
    {"limiter", "limited by", false, 0, column_vendor::any,
     [](const kernel_report&, const summary_t& s) { return plain(s ? s->limiter_list("+", true) : "-"); }, nullptr},
    {"kernel", "kernel", false, 0, column_vendor::any,
     [](const kernel_report& r, const summary_t&) { return plain(occcalc::detail::printable(r.kernel.demangled)); },
     nullptr},
};

extern const std::size_t inspect_column_count = std::size(inspect_columns);

std::vector<std::size_t> shown_columns(const std::vector<const inspect_column*>& candidates,
                                       const std::vector<std::size_t>& widths, const std::vector<bool>& notable,
                                       const inspect_table_options& view, const terminal& term) {
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
    on[c] = view.wide || candidates[c]->priority == 0 || notable[c];
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

}  // namespace occcalc::cli
