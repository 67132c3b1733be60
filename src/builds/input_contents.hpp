// Reading one input's contents, wherever they are held (a file, standard
// input, memory: libocccalc): the readers, then what a text input leaves to
// fill in, PTX's registers from ptxas and compiler remarks' target.
#pragma once

#include <iosfwd>
#include <string>

#include "builds/kernel_matcher.hpp"
#include "builds/readers/bytes.hpp"
#include "builds/readers/inspect_bytes.hpp"

namespace occcalc::cli {

/// The readers' options for `filter`'s architecture, with `jobs` threads.
inspect::inspect_options options_for(const kernel_matcher& filter, unsigned jobs);

/// What text inputs leave to be filled in once read, wherever they come
/// from: PTX's registers (ptxas) and the remarks' target (--arch); a note
/// on `err` where neither can be.
void complete_text_input(const std::string& path, inspect::inspection& in, const kernel_matcher& filter,
                         std::ostream& err);

/// Reads the contents of an input named `path` (`-`: standard input).
/// Throws `occcalc::error` naming it when they are not an input occcalc
/// reads or cannot be read.
inspect::inspection read_contents(const std::string& path, inspect::byte_view bytes,
                                  const inspect::inspect_options& options, const kernel_matcher& filter,
                                  std::ostream& err);

}  // namespace occcalc::cli
