#include "render/terminal.hpp"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <sys/ioctl.h>
#include <unistd.h>

#include "occcalc/common/text.hpp"
#include "render/byte_words.hpp"

namespace occcalc::cli {

namespace {

bool set(const char* value) { return value != nullptr && *value != '\0'; }

/// FORCE_COLOR's and CLICOLOR_FORCE's "on": set, and not 0 or false.
bool forced(const char* value) {
  return set(value) && std::strcmp(value, "0") != 0 && std::strcmp(value, "false") != 0;
}

}  // namespace

bool colour_under(colour_mode mode, bool automatic) noexcept {
  return mode == colour_mode::automatic ? automatic : mode == colour_mode::always;
}

bool use_colour(colour_mode mode, bool is_tty, const environment& env) {
  if (mode != colour_mode::automatic) return colour_under(mode, false);
  if (set(env("NO_COLOR"))) return false;
  if (forced(env("FORCE_COLOR")) || forced(env("CLICOLOR_FORCE"))) return true;
  const char* clicolor = env("CLICOLOR");
  if (clicolor != nullptr && std::strcmp(clicolor, "0") == 0) return false;
  const char* term = env("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return is_tty;
}

std::size_t columns_for(std::optional<std::size_t> tty_columns, const environment& env) {
  std::size_t columns = default_columns;
  if (tty_columns && *tty_columns > 0) {
    columns = *tty_columns;
  } else if (const char* text = env("COLUMNS"); set(text)) {
    std::size_t n = 0;
    const char* end = text + std::strlen(text);
    const auto [at, ec] = std::from_chars(text, end, n);
    if (ec == std::errc() && at == end && n > 0) columns = n;
  }
  return columns < min_columns ? min_columns : columns;
}

bool utf8_locale(const environment& env) {
  // POSIX's precedence for LC_CTYPE: the first of these that is set.
  for (const char* variable : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* name = env(variable);
    if (!set(name)) continue;
    // language[_territory][.codeset][@modifier]
    const std::string_view locale(name);
    const std::size_t dot = locale.find('.');
    if (dot == std::string_view::npos) return false;
    const std::string codeset = occcalc::detail::lower(locale.substr(dot + 1, locale.find('@', dot) - dot - 1));
    return codeset == "utf-8" || codeset == "utf8";
  }
  return false;
}

terminal detect_terminal(colour_mode mode, std::FILE* stream) {
  const int fd = fileno(stream);
  const bool tty = fd >= 0 && isatty(fd) != 0;
  std::optional<std::size_t> tty_columns;
  winsize size{};
  if (tty && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) tty_columns = size.ws_col;
  const environment env = [](const char* name) { return std::getenv(name); };
  return {use_colour(mode, tty, env), utf8_locale(env), columns_for(tty_columns, env), tty};
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

std::size_t plain_ascii_prefix(std::string_view text) noexcept {
  constexpr unsigned char escape = 0x1b;
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= text.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, sizeof word);
    if ((byte_words::any_high(word) | byte_words::any_equal(word, escape)) != 0) break;
  }
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80 && text[i] != static_cast<char>(escape)) ++i;
  return i;
}

std::size_t display_width(std::string_view text) {
  // A column a byte up to the first byte that is not plain ASCII: no escape
  // sequence or UTF-8 sequence starts before it.
  std::size_t width = plain_ascii_prefix(text);
  for (std::size_t i = width; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      // CSI: parameters, then one final byte in @..~.
      i += 2;
      while (i < text.size() && (static_cast<unsigned char>(text[i]) < 0x40 || text[i] > '~')) ++i;
      continue;
    }
    if ((c & 0xC0) != 0x80) ++width;  // not a UTF-8 continuation byte
  }
  return width;
}

}  // namespace occcalc::cli
