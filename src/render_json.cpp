#include "render_json.hpp"

#include <cmath>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "occcalc/explain.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/version.hpp"
#include "render_amd.hpp"

namespace occcalc::cli {

namespace {

nlohmann::ordered_json optional_json(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string_view scope_name(occcalc::register_allocation_scope scope) {
  return scope == occcalc::register_allocation_scope::block ? "block" : "warp";
}

std::string_view config_name(occcalc::shared_memory_config config) {
  switch (config) {
    case occcalc::shared_memory_config::cache_config: return "cache_config";
    case occcalc::shared_memory_config::carveout: return "carveout";
    case occcalc::shared_memory_config::fixed: break;
  }
  return "fixed";
}

}  // namespace

double occupancy_percent(const occcalc::occupancy_result& result) {
  return occcalc::percent_hundredths(result.occupancy());
}

nlohmann::ordered_json arch_json(const occcalc::nvidia_arch& arch) {
  nlohmann::ordered_json j;
  j["id"] = arch.id;
  j["compute_capability"] = arch.compute_capability();
  j["family"] = arch.family;
  j["warp_size_threads"] = arch.warp_size_threads;
  j["max_threads_per_block"] = arch.max_threads_per_block;
  j["max_warps_per_sm"] = arch.max_warps_per_sm;
  j["max_threads_per_sm"] = arch.max_threads_per_sm();
  j["max_blocks_per_sm"] = arch.max_blocks_per_sm;
  j["registers_per_sm"] = arch.registers_per_sm;
  j["max_registers_per_block"] = arch.max_registers_per_block;
  j["max_registers_per_thread"] = arch.max_registers_per_thread;
  j["register_allocation_scope"] = scope_name(arch.register_scope);
  j["register_allocation_unit_registers"] = arch.register_allocation_unit;
  if (arch.register_scope == occcalc::register_allocation_scope::block) {
    j["register_warp_allocation_multiple"] = arch.register_warp_allocation_multiple;
  } else {
    j["register_file_partitions"] = arch.register_file_partitions;
  }
  j["shared_memory_per_sm_bytes"] = arch.shared_memory_per_sm_bytes;
  j["shared_memory_per_block_bytes"] = arch.shared_memory_per_block_bytes;
  j["shared_memory_per_block_optin_bytes"] = optional_json(arch.shared_memory_per_block_optin_bytes);
  j["shared_memory_reserved_per_block_bytes"] = arch.shared_memory_reserved_per_block_bytes;
  j["shared_memory_allocation_unit_bytes"] = arch.shared_memory_allocation_unit_bytes;
  j["shared_memory_config"] = config_name(arch.shared_memory_config_model);
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::carveout) {
    j["shared_memory_carveout_sizes_bytes"] = arch.carveout_sizes_bytes;
  }
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::cache_config) {
    auto& by_cache = j["shared_memory_per_sm_by_cache_config_bytes"];
    for (const auto cache : {occcalc::cache_preference::none, occcalc::cache_preference::shared,
                             occcalc::cache_preference::l1, occcalc::cache_preference::equal}) {
      by_cache[std::string(occcalc::to_string(cache))] =
          arch.shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(cache)];
    }
  }
  j["block_barriers_per_sm"] = optional_json(arch.block_barriers_per_sm);
  j["max_barriers_per_block"] = arch.max_barriers_per_block;
  j["sources"] = arch.sources;
  return j;
}

nlohmann::ordered_json gpu_json(const occcalc::gpu& g) {
  nlohmann::ordered_json j;
  j["id"] = g.id;
  j["name"] = g.name;
  j["arch"] = g.arch_id;
  j["sm_count"] = g.sm_count;
  j["aliases"] = g.aliases;
  j["sources"] = g.sources;
  return j;
}

void append_json_string(std::string& out, std::string_view text) { out += json_text(nlohmann::json(text)); }

std::string json_text(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string shown_value(const nlohmann::json& j) {
  const std::string text = json_text(j);
  return occcalc::detail::one_line(text, occcalc::detail::max_quoted_chars) +
         (text.size() > occcalc::detail::max_quoted_chars ? fmt::format(" ({} bytes)", text.size()) : "");
}

namespace {

void append_string(std::string& out, std::string_view text) { append_json_string(out, text); }

void append_double(std::string& out, double value) {
  // Shortest round-trip digits, always with a fraction or exponent so the
  // value stays a JSON float (as nlohmann writes it).
  std::string digits = fmt::format("{}", value);
  if (digits.find_first_of(".e") == std::string::npos) digits += ".0";
  out += digits;
}

void append_optional(std::string& out, const std::optional<std::int64_t>& value) {
  out += value ? std::to_string(*value) : "null";
}

/// Appends `,"key":` (without the comma for the first key of an object).
void key(std::string& out, std::string_view name) {
  if (out.back() != '{') out += ',';
  out += '"';
  out += name;
  out += "\":";
}

/// The grid's wave keys of a result, null without a grid.
void append_waves(std::string& out, const std::optional<occcalc::waves>& w) {
  key(out, "waves_per_sm");
  if (w) append_double(out, w->waves_per_sm);
  else out += "null";
  key(out, "full_waves");
  append_optional(out, w ? std::optional<std::int64_t>(w->full_waves) : std::nullopt);
  key(out, "tail_utilization");
  if (w) append_double(out, w->tail_utilization);
  else out += "null";
  key(out, "blocks_per_wave");
  append_optional(out, w ? std::optional<std::int64_t>(w->blocks_per_wave) : std::nullopt);
}

}  // namespace

template <typename Make>
const std::string& result_writer::serialized(const void* entry, const Make& make) {
  auto [it, inserted] = serialized_.try_emplace(entry);
  if (inserted) it->second = json_text(make());
  return it->second;
}

void result_writer::append(std::string& out, const query& q, std::string_view id_json) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  out += '{';
  key(out, "schema_version");
  out += std::to_string(occcalc::result_schema_version);
  if (!id_json.empty()) {
    key(out, "id");
    out += id_json;
  }
  key(out, "input");
  out += '{';
  key(out, "cc");
  append_string(out, arch.compute_capability());
  key(out, "gpu");
  if (q.request.named_gpu) append_string(out, q.request.named_gpu->name);
  else out += "null";
  key(out, "threads");
  out += std::to_string(launch.threads_per_block);
  key(out, "regs");
  out += std::to_string(launch.registers_per_thread);
  key(out, "smem");
  out += std::to_string(launch.static_shared_memory_bytes);
  key(out, "dyn_smem");
  out += std::to_string(launch.dynamic_shared_memory_bytes);
  key(out, "carveout");
  out += launch.carveout_percent ? std::to_string(*launch.carveout_percent) : "\"default\"";
  key(out, "cache");
  append_string(out, occcalc::to_string(launch.cache));
  key(out, "barriers");
  out += std::to_string(launch.barriers);
  key(out, "grid");
  append_optional(out, q.request.grid_blocks);
  key(out, "sm_count");
  append_optional(out, q.request.sm_count);
  out += '}';
  key(out, "arch");
  append_string(out, arch.id);
  key(out, "gpu");
  if (q.request.named_gpu) append_string(out, q.request.named_gpu->name);
  else out += "null";
  key(out, "architecture");
  out += serialized(&arch, [&] { return arch_json(arch); });
  key(out, "device");
  if (q.request.named_gpu) out += serialized(q.request.named_gpu, [&] { return gpu_json(*q.request.named_gpu); });
  else out += "null";
  key(out, "model");
  out += "\"nvidia\"";
  key(out, "unit");
  out += "\"sm\"";
  for (const auto& [name, value] :
       {std::pair<std::string_view, std::int64_t>{"blocks_per_sm", result.blocks_per_sm},
        {"warps_per_block", result.warps_per_block},
        {"active_warps_per_sm", result.active_warps_per_sm},
        {"active_threads_per_sm", result.active_threads_per_sm},
        {"max_warps_per_sm", result.max_warps_per_sm}}) {
    key(out, name);
    out += std::to_string(value);
  }
  key(out, "occupancy");
  append_double(out, result.occupancy());
  key(out, "occupancy_percent");
  append_double(out, occupancy_percent(result));

  append_waves(out, q.waves);
  key(out, "whole_wave_grids");
  if (q.waves) out += fmt::format("[{},{}]", q.waves->whole_waves_below, q.waves->whole_waves_above);
  else out += "null";

  key(out, "limits");
  out += '{';
  for (const auto r : occcalc::nvidia_resources) {
    key(out, occcalc::to_string(r));
    append_optional(out, result.limit(r).blocks);
  }
  out += '}';
  key(out, "limiters");
  out += '[';
  for (const auto r : occcalc::nvidia_resources) {
    if (!result.limiters.contains(r)) continue;
    if (out.back() != '[') out += ',';
    append_string(out, occcalc::to_string(r));
  }
  out += ']';
  key(out, "reasons");
  out += '{';
  for (const auto r : occcalc::nvidia_resources) {
    const auto reason = result.limit(r).reason;
    if (reason == occcalc::infeasibility::none) continue;
    key(out, occcalc::to_string(r));
    append_string(out, occcalc::explain(reason, arch, launch, result));
  }
  out += '}';

  key(out, "allocated");
  out += '{';
  key(out, "registers_per_warp");
  if (arch.register_scope == occcalc::register_allocation_scope::warp) out += std::to_string(result.registers.per_warp);
  else out += "null";
  key(out, "registers_per_block");
  out += std::to_string(result.registers.per_block);
  key(out, "shared_memory_per_block");
  out += std::to_string(result.shared_memory.per_block_bytes);
  key(out, "shared_memory_per_sm");
  append_optional(out, result.shared_memory.per_sm_bytes);
  out += "}}";
}

void result_writer::append(std::string& out, const amd_query& q, std::string_view id_json) {
  const auto& t = *q.request.target;
  const auto& k = q.request.kernel;
  const auto& r = q.result;
  out += '{';
  key(out, "schema_version");
  out += std::to_string(occcalc::result_schema_version);
  if (!id_json.empty()) {
    key(out, "id");
    out += id_json;
  }
  key(out, "input");
  out += '{';
  key(out, "gfx");
  append_string(out, t.id);
  key(out, "gpu");
  if (q.request.named_gpu) append_string(out, q.request.named_gpu->name);
  else out += "null";
  for (const auto& [name, value] : {std::pair<std::string_view, std::int64_t>{"threads", q.request.work_group_size},
                                    {"vgprs", k.vgprs},
                                    {"agprs", k.agprs},
                                    {"sgprs", k.sgprs},
                                    {"lds", k.lds_bytes},
                                    {"wave_size", r.wave_size}}) {
    key(out, name);
    out += std::to_string(value);
  }
  key(out, "mode");
  out += t.has_wgp_mode ? (r.per_wgp ? "\"wgp\"" : "\"cu\"") : "null";
  key(out, "model");
  append_string(out, occcalc::to_string(r.model));
  key(out, "grid");
  append_optional(out, q.request.grid_work_groups);
  key(out, "sm_count");
  append_optional(out, q.request.compute_units);
  out += '}';
  key(out, "arch");
  append_string(out, t.id);
  key(out, "gpu");
  if (q.request.named_gpu) append_string(out, q.request.named_gpu->name);
  else out += "null";
  key(out, "architecture");
  out += serialized(&t, [&] { return amd_target_json(t); });
  key(out, "device");
  if (q.request.named_gpu) out += serialized(q.request.named_gpu, [&] { return amd_gpu_json(*q.request.named_gpu); });
  else out += "null";
  key(out, "model");
  append_string(out, occcalc::to_string(r.model));
  key(out, "unit");
  out += r.per_wgp ? "\"wgp\"" : "\"cu\"";
  for (const auto& [name, value] :
       {std::pair<std::string_view, std::int64_t>{"blocks_per_sm", r.work_groups},
        {"warps_per_block", r.waves_per_work_group},
        {"active_warps_per_sm", r.active_waves},
        {"active_threads_per_sm", r.work_groups * q.request.work_group_size},
        {"max_warps_per_sm", r.max_waves}}) {
    key(out, name);
    out += std::to_string(value);
  }
  key(out, "occupancy");
  append_double(out, r.occupancy());
  key(out, "occupancy_percent");
  append_double(out, occcalc::percent_hundredths(r.occupancy()));
  key(out, "waves_per_simd");
  append_double(out, r.waves_per_simd);
  key(out, "max_waves_per_simd");
  out += std::to_string(r.max_waves_per_simd);
  key(out, "simds");
  out += std::to_string(r.simds);
  append_waves(out, q.waves);
  const auto limits = [&](const auto& values) {
    out += '{';
    for (const auto res : occcalc::amd_resources) {
      key(out, occcalc::to_string(res));
      append_optional(out, values[static_cast<std::size_t>(res)]);
    }
    out += '}';
  };
  key(out, "limits");
  limits(r.limits);
  key(out, "limits_waves_per_simd");
  if (r.model == occcalc::amd_model::llvm) limits(r.limits_waves_per_simd);
  else out += "null";
  key(out, "limiters");
  out += '[';
  for (const auto res : occcalc::amd_resources) {
    if (!r.limiters.contains(res)) continue;
    if (out.back() != '[') out += ',';
    append_string(out, occcalc::to_string(res));
  }
  out += ']';
  key(out, "reasons");
  out += '{';
  for (const auto res : occcalc::amd_resources) {
    if (r.limit(res) != 0) continue;
    key(out, occcalc::to_string(res));
    append_string(out, amd_limit_reason(q, res));
  }
  out += "}}";
}

nlohmann::ordered_json result_json(const query& q) {
  std::string text;
  result_writer().append(text, q);
  return nlohmann::ordered_json::parse(text);
}

nlohmann::ordered_json error_json(const std::string& field, const std::string& message, std::string_view id_json) {
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::result_schema_version;
  if (!id_json.empty()) j["id"] = nlohmann::ordered_json::parse(id_json);
  j["error"]["field"] = field.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(field);
  j["error"]["message"] = message;
  return j;
}

}  // namespace occcalc::cli
