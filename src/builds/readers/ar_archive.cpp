#include "builds/readers/ar_archive.hpp"

#include <fmt/format.h>

#include "builds/readers/budgets.hpp"

namespace occcalc::inspect {

namespace {

// The System V / GNU / BSD ar format: an 8-byte magic, then per member a
// 60-byte header of space-padded ASCII fields, its data, and a newline to
// an even offset.
constexpr std::string_view archive_magic = "!<arch>\n";
constexpr std::string_view thin_archive_magic = "!<thin>\n";
constexpr std::uint64_t member_header_bytes = 60;
constexpr std::uint64_t name_field_bytes = 16;
constexpr std::uint64_t size_offset = 48;
constexpr std::uint64_t size_field_bytes = 10;
constexpr std::uint64_t end_marker_offset = 58;
constexpr std::string_view end_marker = "`\n";
constexpr std::string_view bsd_long_name_prefix = "#1/";

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

/// A decimal field of a header; throws naming the field when it is not one.
std::uint64_t decimal_field(std::string_view text, const char* what, std::uint64_t offset) {
  text = trim_right(text);
  if (text.empty()) throw format_error(fmt::format("the archive member header at {:#x} has no {}", offset, what));
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || value > (UINT64_MAX - 9) / 10) {
      throw format_error(fmt::format("the archive member header at {:#x} has a corrupt {}", offset, what));
    }
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

}  // namespace

bool is_ar_archive(byte_view bytes) noexcept {
  const std::string_view text = bytes.as_text().substr(0, archive_magic.size());
  return text == archive_magic || text == thin_archive_magic;
}

std::vector<ar_member> ar_members(byte_view bytes) {
  const std::string_view text = bytes.as_text();
  if (text.substr(0, thin_archive_magic.size()) == thin_archive_magic) {
    throw format_error("a thin archive: its members are other files, not in it; inspect those files");
  }
  if (text.substr(0, archive_magic.size()) != archive_magic) throw format_error("not an ar archive");
  std::vector<ar_member> members;
  std::string_view long_names;  // the GNU `//` member
  std::uint64_t at = archive_magic.size();
  while (at < bytes.size()) {
    // A trailing newline pads the last member to an even size.
    if (bytes.size() - at == 1 && text[at] == '\n') break;
    const byte_view header = bytes.sub(at, member_header_bytes, "an archive member header");
    const std::string_view fields = header.as_text();
    if (fields.substr(end_marker_offset, end_marker.size()) != end_marker) {
      throw format_error(fmt::format("the archive member header at {:#x} is corrupt (no end marker)", at));
    }
    const std::uint64_t size = decimal_field(fields.substr(size_offset, size_field_bytes), "size", at);
    byte_view data = bytes.sub(at + member_header_bytes, size, "an archive member");
    std::string_view name = trim_right(fields.substr(0, name_field_bytes));
    const std::uint64_t member_at = at;
    at += member_header_bytes + size + (size % 2);
    if (name == "/" || name == "/SYM64/" || name.substr(0, 9) == "__.SYMDEF") continue;  // symbol tables
    if (name == "//") {
      long_names = data.as_text();
      continue;
    }
    std::string member_name;
    if (name.substr(0, bsd_long_name_prefix.size()) == bsd_long_name_prefix) {
      const std::uint64_t length = decimal_field(name.substr(bsd_long_name_prefix.size()), "name length", member_at);
      if (length > size)
        throw format_error(fmt::format("an archive member's name runs past its data at {:#x}", member_at));
      const std::string_view inline_name = data.sub(0, length, "a member name").as_text();
      member_name = std::string(inline_name.substr(0, inline_name.find('\0')));  // NUL-padded
      data = data.sub(length, size - length, "an archive member");
    } else if (name.size() > 1 && name.front() == '/') {
      const std::uint64_t offset = decimal_field(name.substr(1), "name offset", member_at);
      if (offset >= long_names.size()) {
        throw format_error(
            fmt::format("an archive member names offset {} of a {}-byte name table", offset, long_names.size()));
      }
      const std::string_view rest = long_names.substr(offset);
      member_name = std::string(rest.substr(0, rest.find_first_of("/\n")));
    } else {
      if (!name.empty() && name.back() == '/') name.remove_suffix(1);  // GNU ends short names with '/'
      member_name = std::string(name);
    }
    if (members.size() >= max_archive_members) {
      throw format_error(
          fmt::format("an archive of more than {} members; no real build makes one", max_archive_members));
    }
    members.push_back({std::move(member_name), data});
  }
  return members;
}

}  // namespace occcalc::inspect
