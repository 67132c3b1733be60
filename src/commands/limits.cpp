#include "commands/limits.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "occcalc/amd/limits.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/nvidia/explain.hpp"
#include "occcalc/nvidia/limits.hpp"
#include "occcalc/request/amd.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/resolve.hpp"
#include "occcalc/version.hpp"
#include "render/json_writer.hpp"
#include "render/text_layout.hpp"
#include "render/text_table.hpp"

namespace occcalc::cli {

namespace {

std::string percent_text(double fraction) { return fmt::format("{:.1f}%", fraction * percent_per_unit); }

/// A limit as a cell: "-" where nothing reaches the level.
std::string cell(const std::optional<std::int64_t>& value) { return value ? std::to_string(*value) : "-"; }

exit_status run_limits_for(const occcalc::resolved_request& r, bool json, std::ostream& out, const terminal& term) {
  const auto& arch = *r.arch;
  const auto levels = occcalc::nvidia_limits(arch, r.launch);
  if (json) {
    std::string text;
    {
      json_writer w(text, json_writer::style::pretty);
      w.begin_object();
      w.member("schema_version", occcalc::limits_schema_version);
      w.member("vendor", "nvidia");
      w.member("arch", arch.id);
      w.member("gpu", r.device_name() ? std::optional<std::string_view>(*r.device_name()) : std::nullopt);
      w.member("threads_per_block", r.launch.threads_per_block);
      w.member("registers_per_thread", r.launch.registers_per_thread);
      w.member("static_smem_bytes", r.launch.static_shared_memory_bytes);
      w.key("levels");
      w.begin_array();
      for (const auto& level : levels) {
        w.begin_object();
        w.member("blocks_per_sm", level.blocks_per_sm);
        w.member("active_warps_per_sm", level.active_warps_per_sm);
        w.member("occupancy", level.occupancy);
        w.member("max_registers_per_thread", level.max_registers_per_thread);
        w.member("max_dyn_smem_bytes", level.max_dynamic_shared_memory_bytes);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    out << text << "\n";
    return exit_status::ok;
  }
  std::string text = heading(fmt::format("{}{} ({}, compute capability {}): limits per occupancy level",
                                         r.device_name() ? *r.device_name() + ", " : std::string(), arch.id,
                                         arch.family, arch.compute_capability()),
                             term);
  const auto& l = r.launch;
  const bool alone = l.registers_per_thread == 0 && l.requested_shared_memory_bytes() == 0;
  text += wrap(alone ? fmt::format("{} threads per block; each resource on its own", l.threads_per_block)
                     : fmt::format("{} threads per block; registers with {} of static and {} of dynamic shared "
                                   "memory, dynamic shared memory with {} registers per thread and the static",
                                   l.threads_per_block, bytes_text(l.static_shared_memory_bytes),
                                   bytes_text(l.dynamic_shared_memory_bytes), l.registers_per_thread),
               0, term.columns);
  text += "\n";
  if (levels.empty()) {
    // Not one block is resident whatever its registers and dynamic shared
    // memory: the reason, as the query gives it.
    occcalc::launch_config bare = l;
    bare.registers_per_thread = 0;
    bare.dynamic_shared_memory_bytes = 0;
    const auto none = occcalc::compute_occupancy(arch, bare);
    std::string why;
    for (const auto res : occcalc::nvidia_resources) {
      if (why.empty()) why = occcalc::explain(none.limit(res).reason, arch, bare, none);
    }
    out << text
        << wrap("No level: not one block is resident" + (why.empty() ? std::string() : ": " + why), 0, term.columns);
    return exit_status::ok;
  }
  std::vector<std::vector<table_cell>> rows;
  for (const auto& level : levels) {
    rows.push_back({{std::to_string(level.blocks_per_sm)},
                    {std::to_string(level.active_warps_per_sm)},
                    {percent_text(level.occupancy)},
                    {cell(level.max_registers_per_thread)},
                    {cell(level.max_dynamic_shared_memory_bytes)}});
  }
  text += format_table(
      {{"blocks/SM", true}, {"warps", true}, {"occupancy", true}, {"max regs", true}, {"max dyn smem B", true}}, rows,
      term, {});
  out << text;
  return exit_status::ok;
}

exit_status run_limits_for(const occcalc::resolved_amd_request& r, bool json, std::ostream& out, const terminal& term) {
  const auto& t = *r.target;
  if (r.model != occcalc::amd_model::llvm) {
    throw occcalc::input_error("model", std::string(occcalc::to_string(r.model)) +
                                            ": limits follows the compiler's model (llvm), as LLVM's own "
                                            "llvm-calc-occupancy --limits does");
  }
  const auto levels = occcalc::amd_limits(t, r.mode, r.work_group_size);
  const bool unified = t.unified_vgpr_file;
  if (json) {
    std::string text;
    {
      json_writer w(text, json_writer::style::pretty);
      w.begin_object();
      w.member("schema_version", occcalc::limits_schema_version);
      w.member("vendor", "amd");
      w.member("arch", t.id);
      w.member("gpu", r.named_gpu ? std::optional<std::string_view>(r.named_gpu->name) : std::nullopt);
      w.member("model", "llvm");
      w.member("work_group_size", r.work_group_size);
      w.member("wave_size", r.mode.wave_size);
      w.member("unit", occcalc::detail::amd_cus_per_unit(t, r.mode) > 1 ? "wgp" : "cu");
      w.member("vgprs_include_agprs", unified);
      w.key("levels");
      w.begin_array();
      for (const auto& level : levels) {
        w.begin_object();
        w.member("waves_per_simd", level.waves_per_simd);
        w.member("occupancy", level.occupancy);
        w.member("max_vgprs", level.max_vgprs);
        w.member("max_sgprs", level.max_sgprs);
        w.member("max_lds_bytes", level.max_lds_bytes);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    out << text << "\n";
    return exit_status::ok;
  }
  std::string text = heading(fmt::format("{}{} ({}): limits per occupancy level, as the LLVM AMDGPU compiler counts",
                                         r.named_gpu ? r.named_gpu->name + ", " : std::string(), t.id, t.family),
                             term);
  text += wrap(
      fmt::format("work-groups of {} work-items, wave{}{}; each resource on its own{}", r.work_group_size,
                  r.mode.wave_size, t.has_wgp_mode ? (r.mode.wgp_mode ? ", WGP mode" : ", CU mode") : std::string(),
                  unified ? "; VGPRs count the AGPRs too (one file)" : std::string()),
      0, term.columns);
  text += "\n";
  std::vector<std::vector<table_cell>> rows;
  for (const auto& level : levels) {
    rows.push_back({{std::to_string(level.waves_per_simd)},
                    {percent_text(level.occupancy)},
                    {std::to_string(level.max_vgprs)},
                    {level.max_sgprs ? std::to_string(*level.max_sgprs) : "-"},
                    {std::to_string(level.max_lds_bytes)}});
  }
  text += format_table(
      {{"waves/SIMD", true}, {"occupancy", true}, {"max VGPRs", true}, {"max SGPRs", true}, {"max LDS B", true}}, rows,
      term, {});
  if (!t.sgprs_per_simd)
    text += wrap(fmt::format("SGPRs never limit on {}: each wave has its own", t.id), 0, term.columns);
  out << text;
  return exit_status::ok;
}

}  // namespace

exit_status run_limits(const occcalc::table& tables, occcalc::request request, bool json, std::ostream& out,
                       const terminal& term) {
  if (request.cluster)
    throw occcalc::input_error("cluster", "does not apply to limits: a cluster changes no per-SM limit");
  if (!request.threads) {
    throw occcalc::input_error("threads", "is needed: the limits depend on the block (work-group) size");
  }
  // The register counts are what the table answers: absent, they are 0.
  if (occcalc::is_amd_request(tables, request)) {
    // AMD's levels take each resource on its own, as LLVM's --limits does.
    for (const auto& [name, value] :
         {std::pair<const char*, const std::optional<occcalc::field_value>*>{"vgprs", &request.vgprs},
          {"agprs", &request.agprs},
          {"sgprs", &request.sgprs},
          {"lds", &request.lds}}) {
      if (value->has_value()) {
        throw occcalc::input_error(name, "does not apply to limits for AMD: each resource's limit stands on its own");
      }
    }
    request.vgprs = occcalc::field_value::of_integer(0);
  } else if (!request.regs) {
    request.regs = occcalc::field_value::of_integer(0);
  }
  auto resolved = occcalc::resolve_any(tables, request);
  return std::visit([&](const auto& r) { return run_limits_for(r, json, out, term); }, resolved);
}

}  // namespace occcalc::cli
