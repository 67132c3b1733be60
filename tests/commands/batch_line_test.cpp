// A batch line read into a request by the strict reader: values as given,
// and every line that is not a request of known keys refused with its field.
#include "catch.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "batch_reading.hpp"
#include "commands/batch_line.hpp"
#include "occcalc/error.hpp"
#include "occcalc/request/request.hpp"

using occcalc::cli::batch_line;
using occcalc::cli::read_batch_line;

namespace {

/// The error's field and message for `line`, or empty when it reads.
std::string error_of(const std::string& line) {
  batch_line to;
  try {
    read_batch_line(line, 1, to);
    return {};
  } catch (const occcalc::input_error& e) {
    return std::string(e.field()) + ": " + e.what();
  }
}

}  // namespace

TEST_CASE("batch line: values as given, integers as numbers, the id as JSON text", "[batch][batch_line]") {
  batch_line line;
  read_batch_line(R"({"id": "k1", "cc": "8.6", "threads": 256, "regs": 64, "dyn_smem": "4K"})", 1, line);
  CHECK(line.id_json == R"("k1")");
  CHECK(line.request.cc->typed() == "8.6");
  CHECK_FALSE(line.request.cc->integer());
  CHECK(line.request.threads->integer() == 256);
  CHECK(line.request.regs->integer() == 64);
  CHECK(line.request.dyn_smem->typed() == "4K");
  CHECK_FALSE(line.request.smem);
  read_batch_line("\t{ \"gfx\":\"gfx1100\",\"wave64\" : true, \"cu_mode\": false, \"id\": -7 }\r", 2, line);
  CHECK(line.id_json == "-7");
  CHECK(line.request.gfx->typed() == "gfx1100");
  CHECK(line.request.wave64->typed() == "true");
  CHECK(line.request.cu_mode->typed() == "false");
  CHECK_FALSE(line.request.cc);  // cleared from the line before
  read_batch_line(R"({"threads": 9223372036854775807, "regs": -0})", 3, line);
  CHECK(line.request.threads->integer() == 9223372036854775807);
  CHECK(line.request.regs->integer() == 0);
  // Escapes and UTF-8 are read as JSON reads them.
  read_batch_line(R"({"cc": "7\u002e0", "gpu": "Radeon\u2122"})", 4, line);
  CHECK(line.request.cc->typed() == "7.0");
  CHECK(line.request.gpu->typed() == "Radeon\xe2\x84\xa2");
  // A compute capability written as a number, as Python's cc=8.6 takes it.
  read_batch_line(R"({"cc": 8.6, "threads": 1, "regs": 0})", 5, line);
  CHECK(line.request.cc->typed() == "8.6");
}

TEST_CASE("batch line: what is not a request of known keys is refused, naming the field", "[batch][batch_line]") {
  struct refused {
    std::string line;
    std::string error;
  };
  const auto c = GENERATE(values<refused>({
      {R"({"cc": "7.0", "cc": "7.5"})", ": line 1 is not valid JSON: duplicate key 'cc' in an object"},
      {R"({"cc": "7.0", "wat": 1})", "wat: is not a known field; known fields: "},
      {R"({"cc": "7.0", "regs": 37.0})", "regs: 37.0 is not an integer or a string"},
      {R"({"gpu": 8.6, "regs": 37})", "gpu: 8.6 is not an integer or a string"},
      {R"({"cc": "7.0", "regs": null})", "regs: null is not an integer or a string"},
      {R"({"cc": "7.0", "regs": [37]})", "regs: [37] is not an integer or a string"},
      {R"({"cc": "7.0", "threads": "  "})", "threads: is empty; give a value, or leave the key out"},
      {R"({"cc": "7.0", "wave32": 1})", "wave32: 1 is not true or false"},
      {R"({"id": null, "cc": "7.0"})", "id: null is not a string or an integer"},
      {R"([{"cc": "7.0"}])", ": a request must be a JSON object"},
      {R"({"cc": "7.0"} {"cc": "7.5"})", ": line 1 is not valid JSON: "},
      {R"({"cc": "7.0",})", ": line 1 is not valid JSON: "},
      {R"({"cc": "7.0" /* a comment */})", ": line 1 is not valid JSON: "},
      {std::string("{\"cc\": \"7.0\"}\0", 14), ": line 1 is not valid JSON: a NUL byte at offset 13"},
      {"   ", ": line 1 is empty; every line must hold a request object"},
  }));
  INFO(c.line);
  CHECK(error_of(c.line).rfind(c.error, 0) == 0);
}

TEST_CASE("batch line: a flat object read without a tree reads as the tree does", "[batch][batch_line]") {
  // Flat lines take the SAX path; every other line falls back to the tree,
  // which words the refusal. Both must agree on every line.
  std::vector<std::string> lines = {
      R"({"cc": "8.0", "threads": 256, "regs": 64, "dyn_smem": 1024})",
      R"({"id": "k\u00e9", "gpu": "H100", "threads": 128, "regs": 32, "cluster": "2x1x1"})",
      R"({"id": 18446744073709551615, "cc": 70, "threads": 128})",
      R"({"cc": 8.6, "threads": 128, "regs": 32})",
      R"({"gfx": "gfx1100", "wave32": true, "wgp_mode": false, "threads": 256, "vgprs": 24})",
      R"({"cc": "7.0", "threads": 9223372036854775808})",
      R"({"cc": "7.0", "threads": -1, "regs": 1e3})",
      R"({"cc": "7.0", "cc": "8.0"})",
      R"({"id": 1, "id": 2})",
      R"({"cc": "7.0", "wave32": 1})",
      R"({"cc": "7.0", "threads": true})",
      R"({"cc": "7.0", "threads": null})",
      R"({"cc": "7.0", "threads": "  "})",
      R"({"cc": "7.0", "threads": [128]})",
      R"({"cc": {"major": 7}})",
      R"({"id": {"a": 1}, "cc": "7.0"})",
      R"({"id": true})",
      R"({"colour": "red"})",
      R"({"cc": "7.0",})",
      R"([{"cc": "7.0"}])",
      R"("cc")",
      R"(7)",
      R"({})",
      R"({"cc": "7.0"} {"cc": "8.0"})",
      "{\"cc\": \"7.0\"}\n",
      "",
      " \t\r",
      std::string("{\"cc\": \"7.0\0\"}", 14),
      "{\"cc\": \"\xff\"}",
  };
  for (const auto& field : occcalc::request_fields) {
    lines.push_back("{\"" + std::string(field.key) + "\": 64}");
    lines.push_back("{\"" + std::string(field.key) + "\": \"64\"}");
    lines.push_back("{\"" + std::string(field.key) + "\": true}");
  }
  for (const auto& line : lines) {
    INFO(line);
    CHECK(occcalc::test::reading_of(occcalc::cli::read_request_text, line) ==
          occcalc::test::reading_of(occcalc::cli::read_request_text_as_tree, line));
  }
}
