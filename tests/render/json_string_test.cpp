// JSON strings: the fast path for plain ASCII and nlohmann's escaping must
// write the same text for every input.
#include "catch.hpp"

#include <nlohmann/json.hpp>

#include <random>
#include <string>

#include "render/json_string.hpp"
#include "render/result_json.hpp"

using namespace occcalc::cli;

namespace {

/// What nlohmann writes for `text`, invalid UTF-8 replaced: the authority.
std::string escaped_by_nlohmann(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string appended(const std::string& text) {
  std::string out = "x";  // appends, keeping what is there
  append_json_string(out, text);
  return out.substr(1);
}

}  // namespace

TEST_CASE("JSON strings: hand-checked escapes", "[render][json]") {
  CHECK(appended("registers_per_sm") == "\"registers_per_sm\"");
  CHECK(appended("") == "\"\"");
  CHECK(appended("a \"quoted\" name") == "\"a \\\"quoted\\\" name\"");
  CHECK(appended("back\\slash") == "\"back\\\\slash\"");
  CHECK(appended("tab\there") == "\"tab\\there\"");
  CHECK(appended(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
  CHECK(appended("\x7f") == "\"\x7f\"");                            // DEL needs no escape
  CHECK(appended("caf\xc3\xa9") == "\"caf\xc3\xa9\"");              // UTF-8 kept
  CHECK(appended("bad \xff byte") == "\"bad \xef\xbf\xbd byte\"");  // U+FFFD
}

TEST_CASE("JSON strings: every special byte at every place of a word and its tail", "[render][json]") {
  // Eight bytes are tested at once: a special byte in each lane of the
  // word, and in the bytes after the last whole word.
  const std::string specials = std::string("\"\\\x1f\x01\x7f\x80\xff", 7) + std::string(1, '\0');
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (const char special : specials) {
        std::string text(length, 'a');
        text[at] = special;
        INFO("length " << length << ", byte " << static_cast<int>(static_cast<unsigned char>(special)) << " at " << at);
        CHECK(appended(text) == escaped_by_nlohmann(text));
      }
    }
  }
}

TEST_CASE("JSON strings: random bytes, as nlohmann writes them", "[render][json]") {
  std::mt19937 random(20261125);
  const std::string alphabet = std::string("az_09 .\"\\\t\n\x1f\x20\x7e\x7f\x80\xbf\xc3\xa9\xe2\x82\xac\xff", 23);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<std::size_t> length(0, 40);
  for (int i = 0; i < 20000; ++i) {
    std::string text(length(random), ' ');
    for (auto& c : text) c = alphabet[pick(random)];
    INFO(escaped_by_nlohmann(text));
    CHECK(appended(text) == escaped_by_nlohmann(text));
  }
}
