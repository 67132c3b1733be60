#include "render/markdown.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "occcalc/common/text.hpp"

namespace occcalc::cli {

namespace {

/// `text` cut in the middle to `max_cell_chars`, at UTF-8 boundaries.
std::string shortened(const std::string& text) {
  if (text.size() <= max_cell_chars) return text;
  const auto boundary = [&](std::size_t at) {
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xc0) == 0x80) --at;
    return at;
  };
  constexpr std::string_view gap = "…";
  const std::size_t keep = (max_cell_chars - gap.size()) / 2;
  return text.substr(0, boundary(keep)) + std::string(gap) + text.substr(boundary(text.size() - keep));
}

/// `raw` as the text of a table cell: printable, shortened, every ASCII
/// punctuation character backslash-escaped (CommonMark lets any be), so that
/// no link, emphasis, autolink (`www.` and `https://` are cut by the escaped
/// `.` and `:`) or table column comes from data; `<` and `&` as entities, and
/// `@` as code, which alone stops an email autolink.
std::string cell_text(std::string_view raw) {
  const std::string text = shortened(occcalc::detail::printable(raw));
  std::string out;
  for (const char c : text) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '@') {
      out += "`@`";  // GFM links `a@b.example` through escapes and entities alike; not through code
    } else {
      if (std::ispunct(static_cast<unsigned char>(c)) != 0 && static_cast<unsigned char>(c) < 0x80) out += '\\';
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string markdown_cell(std::string_view text) { return cell_text(text); }

void append_rows(std::string& out, std::size_t count, const std::function<std::string(std::size_t)>& row,
                 std::string_view rest) {
  std::size_t shown = 0;
  for (; shown < count && shown < max_markdown_rows; ++shown) {
    std::string text = row(shown);
    if (out.size() + text.size() > max_markdown_bytes) break;
    out += text;
  }
  if (shown < count) out += fmt::format("\nand {} more, not shown here {}.\n", count - shown, rest);
}

std::string markdown_code(std::string_view text) {
  // In a table cell `|` ends the cell even in a code span unless escaped
  // (GFM); nothing else is escaped in a code span, which shows it as is.
  std::string body;
  for (const char c : shortened(occcalc::detail::printable(text))) {
    if (c == '|') body += '\\';
    body += c;
  }
  // A code span ends at the first backtick run as long as its fence
  // (CommonMark, "Code spans"): the fence is one longer than the longest run
  // inside. One space is stripped each side when both are there, so a body
  // that starts or ends with a backtick, or with a space at both ends, is
  // padded with one.
  std::size_t longest = 0;
  for (std::size_t i = 0, run = 0; i < body.size(); ++i) {
    run = body[i] == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  if (body.empty()) return "` `";
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() &&
                   (body.front() == '`' || body.back() == '`' ||
                    (body.front() == ' ' && body.back() == ' ' && body.find_first_not_of(' ') != std::string::npos));
  return pad ? fence + " " + body + " " + fence : fence + body + fence;
}

}  // namespace occcalc::cli
