// JSON strings as every JSON output writes them: quoted, escaped, and with
// invalid UTF-8 replaced.
#pragma once

#include <string>
#include <string_view>

namespace occcalc::cli {

/// Appends `text` as a JSON string, quoted and escaped; invalid UTF-8 bytes
/// become U+FFFD, as in every JSON occcalc writes.
void append_json_string(std::string& out, std::string_view text);

/// Whether every byte of `text` is printable ASCII other than a quote and a
/// backslash: what a JSON string holds as it is, without escaping.
bool plain_json_text(std::string_view text) noexcept;

}  // namespace occcalc::cli
