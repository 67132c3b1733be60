/// \file amd/steps.hpp
/// Next steps for an AMD kernel under any model (`suggest --model hip|rcp`;
/// `--model llvm` has the compiler's own plan in amd/limits.hpp): for each
/// limiting resource the nearest VGPR, SGPR, LDS or work-group size that
/// raises the model's occupancy or reaches a target, and, where none does
/// alone, the cheapest changes one or two together. Each answer is the
/// model's own: the search runs the model on every value it tries.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "occcalc/amd/result.hpp"
#include "occcalc/common/change_search.hpp"

namespace occcalc {

/// What a kernel's author changes in an AMD kernel, as knobs (`knob::id`).
enum class amd_knob : std::size_t { vgprs, agprs, sgprs, lds, work_group_size };

/// The knob's name as used in JSON keys.
constexpr std::string_view to_string(amd_knob k) noexcept {
  constexpr std::array<std::string_view, 5> names = {"vgprs", "agprs", "sgprs", "lds", "work_group_size"};
  return names[static_cast<std::size_t>(k)];
}

/// A kernel and the work-group size it launches with: what a model takes.
struct amd_launch {
  amd_kernel kernel;
  std::int64_t work_group_size = 0;
};

/// Sets a knob of `launch` (a work-group size fixes the kernel's range).
inline void apply_amd_knob(amd_launch& launch, std::size_t id, std::int64_t value) noexcept {
  switch (static_cast<amd_knob>(id)) {
    case amd_knob::vgprs: launch.kernel.vgprs = value; break;
    case amd_knob::agprs: launch.kernel.agprs = value; break;
    case amd_knob::sgprs: launch.kernel.sgprs = value; break;
    case amd_knob::lds: launch.kernel.lds_bytes = value; break;
    case amd_knob::work_group_size:
      launch.work_group_size = value;
      launch.kernel.min_work_group_size = launch.kernel.max_work_group_size = value;
      break;
  }
}

/// A knob and the values a search tries: fewer registers or LDS bytes, down
/// to none; work-group sizes in whole waves up to the target's maximum,
/// nearest first (smaller or larger only, where `way` says).
inline knob amd_knob_of(const amd_target& t, const amd_mode& mode, const amd_launch& launch, amd_knob which,
                        direction way = direction::both) {
  knob k;
  k.id = static_cast<std::size_t>(which);
  switch (which) {
    case amd_knob::vgprs: k.current = launch.kernel.vgprs; break;
    case amd_knob::agprs: k.current = launch.kernel.agprs; break;
    case amd_knob::sgprs: k.current = launch.kernel.sgprs; break;
    case amd_knob::lds: k.current = launch.kernel.lds_bytes; break;
    case amd_knob::work_group_size:
      k.current = launch.work_group_size;
      k.values = values_nearest_first(k.current, mode.wave_size, t.max_work_group_size, way);
      return k;
  }
  k.first = k.current - 1;
  return k;
}

/// What to change in one limiting resource to raise the occupancy, or to
/// reach a target.
struct amd_next_step {
  amd_resource limiter = amd_resource::wave_slots;
  /// The knob that resource answers to: its register, LDS or work-group
  /// size figure now and the one that gets there (equal when none does).
  amd_knob knob = amd_knob::work_group_size;
  std::int64_t current = 0;
  std::int64_t needed = 0;
  bool reachable = false;
  /// The model's result at `needed`, everything else unchanged.
  amd_occupancy_result result;
};

/// One or two changes together, and the model's result with them.
struct amd_launch_changes {
  knob_changes changes;
  amd_occupancy_result result;
};

/// What next steps ask: a model on a target, a launch, and a target
/// occupancy in (0, 1] (without one, a step must raise the occupancy).
/// `device_waves_per_simd` as for `compute_amd_occupancy`.
struct amd_step_question {
  const amd_target* target = nullptr;
  amd_mode mode{0, false};  // the question's, as given
  amd_model model = amd_model::hip;
  amd_launch launch;
  std::optional<double> target_occupancy;
  std::optional<std::int64_t> device_waves_per_simd;

  /// The model's answer for `l`.
  amd_occupancy_result result(const amd_launch& l) const noexcept {
    return compute_amd_occupancy(*target, l.kernel, mode, model, l.work_group_size, device_waves_per_simd);
  }

  /// Whether `l` gets there: the target occupancy, or above `now`'s
  /// (compared as whole waves over wave slots).
  bool reaches(const amd_launch& l, const amd_occupancy_result& now) const noexcept {
    // Occupancies are ratios of small integers; a target in hundredths
    // compares within this.
    constexpr double epsilon = 1e-9;
    const amd_occupancy_result r = result(l);
    if (target_occupancy) return r.occupancy() >= *target_occupancy - epsilon;
    return r.active_waves * now.max_waves > now.active_waves * r.max_waves;
  }

  /// Whether there is anything to search for: a target not met, or without
  /// one, room above the occupancy now.
  bool open(const amd_occupancy_result& now) const noexcept {
    return target_occupancy ? !reaches(launch, now) : now.occupancy() < 1.0;
  }
};

namespace detail {

/// The knob a limiting resource answers to.
constexpr amd_knob knob_for(amd_resource r) noexcept {
  switch (r) {
    case amd_resource::vgprs: return amd_knob::vgprs;
    case amd_resource::agprs: return amd_knob::agprs;
    case amd_resource::sgprs: return amd_knob::sgprs;
    case amd_resource::lds: return amd_knob::lds;
    default: return amd_knob::work_group_size;
  }
}

}  // namespace detail

/// Per limiter, the nearest value of its knob that gets there: fewer VGPRs,
/// AGPRs, SGPRs or LDS bytes; smaller work-groups where the wave slots
/// limit, larger where a cap on work-groups (or barriers) does. Those that
/// get there first, the highest occupancy first; none where there is
/// nothing to search for.
inline std::vector<amd_next_step> amd_next_steps(const amd_step_question& q) {
  const amd_occupancy_result now = q.result(q.launch);
  std::vector<amd_next_step> steps;
  if (!q.open(now)) return steps;
  const auto reaches = [&](const amd_launch& l) { return q.reaches(l, now); };
  for (const auto r : amd_resources) {
    if (!now.limiters.contains(r)) continue;
    const amd_knob which = detail::knob_for(r);
    // Fewer waves per group fill the slots; more fill a capped count.
    const knob k = amd_knob_of(*q.target, q.mode, q.launch, which,
                               r == amd_resource::wave_slots ? direction::down : direction::up);
    amd_next_step step{r, which, k.current, k.current, false, now};
    if (const auto to = nearest_reaching(k, q.launch, apply_amd_knob, reaches)) {
      amd_launch changed = q.launch;
      apply_amd_knob(changed, k.id, *to);
      step.needed = *to;
      step.reachable = true;
      step.result = q.result(changed);
    }
    steps.push_back(step);
  }
  std::stable_sort(steps.begin(), steps.end(), [](const amd_next_step& a, const amd_next_step& b) {
    if (a.reachable != b.reachable) return a.reachable;
    return a.reachable && a.result.occupancy() > b.result.occupancy();
  });
  return steps;
}

/// The cheapest changes of the kernel's registers and LDS (those it uses)
/// and its work-group size, one alone or two together, that get there
/// (`cheapest_changes`); empty where none does.
inline std::vector<amd_launch_changes> amd_changes_together(const amd_step_question& q) {
  const amd_occupancy_result now = q.result(q.launch);
  std::vector<amd_launch_changes> out;
  if (!q.open(now)) return out;
  std::vector<knob> knobs;
  for (const auto which : {amd_knob::vgprs, amd_knob::agprs, amd_knob::sgprs, amd_knob::lds}) {
    knob k = amd_knob_of(*q.target, q.mode, q.launch, which);
    if (k.current > 0) knobs.push_back(std::move(k));
  }
  knobs.push_back(amd_knob_of(*q.target, q.mode, q.launch, amd_knob::work_group_size));
  const auto reaches = [&](const amd_launch& l) { return q.reaches(l, now); };
  for (auto& found : cheapest_changes(knobs, q.launch, apply_amd_knob, reaches)) {
    amd_launch changed = q.launch;
    for (const auto& c : found.changes) apply_amd_knob(changed, c.id, c.to);
    out.push_back({std::move(found), q.result(changed)});
  }
  return out;
}

}  // namespace occcalc
