// The calculators' small value types: an integer or none in one word, a set
// of enumerators in one word.
#include "catch.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include "occcalc/common/enum_set.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/nvidia/occupancy.hpp"

using occcalc::optional_integer;

TEST_CASE("optional_integer: none, values and comparisons as std::optional's", "[common]") {
  constexpr optional_integer none;
  constexpr optional_integer zero(std::int64_t{0});
  STATIC_REQUIRE(sizeof(optional_integer) == sizeof(std::int64_t));
  CHECK_FALSE(none.has_value());
  CHECK(zero.has_value());
  CHECK(*zero == 0);
  CHECK(none.value_or(7) == 7);
  CHECK(zero.value_or(7) == 0);
  CHECK(none == optional_integer(std::nullopt));
  CHECK(none != zero);
  CHECK(zero == std::int64_t{0});
  CHECK(none != std::int64_t{0});
  // The value that stands for none is not a value none equals.
  CHECK(none != std::numeric_limits<std::int64_t>::max());
  CHECK(std::optional<std::int64_t>(none) == std::nullopt);
  CHECK(std::optional<std::int64_t>(optional_integer(std::int64_t{12})) == 12);
}

TEST_CASE("optional_integer: none bounds nothing", "[common]") {
  CHECK(optional_integer().bound() == std::numeric_limits<std::int64_t>::max());
  CHECK(optional_integer(std::int64_t{5}).bound() == 5);
}

TEST_CASE("enum_set: insert_if adds exactly the members it is told to", "[common]") {
  occcalc::resource_set set;
  set.insert_if(false, occcalc::resource::warps);
  set.insert_if(true, occcalc::resource::registers);
  set.insert_if(true, occcalc::resource::barriers);
  CHECK_FALSE(set.contains(occcalc::resource::warps));
  CHECK(set.contains(occcalc::resource::registers));
  CHECK(set.contains(occcalc::resource::barriers));
  CHECK_FALSE(set.contains(occcalc::resource::shared_memory));
}

TEST_CASE("printable text escapes controls, bytes that are not UTF-8 and invisible format characters", "[text]") {
  using occcalc::detail::printable;
  CHECK(printable("a\nb\x1b[2J") == "a\\x0ab\\x1b[2J");
  CHECK(printable("\xff") == "\\xff");
  // Trojan Source: a right-to-left override, isolates, zero-width characters, a BOM.
  CHECK(printable("kernel\xe2\x80\xae"
                  "evil") ==
        "kernel\\u202e"
        "evil");
  CHECK(printable("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");
  CHECK(printable("a\xe2\x80\x8b"
                  "b\xef\xbb\xbf") ==
        "a\\u200b"
        "b\\ufeff");
  // Other text is kept: accents, an ellipsis, CJK.
  CHECK(printable("caf\xc3\xa9 \xe2\x80\xa6 \xe6\xbc\xa2") == "caf\xc3\xa9 \xe2\x80\xa6 \xe6\xbc\xa2");
}
