// The JSON writer writes in place, into room it grows ahead in the string:
// its text must be nlohmann's, byte for byte, in both styles, and the string
// must hold exactly that text once the document is whole or the writer goes.
#include "catch.hpp"
#include "sampling.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "render/byte_words.hpp"
#include "render/json_writer.hpp"

using namespace occcalc::cli;

namespace {

/// What nlohmann writes for `j` (invalid UTF-8 replaced): the authority.
std::string dumped(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string written(const nlohmann::ordered_json& j, json_writer::style style, const std::string& before = {}) {
  std::string out = before;
  json_writer w(out, style);
  w.value(j);
  return out;
}

/// A random text: plain ASCII mostly, with the bytes a JSON string escapes
/// or replaces, and now and then longer than a key is written in one piece.
std::string random_text(std::mt19937& random) {
  static const std::string alphabet = std::string("az_09 .:\"\\\t\n\x1f\x7f\x80\xc3\xa9\xff", 18);
  const std::size_t size = std::uniform_int_distribution<std::size_t>(0, random() % 8 == 0 ? 90 : 20)(random);
  std::string text;
  for (std::size_t i = 0; i < size; ++i) {
    text += random() % 4 != 0 ? alphabet[random() % 4] : alphabet[random() % alphabet.size()];
  }
  return text;
}

nlohmann::ordered_json random_document(std::mt19937& random, int depth) {
  switch (random() % (depth < 4 ? 9 : 7)) {
    case 0: return nullptr;
    case 1: return random() % 2 == 0;
    case 2: return static_cast<std::int64_t>(random()) - static_cast<std::int64_t>(random()) * 4096;
    case 3: {
      const std::int64_t extremes[] = {0, -1, std::numeric_limits<std::int64_t>::min(),
                                       std::numeric_limits<std::int64_t>::max()};
      return extremes[random() % 4];
    }
    case 4: return std::numeric_limits<std::uint64_t>::max() - random();
    case 5: {
      // Doubles whose shortest digits nlohmann's grisu2 finds too (see the
      // test of doubles below for the others).
      const double values[] = {0.0, 1.0, -2.5, 0.4375, 43.75, 1e-7, 123456789.0, 1e300, 5e-324, 0.1 + 0.2, 1.0 / 3};
      return values[random() % std::size(values)];
    }
    case 6: return random_text(random);
    case 7: {
      nlohmann::ordered_json array = nlohmann::ordered_json::array();
      for (std::size_t i = random() % 5; i > 0; --i) array.push_back(random_document(random, depth + 1));
      return array;
    }
    default: {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (std::size_t i = random() % 6; i > 0; --i) object[random_text(random)] = random_document(random, depth + 1);
      return object;
    }
  }
}

}  // namespace

TEST_CASE("JSON writer: random documents as nlohmann writes them, in both styles", "[render][json]") {
  std::mt19937 random(20261126);
  for (int i = 0; i < 3000; ++i) {
    const auto j = random_document(random, 0);
    INFO(dumped(j, -1));
    CHECK(written(j, json_writer::style::compact) == dumped(j, -1));
    CHECK(written(j, json_writer::style::pretty) == dumped(j, 2));
    // Appended after what the string holds, which is kept.
    CHECK(written(j, json_writer::style::compact, "before ") == "before " + dumped(j, -1));
  }
}

TEST_CASE("JSON writer: members with literal keys, hand-checked", "[render][json]") {
  std::string out = "x";
  {
    json_writer w(out);
    w.begin_object();
    w.member("threads", 128);
    w.member("regs", std::int64_t{-37});
    w.member("grid", std::optional<std::int64_t>{});
    w.member("sm_count", occcalc::optional_integer(132));
    w.member("a \"quoted\" key", 1);  // goes the general way, escaped
    w.member("occupancy", 0.5);
    w.member("occupancy_percent", 50.0);
    w.member("name", std::string_view("gfx90a"));
    w.key("limits");
    w.begin_object();
    w.end_object();
    w.key("limiters");
    w.begin_array();
    w.value("warps");
    w.null();
    w.end_array();
    w.end_object();
    // The document is whole: the string holds its text and nothing past it.
    CHECK(out ==
          "x{\"threads\":128,\"regs\":-37,\"grid\":null,\"sm_count\":132,\"a \\\"quoted\\\" key\":1,"
          "\"occupancy\":0.5,\"occupancy_percent\":50.0,\"name\":\"gfx90a\",\"limits\":{},\"limiters\":[\"warps\","
          "null]}");
  }
}

TEST_CASE("JSON writer: doubles as their shortest round-trip digits", "[render][json]") {
  // nlohmann's grisu2 writes the same digits for all but about 1 in 4,000
  // ratios of small integers, where it writes 17 digits of the same double
  // (0.27559055118110237 for 70/254, shortest 0.2755905511811024). The
  // writer's digits are fmt's: they read back as the double, and are never
  // longer than nlohmann's in the same notation.
  std::mt19937 random(7);
  int shorter = 0;
  const std::size_t cases = occcalc::test::sample(200000);
  for (std::size_t i = 0; i < cases; ++i) {
    const double v = i < cases / 2 ? static_cast<double>(random() % 4096) / (1 + random() % 2048)
                                   : std::ldexp(static_cast<double>(random()), static_cast<int>(random() % 80) - 60);
    std::string out;
    {
      json_writer w(out);
      w.value(v);
    }
    const std::string nlohmann_text = dumped(v, -1);
    INFO(out << " for " << nlohmann_text);
    REQUIRE(nlohmann::json::parse(out).get<double>() == v);
    // (nlohmann writes 2.00313995264e+15 where fmt writes every digit.)
    if (nlohmann_text.find('e') == std::string::npos) REQUIRE(out.size() <= nlohmann_text.size());
    REQUIRE(out.find_first_of(".e") != std::string::npos);  // a float stays a float
    shorter += out.size() < nlohmann_text.size() ? 1 : 0;
  }
  CHECK(shorter > 0);
  CHECK(static_cast<std::size_t>(shorter) < occcalc::test::sample(2000));
  CHECK(written(0.2755905511811024, json_writer::style::compact) == "0.2755905511811024");
  CHECK(written(50.0, json_writer::style::compact) == "50.0");
  CHECK(written(1e-7, json_writer::style::compact) == "1e-07");
}

TEST_CASE("JSON writer: the string holds the text as soon as the document is whole", "[render][json]") {
  // Read while the writer lives: its room is cut back at the end of a
  // document, whether a container or a value of its own.
  for (const auto& [expected, write] : std::initializer_list<std::pair<std::string, void (*)(json_writer&)>>{
           {"42", [](json_writer& w) { w.value(42); }},
           {"18446744073709551615", [](json_writer& w) { w.value(std::numeric_limits<std::uint64_t>::max()); }},
           {"0.25", [](json_writer& w) { w.value(0.25); }},
           {"true", [](json_writer& w) { w.value(true); }},
           {"\"sm_90\"", [](json_writer& w) { w.value("sm_90"); }},
           {"null", [](json_writer& w) { w.null(); }},
           {"{\"a\":1}", [](json_writer& w) { w.raw("{\"a\":1}"); }},
           {"[]",
            [](json_writer& w) {
              w.begin_array();
              w.end_array();
            }},
       }) {
    std::string out = "x";
    json_writer w(out);
    write(w);
    CHECK(out == "x" + expected);
  }
}

TEST_CASE("JSON writer: a document far past the room grown at once", "[render][json]") {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (int i = 0; i < 5000; ++i) j["key_" + std::to_string(i)] = i % 3 == 0 ? nlohmann::ordered_json(i * 7919) : "v";
  std::string out;
  json_writer w(out);
  w.begin_object();
  for (const auto& [name, item] : j.items()) {
    if (item.is_number())
      w.member(name, item.get<std::int64_t>());
    else
      w.member(name, item.get<std::string>());
  }
  w.end_object();
  CHECK(out == dumped(j, -1));
}

TEST_CASE("JSON writer: an unfinished document leaves only its text behind", "[render][json]") {
  std::string out = "kept,";
  try {
    json_writer w(out);
    w.begin_object();
    w.member("threads", 128);
    w.key("limits");
    w.begin_object();
    // Room is grown ahead of the text while the document is open.
    CHECK(out.size() > std::string("kept,{\"threads\":128,\"limits\":{").size());
    throw std::runtime_error("stopped");
  } catch (const std::runtime_error&) {
  }
  CHECK(out == "kept,{\"threads\":128,\"limits\":{");
}

TEST_CASE("copy_bytes: every size up to and past its fixed moves, nothing around it touched", "[render]") {
  for (std::size_t size = 0; size <= 70; ++size) {
    std::string from(size, '\0');
    for (std::size_t i = 0; i < size; ++i) from[i] = static_cast<char>('A' + i % 50);
    std::string to(size + 16, '#');
    byte_words::copy_bytes(to.data() + 8, from.data(), size);
    INFO("size " << size);
    CHECK(to == std::string(8, '#') + from + std::string(8, '#'));
  }
}
