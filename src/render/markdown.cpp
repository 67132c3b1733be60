#include "render/markdown.hpp"

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

std::string escaped(std::string_view raw, bool code) {
  const std::string text = shortened(occcalc::detail::printable(raw));
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '<': out += code ? "<" : "&lt;"; break;
      case '&': out += code ? "&" : "&amp;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string markdown_cell(std::string_view text) { return escaped(text, false); }

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
  const std::string body = escaped(text, true);
  const bool has_tick = body.find('`') != std::string::npos;
  return has_tick ? "`` " + body + " ``" : "`" + body + "`";
}

}  // namespace occcalc::cli
