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
  CHECK(row("blocks", "12", {}, 10) == "  blocks                    12\n");
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
        "  sm_90    8 void de...double)\n"
        "  sm_80  128 k\n");
  layout.elide_last = false;
  CHECK(format_table(columns, rows, term, layout) ==
        "  arch  regs kernel\n"
        "  sm_90    8 void demo::scale<double, 8>(double*, double)\n"
        "  sm_80  128 k\n");
}
