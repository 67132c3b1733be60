// GitHub Actions workflow commands (`::error file=...,title=...::message`):
// the escapes GitHub requires, for every format that writes them.
#pragma once

#include <string>
#include <string_view>

namespace occcalc::cli {

/// A command's message: `%`, CR and LF escaped (%25, %0D, %0A).
std::string command_data(std::string_view text);

/// A command's property value (`file=`, `title=`): the message escapes,
/// and `:` and `,` (%3A, %2C).
std::string command_property(std::string_view text);

}  // namespace occcalc::cli
