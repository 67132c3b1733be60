/// \file tables/nvidia_entries.hpp
/// Reads NVIDIA architecture and GPU entries of a table file.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/tables/entry_reader.hpp"

namespace occcalc {

namespace detail {

/// Bounds on the cluster figures a table may give: far above any GPU's
/// (CUDA launches clusters of at most 16 blocks; GB202 has 12 GPCs of 8
/// TPCs of 2 SMs), and low enough that every cluster answer, sweep and
/// search over layouts finishes well within a second.
inline constexpr std::int64_t max_table_cluster_size = 64;
inline constexpr std::int64_t max_table_gpcs = 64;
inline constexpr std::int64_t max_table_gpc_counts = 8;
inline constexpr std::int64_t max_table_tpcs_per_gpc = 64;
inline constexpr std::int64_t max_table_sms_per_tpc = 8;
inline constexpr std::int64_t max_table_cluster_domains = 4096;
inline constexpr int_range cluster_sizes{1, max_table_cluster_size};

inline void read_register_fields(entry_reader& reader, nvidia_arch& arch) {
  arch.registers_per_sm = reader.integer("registers_per_sm", positive);
  arch.max_registers_per_block = reader.integer("max_registers_per_block", positive);
  arch.max_registers_per_thread = reader.integer("max_registers_per_thread", positive);
  arch.max_compiled_registers_per_thread =
      reader.optional_integer("max_compiled_registers_per_thread", {1, arch.max_registers_per_thread})
          .value_or(arch.max_registers_per_thread);
  arch.register_scope =
      read_enum(reader, "register_allocation_scope",
                std::array<std::pair<std::string_view, register_allocation_scope>, 2>{
                    {{"warp", register_allocation_scope::warp}, {"block", register_allocation_scope::block}}});
  arch.register_allocation_unit = reader.integer("register_allocation_unit_registers", positive);
  const bool warp_scope = arch.register_scope == register_allocation_scope::warp;
  const auto forbid = [&](std::string_view key, std::string_view scope) {
    if (reader.has(key)) reader.fail(key, "does not apply to register_allocation_scope " + std::string(scope));
  };
  if (warp_scope) {
    forbid("register_warp_allocation_multiple", "warp");
    arch.register_file_partitions = reader.integer("register_file_partitions", positive);
    arch.register_compat_partitions = reader.optional_integer("register_compat_partitions", positive);
    if (reader.has("register_allocation_unit_overrides")) {
      const auto& overrides = reader.array("register_allocation_unit_overrides");
      if (overrides.size() > max_register_overrides) {
        reader.fail("register_allocation_unit_overrides", "holds " + std::to_string(overrides.size()) +
                                                              " overrides; at most " +
                                                              std::to_string(max_register_overrides) + " are allowed");
      }
      for (std::size_t i = 0; i < overrides.size(); ++i) {
        entry_reader item(overrides[i],
                          reader.where() + ": register_allocation_unit_overrides[" + std::to_string(i) + "]");
        register_unit_override o;
        o.registers_per_thread =
            item.fixed_integers<max_register_override_counts>("registers_per_thread", non_negative);
        o.unit_registers = item.integer("unit_registers", positive);
        item.finish();
        arch.register_unit_overrides.push_back(o);
      }
    }
  } else {
    for (const auto key :
         {"register_file_partitions", "register_compat_partitions", "register_allocation_unit_overrides"}) {
      forbid(key, "block");
    }
    arch.register_warp_allocation_multiple = reader.integer("register_warp_allocation_multiple", positive);
  }
}

inline void read_shared_memory_fields(entry_reader& reader, nvidia_arch& arch) {
  arch.shared_memory_per_sm_bytes = reader.integer("shared_memory_per_sm_bytes", positive);
  arch.shared_memory_per_block_bytes = reader.integer("shared_memory_per_block_bytes", positive);
  arch.shared_memory_per_block_optin_bytes = reader.optional_integer("shared_memory_per_block_optin_bytes", positive);
  arch.shared_memory_reserved_per_block_bytes = reader.integer("shared_memory_reserved_per_block_bytes", non_negative);
  arch.binary_shared_section_includes_reserved = reader.optional_boolean("binary_shared_section_includes_reserved");
  arch.shared_memory_allocation_unit_bytes = reader.integer("shared_memory_allocation_unit_bytes", positive);
  arch.shared_memory_config_model = read_enum(reader, "shared_memory_config",
                                              std::array<std::pair<std::string_view, shared_memory_config>, 3>{
                                                  {{"fixed", shared_memory_config::fixed},
                                                   {"cache_config", shared_memory_config::cache_config},
                                                   {"carveout", shared_memory_config::carveout}}});
  const auto model = arch.shared_memory_config_model;
  const auto sm_bytes = arch.shared_memory_per_sm_bytes;
  const std::string_view carveouts_key = "shared_memory_carveout_sizes_bytes";
  const std::string_view cache_key = "shared_memory_per_sm_by_cache_config_bytes";
  if (model == shared_memory_config::carveout) {
    arch.carveout_sizes_bytes = reader.fixed_integers<max_carveout_sizes>(carveouts_key, non_negative);
    const auto& sizes = arch.carveout_sizes_bytes;
    if (std::adjacent_find(sizes.begin(), sizes.end(), std::greater_equal<>()) != sizes.end()) {
      reader.fail(carveouts_key, "must be strictly ascending");
    }
    if (sizes.back() < sm_bytes) {
      reader.fail(carveouts_key, "the largest carveout is below shared_memory_per_sm_bytes");
    }
  } else if (reader.has(carveouts_key)) {
    reader.fail(carveouts_key, "applies only to shared_memory_config carveout");
  }
  if (model == shared_memory_config::cache_config) {
    entry_reader cache(reader.object(cache_key), reader.where() + ": " + std::string(cache_key));
    for (const auto preference :
         {cache_preference::none, cache_preference::shared, cache_preference::l1, cache_preference::equal}) {
      arch.shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(preference)] =
          cache.integer(to_string(preference), {0, sm_bytes});
    }
    cache.finish();
  } else if (reader.has(cache_key)) {
    reader.fail(cache_key, "applies only to shared_memory_config cache_config");
  }
  const auto reserved = arch.shared_memory_reserved_per_block_bytes;
  if (arch.shared_memory_per_block_bytes + reserved > sm_bytes) {
    reader.fail("shared_memory_per_block_bytes", "plus the reserved bytes exceeds shared_memory_per_sm_bytes");
  }
  if (const auto optin = arch.shared_memory_per_block_optin_bytes) {
    if (*optin < arch.shared_memory_per_block_bytes || *optin + reserved > sm_bytes) {
      reader.fail("shared_memory_per_block_optin_bytes",
                  std::to_string(*optin) +
                      " must lie between shared_memory_per_block_bytes and shared_memory_per_sm_bytes "
                      "less the reserved bytes");
    }
  }
}

/// An entry's `id` and `compute_capability`, which must agree (`sm_90`,
/// `9.0`).
template <typename Entry>
void read_arch_identity(entry_reader& reader, Entry& entry) {
  entry.id = reader.text("id");
  const std::string cc = reader.text("compute_capability");
  const compute_capability parsed = [&] {
    try {
      return parse_compute_capability("compute_capability", cc);
    } catch (const input_error& e) {
      reader.fail("compute_capability", e.what());
    }
  }();
  entry.cc_major = parsed.major;
  entry.cc_minor = parsed.minor;
  const std::string expected_id = "sm_" + std::to_string(parsed.major) + std::to_string(parsed.minor);
  if (entry.id != expected_id || cc != std::to_string(parsed.major) + "." + std::to_string(parsed.minor)) {
    reader.fail("id", "'" + entry.id + "' does not match compute_capability '" + cc + "' (expected '" + expected_id +
                          "' and 'MAJOR.MINOR')");
  }
}

inline unlisted_arch read_unlisted_arch(entry_reader& reader) {
  unlisted_arch u;
  read_arch_identity(reader, u);
  u.reason = reader.text("reason");
  u.sources = reader.texts("sources");
  reader.finish();
  return u;
}

inline nvidia_arch read_arch(entry_reader& reader) {
  nvidia_arch arch;
  read_arch_identity(reader, arch);
  arch.family = reader.text("family");
  arch.sources = reader.texts("sources");
  arch.notes = reader.optional_text("notes");
  arch.warp_size_threads = reader.integer("warp_size_threads", {1, max_table_warp_size});
  arch.max_threads_per_block = reader.integer("max_threads_per_block", positive);
  arch.max_warps_per_sm = reader.integer("max_warps_per_sm", positive);
  arch.max_blocks_per_sm = reader.integer("max_blocks_per_sm", positive);
  if (arch.max_threads_per_block > arch.max_threads_per_sm()) {
    reader.fail("max_threads_per_block", "exceeds max_warps_per_sm x warp_size_threads");
  }
  read_register_fields(reader, arch);
  read_shared_memory_fields(reader, arch);
  arch.block_barriers_per_sm = reader.optional_integer("block_barriers_per_sm", positive);
  arch.max_barriers_per_block = reader.integer("max_barriers_per_block", positive);
  arch.max_cluster_size_portable = reader.optional_integer("max_cluster_size_portable", cluster_sizes);
  arch.max_cluster_size_nonportable = reader.optional_integer("max_cluster_size_nonportable", cluster_sizes);
  arch.max_cluster_blocks_per_sm = reader.optional_integer("max_cluster_blocks_per_sm", {1, arch.max_blocks_per_sm});
  if (!arch.max_cluster_size_portable) {
    for (const auto key : {"max_cluster_size_nonportable", "max_cluster_blocks_per_sm"}) {
      if (reader.has(key)) reader.fail(key, "needs max_cluster_size_portable (an architecture with clusters)");
    }
  } else if (arch.max_cluster_size_nonportable &&
             *arch.max_cluster_size_nonportable < *arch.max_cluster_size_portable) {
    reader.fail("max_cluster_size_nonportable", "is below max_cluster_size_portable");
  }
  reader.finish();
  return arch;
}

inline gpu read_gpu(entry_reader& reader) {
  gpu g;
  g.id = reader.text("id");
  g.name = reader.text("name");
  g.arch_id = reader.text("arch");
  g.sm_count = reader.integer("sm_count", positive);
  if (reader.has("aliases")) g.aliases = reader.texts("aliases");
  g.sources = reader.texts("sources");
  reader.finish();
  return g;
}

/// A cluster layout: measured `domain_sms`, or the published `gpc_counts`
/// with `max_tpcs_per_gpc` and `sms_per_tpc`, never both.
inline cluster_layout read_cluster_layout(entry_reader& reader) {
  cluster_layout layout;
  layout.id = reader.text("id");
  layout.gpu_ids = reader.texts("gpus");
  if (layout.gpu_ids.empty()) reader.fail("gpus", "must name at least one GPU");
  const bool measured = reader.has("domain_sms");
  if (measured) {
    layout.domain_sms = reader.integers("domain_sms", positive);
    if (layout.domain_sms.size() > static_cast<std::size_t>(max_table_cluster_domains)) {
      reader.fail("domain_sms", "holds " + std::to_string(layout.domain_sms.size()) + " domains; at most " +
                                    std::to_string(max_table_cluster_domains) + " are allowed");
    }
    for (const auto key : {"gpc_counts", "max_tpcs_per_gpc", "sms_per_tpc"}) {
      if (reader.has(key)) reader.fail(key, "does not apply to a measured layout (domain_sms)");
    }
  } else {
    layout.gpc_counts = reader.integers("gpc_counts", {1, max_table_gpcs});
    if (layout.gpc_counts.empty()) reader.fail("gpc_counts", "must hold at least one count");
    if (layout.gpc_counts.size() > static_cast<std::size_t>(max_table_gpc_counts)) {
      reader.fail("gpc_counts", "holds " + std::to_string(layout.gpc_counts.size()) + " counts; at most " +
                                    std::to_string(max_table_gpc_counts) + " are allowed");
    }
    layout.max_tpcs_per_gpc = reader.integer("max_tpcs_per_gpc", {1, max_table_tpcs_per_gpc});
    layout.sms_per_tpc = reader.integer("sms_per_tpc", {1, max_table_sms_per_tpc});
  }
  layout.sources = reader.texts("sources");
  reader.finish();
  return layout;
}

/// Why `layout` cannot describe a GPU of `sm_count` SMs; empty when it can.
inline std::string cluster_layout_mismatch(const cluster_layout& layout, std::int64_t sm_count) {
  if (layout.measured()) {
    std::int64_t sms = 0;
    for (const auto d : layout.domain_sms) sms += d;
    return sms == sm_count
               ? std::string()
               : "its domain_sms add up to " + std::to_string(sms) + " SMs, not " + std::to_string(sm_count);
  }
  if (sm_count % layout.sms_per_tpc != 0) {
    return std::to_string(sm_count) + " SMs are not whole TPCs of " + std::to_string(layout.sms_per_tpc);
  }
  const std::int64_t tpcs = sm_count / layout.sms_per_tpc;
  for (const auto gpcs : layout.gpc_counts) {
    if (gpcs > tpcs || gpcs * layout.max_tpcs_per_gpc < tpcs) {
      return std::to_string(tpcs) + " TPCs do not fit " + std::to_string(gpcs) + " GPCs of 1 to " +
             std::to_string(layout.max_tpcs_per_gpc) + " TPCs";
    }
  }
  return {};
}

}  // namespace detail

}  // namespace occcalc
