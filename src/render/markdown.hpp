// Markdown for pull requests and step summaries: the one escaping every
// Markdown output uses, and the budget a report keeps to.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace occcalc::cli {

/// The most rows a report's table shows before it counts the rest.
inline constexpr std::size_t max_markdown_rows = 50;

/// The most bytes a Markdown report runs to: a pull request comment holds
/// 65,536 characters and GitHub refuses a step summary over 1 MiB.
inline constexpr std::size_t max_markdown_bytes = 60 * 1024;

/// A table cell: `printable` text (controls as `\xNN`, bidi and zero-width
/// characters as `\uNNNN`), every ASCII punctuation character
/// backslash-escaped and `<` and `&` as entities, so that no HTML, link,
/// autolink, emphasis or column comes from data; at most `max_cell_chars`
/// bytes, cut in the middle, where template arguments often differ.
std::string markdown_cell(std::string_view text);

/// Inline code in a table cell: `printable` text shown as it is (a name with
/// `<` stays text), `|` escaped, fenced by one backtick more than the longest
/// run of backticks inside, so that data cannot close the span.
std::string markdown_code(std::string_view text);

/// Appends the rows `row(0)` ... `row(count - 1)` of a table to `out` while
/// the report keeps within `max_markdown_rows` and `max_markdown_bytes`,
/// then, if some were left out, a line counting them followed by `rest`
/// (where the others are).
void append_rows(std::string& out, std::size_t count, const std::function<std::string(std::size_t)>& row,
                 std::string_view rest);

/// The longest a cell runs before it is cut in the middle.
inline constexpr std::size_t max_cell_chars = 240;

}  // namespace occcalc::cli
