// Whether to colour output, and the few styles the renderers use.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace occcalc::cli {

/// When to colour: `auto` colours a terminal unless NO_COLOR is set.
enum class colour_mode { automatic, always, never };

/// Whether output to `stream` gets colour under `mode`.
bool use_colour(colour_mode mode, std::FILE* stream);

/// Parses auto/always/never (anything else is auto; CLI11 checks the value).
colour_mode colour_mode_from(const std::string& text);

/// Whether the locale's environment (LC_ALL, else LC_CTYPE, else LANG)
/// names UTF-8, so block elements can be drawn.
bool utf8_locale();

/// Text styles.
enum class style { bold, dim, limiter, good, warn, bad };

/// `text` wrapped in the ANSI codes of `s` when `enabled`, else unchanged.
std::string paint(std::string_view text, style s, bool enabled);

}  // namespace occcalc::cli
