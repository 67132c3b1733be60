/// \file nvidia/checked.hpp
/// The NVIDIA calculator with its input checked as the command line checks
/// it, a refusal returned as a value: for programs built without exceptions
/// (`-fno-exceptions -fno-rtti`: nothing here throws) and for launches filled
/// in by hand, which `compute_occupancy` may not be given unchecked (a
/// default `launch_config` has 0 threads).
///
/// The throwing checks of `request/` are these, thrown: one rule, one
/// message, whichever way it is asked.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "occcalc/common/problem.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

namespace detail {
inline constexpr std::string_view carveout_expected =
    " is not a carveout; expected default, max-shared, max-l1 or a percentage in [0, 100]";
inline constexpr std::string_view cache_expected = " is not a cache preference; expected none, shared, l1 or equal";
}  // namespace detail

/// Static and dynamic shared memory that each fit but together exceed what
/// a request may hold.
inline std::optional<input_problem> shared_memory_sum_problem(const launch_config& launch) {
  if (launch.requested_shared_memory_bytes() <= max_request_value) return std::nullopt;
  return input_problem{"dyn_smem", std::to_string(launch.dynamic_shared_memory_bytes) +
                                       " makes static + dynamic shared memory exceed " +
                                       std::to_string(max_request_value) + " bytes"};
}

/// Both a carveout and a cache preference: both choose the same split of
/// the SM's memory, and neither may be dropped silently.
inline std::optional<input_problem> configuration_choice_problem(const launch_config& launch) {
  if (!launch.carveout_percent || launch.cache == cache_preference::none) return std::nullopt;
  return input_problem{"cache", std::string(to_string(launch.cache)) + " and " + field_ref("carveout") + " " +
                                    std::to_string(*launch.carveout_percent) +
                                    " both choose the shared memory configuration; give one"};
}

/// What `launch` asks that `arch` lacks: a carveout where its shared memory
/// has none, a cache preference where it is fixed, more barriers than a
/// block may use.
inline std::optional<input_problem> configuration_problem(const nvidia_arch& arch, const launch_config& launch) {
  const auto model = arch.shared_memory_config_model;
  if (launch.carveout_percent && model != shared_memory_config::carveout) {
    return input_problem{"carveout", std::to_string(*launch.carveout_percent) + " does not apply to " + arch.id +
                                         ": its shared memory has no carveout (carveouts start with 7.0)"};
  }
  if (launch.cache != cache_preference::none && model == shared_memory_config::fixed) {
    return input_problem{"cache", std::string(to_string(launch.cache)) + " does not apply to " + arch.id +
                                      ": its shared memory is a fixed " +
                                      std::to_string(arch.shared_memory_per_sm_bytes) + " bytes per SM"};
  }
  if (launch.barriers > arch.max_barriers_per_block) {
    return input_problem{"barriers", std::to_string(launch.barriers) + " is outside [0, " +
                                         std::to_string(arch.max_barriers_per_block) + "] for " + arch.id};
  }
  return std::nullopt;
}

/// Everything the command line refuses in a launch given as numbers, the
/// first in the order it reads the fields; nothing for a launch
/// `compute_occupancy` may be given.
inline std::optional<input_problem> launch_problem(const nvidia_arch& arch, const launch_config& launch) {
  if (auto p = count_problem("threads", launch.threads_per_block, {1, max_request_value})) return p;
  if (auto p = count_problem("regs", launch.registers_per_thread, {0, max_request_registers})) return p;
  if (auto p = count_problem("smem", launch.static_shared_memory_bytes, {0, max_request_value}, " bytes")) return p;
  if (auto p = count_problem("dyn_smem", launch.dynamic_shared_memory_bytes, {0, max_request_value}, " bytes"))
    return p;
  if (auto p = shared_memory_sum_problem(launch)) return p;
  if (const auto percent = launch.carveout_percent; percent && (*percent < 0 || *percent > 100))
    return input_problem{"carveout", detail::quoted(std::to_string(*percent)) + std::string(detail::carveout_expected)};
  if (const auto cache = static_cast<int>(launch.cache); cache < 0 || cache > static_cast<int>(cache_preference::equal))
    return input_problem{"cache", detail::quoted(std::to_string(cache)) + std::string(detail::cache_expected)};
  if (auto p = configuration_choice_problem(launch)) return p;
  if (auto p = count_problem("barriers", launch.barriers, {0, max_request_value})) return p;
  return configuration_problem(arch, launch);
}

/// A launch's occupancy, or why the command line would refuse it.
struct checked_occupancy {
  std::optional<occupancy_result> result;
  std::optional<input_problem> problem;

  explicit operator bool() const noexcept { return result.has_value(); }
};

/// The occupancy of `launch` on `arch` (an architecture of a table the
/// loader accepted, or of the compiled tables), checked first: never
/// throws, never divides by a zero it was given.
inline checked_occupancy compute_occupancy_checked(const nvidia_arch& arch, const launch_config& launch) {
  if (auto p = launch_problem(arch, launch)) return {std::nullopt, std::move(p)};
  return {compute_occupancy(arch, launch), std::nullopt};
}

}  // namespace occcalc
