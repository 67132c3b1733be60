// Reading a small text input (a table file, a policy) with a size budget.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace occcalc::cli {

/// The largest table or policy file occcalc reads: the embedded tables are
/// about 150 KiB, so this is hundreds of times any real one, and it keeps
/// `/dev/zero` or a mistaken multi-gigabyte path from filling memory.
inline constexpr std::size_t max_text_file_bytes = std::size_t{64} << 20;

/// The contents of `path`, read in chunks up to `max_text_file_bytes`.
/// Throws `occcalc::error` naming the file and `what` it is ("table file")
/// when it cannot be read or is larger.
std::string read_text_file(const std::string& path, std::string_view what);

}  // namespace occcalc::cli
