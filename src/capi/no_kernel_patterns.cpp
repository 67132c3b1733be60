// libocccalc's compile_name_pattern (builds/kernel_pattern.hpp): its calls
// read one input whole and take no kernel pattern, so the library links no
// RE2 and needs no libre2.
#include "builds/kernel_pattern.hpp"

#include "occcalc/common/text.hpp"
#include "occcalc/error.hpp"

namespace occcalc::cli {

std::shared_ptr<const name_pattern> compile_name_pattern(const std::string& pattern) {
  throw occcalc::input_error("kernel", occcalc::detail::quoted(pattern) +
                                           ": libocccalc reads every kernel of an input; pick them from its records");
}

}  // namespace occcalc::cli
