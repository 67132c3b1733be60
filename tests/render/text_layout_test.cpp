// Fitting text to a width: breakdown rows, wrapping, tables, elision.
#include "catch.hpp"

#include "render/text_layout.hpp"
#include "render/text_table.hpp"

using namespace occcalc::cli;

TEST_CASE("text layout: a note that does not fit goes under the value, wrapped", "[render][layout]") {
  CHECK(row("warps", "16", "64 warps per SM / 4 per block", 80) ==
        "  warps                     16  64 warps per SM / 4 per block\n");
  // 28 columns of label, value at column 28: 52 left for the note at 80.
  CHECK(row("registers", "5120", "1280 per warp (37 x 32 threads, rounded up to a multiple of 256) x 4 warps", 80) ==
        "  registers                 5120\n"
        "                            1280 per warp (37 x 32 threads, rounded up to a\n"
        "                            multiple of 256) x 4 warps\n");
  // A padded value loses its trailing spaces when the note moves down.
  CHECK(row("LDS", "8       limiter ", "32768 B (32 KiB) per CU / 4096 B per work-group, and more words", 60) ==
        "  LDS                       8       limiter\n"
        "                            32768 B (32 KiB) per CU / 4096 B\n"
        "                            per work-group, and more words\n");
  // Narrower than the label column: the value, and the note, under the label.
  CHECK(row("blocks", "12", {}, 10) == "  blocks\n    12\n");
  CHECK(row("shared memory config", "carveout default", "the driver's", 40) ==
        "  shared memory config\n    carveout default\n    the driver's\n");
  // A word of the note longer than its column: under the label too.
  CHECK(row("limit", "2", "cudaOccAvailableDynamicSMemPerBlock: 1024 B", 60) ==
        "  limit\n    2\n    cudaOccAvailableDynamicSMemPerBlock: 1024 B\n");
}

TEST_CASE("text layout: wrapping at spaces, with a hanging indent", "[render][layout]") {
  CHECK(wrap("one two three four", 2, 9) == "  one two\n  three\n  four\n");
  CHECK(wrap("unbreakable-word-longer-than-the-width x", 0, 10) == "unbreakable-word-longer-than-the-width\nx\n");
  CHECK(wrap_hanging("- a b c d e f", 4, 6, 12) == "    - a b c\n      d e f\n");
  CHECK(wrap("", 2, 10).empty());
}

TEST_CASE("text table: widths from the content, the last column cut in the middle", "[render][table]") {
  CHECK(elide_middle("demo::spilling(float const*, float*, int, int)", 20, false) == "demo::spi...nt, int)");
  CHECK(elide_middle("demo::spilling(float const*, float*, int, int)", 20, true) == "demo::spil\u2026int, int)");
  CHECK(elide_middle("short", 20, true) == "short");
  CHECK(elide_middle("abcdef", 2, false) == "..");
  terminal term;
  term.columns = 30;
  const std::vector<table_column> columns = {{"arch"}, {"regs", true}, {"kernel"}};
  const std::vector<std::vector<table_cell>> rows = {
      {{"sm_90", {}}, {"8", {}}, {"void demo::scale<double, 8>(double*, double)", {}}},
      {{"sm_80", {}}, {"128", {}}, {"k", {}}},
  };
  table_layout layout;
  layout.elide_last = true;
  CHECK(format_table(columns, rows, term, layout) ==
        "  arch  regs kernel\n"
        "  sm_90    8 ...scale<...uble)\n"
        "  sm_80  128 k\n");
  layout.elide_last = false;
  CHECK(format_table(columns, rows, term, layout) ==
        "  arch  regs kernel\n"
        "  sm_90    8 void demo::scale<double, 8>(double*, double)\n"
        "  sm_80  128 k\n");
}

TEST_CASE("text table: a kernel name cut keeps what tells kernels apart", "[render][table]") {
  // The return type and qualifiers go first, then the middle of the rest.
  const std::string name = "void demo::scale<double, 8>(double*, double)";
  CHECK(elide_symbol(name, 60, true) == name);
  CHECK(elide_symbol(name, 34, true) == "\u2026scale<double, 8>(double*, double)");
  CHECK(elide_symbol(name, 36, false) == "...scale<double, 8>(double*, double)");
  CHECK(elide_symbol(name, 20, true) == "\u2026scale<dou\u2026, double)");
  CHECK(elide_symbol("demo::spilling(float const*, float*, int, int)", 41, true) ==
        "\u2026spilling(float const*, float*, int, int)");
  // Nested template arguments are kept with their name; C names are cut in the middle.
  CHECK(elide_symbol("void ns::k<a::b<int>, 2>(x)", 22, false) == "...k<a::b<int>, 2>(x)");
  CHECK(elide_symbol("plain_c_kernel_with_a_long_name", 12, false) == "plain...name");
  // Grouped columns: widths fitted, droppable columns left out when narrow.
  terminal term;
  const std::vector<table_column> columns = {{"id"}, {"config", false, 2}, {"optin", true, 1}, {"regs", true}};
  const std::vector<std::vector<table_cell>> rows = {{{"sm_90"}, {"carveout"}, {"227K"}, {"64K"}}};
  term.columns = 30;
  CHECK(format_table(columns, rows, term, {}) == "  id    config   optin regs\n  sm_90 carveout  227K  64K\n");
  term.columns = 20;
  CHECK(format_table(columns, rows, term, {}) == "  id    optin regs\n  sm_90  227K  64K\n");
  term.columns = 15;
  CHECK(format_table(columns, rows, term, {}) == "  id    regs\n  sm_90  64K\n");
}

TEST_CASE("text table: names are cut by characters, on the ASCII path and the UTF-8 one", "[render][table]") {
  // The rule by character offsets, as the general path computes it; plain
  // ASCII takes a path without offsets and must cut alike.
  const auto reference = [](std::string_view text, std::size_t width, bool utf8) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    }
    if (starts.size() <= width) return std::string(text);
    const std::string ellipsis = utf8 ? "\u2026" : "...";
    const std::size_t marks = utf8 ? 1 : 3;
    if (width <= marks) return ellipsis.substr(0, width);
    const std::size_t keep = width - marks;
    const std::size_t head = (keep + 1) / 2;
    const std::size_t tail = keep - head;
    return std::string(text.substr(0, starts[head])) + ellipsis +
           (tail == 0 ? std::string() : std::string(text.substr(starts[starts.size() - tail])));
  };
  std::string ascii;
  for (int i = 0; i < 60; ++i) ascii += static_cast<char>('a' + i % 26);
  const std::string accented = "caf\u00e9::" + ascii + "::\u2026end";
  for (const auto& name : {ascii, accented, std::string("x")}) {
    for (std::size_t width = 0; width <= name.size() + 1; ++width) {
      for (const bool utf8 : {false, true}) {
        INFO(name << " " << width << " " << utf8);
        CHECK(elide_middle(name, width, utf8) == reference(name, width, utf8));
      }
    }
  }
  CHECK(elide_middle(ascii, 10, false) == "abcd...fgh");
  CHECK(elide_middle(ascii, 10, true) == "abcde\u2026efgh");
}
