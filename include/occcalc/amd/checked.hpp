/// \file amd/checked.hpp
/// The AMD calculator with its input checked as the command line checks a
/// kernel's figures, a refusal returned as a value: nothing here throws, and
/// it compiles with `-fno-exceptions -fno-rtti`, as nvidia/checked.hpp does
/// for NVIDIA. `resolve_amd_kernel` (request/amd.hpp) throws these very
/// problems.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "occcalc/amd/result.hpp"
#include "occcalc/amd/target.hpp"
#include "occcalc/common/problem.hpp"
#include "occcalc/common/text.hpp"

namespace occcalc {

/// What a target accepts for each kernel figure under a model.
struct amd_input_ranges {
  int_range threads, vgprs, agprs, sgprs, lds_bytes;
};

inline amd_input_ranges amd_ranges_of(const amd_target& t, amd_model model) {
  return {{1, t.max_work_group_size},
          {0, t.max_vgprs_per_wave},
          {0, t.max_agprs_per_wave},
          {0, t.max_sgprs_under(model)},
          {0, t.max_lds_per_work_group_bytes}};
}

namespace detail {

/// The models a target's table entry lists: `llvm, hip, rcp`.
inline std::string amd_model_names(const amd_target& t) {
  std::string out;
  for (const auto m : t.models) out += (out.empty() ? "" : ", ") + std::string(to_string(m));
  return out;
}

/// `count_problem` naming the target: `... is outside [0, 512] on gfx90a`.
inline std::optional<input_problem> amd_count_problem(std::string_view field, std::int64_t value, int_range range,
                                                      const amd_target& t, std::string_view unit = {}) {
  auto problem = count_problem(field, value, range, unit);
  if (problem) problem->message += " on " + t.id;
  return problem;
}

/// A model `t` has no figures for, or no model at all.
inline std::optional<input_problem> amd_model_problem(const amd_target& t, amd_model model) {
  if (static_cast<std::size_t>(model) >= amd_models.size()) {
    return input_problem{"model", detail::quoted(std::to_string(static_cast<int>(model))) +
                                      " is not a model; expected " + amd_model_choices()};
  }
  if (t.supports(model)) return std::nullopt;
  return input_problem{"model", std::string(to_string(model)) + " does not apply to " + t.id + " (" + t.family +
                                    "); models for it: " + amd_model_names(t)};
}

/// A wave size `t` does not run, named by the switch that asks for it
/// (`field`, `wave32` or `wave64` by default); `asked` leads the message
/// (how the size was asked for, if not plainly).
inline std::optional<input_problem> amd_wave_size_problem(const amd_target& t, std::int64_t wave_size,
                                                          std::string_view field = {}, const std::string& asked = {}) {
  if (wave_size != 32 && wave_size != 64) {
    return input_problem{"wave_size", std::to_string(wave_size) + " is not a wave size; expected 32 or 64"};
  }
  if (t.supports_wave_size(wave_size)) return std::nullopt;
  return input_problem{field.empty() ? (wave_size == 32 ? "wave32" : "wave64") : std::string(field),
                       asked + "does not apply to " + t.id + ": it runs waves of " +
                           std::to_string(t.default_wave_size()) + " work-items only"};
}

/// AGPRs given to a target without them.
inline std::optional<input_problem> amd_agprs_problem(const amd_target& t) {
  if (t.max_agprs_per_wave > 0) return std::nullopt;
  return input_problem{"agprs", "does not apply to " + t.id + " (" + t.family + "): AGPRs exist on CDNA only"};
}

/// SGPRs given to a target without them.
inline std::optional<input_problem> amd_sgprs_problem(const amd_target& t) {
  if (t.max_sgprs_per_wave > 0) return std::nullopt;
  return input_problem{"sgprs", "does not apply to " + t.id + " (" + t.family + "): it has no scalar registers"};
}

/// What follows a VGPR count out of range on CDNA: a code object's
/// .vgpr_count (inspect's regs) holds the AGPRs too.
inline std::string amd_vgprs_hint(const amd_target& t) {
  if (t.max_agprs_per_wave == 0) return {};
  return "; give the AGPRs apart with " + field_ref("agprs") +
         " (a code object's .vgpr_count, inspect's regs, counts both)";
}

/// What follows an SGPR count out of range under a model with a budget of
/// its own (the compiler's).
inline std::string amd_sgprs_hint(const amd_target& t, amd_model model) {
  if (t.max_sgprs_under(model) == t.max_sgprs_per_wave) return {};
  return " under the compiler's model (its own budget); " + field_ref("model") + " hip or rcp takes up to " +
         std::to_string(t.max_sgprs_per_wave);
}

/// `problem` with `hint` after its message.
inline std::optional<input_problem> with_hint(std::optional<input_problem> problem, const std::string& hint) {
  if (problem) problem->message += hint;
  return problem;
}

}  // namespace detail

/// Everything the command line refuses in an AMD launch given as numbers,
/// the first in the order it reads the fields; nothing for a launch
/// `compute_amd_occupancy` may be given.
inline std::optional<input_problem> amd_launch_problem(const amd_target& t, amd_model model, const amd_mode& mode,
                                                       const amd_kernel& kernel, std::int64_t work_group_size) {
  if (auto p = detail::amd_model_problem(t, model)) return p;
  if (auto p = detail::amd_wave_size_problem(t, mode.wave_size)) return p;
  const auto ranges = amd_ranges_of(t, model);
  if (auto p = detail::amd_count_problem("threads", work_group_size, ranges.threads, t)) return p;
  if (auto p = detail::with_hint(detail::amd_count_problem("vgprs", kernel.vgprs, ranges.vgprs, t),
                                 detail::amd_vgprs_hint(t))) {
    return p;
  }
  if (kernel.agprs > 0) {
    if (auto p = detail::amd_agprs_problem(t)) return p;
  }
  if (auto p = detail::amd_count_problem("agprs", kernel.agprs, ranges.agprs, t)) return p;
  if (kernel.sgprs > 0) {
    if (auto p = detail::amd_sgprs_problem(t)) return p;
  }
  if (auto p = detail::with_hint(detail::amd_count_problem("sgprs", kernel.sgprs, ranges.sgprs, t),
                                 detail::amd_sgprs_hint(t, model))) {
    return p;
  }
  return detail::amd_count_problem("lds", kernel.lds_bytes, ranges.lds_bytes, t, " bytes");
}

/// An AMD launch's occupancy, or why the command line would refuse it.
struct checked_amd_occupancy {
  std::optional<amd_occupancy_result> result;
  std::optional<input_problem> problem;

  explicit operator bool() const noexcept { return result.has_value(); }
};

/// The occupancy of `kernel` launched in work-groups of `work_group_size`
/// on `t` under `model` and `mode`, checked first. WGP mode is dropped where
/// the target has none, as the command line drops it.
inline checked_amd_occupancy compute_amd_occupancy_checked(const amd_target& t, const amd_kernel& kernel, amd_mode mode,
                                                           amd_model model, std::int64_t work_group_size) {
  if (auto p = amd_launch_problem(t, model, mode, kernel, work_group_size)) return {std::nullopt, std::move(p)};
  mode.wgp_mode = mode.wgp_mode && t.has_wgp_mode;
  amd_kernel launched = kernel;
  launched.min_work_group_size = launched.max_work_group_size = work_group_size;
  return {compute_amd_occupancy(t, launched, mode, model, work_group_size), std::nullopt};
}

/// The same with the command line's defaults: the target's first model,
/// its first wave size (32 on RDNA) and WGP mode where it has one.
inline checked_amd_occupancy compute_amd_occupancy_checked(const amd_target& t, const amd_kernel& kernel,
                                                           std::int64_t work_group_size) {
  return compute_amd_occupancy_checked(t, kernel, amd_mode::defaults_of(t), t.models.front(), work_group_size);
}

}  // namespace occcalc
