// Fuzz target for the command line and batch: the input is split at NUL
// bytes into arguments, and what follows a second NUL in a row is standard
// input. occcalc::cli::run must return an exit code (0, 1 or 2) for every
// input, whatever it prints: it never throws, crashes or hangs. Each line of
// that input is also read as a request both ways (the flat reader and the
// tree), which must agree.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "../support/batch_reading.hpp"
#include "cli/app.hpp"
#include "commands/batch_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto stdin_at = text.find(std::string_view("\0\0", 2));
  const std::string_view args_text = text.substr(0, stdin_at);
  std::vector<std::string> args = {"occcalc"};
  for (std::size_t at = 0; at <= args_text.size();) {
    const auto end = std::min(args_text.find('\0', at), args_text.size());
    args.emplace_back(args_text.substr(at, end - at));
    at = end + 1;
  }
  // Inputs and tables are files: the fuzzer explores the command line, not
  // the file system (the readers have their own targets).
  for (const auto& a : args) {
    if (a == "inspect" || a == "check" || a.rfind("--table", 0) == 0 || a.rfind("--svg", 0) == 0 ||
        a.rfind("--policy", 0) == 0) {
      return 0;
    }
  }
  if (stdin_at != std::string_view::npos) {
    const std::string_view input = text.substr(stdin_at + 2);
    for (std::size_t at = 0; at <= input.size();) {
      const auto end = std::min(input.find('\n', at), input.size());
      const std::string_view line = input.substr(at, end - at);
      if (occcalc::test::reading_of(occcalc::cli::read_request_text, line) !=
          occcalc::test::reading_of(occcalc::cli::read_request_text_as_tree, line)) {
        std::abort();  // the flat reader and the tree read a line apart
      }
      at = end + 1;
    }
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::istringstream in(stdin_at == std::string_view::npos ? std::string() : std::string(text.substr(stdin_at + 2)));
  std::ostringstream out, err;
  const auto status = occcalc::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  const int code = static_cast<int>(status);
  if (code < 0 || code > 2) std::abort();
  return 0;
}

#include "fuzz_main.hpp"
