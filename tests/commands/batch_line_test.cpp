// A batch line read into a request: the typed path (RapidJSON's events) for
// plain lines, held to the strict path (nlohmann's document) on every line
// it accepts, and declining every line the strict path refuses.
#include "catch.hpp"

#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "commands/batch_line.hpp"
#include "occcalc/error.hpp"

using occcalc::cli::batch_line;
using occcalc::cli::batch_line_reader;

namespace {

/// Whether two reads of a line ask the same: every field's value, typed or
/// integer, and the id's JSON text.
bool same(const batch_line& a, const batch_line& b) {
  if (a.id_json != b.id_json) return false;
  for (const auto& field : occcalc::request_fields) {
    const auto& x = a.request.*(field.member);
    const auto& y = b.request.*(field.member);
    if (x.has_value() != y.has_value()) return false;
    if (x && (x->integer() != y->integer() || x->typed() != y->typed())) return false;
  }
  return true;
}

/// The strict path's reading of `line`, or its error's message.
std::optional<std::string> strict_error(std::string_view line, batch_line& to) {
  try {
    batch_line_reader::read_strictly(line, 1, to);
    return std::nullopt;
  } catch (const occcalc::input_error& e) {
    return std::string(e.field()) + ": " + e.what();
  }
}

}  // namespace

TEST_CASE("batch line: a plain line goes the typed way, with its values as given", "[batch][batch_line]") {
  batch_line_reader reader;
  batch_line line;
  REQUIRE(reader.read_plain(R"({"id": "k1", "cc": "8.6", "threads": 256, "regs": 64, "dyn_smem": "4K"})", line));
  CHECK(line.id_json == R"("k1")");
  CHECK(line.request.cc->typed() == "8.6");
  CHECK_FALSE(line.request.cc->integer());
  CHECK(line.request.threads->integer() == 256);
  CHECK(line.request.regs->integer() == 64);
  CHECK(line.request.dyn_smem->typed() == "4K");
  CHECK_FALSE(line.request.smem);
  REQUIRE(reader.read_plain("\t{ \"gfx\":\"gfx1100\",\"wave64\" : true, \"cu_mode\": false, \"id\": -7 }\r", line));
  CHECK(line.id_json == "-7");
  CHECK(line.request.gfx->typed() == "gfx1100");
  CHECK(line.request.wave64->typed() == "true");
  CHECK(line.request.cu_mode->typed() == "false");
  CHECK_FALSE(line.request.cc);  // cleared from the line before
  REQUIRE(reader.read_plain(R"({"threads": 9223372036854775807, "regs": -0})", line));
  CHECK(line.request.threads->integer() == 9223372036854775807);
  CHECK(line.request.regs->integer() == 0);
}

TEST_CASE("batch line: what the typed way declines, for the strict reader to read or refuse", "[batch][batch_line]") {
  batch_line_reader reader;
  batch_line line;
  const std::vector<std::string> declined = {
      R"({"cc": "7\u002e0", "threads": 128})",               // an escape
      "{\"gpu\": \"Radeon\xe2\x84\xa2\", \"threads\": 64}",  // UTF-8
      R"({"cc": "7.0", "cc": "7.5"})",                       // a repeated key
      R"({"id": 1, "id": 2})",                               // a repeated id
      R"({"cc": "7.0", "wat": 1})",                          // an unknown key
      R"({"cc": "7.0", "regs": 37.0})",                      // a fraction
      R"({"cc": "7.0", "regs": 1e2})",                       // an exponent
      R"({"cc": "7.0", "regs": null})",                      // a null
      R"({"cc": "7.0", "regs": [37]})",                      // nesting
      R"({"cc": {"major": 7}})",                             // nesting
      R"({"cc": "7.0", "regs": 9223372036854775808})",       // past 64 signed bits
      R"({"cc": "7.0", "regs": 18446744073709551616})",      // past 64 bits
      R"({"cc": "7.0", "threads": "  "})",                   // an empty value
      R"({"cc": "7.0", "wave32": 1})",                       // a switch that is not true or false
      R"({"cc": true})",                                     // a value that is
      R"({"cc": "7.0"} {"cc": "7.5"})",                      // text after the object
      R"({"cc": "7.0",})",                                   // a trailing comma
      R"([{"cc": "7.0"}])",                                  // not an object
      R"("7.0")",                                            // not an object
      R"({"cc": "7.0" /* a comment */})",                    // a comment
      std::string("{\"cc\": \"7.0\"}\0", 14),                // a NUL byte
      R"({"cc": "7.0")",                                     // cut short
      R"({"id": null, "cc": "7.0"})",                        // an id of the wrong kind
  };
  for (const auto& text : declined) {
    INFO(text);
    CHECK_FALSE(reader.read_plain(text, line));
  }
  // The strict path reads the first one as the typed path would read it
  // unescaped.
  batch_line strict;
  REQUIRE_FALSE(strict_error(declined[0], strict));
  CHECK(strict.request.cc->typed() == "7.0");
}

TEST_CASE("batch line: the typed way reads every line it accepts as the strict way does", "[batch][batch_line]") {
  // Lines built from the fields' keys and values of every kind, with a few
  // broken on purpose; 40,000 of them, seeded.
  std::mt19937 random(20261125);
  const auto pick = [&](const auto& items) -> const auto& {
    return items[std::uniform_int_distribution<std::size_t>(0, std::size(items) - 1)(random)];
  };
  const auto chance = [&](double p) { return std::bernoulli_distribution(p)(random); };
  std::vector<std::string> keys;
  for (const auto& field : occcalc::request_fields) keys.emplace_back(field.key);
  keys.insert(keys.end(), {"id", "id", "wat", "", "Threads", "thr\\u0065ads"});
  const std::vector<std::string> values = {R"("7.0")",
                                           R"("8.6")",
                                           R"("sm_90")",
                                           R"("gfx90a")",
                                           R"("RTX 4090")",
                                           R"("4K")",
                                           R"("max-shared")",
                                           R"(" ")",
                                           R"("")",
                                           R"("a\"b")",
                                           R"("\u00e9")",
                                           "\"\xc3\xa9\"",
                                           "\"\xff\"",
                                           R"("\ud800")",
                                           "0",
                                           "37",
                                           "-1",
                                           "-0",
                                           "128",
                                           "2147483648",
                                           "9223372036854775807",
                                           "9223372036854775808",
                                           "18446744073709551616",
                                           "-9223372036854775808",
                                           "-9223372036854775809",
                                           "1.0",
                                           "1e2",
                                           "-0.0",
                                           "true",
                                           "false",
                                           "null",
                                           "[]",
                                           "[1]",
                                           "{}",
                                           R"({"a": 1})",
                                           "01",
                                           "+1",
                                           "NaN"};
  const std::vector<std::string> spaces = {"", "", " ", "  ", "\t", "\r", " \r"};
  const std::string breakers = "{}[]\",:\\ \t0a-\x01\x80";
  batch_line_reader reader;
  int plain = 0, declined_valid = 0, declined_invalid = 0;
  for (int i = 0; i < 40000; ++i) {
    std::string line = pick(spaces) + "{";
    const int members = std::uniform_int_distribution<int>(0, 6)(random);
    for (int m = 0; m < members; ++m) {
      if (m > 0) line += pick(spaces) + ",";
      line += pick(spaces) + "\"" + pick(keys) + "\"" + pick(spaces) + ":" + pick(spaces) + pick(values);
    }
    line += pick(spaces) + "}" + pick(spaces);
    if (chance(0.1)) {  // one byte changed, dropped or added
      const auto at = std::uniform_int_distribution<std::size_t>(0, line.size() - 1)(random);
      switch (std::uniform_int_distribution<int>(0, 2)(random)) {
        case 0: line[at] = pick(breakers); break;
        case 1: line.erase(at, 1); break;
        default: line.insert(at, 1, pick(breakers)); break;
      }
    }
    INFO(line);
    batch_line typed, strict;
    const bool accepted = reader.read_plain(line, typed);
    const auto error = strict_error(line, strict);
    if (accepted) {
      ++plain;
      REQUIRE_FALSE(error);
      REQUIRE(same(typed, strict));
    } else {
      ++(error ? declined_invalid : declined_valid);
    }
  }
  // Each way is taken often: the check above is not vacuous.
  CHECK(plain > 2000);
  CHECK(declined_valid > 500);
  CHECK(declined_invalid > 2000);
}
