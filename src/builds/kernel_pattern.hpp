// A kernel name pattern (--kernel, a policy rule's kernel): compiled once,
// searched in many names. The one place RE2 is used: each program links one
// definition of compile_name_pattern, RE2's (kernel_pattern.cpp) or, in
// libocccalc, which takes no pattern, one that refuses every pattern
// (capi/no_kernel_patterns.cpp), so the library needs no libre2.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace occcalc::cli {

class name_pattern {
 public:
  virtual ~name_pattern() = default;
  /// Whether the pattern matches anywhere in `name`, in time linear in it.
  virtual bool search(std::string_view name) const = 0;
};

/// `pattern` compiled (RE2 syntax); throws `input_error` naming `kernel` for
/// one that is not valid or needs more memory than a kernel filter may.
std::shared_ptr<const name_pattern> compile_name_pattern(const std::string& pattern);

}  // namespace occcalc::cli
