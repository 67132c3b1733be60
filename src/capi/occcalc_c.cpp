// occcalc's C ABI (include/occcalc.h): the command line's answers behind
// three extern "C" calls that never throw.
#include "occcalc.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "cli/compiled_tables.hpp"
#include "commands/batch_line.hpp"
#include "occcalc/version.hpp"

namespace {

/// The tables compiled in, made once (a function-local static: thread-safe).
const occcalc::table& tables() {
  static const occcalc::table built_in = occcalc::cli::compiled_tables();
  return built_in;
}

/// `text` in memory the caller frees with occcalc_free; nullptr without memory.
char* give(const std::string& text) noexcept {
  auto* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

}  // namespace

extern "C" {

const char* occcalc_version(void) { return occcalc::version_string; }

char* occcalc_json(const char* request) {
  try {
    thread_local occcalc::cli::request_answerer answerer;
    std::string out;
    occcalc::cli::append_request_answer(tables(), request == nullptr ? "" : request, "the request", std::nullopt,
                                        answerer, out);
    return give(out);
  } catch (...) {
    return nullptr;  // memory ran out: append_request_answer answers every other failure
  }
}

void occcalc_free(char* text) { std::free(text); }

}  // extern "C"
