// Static libraries (`ar` archives, what CMake's add_library() makes by
// default): the members, each read as its own input. GNU (`//` name table,
// `/N` references) and BSD (`#1/N` names inline) long names; the symbol
// tables (`/`, `/SYM64/`, `__.SYMDEF`) are skipped. Thin archives, whose
// members live in other files, are refused.
#pragma once

#include <string>
#include <vector>

#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

/// One member of an archive.
struct ar_member {
  std::string name;
  byte_view contents;
};

/// Whether `bytes` begins with an archive's magic (`!<arch>\n`), or a thin
/// archive's (`!<thin>\n`).
bool is_ar_archive(byte_view bytes) noexcept;

/// The members of the archive `bytes`, in order, without its symbol and
/// name tables. Throws `format_error` for a thin archive or a corrupt
/// header (a size that runs past the end, a name outside the name table).
std::vector<ar_member> ar_members(byte_view bytes);

}  // namespace occcalc::inspect
