// occcalc: parse the command line, compute, print. Everything else is in cli.cpp.
#include <cstdio>
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
  const auto status = occcalc::cli::run(argc, argv, std::cin, std::cout, std::cerr);
  // What is still buffered in the C stream is written at exit: a failure
  // there is a failed write too.
  const bool reported = status == occcalc::cli::exit_status::bad_input;
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && !reported) {
    std::fputs("occcalc: error: cannot write the output\n", stderr);
    return static_cast<int>(occcalc::cli::exit_status::bad_input);
  }
  return static_cast<int>(status);
}
