// The table entries a pretty result holds (`architecture`, `device`) and
// `occcalc list --json` lists: every limit the calculator uses, named as in
// data/*.json.
#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "render/result_json.hpp"

namespace occcalc::cli {

nlohmann::ordered_json optional_json(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

namespace {

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
  j["max_compiled_registers_per_thread"] = arch.max_compiled_registers_per_thread;
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
  j["max_cluster_size_portable"] = optional_json(arch.max_cluster_size_portable);
  j["max_cluster_size_nonportable"] = optional_json(arch.max_cluster_size_nonportable);
  j["max_cluster_blocks_per_sm"] = optional_json(arch.max_cluster_blocks_per_sm);
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

}  // namespace occcalc::cli
