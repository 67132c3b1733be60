#include "render/result_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "occcalc/amd/summary.hpp"
#include "occcalc/nvidia/explain.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/version.hpp"
#include "render/amd_text.hpp"
#include "render/cluster.hpp"
#include "render/json_writer.hpp"
#include "render/table_entry_json.hpp"

namespace occcalc::cli {

namespace {

/// The grid's wave keys of a result, null without a grid.
void write_waves(json_writer& w, const std::optional<occcalc::waves>& waves) {
  w.key("waves_per_sm");
  if (waves)
    w.value(waves->waves_per_sm);
  else
    w.null();
  w.member("full_waves", waves ? std::optional<std::int64_t>(waves->full_waves) : std::nullopt);
  w.key("tail_utilization");
  if (waves)
    w.value(waves->tail_utilization);
  else
    w.null();
  w.member("blocks_per_wave", waves ? std::optional<std::int64_t>(waves->blocks_per_wave) : std::nullopt);
}

/// `whole_wave_grids`: the whole-wave grid sizes below and above the grid,
/// null without a grid.
void write_whole_wave_grids(json_writer& w, const std::optional<occcalc::waves>& waves) {
  w.key("whole_wave_grids");
  if (waves) {
    w.begin_array();
    w.value(waves->whole_waves_below);
    w.value(waves->whole_waves_above);
    w.end_array();
  } else {
    w.null();
  }
}

/// `"gpu": name` or null.
template <typename Gpu>
void write_gpu_name(json_writer& w, const Gpu* gpu) {
  w.key("gpu");
  if (gpu)
    w.value(gpu->name);
  else
    w.null();
}

/// What every result object starts with: the version, and a batch line's id.
void write_head(json_writer& w, std::string_view id_json, std::string_view gate) {
  w.member("schema_version", occcalc::result_schema_version);
  if (!id_json.empty()) {
    w.key("id");
    w.raw(id_json);
  }
  if (!gate.empty()) w.member("gate", gate);
}

/// The vendor-neutral counts, from the summary (one rounding of the percent),
/// with the two figures the summary does not carry.
void write_counts(json_writer& w, const occcalc::occupancy_summary& s, std::int64_t warps_per_group,
                  std::int64_t active_threads) {
  w.member("model", s.model);
  w.member("unit", s.unit);
  w.member("blocks_per_sm", s.groups_per_unit);
  w.member("warps_per_block", warps_per_group);
  w.member("active_warps_per_sm", s.active_warps);
  w.member("active_threads_per_sm", active_threads);
  w.member("max_warps_per_sm", s.max_warps);
  w.member("occupancy", s.occupancy());
  w.member("occupancy_percent", s.occupancy_percent());
}

/// Each resource's block limit, the limiters, and why a resource allows no
/// block at all.
void write_limits(json_writer& w, const query& q) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  w.key("limits");
  w.begin_object();
  for (const auto r : occcalc::nvidia_resources) w.member(occcalc::to_string(r), result.limit(r).blocks);
  w.end_object();
  w.key("limiters");
  w.begin_array();
  for (const auto r : occcalc::nvidia_resources) {
    if (result.limiters.contains(r)) w.value(occcalc::to_string(r));
  }
  w.end_array();
  w.key("reasons");
  w.begin_object();
  for (const auto r : occcalc::nvidia_resources) {
    const auto reason = result.limit(r).reason;
    if (reason != occcalc::infeasibility::none) {
      w.member(occcalc::to_string(r), occcalc::explain(reason, arch, launch, result));
    }
  }
  w.end_object();
}

/// The same for an AMD query, with the per-SIMD limits of the models that
/// settle per SIMD.
void write_limits(json_writer& w, const amd_query& q) {
  const auto& r = q.result;
  const auto limits = [&](const auto& values) {
    w.begin_object();
    for (const auto res : occcalc::amd_resources) {
      w.member(occcalc::to_string(res), values[static_cast<std::size_t>(res)]);
    }
    w.end_object();
  };
  w.key("limits");
  limits(r.limits);
  w.key("limits_waves_per_simd");
  if (occcalc::info(r.model).settles_per_simd)
    limits(r.limits_waves_per_simd);
  else
    w.null();
  w.key("limiters");
  w.begin_array();
  for (const auto res : occcalc::amd_resources) {
    if (r.limiters.contains(res)) w.value(occcalc::to_string(res));
  }
  w.end_array();
  w.key("reasons");
  w.begin_object();
  for (const auto res : occcalc::amd_resources) {
    if (r.limit(res) == 0) w.member(occcalc::to_string(res), amd_limit_reason(q, res));
  }
  w.end_object();
}

}  // namespace

template <typename Arch, typename Gpu>
void result_writer::write_identity(json_writer& w, const Arch& arch, const Gpu* gpu, const query* family) {
  w.member("arch", arch.id);
  write_gpu_name(w, gpu);
  // A family name (`H100`): its products, each with its SM count.
  w.key("family");
  if (family != nullptr && !family->request.family.empty()) {
    w.begin_object();
    w.member("name", family->request.family_name);
    w.key("gpus");
    w.begin_array();
    for (std::size_t i = 0; i < family->request.family.size(); ++i) {
      const occcalc::gpu* g = family->request.family[i];
      w.begin_object();
      w.member("name", g->name);
      w.member("sm_count", g->sm_count);
      // The grid's waves on this product, where the products differ in SMs.
      w.key("waves");
      if (i < family->family_waves.size()) {
        const occcalc::waves& waves = family->family_waves[i].second;
        w.begin_object();
        write_waves(w, waves);
        write_whole_wave_grids(w, waves);
        w.end_object();
      } else {
        w.null();
      }
      w.end_object();
    }
    w.end_array();
    w.end_object();
  } else {
    w.null();
  }
  // A batch line or an inspect record names them only: repeated on every
  // line, the entries were most of a record (1.6 KB of a batch line).
  if (w.format() != json_writer::style::pretty) return;
  w.key("architecture");
  write_entry(w, arch);
  w.key("device");
  write_entry_or_null(w, gpu);
}

void result_writer::append(std::string& out, const query& q, std::string_view id_json, std::string_view gate) {
  json_writer w(out);
  write(w, q, id_json, gate);
}

void result_writer::append(std::string& out, const amd_query& q, std::string_view id_json, std::string_view gate) {
  json_writer w(out);
  write(w, q, id_json, gate);
}

void result_writer::write(json_writer& w, const query& q, std::string_view id_json, std::string_view gate) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  w.begin_object();
  write_head(w, id_json, gate);
  w.key("input");
  w.begin_object();
  w.member("cc", arch.compute_capability());
  if (q.request.family.empty())
    write_gpu_name(w, q.request.named_gpu);
  else
    w.member("gpu", q.request.family_name);
  w.member("threads", launch.threads_per_block);
  w.member("regs", launch.registers_per_thread);
  w.member("smem", launch.static_shared_memory_bytes);
  w.member("dyn_smem", launch.dynamic_shared_memory_bytes);
  w.key("carveout");
  if (launch.carveout_percent)
    w.value(*launch.carveout_percent);
  else
    w.value("default");
  w.member("cache", occcalc::to_string(launch.cache));
  w.member("barriers", launch.barriers);
  w.member("grid", q.request.grid_blocks);
  w.member("sm_count", q.request.sm_count);
  w.key("cluster");
  if (const auto& shape = q.request.cluster) {
    w.begin_array();
    for (const auto d : {shape->x, shape->y, shape->z}) w.value(d);
    w.end_array();
  } else {
    w.null();
  }
  w.end_object();
  write_identity(w, arch, q.request.named_gpu, &q);
  write_counts(w, occcalc::summarize(result), result.warps_per_block, result.active_threads_per_sm);
  write_waves(w, q.waves);
  write_whole_wave_grids(w, q.waves);
  write_cluster(w, q);
  write_limits(w, q);
  w.key("allocated");
  w.begin_object();
  w.key("registers_per_warp");
  if (arch.register_scope == occcalc::register_allocation_scope::warp)
    w.value(result.registers.per_warp);
  else
    w.null();
  w.member("registers_per_block", result.registers.per_block);
  w.member("shared_memory_per_block", result.shared_memory.per_block_bytes);
  w.member("shared_memory_per_sm", result.shared_memory.per_sm_bytes);
  w.end_object();
  w.end_object();
}

void result_writer::write(json_writer& w, const amd_query& q, std::string_view id_json, std::string_view gate) {
  const auto& t = *q.request.target;
  const auto& k = q.request.kernel;
  const auto& r = q.result;
  w.begin_object();
  write_head(w, id_json, gate);
  w.key("input");
  w.begin_object();
  w.member("gfx", t.id);
  write_gpu_name(w, q.request.named_gpu);
  w.member("threads", q.request.work_group_size);
  w.member("vgprs", k.vgprs);
  w.member("agprs", k.agprs);
  w.member("sgprs", k.sgprs);
  w.member("lds", k.lds_bytes);
  w.member("wave_size", r.wave_size);
  w.key("mode");
  if (t.has_wgp_mode)
    w.value(r.per_wgp ? "wgp" : "cu");
  else
    w.null();
  w.member("model", occcalc::to_string(r.model));
  w.member("grid", q.request.grid_work_groups);
  w.member("sm_count", q.request.compute_units);
  w.end_object();
  write_identity(w, t, q.request.named_gpu);
  write_counts(w, occcalc::summarize(r), r.waves_per_work_group, r.work_groups * q.request.work_group_size);
  w.member("waves_per_simd", r.waves_per_simd);
  w.member("max_waves_per_simd", r.max_waves_per_simd);
  w.member("simds", r.simds);
  write_waves(w, q.waves);
  write_limits(w, q);
  w.end_object();
}

void write_occupancy(json_writer& w, const query& q) {
  w.begin_object();
  write_counts(w, occcalc::summarize(q.result), q.result.warps_per_block, q.result.active_threads_per_sm);
  write_limits(w, q);
  w.end_object();
}

void write_occupancy(json_writer& w, const amd_query& q) {
  const auto& r = q.result;
  w.begin_object();
  write_counts(w, occcalc::summarize(r), r.waves_per_work_group, r.work_groups * q.request.work_group_size);
  w.member("waves_per_simd", r.waves_per_simd);
  w.member("max_waves_per_simd", r.max_waves_per_simd);
  write_limits(w, q);
  w.end_object();
}

std::string result_text(const query& q, json_writer::style style) {
  std::string text;
  json_writer w(text, style);
  result_writer().write(w, q);
  return text;
}

std::string result_text(const amd_query& q, json_writer::style style) {
  std::string text;
  json_writer w(text, style);
  result_writer().write(w, q);
  return text;
}

std::string error_text(std::string_view field, std::string_view message, std::string_view id_json) {
  std::string text;
  json_writer w(text);
  w.begin_object();
  write_head(w, id_json, {});
  w.key("error");
  w.begin_object();
  w.key("field");
  if (field.empty())
    w.null();
  else
    w.value(field);
  w.member("message", message);
  w.end_object();
  w.end_object();
  return text;
}

}  // namespace occcalc::cli
