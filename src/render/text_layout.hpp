// Small pieces of text output shared by the renderers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace occcalc::cli {

/// Width of the label column in the text breakdowns.
inline constexpr int label_width = 26;

/// A size in bytes for people: `4096 B (4 KiB)`, or `1040 B`.
std::string bytes_text(std::int64_t bytes);

/// The device a grid's waves run on, for the waves heading: the GPU's name,
/// or `132 SMs` without one, or `42 SMs of A100-SXM4-80GB (--sm-count)` when
/// the count given overrides the GPU's. `units` names the count (`SMs`).
std::string device_text(std::int64_t count, std::string_view units, const std::string* gpu_name, bool count_given);

/// One `  label  value  note` line of a text breakdown.
std::string row(std::string_view label, std::string_view value, std::string_view note = {});

}  // namespace occcalc::cli
