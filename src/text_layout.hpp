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

/// One `  label  value  note` line of a text breakdown.
std::string row(std::string_view label, std::string_view value, std::string_view note = {});

}  // namespace occcalc::cli
