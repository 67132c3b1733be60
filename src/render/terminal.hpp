// What the text views may use (colour, non-ASCII characters, line width),
// decided once at the edge, and the few styles the renderers use.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace occcalc::cli {

/// When to colour: `auto` follows the conventions below.
enum class colour_mode { automatic, always, never };

/// Columns a text view fits when the terminal's width is unknown (piped to
/// a file or a pager that a person reads).
inline constexpr std::size_t default_columns = 80;
/// The narrowest width a view is laid out for: below it no layout reads.
inline constexpr std::size_t min_columns = 40;

/// What a text view may use.
struct terminal {
  /// ANSI colour and bold.
  bool colour = false;
  /// Characters beyond ASCII (block elements, the ellipsis).
  bool utf8 = false;
  /// The widest line a view may print, in columns.
  std::size_t columns = default_columns;
  /// Whether a person reads it on a terminal: only there is a name cut to
  /// fit. A pipe or a file gets every name whole, so a report stays
  /// greppable.
  bool tty = false;
};

/// An environment variable's value, or null when unset (`std::getenv`).
using environment = std::function<const char*(const char*)>;

/// The colour `mode` gives when `auto` would give `automatic`: always
/// and never are final.
bool colour_under(colour_mode mode, bool automatic) noexcept;

/// Whether to colour under `mode`: always and never are final; `auto`
/// colours a terminal (`is_tty`) unless NO_COLOR is set and not empty
/// (no-color.org), CLICOLOR is 0 or TERM is dumb; FORCE_COLOR (not empty,
/// not 0 or false) or CLICOLOR_FORCE (not empty, not 0) colour a pipe too,
/// as CI logs want. NO_COLOR wins over them: it is the user's own opt-out.
bool use_colour(colour_mode mode, bool is_tty, const environment& env);

/// The width to lay text out for: the terminal's (`tty_columns`), else
/// COLUMNS when it is a number, else `default_columns`; never below
/// `min_columns`.
std::size_t columns_for(std::optional<std::size_t> tty_columns, const environment& env);

/// Whether the locale the environment names for characters (the first set
/// of LC_ALL, LC_CTYPE and LANG, POSIX's order) has the codeset UTF-8 or
/// utf8, in any case (`C.UTF-8`, `en_US.utf8@euro`). Read from the names,
/// as tmux does, not by loading the locale: `setlocale` opens and maps
/// several files at every start, a third of a query's system calls. A
/// name without a codeset (`C`, `POSIX`, `en_US`) is not UTF-8.
bool utf8_locale(const environment& env);

/// The terminal `stream` writes to, under `mode`, from the process's
/// environment, the terminal's size and the locale.
terminal detect_terminal(colour_mode mode, std::FILE* stream);

/// Parses auto/always/never (anything else is auto; CLI11 checks the value).
colour_mode colour_mode_from(const std::string& text);

/// Text styles.
enum class style { bold, dim, limiter, good, warn, bad };

/// `text` wrapped in the ANSI codes of `s` when `enabled`, else unchanged.
std::string paint(std::string_view text, style s, bool enabled);

/// The columns `text` takes on a terminal: UTF-8 sequences count once and
/// ANSI escape sequences not at all.
std::size_t display_width(std::string_view text);

/// The length of `text`'s longest prefix of ASCII without an escape byte,
/// where a byte is a character and a column (a whole table of kernel names
/// is, usually). Tested eight bytes at a time.
std::size_t plain_ascii_prefix(std::string_view text) noexcept;

}  // namespace occcalc::cli
