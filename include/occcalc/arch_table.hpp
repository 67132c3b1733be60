/// \file arch_table.hpp
/// Loads the JSON tables of `data/` into a `table`. The only header that
/// includes nlohmann/json.
///
/// A table file is one object: `schema_version` (1), and any of `sources`,
/// `architectures` and `gpus`, each an array of entries with an explicit
/// `id`. The loader rejects malformed JSON, duplicate keys, unknown or
/// missing fields, values out of range, duplicate ids, inconsistent limits and
/// dangling references, naming the file, the entry and the field.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "occcalc/arch.hpp"
#include "occcalc/tables/tables.hpp"
#include "occcalc/error.hpp"
#include "occcalc/gpu_names.hpp"
#include "occcalc/json_input.hpp"
#include "occcalc/parse.hpp"

namespace occcalc {

/// The table format version this loader reads.
inline constexpr std::int64_t table_schema_version = 1;

namespace detail {

/// Largest value of any count or size in a table.
inline constexpr std::int64_t max_table_value = std::numeric_limits<std::int32_t>::max();
/// Largest warp size a table may give: keeps every product of request values
/// and table values inside 64 bits.
inline constexpr std::int64_t max_table_warp_size = 1024;

/// Reads the fields of one JSON object, checking types and ranges, and
/// rejects the fields it was never asked for.
class entry_reader {
 public:
  entry_reader(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail_entry("is not an object");
  }

  [[noreturn]] void fail(std::string_view key, const std::string& problem) const {
    throw table_error(where_ + ": field '" + std::string(key) + "': " + problem);
  }
  [[noreturn]] void fail_entry(const std::string& problem) const { throw table_error(where_ + ": " + problem); }

  bool has(std::string_view key) const { return object_.find(key) != object_.end(); }

  std::int64_t integer(std::string_view key, int_range range) {
    const auto& value = require(key);
    if (!value.is_number_integer()) fail(key, value.dump() + " is not an integer");
    const std::int64_t n = value.is_number_unsigned() && value.get<std::uint64_t>() > max_table_value
                               ? max_table_value + 1
                               : value.get<std::int64_t>();
    if (n < range.min || n > range.max) fail(key, value.dump() + " is outside " + range_text(range));
    return n;
  }

  std::optional<std::int64_t> optional_integer(std::string_view key, int_range range) {
    if (!has(key)) return std::nullopt;
    return integer(key, range);
  }

  std::optional<double> optional_number(std::string_view key, double min, double max) {
    if (!has(key)) return std::nullopt;
    const auto& value = require(key);
    if (!value.is_number()) fail(key, value.dump() + " is not a number");
    const double n = value.get<double>();
    if (!(n >= min && n <= max)) {
      fail(key, value.dump() + " is outside [" + nlohmann::json(min).dump() + ", " + nlohmann::json(max).dump() + "]");
    }
    return n;
  }

  bool optional_boolean(std::string_view key) {
    if (!has(key)) return false;
    const auto& value = require(key);
    if (!value.is_boolean()) fail(key, value.dump() + " is not true or false");
    return value.get<bool>();
  }

  std::string text(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail(key, value.dump() + " is not a non-empty string");
    }
    return value.get<std::string>();
  }

  std::string optional_text(std::string_view key) { return has(key) ? text(key) : std::string(); }

  std::vector<std::string> texts(std::string_view key) {
    const auto& value = array(key);
    std::vector<std::string> out;
    for (const auto& item : value) {
      if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
        fail(key, item.dump() + " is not a non-empty string");
      }
      out.push_back(item.get<std::string>());
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  std::vector<std::int64_t> integers(std::string_view key, int_range range) {
    std::vector<std::int64_t> out;
    for (const auto& item : array(key)) {
      if (!item.is_number_integer() || item.get<std::int64_t>() < range.min ||
          item.get<std::int64_t>() > range.max) {
        fail(key, item.dump() + " is not an integer in " + range_text(range));
      }
      out.push_back(item.get<std::int64_t>());
    }
    if (out.empty()) fail(key, "must not be empty");
    return out;
  }

  const nlohmann::json& array(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_array()) fail(key, "is not an array");
    return value;
  }

  const nlohmann::json& object(std::string_view key) {
    const auto& value = require(key);
    if (!value.is_object()) fail(key, "is not an object");
    return value;
  }

  /// Fails if the object has a field that was never read.
  void finish() const {
    if (read_.size() == object_.size()) return;  // every field was read once
    for (const auto& item : object_.items()) {
      if (std::find(read_.begin(), read_.end(), item.key()) == read_.end()) fail(item.key(), "is not a known field");
    }
  }

  const std::string& where() const { return where_; }

 private:
  const nlohmann::json& require(std::string_view key) {
    const auto it = object_.find(key);
    if (it == object_.end()) fail(key, "is missing");
    if (std::find(read_.begin(), read_.end(), key) == read_.end()) read_.push_back(key);
    return *it;
  }

  const nlohmann::json& object_;
  std::string where_;
  /// Fields read so far (the keys are the callers' literals).
  std::vector<std::string_view> read_;
};

inline constexpr int_range positive{1, max_table_value};
inline constexpr int_range non_negative{0, max_table_value};

template <typename Enum, std::size_t N>
Enum read_enum(entry_reader& reader, std::string_view key,
               const std::array<std::pair<std::string_view, Enum>, N>& names) {
  const std::string value = reader.text(key);
  for (const auto& [name, e] : names) {
    if (name == value) return e;
  }
  std::string allowed;
  for (const auto& entry : names) allowed += (allowed.empty() ? "" : ", ") + std::string(entry.first);
  reader.fail(key, "'" + value + "' is not one of " + allowed);
}

inline source read_source(entry_reader& reader) {
  source s;
  s.id = reader.text("id");
  s.title = reader.text("title");
  s.url = reader.text("url");
  reader.finish();
  return s;
}

inline void read_register_fields(entry_reader& reader, nvidia_arch& arch) {
  arch.registers_per_sm = reader.integer("registers_per_sm", positive);
  arch.max_registers_per_block = reader.integer("max_registers_per_block", positive);
  arch.max_registers_per_thread = reader.integer("max_registers_per_thread", positive);
  arch.register_scope = read_enum(reader, "register_allocation_scope",
                                  std::array<std::pair<std::string_view, register_allocation_scope>, 2>{
                                      {{"warp", register_allocation_scope::warp},
                                       {"block", register_allocation_scope::block}}});
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
      for (std::size_t i = 0; i < overrides.size(); ++i) {
        entry_reader item(overrides[i], reader.where() + ": register_allocation_unit_overrides[" +
                                            std::to_string(i) + "]");
        register_unit_override o;
        o.registers_per_thread = item.integers("registers_per_thread", non_negative);
        o.unit_registers = item.integer("unit_registers", positive);
        item.finish();
        arch.register_unit_overrides.push_back(std::move(o));
      }
    }
  } else {
    for (const auto key : {"register_file_partitions", "register_compat_partitions",
                           "register_allocation_unit_overrides"}) {
      forbid(key, "block");
    }
    arch.register_warp_allocation_multiple = reader.integer("register_warp_allocation_multiple", positive);
  }
}

inline void read_shared_memory_fields(entry_reader& reader, nvidia_arch& arch) {
  arch.shared_memory_per_sm_bytes = reader.integer("shared_memory_per_sm_bytes", positive);
  arch.shared_memory_per_block_bytes = reader.integer("shared_memory_per_block_bytes", positive);
  arch.shared_memory_per_block_optin_bytes =
      reader.optional_integer("shared_memory_per_block_optin_bytes", positive);
  arch.shared_memory_reserved_per_block_bytes =
      reader.integer("shared_memory_reserved_per_block_bytes", non_negative);
  arch.binary_shared_section_includes_reserved = reader.optional_boolean("binary_shared_section_includes_reserved");
  arch.shared_memory_allocation_unit_bytes = reader.integer("shared_memory_allocation_unit_bytes", positive);
  arch.shared_memory_config_model =
      read_enum(reader, "shared_memory_config",
                std::array<std::pair<std::string_view, shared_memory_config>, 3>{
                    {{"fixed", shared_memory_config::fixed},
                     {"cache_config", shared_memory_config::cache_config},
                     {"carveout", shared_memory_config::carveout}}});
  const auto model = arch.shared_memory_config_model;
  const auto sm_bytes = arch.shared_memory_per_sm_bytes;
  const std::string_view carveouts_key = "shared_memory_carveout_sizes_bytes";
  const std::string_view cache_key = "shared_memory_per_sm_by_cache_config_bytes";
  if (model == shared_memory_config::carveout) {
    arch.carveout_sizes_bytes = reader.integers(carveouts_key, non_negative);
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
    for (const auto preference : {cache_preference::none, cache_preference::shared, cache_preference::l1,
                                  cache_preference::equal}) {
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

inline nvidia_arch read_arch(entry_reader& reader) {
  nvidia_arch arch;
  arch.id = reader.text("id");
  const std::string cc = reader.text("compute_capability");
  const compute_capability parsed = [&] {
    try {
      return parse_compute_capability("compute_capability", cc);
    } catch (const input_error& e) {
      reader.fail("compute_capability", e.what());
    }
  }();
  arch.cc_major = parsed.major;
  arch.cc_minor = parsed.minor;
  const std::string expected_id = "sm_" + std::to_string(parsed.major) + std::to_string(parsed.minor);
  if (arch.id != expected_id || cc != arch.compute_capability()) {
    reader.fail("id", "'" + arch.id + "' does not match compute_capability '" + cc + "' (expected '" +
                          expected_id + "' and 'MAJOR.MINOR')");
  }
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

inline amd_model read_amd_model(entry_reader& reader, std::string_view key, const std::string& name) {
  if (const auto m = find_amd_model(name)) return *m;
  reader.fail(key, occcalc::detail::quoted(name) + " is not a model: " + amd_model_choices());
}

inline amd_hip_params read_amd_hip(entry_reader& reader) {
  amd_hip_params p;
  p.max_waves_per_simd = reader.integer("max_waves_per_simd", positive);
  p.sgpr_granule = reader.integer("sgpr_granule", positive);
  reader.finish();
  return p;
}

inline amd_rcp_params read_amd_rcp(entry_reader& reader) {
  amd_rcp_params p;
  p.max_waves_per_simd = reader.integer("max_waves_per_simd", positive);
  p.simds_per_cu = reader.integer("simds_per_cu", positive);
  p.vgprs_available = reader.integer("vgprs_available", positive);
  p.vgpr_granule = reader.integer("vgpr_granule", positive);
  p.sgprs_per_simd = reader.optional_integer("sgprs_per_simd", positive);
  if (p.sgprs_per_simd) {
    p.sgpr_granule = reader.integer("sgpr_granule", positive);
    p.sgprs_added = reader.integer("sgprs_added", non_negative);
  }
  p.max_work_groups_per_cu = reader.integer("max_work_groups_per_cu", positive);
  p.max_single_wave_work_groups_per_cu = reader.integer("max_single_wave_work_groups_per_cu", positive);
  p.lds_per_cu_bytes = reader.integer("lds_per_cu_bytes", positive);
  p.max_work_group_size = reader.integer("max_work_group_size", positive);
  reader.finish();
  return p;
}

inline amd_target read_amd_target(entry_reader& reader) {
  amd_target t;
  t.id = reader.text("id");
  const bool gfx_name = t.id.size() > 3 && t.id.rfind("gfx", 0) == 0 &&
                        std::all_of(t.id.begin() + 3, t.id.end(), [](char c) {
                          return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
                        });
  const bool r600_name = !t.id.empty() && std::all_of(t.id.begin(), t.id.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!gfx_name && !r600_name) {
    reader.fail("id", "'" + t.id + "' is not an LLVM processor name (gfxNNN, or an R600 name such as cypress)");
  }
  t.family = reader.text("family");
  t.sources = reader.texts("sources");
  t.notes = reader.optional_text("notes");
  t.max_waves_per_simd = reader.integer("max_waves_per_simd", positive);
  t.simds_per_cu = reader.integer("simds_per_cu", positive);
  const auto& files = reader.array("vgpr_files");
  for (std::size_t i = 0; i < files.size(); ++i) {
    entry_reader file(files[i], reader.where() + ": vgpr_files[" + std::to_string(i) + "]");
    amd_vgpr_file f;
    f.wave_size = file.integer("wave_size", {32, 64});
    if (f.wave_size != 32 && f.wave_size != 64) file.fail("wave_size", std::to_string(f.wave_size) + " is not 32 or 64");
    f.total = file.integer("total", positive);
    f.granule = file.integer("granule", positive);
    file.finish();
    t.vgpr_files.push_back(f);
  }
  if (t.vgpr_files.empty()) reader.fail("vgpr_files", "must not be empty");
  t.unified_vgpr_file = reader.optional_boolean("unified_vgpr_file");
  t.sgprs_per_simd = reader.optional_integer("sgprs_per_simd", positive);
  if (t.sgprs_per_simd) t.sgpr_granule = reader.integer("sgpr_granule", positive);
  else if (reader.has("sgpr_granule")) reader.fail("sgpr_granule", "applies only with sgprs_per_simd");
  t.lds_per_cu_bytes = reader.integer("lds_per_cu_bytes", positive);
  t.max_barriers_per_cu = reader.integer("max_barriers_per_cu", positive);
  t.has_wgp_mode = reader.optional_boolean("has_wgp_mode");
  for (const auto& name : reader.texts("models")) {
    const amd_model m = read_amd_model(reader, "models", name);
    if (t.supports(m)) reader.fail("models", "names '" + name + "' twice");
    t.models.push_back(m);
  }
  if (t.models.empty()) reader.fail("models", "must name at least one model");
  t.max_work_group_size = reader.integer("max_work_group_size", positive);
  t.max_lds_per_work_group_bytes = reader.integer("max_lds_per_work_group_bytes", {1, t.lds_per_cu_bytes});
  t.max_vgprs_per_wave = reader.integer("max_vgprs_per_wave", positive);
  t.max_agprs_per_wave = reader.optional_integer("max_agprs_per_wave", positive).value_or(0);
  t.max_sgprs_per_wave = reader.optional_integer("max_sgprs_per_wave", positive).value_or(0);
  if (reader.has("hip")) {
    entry_reader hip(reader.object("hip"), reader.where() + ": hip");
    t.hip = read_amd_hip(hip);
  }
  if (reader.has("rcp")) {
    entry_reader rcp(reader.object("rcp"), reader.where() + ": rcp");
    t.rcp = read_amd_rcp(rcp);
  }
  if (t.supports(amd_model::hip) != t.hip.has_value()) reader.fail("hip", "is required exactly when models name hip");
  if (t.supports(amd_model::rcp) != t.rcp.has_value()) reader.fail("rcp", "is required exactly when models name rcp");
  for (const auto& f : t.vgpr_files) {
    if (f.total < t.max_vgprs_per_wave && !t.unified_vgpr_file) {
      reader.fail("max_vgprs_per_wave", "exceeds the wave" + std::to_string(f.wave_size) + " VGPR file");
    }
  }
  reader.finish();
  return t;
}

inline amd_gpu read_amd_gpu(entry_reader& reader) {
  amd_gpu g;
  g.id = reader.text("id");
  g.name = reader.text("name");
  g.target_id = reader.text("target");
  g.compute_units = reader.integer("compute_units", positive);
  g.max_waves_per_simd = reader.optional_integer("max_waves_per_simd", positive);
  if (reader.has("aliases")) g.aliases = reader.texts("aliases");
  g.sources = reader.texts("sources");
  reader.finish();
  return g;
}

/// Parses a table or policy file strictly (`parse_json_strictly`), naming
/// the file in the error.
inline nlohmann::json parse_strict(const table_text& text) {
  try {
    return parse_json_strictly(text.json);
  } catch (const table_error&) {
    throw;
  } catch (const error& e) {
    throw table_error(text.origin + ": " + e.what());
  }
}

/// Reads each entry of the array `key` with `read`, naming the entry by index
/// and id in errors.
template <typename Entry, typename Read>
std::vector<Entry> read_entries(entry_reader& top, const std::string& origin, std::string_view key,
                                Read read) {
  std::vector<Entry> out;
  if (!top.has(key)) return out;
  const auto& items = top.array(key);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string where = origin + ": " + std::string(key) + "[" + std::to_string(i) + "]";
    if (items[i].is_object() && items[i].contains("id") && items[i]["id"].is_string()) {
      where += " (" + items[i]["id"].get<std::string>() + ")";
    }
    entry_reader reader(items[i], where);
    out.push_back(read(reader));
  }
  return out;
}

/// Appends `more` to `into`, refusing an id already there; `index` maps each
/// id to its position, so loading stays linear in the entries.
template <typename Entry>
void append_unique(std::vector<Entry>& into, std::vector<std::string>& origins,
                   std::unordered_map<std::string, std::size_t>& index, std::vector<Entry>&& more,
                   const std::string& origin, std::string_view kind) {
  for (auto& entry : more) {
    const auto [at, inserted] = index.try_emplace(entry.id, into.size());
    if (!inserted) {
      throw table_error(origin + ": " + std::string(kind) + " '" + entry.id + "' is already defined in " +
                        origins[at->second]);
    }
    into.push_back(std::move(entry));
    origins.push_back(origin);
  }
}

}  // namespace detail

/// Loads table files in order into one table. Ids must be unique across all
/// of them; a later file may refer to sources and architectures of an earlier
/// one. Throws `table_error` naming the file, entry and field of the first
/// problem.
inline table load_tables(const std::vector<table_text>& texts) {
  table out;
  std::vector<std::string> source_origins, arch_origins, gpu_origins, amd_origins, amd_gpu_origins;
  std::unordered_map<std::string, std::size_t> source_ids, arch_ids, gpu_ids, amd_ids, amd_gpu_ids;
  for (const auto& text : texts) {
    const nlohmann::json document = detail::parse_strict(text);
    detail::entry_reader top(document, text.origin);
    top.integer("schema_version", {table_schema_version, table_schema_version});
    auto sources = detail::read_entries<source>(top, text.origin, "sources", detail::read_source);
    auto archs = detail::read_entries<nvidia_arch>(top, text.origin, "architectures", detail::read_arch);
    auto gpus = detail::read_entries<gpu>(top, text.origin, "gpus", detail::read_gpu);
    auto amd = detail::read_entries<amd_target>(top, text.origin, "amd_targets", detail::read_amd_target);
    auto amd_gpus = detail::read_entries<amd_gpu>(top, text.origin, "amd_gpus", detail::read_amd_gpu);
    top.finish();
    detail::append_unique(out.amd_gpus, amd_gpu_origins, amd_gpu_ids, std::move(amd_gpus), text.origin, "AMD GPU");
    detail::append_unique(out.amd_targets, amd_origins, amd_ids, std::move(amd), text.origin, "AMD target");
    detail::append_unique(out.sources, source_origins, source_ids, std::move(sources), text.origin, "source");
    detail::append_unique(out.architectures, arch_origins, arch_ids, std::move(archs), text.origin, "architecture");
    detail::append_unique(out.gpus, gpu_origins, gpu_ids, std::move(gpus), text.origin, "gpu");
  }
  const auto check_sources = [&](const std::vector<std::string>& ids, const std::string& where) {
    for (const auto& id : ids) {
      if (source_ids.count(id) == 0) {
        throw table_error(where + ": field 'sources': " + detail::quoted(id) + " is not a known source id");
      }
    }
  };
  for (std::size_t i = 0; i < out.architectures.size(); ++i) {
    check_sources(out.architectures[i].sources, arch_origins[i] + ": architecture '" + out.architectures[i].id + "'");
  }
  for (std::size_t i = 0; i < out.amd_targets.size(); ++i) {
    check_sources(out.amd_targets[i].sources, amd_origins[i] + ": AMD target '" + out.amd_targets[i].id + "'");
  }
  for (std::size_t i = 0; i < out.amd_gpus.size(); ++i) {
    const auto& g = out.amd_gpus[i];
    const std::string where = amd_gpu_origins[i] + ": AMD GPU '" + g.id + "'";
    check_sources(g.sources, where);
    if (amd_ids.count(g.target_id) == 0) {
      throw table_error(where + ": field 'target': " + detail::quoted(g.target_id) + " is not a known AMD target id");
    }
  }
  for (std::size_t i = 0; i < out.gpus.size(); ++i) {
    const auto& g = out.gpus[i];
    const std::string where = gpu_origins[i] + ": gpu '" + g.id + "'";
    check_sources(g.sources, where);
    if (arch_ids.count(g.arch_id) == 0) {
      throw table_error(where + ": field 'arch': " + detail::quoted(g.arch_id) + " is not a known architecture id");
    }
  }
  // Every name, id and alias must pick one GPU: two entries answering to the
  // same typed name would make the lookup guess.
  std::unordered_map<std::string, std::string> name_keys;  // key -> "origin: gpu 'id'"
  const auto claim = [&](const std::string& name, const std::string& where) {
    const std::string key = gpu_name_key(name);
    if (key.empty()) throw table_error(where + ": the name " + detail::quoted(name) + " has no letters or digits");
    const auto [at, inserted] = name_keys.try_emplace(key, where);
    if (!inserted && at->second != where) {
      throw table_error(where + ": the name " + detail::quoted(name) + " also names " + at->second +
                        " (brand words, case, spaces and punctuation ignored)");
    }
  };
  const auto claim_names = [&](const auto& gpus, const std::vector<std::string>& origins, std::string_view kind) {
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const auto& g = gpus[i];
      const std::string where = origins[i] + ": " + std::string(kind) + " '" + g.id + "'";
      for (const auto* name : {&g.id, &g.name}) claim(*name, where);
      for (const auto& alias : g.aliases) claim(alias, where);
    }
  };
  claim_names(out.gpus, gpu_origins, "gpu");
  claim_names(out.amd_gpus, amd_gpu_origins, "AMD GPU");
  std::stable_sort(out.architectures.begin(), out.architectures.end(), [](const auto& a, const auto& b) {
    return std::pair(a.cc_major, a.cc_minor) < std::pair(b.cc_major, b.cc_minor);
  });
  return out;
}

}  // namespace occcalc
