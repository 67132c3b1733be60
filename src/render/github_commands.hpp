// GitHub Actions workflow commands (`::error file=...,title=...::message`):
// the escapes GitHub requires, for every format that writes them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace occcalc::cli {

/// A command's message: control characters as `\xNN` (a newline in a name
/// can never end the command), then `%` as %25.
std::string command_data(std::string_view text);

/// A command's property value (`file=`, `title=`): the message escapes,
/// and `:` and `,` (%3A, %2C).
std::string command_property(std::string_view text);

/// GitHub shows at most 10 annotations of each level (error, warning,
/// notice) per step, and 50 per job; the rest are dropped without a word.
inline constexpr std::size_t github_annotations_per_level = 10;

/// One annotation: the file it is on (none when empty), its title and its
/// message, as plain text (escaped when written).
struct annotation {
  std::string file;
  std::string title;
  std::string message;
};

/// Writes `items` as `::level` commands, worst first as given, at most the
/// 10 GitHub shows: past that, the first 9 and one that counts the rest and
/// says where they all are (`full_report`).
std::string annotations(std::string_view level, const std::vector<annotation>& items, std::string_view what,
                        std::string_view full_report);

}  // namespace occcalc::cli
