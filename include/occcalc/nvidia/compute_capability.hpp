/// \file nvidia/compute_capability.hpp
/// A compute capability and its spellings (`7.0`, `70`, `sm_70`,
/// `compute_70`, `sm_90a`): used by requests and by the table loader.
#pragma once

#include <string>
#include <string_view>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc {

/// A compute capability.
struct compute_capability {
  int major = 0;
  int minor = 0;
};

/// Parses a compute capability written as `7.0`, `7`, `70`, `sm_70`,
/// `compute_70`, or an arch-specific target such as `sm_90a` or `sm_100f`.
/// Bare `10` to `19` are refused as ambiguous (1.x or 1x.0). Throws for
/// anything else; whether it is supported is for the table.
inline compute_capability parse_compute_capability(const std::string& field, std::string_view text) {
  const std::string low = detail::lower(detail::trim(text));
  const auto fail = [&]() -> input_error {
    return input_error(field, detail::quoted(detail::trim(text)) +
                                  " is not a compute capability; expected e.g. 7.0, 70, sm_70 or "
                                  "compute_70");
  };
  std::string_view body = low;
  bool prefixed = false;
  for (const std::string_view prefix : {"sm_", "compute_"}) {
    if (body.substr(0, prefix.size()) == prefix) {
      body.remove_prefix(prefix.size());
      prefixed = true;
      break;
    }
  }
  if (prefixed && !body.empty() && (body.back() == 'a' || body.back() == 'f')) body.remove_suffix(1);
  if (const auto dot = body.find('.'); dot != std::string_view::npos) {
    if (prefixed) throw fail();
    const auto major = detail::parse_decimal(body.substr(0, dot));
    const auto minor = detail::parse_decimal(body.substr(dot + 1));
    if (!major || !minor || body[0] == '+' || body[0] == '-' || body[dot + 1] == '+' || body[dot + 1] == '-' ||
        *major > 99 || *minor > 9) {
      throw fail();
    }
    return {static_cast<int>(*major), static_cast<int>(*minor)};
  }
  const auto digits = detail::parse_decimal(body);
  if (!digits || body.empty() || body[0] == '+' || body[0] == '-' || *digits > 999) throw fail();
  if (!prefixed && body.size() == 1) return {static_cast<int>(*digits), 0};
  // Two bare digits from 10 to 19 read two ways: `10` is 1.0 in the nvcc
  // spelling (sm_10) and 10.0 to someone who means Blackwell. Neither
  // reading is guessed; the prefixed and dotted forms stay unambiguous.
  if (!prefixed && body.size() == 2 && body[0] == '1') {
    const std::string old_reading = std::string(1, body[0]) + "." + body[1];
    const std::string new_reading = std::string(body) + ".0";
    throw input_error(field, detail::quoted(detail::trim(text)) + " is ambiguous: compute capability " + old_reading +
                                 " or " + new_reading + "; write " + old_reading + " or " + new_reading + " (or sm_" +
                                 std::string(body) + " for " + old_reading + ")");
  }
  if (body.size() < 2) throw fail();
  return {static_cast<int>(*digits / 10), static_cast<int>(*digits % 10)};
}

/// What a binary's target adds to its compute capability: nothing (`sm_90`),
/// arch-specific features (`sm_90a`), or family-specific ones (`sm_100f`).
enum class target_features : unsigned char { none, arch_specific, family };

/// The features a target's spelling names: its `a` or `f` suffix.
inline target_features features_of(std::string_view target) {
  const std::string low = detail::lower(detail::trim(target));
  if (low.size() < 2 || !(low.back() == 'a' || low.back() == 'f')) return target_features::none;
  return low.back() == 'a' ? target_features::arch_specific : target_features::family;
}

/// Whether a GPU of compute capability `gpu` loads a cubin built for
/// `image` with `features` (CUDA's binary compatibility, CUDA C++
/// Programming Guide, "Binary Compatibility", and nvcc's "GPU Feature List"):
/// a cubin runs on GPUs of its major version and a minor version at least
/// its own; an arch-specific (`a`) cubin only on its own compute capability;
/// a family (`f`) cubin on its family, the same major version from its minor
/// on.
constexpr bool loads_cubin(compute_capability image, target_features features, compute_capability gpu) noexcept {
  if (features == target_features::arch_specific) return image.major == gpu.major && image.minor == gpu.minor;
  return image.major == gpu.major && image.minor <= gpu.minor;
}

}  // namespace occcalc
