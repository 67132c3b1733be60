// Fuzz target for the table loader: any bytes given as a `--table` file on
// top of the embedded tables must load or fail with table_error, never
// crash, hang or grow without bound.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cli/embedded_tables.hpp"
#include "occcalc/tables/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  texts.push_back({"fuzz.json", std::string_view(reinterpret_cast<const char*>(data), size)});
  try {
    occcalc::load_tables(texts);
  } catch (const occcalc::table_error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
