#include "render_json.hpp"

#include <cmath>

#include "occcalc/explain.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/version.hpp"

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
  constexpr double hundredths = 100.0 * 100.0;
  return std::round(result.occupancy() * hundredths) / 100.0;
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
  j["sources"] = g.sources;
  return j;
}

nlohmann::ordered_json result_json(const query& q) {
  const auto& arch = *q.request.arch;
  const auto& launch = q.request.launch;
  const auto& result = q.result;
  nlohmann::ordered_json j;
  j["schema_version"] = occcalc::result_schema_version;

  auto& input = j["input"];
  input["cc"] = arch.compute_capability();
  input["gpu"] = q.request.named_gpu ? nlohmann::ordered_json(q.request.named_gpu->name) : nullptr;
  input["threads"] = launch.threads_per_block;
  input["regs"] = launch.registers_per_thread;
  input["smem"] = launch.static_shared_memory_bytes;
  input["dyn_smem"] = launch.dynamic_shared_memory_bytes;
  input["carveout"] = launch.carveout_percent ? nlohmann::ordered_json(*launch.carveout_percent)
                                              : nlohmann::ordered_json("default");
  input["cache"] = occcalc::to_string(launch.cache);
  input["barriers"] = launch.barriers;

  j["arch"] = arch_json(arch);
  j["gpu"] = q.request.named_gpu ? gpu_json(*q.request.named_gpu) : nlohmann::ordered_json(nullptr);
  j["model"] = "nvidia";
  j["unit"] = "sm";
  j["blocks_per_sm"] = result.blocks_per_sm;
  j["warps_per_block"] = result.warps_per_block;
  j["active_warps_per_sm"] = result.active_warps_per_sm;
  j["active_threads_per_sm"] = result.active_threads_per_sm;
  j["max_warps_per_sm"] = result.max_warps_per_sm;
  j["occupancy"] = result.occupancy();
  j["occupancy_percent"] = occupancy_percent(result);

  auto& limits = j["limits"];
  auto limiters = nlohmann::ordered_json::array();
  auto reasons = nlohmann::ordered_json::object();
  for (const auto r : occcalc::nvidia_resources) {
    const auto& limit = result.limit(r);
    const std::string name(occcalc::to_string(r));
    limits[name] = optional_json(limit.blocks);
    if (result.limiters.contains(r)) limiters.push_back(name);
    if (limit.reason != occcalc::infeasibility::none) {
      reasons[name] = occcalc::explain(limit.reason, arch, launch, result);
    }
  }
  j["limiters"] = limiters;
  j["reasons"] = reasons;

  auto& allocated = j["allocated"];
  allocated["registers_per_warp"] = arch.register_scope == occcalc::register_allocation_scope::warp
                                        ? nlohmann::ordered_json(result.registers.per_warp)
                                        : nlohmann::ordered_json(nullptr);
  allocated["registers_per_block"] = result.registers.per_block;
  allocated["shared_memory_per_block"] = result.shared_memory.per_block_bytes;
  allocated["shared_memory_per_sm"] = optional_json(result.shared_memory.per_sm_bytes);
  return j;
}

nlohmann::ordered_json error_json(const std::string& field, const std::string& message) {
  nlohmann::ordered_json j;
  j["error"]["field"] = field.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(field);
  j["error"]["message"] = message;
  return j;
}

}  // namespace occcalc::cli
