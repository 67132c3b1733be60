#include "render/github_commands.hpp"

#include <fmt/format.h>

#include "occcalc/common/text.hpp"

namespace occcalc::cli {

std::string command_data(std::string_view raw) {
  // Control characters as \xNN first: a newline in a name never starts a
  // line, so never a command.
  const std::string text = occcalc::detail::printable(raw);
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string command_property(std::string_view text) {
  std::string out;
  for (const char c : command_data(text)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

std::string annotations(std::string_view level, const std::vector<annotation>& items, std::string_view what,
                        std::string_view full_report) {
  const std::size_t shown =
      items.size() <= github_annotations_per_level ? items.size() : github_annotations_per_level - 1;
  std::string out;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& a = items[i];
    out += fmt::format("::{} {}title={}::{}\n", level, a.file.empty() ? "" : "file=" + command_property(a.file) + ",",
                       command_property(a.title), command_data(a.message));
  }
  if (shown < items.size()) {
    const std::size_t more = items.size() - shown;
    out += fmt::format("::{} title={}::{}\n", level, command_property(fmt::format("occcalc: {} more {}", more, what)),
                       command_data(fmt::format("{} more {} not annotated (GitHub shows {} of a kind per step); {}",
                                                more, what, github_annotations_per_level, full_report)));
  }
  return out;
}

}  // namespace occcalc::cli
