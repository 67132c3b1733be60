// Fuzz target for policy files: any bytes must parse into a policy or fail
// with one occcalc error (a table_error or input_error), never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "builds/policy.hpp"
#include "occcalc/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    occcalc::cli::parse_policy("fuzz.json", std::string(reinterpret_cast<const char*>(data), size));
  } catch (const occcalc::error&) {
  }
  return 0;
}

#include "fuzz_main.hpp"
