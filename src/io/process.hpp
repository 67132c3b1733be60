// Running a tool occcalc can use when it is installed (ptxas), at the edge.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace occcalc::cli {

/// The path of `name` in a PATH directory, if it is an executable there.
std::optional<std::string> find_program(const std::string& name);

/// Runs `argv` (argv[0] a path) with no shell and returns what it wrote to
/// standard error and standard output, at most `max_bytes`; throws
/// `occcalc::error` when it cannot start or exits with a failure.
std::string run_program(const std::vector<std::string>& argv, std::size_t max_bytes);

}  // namespace occcalc::cli
