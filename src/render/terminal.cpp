#include "render/terminal.hpp"

#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace occcalc::cli {

bool use_colour(colour_mode mode, std::FILE* stream) {
  if (mode != colour_mode::automatic) return mode == colour_mode::always;
  // https://no-color.org: any non-empty NO_COLOR disables colour.
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return isatty(fileno(stream)) != 0;
}

bool utf8_locale() {
  const char* lang = std::getenv("LC_ALL");
  if (lang == nullptr || *lang == '\0') lang = std::getenv("LC_CTYPE");
  if (lang == nullptr || *lang == '\0') lang = std::getenv("LANG");
  const std::string locale = lang ? lang : "";
  for (const char* spelling : {"UTF-8", "utf8", "UTF8", "utf-8"}) {
    if (locale.find(spelling) != std::string::npos) return true;
  }
  return false;
}

colour_mode colour_mode_from(const std::string& text) {
  if (text == "always") return colour_mode::always;
  if (text == "never") return colour_mode::never;
  return colour_mode::automatic;
}

std::string paint(std::string_view text, style s, bool enabled) {
  if (!enabled) return std::string(text);
  const char* code = "";
  switch (s) {
    case style::bold: code = "\x1b[1m"; break;
    case style::dim: code = "\x1b[2m"; break;
    case style::limiter: code = "\x1b[1;33m"; break;
    case style::good: code = "\x1b[1;32m"; break;
    case style::warn: code = "\x1b[1;33m"; break;
    case style::bad: code = "\x1b[1;31m"; break;
  }
  return std::string(code) + std::string(text) + "\x1b[0m";
}

}  // namespace occcalc::cli
