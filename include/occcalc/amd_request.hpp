/// \file amd_request.hpp
/// Resolution of an AMD request (`--gfx` or an AMD `--gpu`) against the
/// tables: the target, the model, the kernel's counts and how it runs, each
/// checked against what the target allows.
#pragma once

#include <optional>
#include <string>

#include "occcalc/amd_arch.hpp"
#include "occcalc/amd_kernel.hpp"
#include "occcalc/error.hpp"
#include "occcalc/lookup.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/request.hpp"

namespace occcalc {

/// An AMD request resolved against a table.
struct resolved_amd_request {
  const amd_target* target = nullptr;
  /// The named GPU, when the request gave one.
  const amd_gpu* named_gpu = nullptr;
  amd_model model = amd_model::llvm;
  amd_mode mode;
  /// The kernel; its work-group size range is the launch's size.
  amd_kernel kernel;
  std::int64_t work_group_size = 0;
  /// Work-groups in the grid, when the request gave them (with a CU count).
  std::optional<std::int64_t> grid_work_groups;
  /// CUs on the device: `sm_count` when given, else the named GPU's.
  std::optional<std::int64_t> compute_units;
  /// Whether `compute_units` came from the request rather than the table.
  bool compute_units_given = false;
};

/// Whether `req` asks about an AMD GPU: it names a target, an AMD GPU, or
/// gives only AMD fields. Throws `input_error` for an unknown GPU name.
inline bool is_amd_request(const table& tables, const request& req) {
  if (req.gfx) return true;
  if (req.cc) return false;
  if (req.gpu) return require_named_gpu(tables, "gpu", *req.gpu).amd != nullptr;
  for (const auto& field : request_fields) {
    if (field.vendor == field_vendor::amd && req.*(field.member)) return true;
  }
  return false;
}

namespace detail {

/// Parses a count in `range`, naming the target in the error.
inline std::int64_t parse_amd_count(const std::string& field, const std::string& text, int_range range,
                                    const amd_target& t) {
  try {
    return parse_count(field, text, range);
  } catch (const input_error& e) {
    throw input_error(field, std::string(e.what()) + " on " + t.id);
  }
}

/// What a switch field says: on, explicitly off, or not given.
inline std::optional<bool> flag_value(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  return *value == flag_set_text;
}

inline amd_model parse_amd_model(const std::string& field, std::string_view text) {
  const std::string wanted = lower(trim(text));
  for (const auto m : {amd_model::llvm, amd_model::hip, amd_model::rcp}) {
    if (wanted == to_string(m)) return m;
  }
  throw input_error(field, quoted(trim(text)) + " is not a model; expected llvm, hip or rcp");
}

inline std::string model_names(const amd_target& t) {
  std::string out;
  for (const auto m : t.models) out += (out.empty() ? "" : ", ") + std::string(to_string(m));
  return out;
}

}  // namespace detail

/// Resolves an AMD request: exactly one of `gfx` and `gpu`; `threads` and
/// `vgprs` required; `agprs`, `sgprs`, `lds` default to 0; the wave size,
/// mode and model to the target's defaults (wave32 and WGP mode on RDNA;
/// the first model in its table entry). NVIDIA-only fields are refused.
/// Throws `input_error` naming the first bad field.
inline resolved_amd_request resolve_amd(const table& tables, const request& req) {
  resolved_amd_request out;
  if (req.gfx && req.gpu) throw input_error("gpu", "cannot be given together with gfx; give one of them");
  if (req.cc) throw input_error("cc", "does not apply to AMD targets; give gfx (or an AMD gpu)");
  for (const auto& field : request_fields) {
    if (field.vendor == field_vendor::nvidia && req.*(field.member)) {
      const std::string key(field.key);
      const std::string instead = key == "regs" ? "; give vgprs (and sgprs)"
                                  : key == "smem" || key == "dyn_smem" ? "; give lds (bytes per work-group)"
                                                                       : "";
      throw input_error(key, "does not apply to AMD targets" + instead);
    }
  }
  if (req.gpu) {
    out.named_gpu = require_named_gpu(tables, "gpu", *req.gpu).amd;
    if (out.named_gpu == nullptr) throw input_error("gpu", detail::quoted(*req.gpu) + " is not an AMD GPU");
    out.target = &require_amd_target(tables, "gpu", out.named_gpu->target_id);
  } else if (req.gfx) {
    out.target = &require_amd_target(tables, "gfx", *req.gfx);
  } else {
    throw input_error("gfx", "is required (or an AMD gpu); e.g. gfx90a, gfx1100 or a GPU name");
  }
  const amd_target& t = *out.target;

  out.model = req.model ? detail::parse_amd_model("model", *req.model) : t.models.front();
  if (!t.supports(out.model)) {
    throw input_error("model", std::string(to_string(out.model)) + " does not apply to " + t.id + " (" + t.family +
                                   "); models for it: " + detail::model_names(t));
  }

  // A switch is on (`--wave32`, `"wave32": true`) or explicitly off
  // (`"wave32": false`, which asks for the other wave size).
  const auto wave32 = detail::flag_value(req.wave32);
  const auto wave64 = detail::flag_value(req.wave64);
  if (wave32 && wave64 && *wave32 == *wave64) {
    throw input_error("wave64", *wave64 ? "cannot be given together with wave32"
                                        : "false together with wave32 false leaves no wave size; give one of them");
  }
  const char* wave_field = wave32 ? "wave32" : "wave64";
  const auto asked_wave = wave32 ? std::optional<bool>(*wave32) : wave64 ? std::optional<bool>(!*wave64) : std::nullopt;
  out.mode.wave_size = asked_wave ? (*asked_wave ? 32 : 64) : t.default_wave_size();
  if (!t.supports_wave_size(out.mode.wave_size)) {
    const bool switched_off = detail::flag_value(wave32 ? req.wave32 : req.wave64) == false;
    throw input_error(wave_field, std::string(switched_off ? "false (waves of " + std::to_string(out.mode.wave_size) +
                                                                 ") "
                                                           : "") +
                                      "does not apply to " + t.id + ": it runs waves of " +
                                      std::to_string(t.default_wave_size()) + " work-items only");
  }
  const auto cu_mode = detail::flag_value(req.cu_mode);
  const auto wgp_mode = detail::flag_value(req.wgp_mode);
  if (cu_mode && wgp_mode && *cu_mode == *wgp_mode) {
    throw input_error("wgp_mode", *wgp_mode ? "cannot be given together with cu_mode"
                                            : "false together with cu_mode false leaves no mode; give one of them");
  }
  for (const auto& [key, value] : {std::pair{"cu_mode", cu_mode}, std::pair{"wgp_mode", wgp_mode}}) {
    if (value && !t.has_wgp_mode) {
      throw input_error(key, "does not apply to " + t.id + " (" + t.family +
                                 "): CU and WGP modes exist from gfx10 (RDNA) on");
    }
  }
  const bool wants_cu_mode = cu_mode ? *cu_mode : wgp_mode ? !*wgp_mode : false;
  out.mode.wgp_mode = t.has_wgp_mode && !wants_cu_mode;

  if (!req.threads) throw input_error("threads", "is required: work-items per work-group");
  if (!req.vgprs) throw input_error("vgprs", "is required: VGPRs per work-item, as the compiler reports them");
  out.work_group_size = detail::parse_amd_count("threads", *req.threads, {1, t.max_work_group_size}, t);
  out.kernel.min_work_group_size = out.kernel.max_work_group_size = out.work_group_size;
  out.kernel.vgprs = detail::parse_amd_count("vgprs", *req.vgprs, {0, t.max_vgprs_per_wave}, t);
  if (req.agprs) {
    if (t.max_agprs_per_wave == 0) {
      throw input_error("agprs", "does not apply to " + t.id + " (" + t.family + "): AGPRs exist on CDNA only");
    }
    out.kernel.agprs = detail::parse_amd_count("agprs", *req.agprs, {0, t.max_agprs_per_wave}, t);
  }
  if (req.sgprs) {
    if (t.max_sgprs_per_wave == 0) {
      throw input_error("sgprs", "does not apply to " + t.id + " (" + t.family + "): it has no scalar registers");
    }
    out.kernel.sgprs = detail::parse_amd_count("sgprs", *req.sgprs, {0, t.max_sgprs_per_wave}, t);
  }
  if (req.lds) {
    try {
      out.kernel.lds_bytes = parse_bytes("lds", *req.lds, {0, t.max_lds_per_work_group_bytes});
    } catch (const input_error& e) {
      throw input_error("lds", std::string(e.what()) + " on " + t.id);
    }
  }
  if (req.sm_count) {
    out.compute_units = parse_count("sm_count", *req.sm_count, {1, max_request_value});
    out.compute_units_given = true;
  } else if (out.named_gpu) {
    out.compute_units = out.named_gpu->compute_units;
  }
  if (req.grid) {
    out.grid_work_groups = parse_count("grid", *req.grid, {1, max_request_value});
    if (!out.compute_units) {
      throw input_error("grid", "needs a named GPU (gpu) or sm_count (CUs): waves need the CU count");
    }
  }
  return out;
}

}  // namespace occcalc
