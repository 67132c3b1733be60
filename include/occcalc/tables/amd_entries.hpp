/// \file tables/amd_entries.hpp
/// Reads AMD target and GPU entries of a table file.
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

#include "occcalc/amd/target.hpp"
#include "occcalc/tables/entry_reader.hpp"

namespace occcalc {

namespace detail {

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

/// Reads `id`, refusing what is not an LLVM processor name.
inline std::string read_processor_name(entry_reader& reader) {
  std::string id = reader.text("id");
  const bool r600_name = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!is_gfx_name(id) && !r600_name) {
    reader.fail("id", "'" + id +
                          "' is not an LLVM processor name (gfxNNN, a generic target such as gfx11-generic, or an R600 "
                          "name such as cypress)");
  }
  return id;
}

inline unlisted_amd_target read_unlisted_amd_target(entry_reader& reader) {
  unlisted_amd_target u;
  u.id = read_processor_name(reader);
  u.reason = reader.text("reason");
  u.sources = reader.texts("sources");
  reader.finish();
  return u;
}

inline amd_target read_amd_target(entry_reader& reader) {
  amd_target t;
  t.id = read_processor_name(reader);
  t.family = reader.text("family");
  t.sources = reader.texts("sources");
  t.notes = reader.optional_text("notes");
  if (reader.has("members")) t.members = reader.texts("members");
  if (reader.has("aliases")) t.aliases = reader.texts("aliases");
  if (is_generic_gfx_name(t.id) == t.members.empty()) {
    reader.fail("members", "names the processors of a generic target, and only of one");
  }
  t.max_waves_per_simd = reader.integer("max_waves_per_simd", positive);
  t.simds_per_cu = reader.integer("simds_per_cu", positive);
  const auto& files = reader.array("vgpr_files");
  for (std::size_t i = 0; i < files.size(); ++i) {
    entry_reader file(files[i], reader.where() + ": vgpr_files[" + std::to_string(i) + "]");
    amd_vgpr_file f;
    f.wave_size = file.integer("wave_size", {32, 64});
    if (f.wave_size != 32 && f.wave_size != 64)
      file.fail("wave_size", std::to_string(f.wave_size) + " is not 32 or 64");
    f.total = file.integer("total", positive);
    f.granule = file.integer("granule", positive);
    file.finish();
    t.vgpr_files.push_back(f);
  }
  if (t.vgpr_files.empty()) reader.fail("vgpr_files", "must not be empty");
  t.unified_vgpr_file = reader.optional_boolean("unified_vgpr_file");
  t.sgprs_per_simd = reader.optional_integer("sgprs_per_simd", positive);
  if (t.sgprs_per_simd)
    t.sgpr_granule = reader.integer("sgpr_granule", positive);
  else if (reader.has("sgpr_granule"))
    reader.fail("sgpr_granule", "applies only with sgprs_per_simd");
  if (reader.has("llvm_sgpr_steps")) {
    const auto& steps = reader.array("llvm_sgpr_steps");
    for (std::size_t i = 0; i < steps.size(); ++i) {
      entry_reader step(steps[i], reader.where() + ": llvm_sgpr_steps[" + std::to_string(i) + "]");
      amd_sgpr_step s;
      s.max_sgprs = step.integer("max_sgprs", positive);
      s.waves = step.integer("waves", positive);
      if (!t.llvm_sgpr_steps.empty() &&
          (s.max_sgprs <= t.llvm_sgpr_steps.back().max_sgprs || s.waves >= t.llvm_sgpr_steps.back().waves)) {
        step.fail("max_sgprs", "must grow, and waves fall, from one step to the next");
      }
      step.finish();
      t.llvm_sgpr_steps.push_back(s);
    }
    if (t.llvm_sgpr_steps.empty()) reader.fail("llvm_sgpr_steps", "must not be empty");
  }
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
  t.llvm_max_sgprs_per_wave = reader.optional_integer("llvm_max_sgprs_per_wave", {1, t.max_sgprs_per_wave});
  if (reader.has("hip")) {
    entry_reader hip(reader.object("hip"), reader.where() + ": hip");
    t.hip = read_amd_hip(hip);
  }
  if (reader.has("rcp")) {
    entry_reader rcp(reader.object("rcp"), reader.where() + ": rcp");
    t.rcp = read_amd_rcp(rcp);
  }
  if (t.supports(amd_model::hip) != t.hip.has_value()) reader.fail("hip", "is required exactly when models name hip");
  if ((t.sgprs_per_simd && t.supports(amd_model::llvm)) != !t.llvm_sgpr_steps.empty()) {
    reader.fail("llvm_sgpr_steps", "is required exactly where sgprs_per_simd is and models name llvm");
  }
  if (!t.llvm_sgpr_steps.empty() && t.llvm_sgpr_steps.back().max_sgprs < t.max_sgprs_per_wave) {
    reader.fail("llvm_sgpr_steps", "must reach max_sgprs_per_wave (" + std::to_string(t.max_sgprs_per_wave) + ")");
  }
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

}  // namespace detail

}  // namespace occcalc
