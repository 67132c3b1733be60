// occcalc: parse the command line, compute, print. Everything else is in cli.cpp.
#include <clocale>
#include <csignal>
#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "cli/app.hpp"

namespace {

/// A file truncated while it is mapped raises SIGBUS at the next read of a
/// lost page: one error line and exit 2, as for any unreadable input.
extern "C" void on_bus_error(int) {
  static constexpr char message[] = "occcalc: error: an input file changed size while it was read (SIGBUS)\n";
  const ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  _exit(static_cast<int>(occcalc::cli::exit_status::bad_input));
}

}  // namespace

int main(int argc, char** argv) {
  struct sigaction bus {};
  bus.sa_handler = on_bus_error;
  sigaction(SIGBUS, &bus, nullptr);
  // occcalc writes through the C++ streams only; their own buffers let batch
  // see how much input is waiting (it answers before it blocks).
  std::ios::sync_with_stdio(false);
  // The character set only (UTF-8 or not, for the charts): numbers keep
  // the C locale's spelling.
  std::setlocale(LC_CTYPE, "");
  const auto status = occcalc::cli::run(argc, argv, std::cin, std::cout, std::cerr);
  return static_cast<int>(status);
}
