// occcalc: parse the command line, compute, print. Everything else is in cli.cpp.
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
  return static_cast<int>(occcalc::cli::run(argc, argv, std::cin, std::cout, std::cerr));
}
