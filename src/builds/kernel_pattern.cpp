#include "builds/kernel_pattern.hpp"

#include <re2/re2.h>

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc::cli {

namespace {

/// What RE2 may spend on one compiled pattern; a pattern that needs more is an
/// error, not a slow match (real kernel filters need a few KiB).
constexpr std::int64_t max_pattern_memory_bytes = 8 << 20;

class re2_pattern final : public name_pattern {
 public:
  re2_pattern(const std::string& pattern, const RE2::Options& options) : re_(pattern, options) {}
  bool ok() const { return re_.ok(); }
  const std::string& error() const { return re_.error(); }
  bool search(std::string_view name) const override { return RE2::PartialMatch(name, re_); }

 private:
  RE2 re_;
};

}  // namespace

std::shared_ptr<const name_pattern> compile_name_pattern(const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(max_pattern_memory_bytes);
  auto compiled = std::make_shared<const re2_pattern>(pattern, options);
  if (!compiled->ok()) {
    throw occcalc::input_error(
        "kernel", occcalc::detail::quoted(pattern) + " is not a valid RE2 regular expression: " + compiled->error());
  }
  return compiled;
}

}  // namespace occcalc::cli
