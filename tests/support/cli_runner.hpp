// Runs the command line in-process, for the command tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace occcalc::test {

struct outcome {
  occcalc::cli::exit_status status;
  std::string out;
  std::string err;
};

/// Runs occcalc with `args`, writing its output to `out`; `out` of the
/// outcome is left empty.
inline outcome run_to(std::ostream& out, std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "occcalc");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::istringstream in(input);
  std::ostringstream err;
  const auto status = occcalc::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  return {status, {}, err.str()};
}

/// Runs occcalc with `args` and `input` on stdin.
inline outcome run(std::vector<std::string> args, const std::string& input = {}) {
  std::ostringstream out;
  outcome r = run_to(out, std::move(args), input);
  r.out = out.str();
  return r;
}

}  // namespace occcalc::test
