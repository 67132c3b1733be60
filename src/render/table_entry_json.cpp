#include "render/table_entry_json.hpp"

#include <cstddef>
#include <string_view>

namespace occcalc::cli {

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

void write_entry(json_writer& w, const occcalc::nvidia_arch& arch) {
  w.begin_object();
  w.member("id", arch.id);
  w.member("compute_capability", arch.compute_capability());
  w.member("family", arch.family);
  w.member("warp_size_threads", arch.warp_size_threads);
  w.member("max_threads_per_block", arch.max_threads_per_block);
  w.member("max_warps_per_sm", arch.max_warps_per_sm);
  w.member("max_threads_per_sm", arch.max_threads_per_sm());
  w.member("max_blocks_per_sm", arch.max_blocks_per_sm);
  w.member("registers_per_sm", arch.registers_per_sm);
  w.member("max_registers_per_block", arch.max_registers_per_block);
  w.member("max_registers_per_thread", arch.max_registers_per_thread);
  w.member("max_compiled_registers_per_thread", arch.max_compiled_registers_per_thread);
  w.member("register_allocation_scope", scope_name(arch.register_scope));
  w.member("register_allocation_unit_registers", arch.register_allocation_unit);
  if (arch.register_scope == occcalc::register_allocation_scope::block) {
    w.member("register_warp_allocation_multiple", arch.register_warp_allocation_multiple);
  } else {
    w.member("register_file_partitions", arch.register_file_partitions);
  }
  w.member("shared_memory_per_sm_bytes", arch.shared_memory_per_sm_bytes);
  w.member("shared_memory_per_block_bytes", arch.shared_memory_per_block_bytes);
  w.member("shared_memory_per_block_optin_bytes", arch.shared_memory_per_block_optin_bytes);
  w.member("shared_memory_reserved_per_block_bytes", arch.shared_memory_reserved_per_block_bytes);
  w.member("shared_memory_allocation_unit_bytes", arch.shared_memory_allocation_unit_bytes);
  w.member("shared_memory_config", config_name(arch.shared_memory_config_model));
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::carveout) {
    w.key("shared_memory_carveout_sizes_bytes");
    w.begin_array();
    for (const auto bytes : arch.carveout_sizes_bytes) w.value(bytes);
    w.end_array();
  }
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::cache_config) {
    w.key("shared_memory_per_sm_by_cache_config_bytes");
    w.begin_object();
    for (const auto cache : {occcalc::cache_preference::none, occcalc::cache_preference::shared,
                             occcalc::cache_preference::l1, occcalc::cache_preference::equal}) {
      w.member(occcalc::to_string(cache), arch.shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(cache)]);
    }
    w.end_object();
  }
  w.member("block_barriers_per_sm", arch.block_barriers_per_sm);
  w.member("max_barriers_per_block", arch.max_barriers_per_block);
  w.member("max_cluster_size_portable", arch.max_cluster_size_portable);
  w.member("max_cluster_size_nonportable", arch.max_cluster_size_nonportable);
  w.member("max_cluster_blocks_per_sm", arch.max_cluster_blocks_per_sm);
  w.member("sources", arch.sources);
  w.end_object();
}

void write_entry(json_writer& w, const occcalc::gpu& g) {
  w.begin_object();
  w.member("id", g.id);
  w.member("name", g.name);
  w.member("arch", g.arch_id);
  w.member("sm_count", g.sm_count);
  w.member("aliases", g.aliases);
  w.member("sources", g.sources);
  w.end_object();
}

void write_entry(json_writer& w, const occcalc::amd_target& t) {
  w.begin_object();
  w.member("id", t.id);
  w.member("family", t.family);
  w.member("members", t.members);
  w.key("models");
  w.begin_array();
  for (const auto m : t.models) w.value(occcalc::to_string(m));
  w.end_array();
  w.key("wave_sizes");
  w.begin_array();
  for (const auto& f : t.vgpr_files) w.value(f.wave_size);
  w.end_array();
  w.member("simds_per_cu", t.simds_per_cu);
  w.member("max_waves_per_simd", t.max_waves_per_simd);
  w.key("vgpr_files");
  w.begin_array();
  for (const auto& f : t.vgpr_files) {
    w.begin_object();
    w.member("wave_size", f.wave_size);
    w.member("total", f.total);
    w.member("granule", f.granule);
    w.end_object();
  }
  w.end_array();
  w.member("unified_vgpr_file", t.unified_vgpr_file);
  w.member("sgprs_per_simd", t.sgprs_per_simd);
  w.member("lds_per_cu_bytes", t.lds_per_cu_bytes);
  w.member("max_lds_per_work_group_bytes", t.max_lds_per_work_group_bytes);
  w.member("max_work_group_size", t.max_work_group_size);
  w.member("has_wgp_mode", t.has_wgp_mode);
  w.member("sources", t.sources);
  w.end_object();
}

void write_entry(json_writer& w, const occcalc::amd_gpu& g) {
  w.begin_object();
  w.member("id", g.id);
  w.member("name", g.name);
  w.member("target", g.target_id);
  w.member("compute_units", g.compute_units);
  w.member("aliases", g.aliases);
  w.member("sources", g.sources);
  w.end_object();
}

}  // namespace occcalc::cli
