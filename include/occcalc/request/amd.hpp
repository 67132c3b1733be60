/// \file request/amd.hpp
/// Resolution of an AMD request (`--gfx` or an AMD `--gpu`) against the
/// tables: the target, the model, the kernel's counts and how it runs, each
/// checked against what the target allows.
#pragma once

#include <optional>
#include <string>

#include "occcalc/amd/checked.hpp"
#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/target.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc {

/// An AMD request resolved against a table.
struct resolved_amd_request {
  const amd_target* target = nullptr;
  /// The named GPU, when the request gave one.
  const amd_gpu* named_gpu = nullptr;
  amd_model model = amd_model::llvm;
  amd_mode mode{0, false};  // resolve_amd sets it
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

/// The vendor a request asks about, and the GPU its name found where
/// deciding it looked the name up (for the resolution to take, not look up
/// again).
struct request_vendor {
  bool amd = false;
  std::optional<named_gpu_match> gpu;
};

/// The vendor `req` asks about: AMD where it names a target, an AMD GPU, or
/// gives only AMD fields. Throws `input_error` for an unknown GPU name.
inline request_vendor vendor_of(const table& tables, const request& req) {
  if (req.gfx) return {true, std::nullopt};
  if (req.cc) return {false, std::nullopt};
  if (req.gpu) {
    named_gpu_match gpu = require_named_gpu(tables, "gpu", req.gpu->text());
    const bool amd = gpu.is_amd();
    return {amd, std::move(gpu)};
  }
  for (const auto& field : request_fields) {
    if (field.vendor == field_vendor::amd && req.*(field.member)) return {true, std::nullopt};
  }
  return {false, std::nullopt};
}

/// Whether `req` asks about an AMD GPU (`vendor_of`).
inline bool is_amd_request(const table& tables, const request& req) { return vendor_of(tables, req).amd; }

namespace detail {

/// Runs `check` (a parse or range check), adding the target to the message
/// of the `input_error` it throws ("... on gfx90a").
template <typename Check>
auto naming_target(const amd_target& t, Check&& check) {
  try {
    return check();
  } catch (const input_error& e) {
    throw input_error(e.field(), std::string(e.what()) + " on " + t.id);
  }
}

/// Parses a count in `range`, naming the target in the error.
inline std::int64_t parse_amd_count(const std::string& field, const field_value& value, int_range range,
                                    const amd_target& t) {
  return naming_target(t, [&] { return parse_count(field, value, range); });
}

/// What a switch field says: on, explicitly off, or not given.
inline std::optional<bool> flag_value(const std::optional<field_value>& value) {
  if (!value) return std::nullopt;
  return *value == flag_set_text;
}

inline amd_model parse_amd_model(const std::string& field, std::string_view text) {
  if (const auto m = find_amd_model(lower(trim(text)))) return *m;
  throw input_error(field, quoted(trim(text)) + " is not a model; expected " + amd_model_choices());
}

/// Throws `problem`, if there is one, as the `input_error` it stands for.
inline void throw_if(const std::optional<input_problem>& problem) {
  if (problem) throw input_error(problem->field, problem->message);
}

}  // namespace detail

/// Resolves an AMD launch whose figures are already numbers (a kernel read
/// from a code object): the same checks `resolve_amd` makes while parsing,
/// without a text round trip. `mode.wgp_mode` is dropped where the target
/// has no WGP mode. Throws `input_error`.
inline resolved_amd_request resolve_amd_kernel(const amd_target& t, amd_model model, amd_mode mode,
                                               const amd_kernel& kernel, std::int64_t work_group_size) {
  detail::throw_if(amd_launch_problem(t, model, mode, kernel, work_group_size));
  mode.wgp_mode = mode.wgp_mode && t.has_wgp_mode;
  resolved_amd_request out;
  out.target = &t;
  out.model = model;
  out.mode = mode;
  out.kernel = kernel;
  out.kernel.min_work_group_size = out.kernel.max_work_group_size = work_group_size;
  out.work_group_size = work_group_size;
  return out;
}

/// Resolves an AMD request: exactly one of `gfx` and `gpu`; `threads` and
/// `vgprs` required; `agprs`, `sgprs`, `lds` default to 0; the wave size,
/// mode and model to the target's defaults (wave32 and WGP mode on RDNA;
/// the first model in its table entry). NVIDIA-only fields are refused.
/// Throws `input_error` naming the first bad field.
inline resolved_amd_request resolve_amd(const table& tables, const request& req,
                                        std::optional<named_gpu_match> looked_up_gpu = std::nullopt) {
  resolved_amd_request out;
  if (req.gfx && req.gpu)
    throw input_error("gpu", "cannot be given together with " + field_ref("gfx") + "; give one of them");
  if (req.cc)
    throw input_error(
        "cc", "does not apply to AMD targets; give " + field_ref("gfx") + " (or an AMD " + field_ref("gpu") + ")");
  for (const auto& field : request_fields) {
    if (field.vendor == field_vendor::nvidia && req.*(field.member)) {
      const std::string key(field.key);
      const std::string instead = key == "regs" ? "; give " + field_ref("vgprs") + " (and " + field_ref("sgprs") + ")"
                                  : key == "smem" || key == "dyn_smem"
                                      ? "; give " + field_ref("lds") + " (bytes per work-group)"
                                      : "";
      throw input_error(key, "does not apply to AMD targets" + instead);
    }
  }
  if (req.gpu) {
    const named_gpu_match match =
        looked_up_gpu ? std::move(*looked_up_gpu) : require_named_gpu(tables, "gpu", req.gpu->text());
    if (!match.amd_family.empty()) {
      // No AMD product line has variants the family rule covers; a user
      // table's would each need its own answer, so it names them.
      std::vector<std::string> named;
      for (const amd_gpu* g : match.amd_family)
        named.push_back(g->name + " (" + std::to_string(g->compute_units) + " CUs)");
      throw input_error("gpu", detail::quoted(detail::trim(req.gpu->text())) +
                                   " names several GPUs: " + detail::join(named, ", ") + "; give one of them");
    }
    out.named_gpu = match.amd;
    if (out.named_gpu == nullptr) throw input_error("gpu", detail::quoted(req.gpu->text()) + " is not an AMD GPU");
    out.target = &require_amd_target(tables, "gpu", out.named_gpu->target_id);
  } else if (req.gfx) {
    out.target = &require_amd_target(tables, "gfx", req.gfx->text());
  } else {
    throw input_error("gfx", "is required (or an AMD " + field_ref("gpu") + "); e.g. gfx90a, gfx1100 or a GPU name");
  }
  const amd_target& t = *out.target;

  out.model = req.model ? detail::parse_amd_model("model", req.model->text()) : t.models.front();
  detail::throw_if(detail::amd_model_problem(t, out.model));

  // A switch is on (`--wave32`, `"wave32": true`) or explicitly off
  // (`"wave32": false`, which asks for the other wave size).
  const auto wave32 = detail::flag_value(req.wave32);
  const auto wave64 = detail::flag_value(req.wave64);
  if (wave32 && wave64 && *wave32 == *wave64) {
    throw input_error("wave64", *wave64 ? "cannot be given together with " + field_ref("wave32")
                                        : "false together with " + field_ref("wave32") +
                                              " false leaves no wave size; give one of them");
  }
  const char* wave_field = wave32 ? "wave32" : "wave64";
  const auto asked_wave = wave32 ? std::optional<bool>(*wave32) : wave64 ? std::optional<bool>(!*wave64) : std::nullopt;
  out.mode.wave_size = asked_wave ? (*asked_wave ? 32 : 64) : t.default_wave_size();
  const bool switched_off = detail::flag_value(wave32 ? req.wave32 : req.wave64) == false;
  detail::throw_if(detail::amd_wave_size_problem(
      t, out.mode.wave_size, wave_field,
      switched_off ? "false (waves of " + std::to_string(out.mode.wave_size) + ") " : ""));
  const auto cu_mode = detail::flag_value(req.cu_mode);
  const auto wgp_mode = detail::flag_value(req.wgp_mode);
  if (cu_mode && wgp_mode && *cu_mode == *wgp_mode) {
    throw input_error("wgp_mode", *wgp_mode ? "cannot be given together with " + field_ref("cu_mode")
                                            : "false together with " + field_ref("cu_mode") +
                                                  " false leaves no mode; give one of them");
  }
  for (const auto& [key, value] : {std::pair{"cu_mode", cu_mode}, std::pair{"wgp_mode", wgp_mode}}) {
    if (value && !t.has_wgp_mode) {
      throw input_error(
          key, "does not apply to " + t.id + " (" + t.family +
                   "): it has no WGP mode, its work-groups run on one CU (the RDNA targets have CU and WGP modes)");
    }
  }
  const bool wants_cu_mode = cu_mode ? *cu_mode : wgp_mode ? !*wgp_mode : false;
  out.mode.wgp_mode = t.has_wgp_mode && !wants_cu_mode;

  if (!req.threads) throw input_error("threads", "is required: work-items per work-group");
  if (!req.vgprs) throw input_error("vgprs", "is required: VGPRs per work-item, as the compiler reports them");
  const auto ranges = amd_ranges_of(t, out.model);
  out.work_group_size = detail::parse_amd_count("threads", *req.threads, ranges.threads, t);
  out.kernel.min_work_group_size = out.kernel.max_work_group_size = out.work_group_size;
  try {
    out.kernel.vgprs = detail::parse_amd_count("vgprs", *req.vgprs, ranges.vgprs, t);
  } catch (const input_error& e) {
    // On CDNA a code object's .vgpr_count (inspect's regs) holds the AGPRs too: the hint says so.
    const std::string hint = detail::amd_vgprs_hint(t);
    if (hint.empty()) throw;
    throw input_error(e.field(), std::string(e.what()) + hint);
  }
  if (req.agprs) {
    detail::throw_if(detail::amd_agprs_problem(t));
    out.kernel.agprs = detail::parse_amd_count("agprs", *req.agprs, ranges.agprs, t);
  }
  if (req.sgprs) {
    detail::throw_if(detail::amd_sgprs_problem(t));
    try {
      out.kernel.sgprs = detail::parse_amd_count("sgprs", *req.sgprs, ranges.sgprs, t);
    } catch (const input_error& e) {
      const std::string hint = detail::amd_sgprs_hint(t, out.model);
      if (hint.empty()) throw;
      throw input_error(e.field(), std::string(e.what()) + hint);
    }
  }
  if (req.lds) {
    out.kernel.lds_bytes = detail::naming_target(t, [&] { return parse_bytes("lds", *req.lds, ranges.lds_bytes); });
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
      throw input_error("grid", "needs a named GPU (" + field_ref("gpu") + ") or " + field_ref("sm_count") +
                                    " (CUs): waves need the CU count");
    }
  }
  return out;
}

}  // namespace occcalc
