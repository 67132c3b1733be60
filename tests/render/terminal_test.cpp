// Colour, width and character set decided as the conventions say (no-color.org,
// force-color.org, bixense.com/clicolors, COLUMNS).
#include "catch.hpp"

#include <map>
#include <string>

#include "render/terminal.hpp"

using occcalc::cli::colour_mode;

namespace {

occcalc::cli::environment env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

bool colour(colour_mode mode, bool tty, std::map<std::string, std::string> vars) {
  return occcalc::cli::use_colour(mode, tty, env_of(std::move(vars)));
}

}  // namespace

TEST_CASE("terminal: colour follows --color, NO_COLOR, FORCE_COLOR, CLICOLOR and TERM", "[render][terminal]") {
  const auto automatic = colour_mode::automatic;
  CHECK(colour(automatic, true, {}));
  CHECK_FALSE(colour(automatic, false, {}));
  CHECK_FALSE(colour(automatic, true, {{"NO_COLOR", "1"}}));
  CHECK(colour(automatic, true, {{"NO_COLOR", ""}}));  // empty is unset
  CHECK(colour(automatic, false, {{"FORCE_COLOR", "1"}}));
  CHECK(colour(automatic, false, {{"FORCE_COLOR", "3"}}));
  CHECK_FALSE(colour(automatic, false, {{"FORCE_COLOR", "0"}}));
  CHECK_FALSE(colour(automatic, false, {{"FORCE_COLOR", ""}}));
  CHECK(colour(automatic, false, {{"CLICOLOR_FORCE", "1"}}));
  CHECK_FALSE(colour(automatic, false, {{"CLICOLOR_FORCE", "0"}}));
  CHECK_FALSE(colour(automatic, false, {{"NO_COLOR", "1"}, {"FORCE_COLOR", "1"}}));  // the user's opt-out wins
  CHECK_FALSE(colour(automatic, true, {{"CLICOLOR", "0"}}));
  CHECK_FALSE(colour(automatic, true, {{"TERM", "dumb"}}));
  CHECK(colour(automatic, true, {{"TERM", "xterm-256color"}}));
  CHECK(colour(colour_mode::always, false, {{"NO_COLOR", "1"}}));
  CHECK_FALSE(colour(colour_mode::never, true, {{"FORCE_COLOR", "1"}}));
}

TEST_CASE("terminal: the width is the terminal's, else COLUMNS, else 80", "[render][terminal]") {
  using occcalc::cli::columns_for;
  CHECK(columns_for(132, env_of({{"COLUMNS", "100"}})) == 132);
  CHECK(columns_for(std::nullopt, env_of({{"COLUMNS", "100"}})) == 100);
  CHECK(columns_for(std::nullopt, env_of({})) == 80);
  CHECK(columns_for(std::nullopt, env_of({{"COLUMNS", "wide"}})) == 80);
  CHECK(columns_for(std::nullopt, env_of({{"COLUMNS", "100x"}})) == 80);
  CHECK(columns_for(std::nullopt, env_of({{"COLUMNS", "0"}})) == 80);
  CHECK(columns_for(std::nullopt, env_of({{"COLUMNS", "12"}})) == occcalc::cli::min_columns);
  CHECK(columns_for(20, env_of({})) == occcalc::cli::min_columns);
}

TEST_CASE("terminal: UTF-8 when the locale LC_CTYPE names has that codeset", "[render][terminal]") {
  const auto utf8 = [](std::map<std::string, std::string> vars) {
    return occcalc::cli::utf8_locale(env_of(std::move(vars)));
  };
  CHECK(utf8({{"LANG", "C.UTF-8"}}));
  CHECK(utf8({{"LANG", "en_US.utf8"}}));
  CHECK(utf8({{"LANG", "de_DE.Utf-8@euro"}}));
  CHECK_FALSE(utf8({}));
  CHECK_FALSE(utf8({{"LANG", "C"}}));
  CHECK_FALSE(utf8({{"LANG", "POSIX"}}));
  CHECK_FALSE(utf8({{"LANG", "en_US"}}));  // no codeset named
  CHECK_FALSE(utf8({{"LANG", "en_US.ISO-8859-1"}}));
  CHECK_FALSE(utf8({{"LANG", "en_US.UTF-16"}}));
  CHECK_FALSE(utf8({{"LANG", "C.UTF-8x"}}));
  // LC_ALL, then LC_CTYPE, then LANG; an empty one is unset.
  CHECK_FALSE(utf8({{"LC_ALL", "C"}, {"LC_CTYPE", "C.UTF-8"}, {"LANG", "C.UTF-8"}}));
  CHECK(utf8({{"LC_CTYPE", "C.UTF-8"}, {"LANG", "C"}}));
  CHECK_FALSE(utf8({{"LC_CTYPE", "C"}, {"LANG", "C.UTF-8"}}));
  CHECK(utf8({{"LC_ALL", ""}, {"LANG", "C.UTF-8"}}));
}

TEST_CASE("terminal: display width counts characters, not bytes or escapes", "[render][terminal]") {
  using occcalc::cli::display_width;
  CHECK(display_width("75.0%") == 5);
  CHECK(display_width("\u2588\u2588 x") == 4);
  CHECK(display_width("\u2026") == 1);
  CHECK(display_width(occcalc::cli::paint("75.0%", occcalc::cli::style::good, true)) == 5);
  CHECK(display_width("") == 0);
}

TEST_CASE("terminal: display width and the plain ASCII prefix at every place and length", "[render][terminal]") {
  using occcalc::cli::display_width;
  using occcalc::cli::plain_ascii_prefix;
  // The byte-at-a-time rule the word-at-a-time test must agree with: CSI
  // sequences take no column, UTF-8 continuation bytes none, others one.
  const auto reference_width = [](std::string_view text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
        i += 2;
        while (i < text.size() && (static_cast<unsigned char>(text[i]) < 0x40 || text[i] > '~')) ++i;
        continue;
      }
      if ((c & 0xC0) != 0x80) ++width;
    }
    return width;
  };
  const auto reference_prefix = [](std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80 && text[i] != '\x1b') ++i;
    return i;
  };
  // Each inserted at every place of plain text of every length to 40: a
  // CSI sequence, a lone ESC, UTF-8 of two and three bytes, DEL, a NUL
  // (the borrow case of the zero-byte test) and a byte one off ESC.
  const std::string inserts[] = {"\x1b[1;32m",         "\x1b", "\xc3\xa9", "\xe2\x80\xa6", "\x7f",
                                 std::string(1, '\0'), "\x1a", "\x1c"};
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string plain(length, 'k');
    for (std::size_t i = 0; i < length; ++i) plain[i] = static_cast<char>(' ' + (i * 7) % 95);
    INFO(length);
    CHECK(display_width(plain) == length);
    CHECK(plain_ascii_prefix(plain) == length);
    for (const auto& insert : inserts) {
      for (std::size_t at = 0; at <= length; ++at) {
        const std::string text = plain.substr(0, at) + insert + plain.substr(at);
        INFO(at);
        CHECK(display_width(text) == reference_width(text));
        CHECK(plain_ascii_prefix(text) == reference_prefix(text));
      }
    }
  }
}
