// Small pieces of text output shared by the renderers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "render/terminal.hpp"

namespace occcalc::cli {

/// Width of the label column in the text breakdowns.
inline constexpr int label_width = 26;

/// A size in bytes for people: `4096 B (4 KiB)`, or `1040 B`.
std::string bytes_text(std::int64_t bytes);

/// The device a grid's waves run on, for the waves heading: the GPU's name,
/// or `132 SMs` without one, or `42 SMs of A100-SXM4-80GB (--sm-count)` when
/// the count given overrides the GPU's. `units` names the count (`SMs`).
std::string device_text(std::int64_t count, std::string_view units, const std::string* gpu_name, bool count_given);

/// One `  label  value  note` line of a text breakdown, fitted to `columns`:
/// a note that does not fit beside the value goes on its own lines under
/// the value, wrapped at spaces.
std::string row(std::string_view label, std::string_view value, std::string_view note, std::size_t columns);

/// `1 block`, `2 blocks`: a count with its noun in the right number.
std::string counted(std::int64_t n, std::string_view singular, std::string_view plural);

/// How an occupancy reads at a glance: bad when nothing runs, warn below
/// half, good from half up.
style occupancy_style(bool runs, double percent);

/// The answer's last line: `Theoretical occupancy   75.0%  limited by
/// registers` (the figure painted in `level`), the limiters on a line of
/// their own where the width is too narrow for one.
std::string occupancy_line(double percent, style level, std::string_view limiters, const terminal& term);

/// A heading in bold, wrapped to the terminal's width.
std::string heading(std::string_view text, const terminal& term);

/// The lines of `text` broken at spaces: the first at most `first_width`
/// columns, the others `width` (a word longer than that keeps its own
/// line). The one word-wrapping loop every other layout uses.
std::vector<std::string> wrap_lines(std::string_view text, std::size_t first_width, std::size_t width);

/// `label` (painted in `s`) padded to `indent`, then `text` wrapped to the
/// terminal, its later lines at `continuation`: `FAIL    name ...` or
/// `REGRESSED sm_80 ...`.
std::string labelled(std::string_view label, style s, std::string_view text, std::size_t indent,
                     std::size_t continuation, const terminal& term);

/// `line` without its trailing spaces, cut back no further than `from` (the
/// start of the last line, where `line` holds others before it).
void trim_end(std::string& line, std::size_t from = 0);

/// `text` broken at spaces into lines of at most `width` columns (a word
/// longer than that keeps its own line), each prefixed by `indent` spaces
/// and ended by a newline.
std::string wrap(std::string_view text, std::size_t indent, std::size_t width);

/// `text` as lines that fit `columns`: the first after `first_indent`
/// spaces, the rest after `indent` spaces (a hanging indent).
std::string wrap_hanging(std::string_view text, std::size_t first_indent, std::size_t indent, std::size_t columns);

}  // namespace occcalc::cli
