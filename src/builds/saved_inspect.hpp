// A saved `occcalc inspect --json` read back as a build: the baseline a
// ratchet compares with.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "builds/baseline.hpp"
#include "builds/kernel_matcher.hpp"

namespace occcalc::cli {

/// The kernels in a saved `occcalc inspect --json` (schema 2 to the current
/// one) that pass `filter`: every raw figure a record holds. A file is read
/// up to 4 GiB and a record's text up to 1 MiB a field. Throws
/// `occcalc::table_error` naming `origin` and the record for anything else.
/// `passed`, where given, is handed the text read so far a window at a time
/// (a mapped file gives those pages back: a baseline is not held whole).
kernel_store kernels_from_inspect_json(const std::string& origin, std::string_view text, const kernel_matcher& filter,
                                       const std::function<void(std::string_view)>& passed = {});

/// Whether `text` is JSON (a saved inspect --json) rather than a build output
/// or a compiler log.
bool looks_like_json(std::string_view text);

}  // namespace occcalc::cli
