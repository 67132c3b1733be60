// occcalc: parse the command line, compute, print. Everything else is in cli.cpp.
#include <csignal>
#include <cstdio>
#include <iostream>

#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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

/// Blocks at least this large are mapped on their own and unmapped when
/// freed (glibc's `M_MMAP_THRESHOLD`).
constexpr int own_mapping_bytes = 4 << 20;

}  // namespace

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // A fixed threshold, not glibc's sliding one: after a large block is freed
  // (a library's reports, a big cubin) glibc raises the threshold to its
  // size, and blocks as large then stay in the heap after they are freed.
  // inspect of libcublasLt peaked at 165 MB with it, 128 MB without.
  mallopt(M_MMAP_THRESHOLD, own_mapping_bytes);
#endif
  struct sigaction bus {};
  bus.sa_handler = on_bus_error;
  sigaction(SIGBUS, &bus, nullptr);
  // occcalc writes through the C++ streams only; their own buffers let batch
  // see how much input is waiting (it answers before it blocks).
  std::ios::sync_with_stdio(false);
  // No setlocale: numbers keep the C locale's spelling, and whether the
  // charts may use UTF-8 is read from the locale's name (render/terminal).
  const auto status = occcalc::cli::run(argc, argv, std::cin, std::cout, std::cerr);
  return static_cast<int>(status);
}
