// occcalc: parse the command line, compute, print. Everything else is in cli/app.cpp.
#include <csignal>
#include <cstdio>
#include <ext/stdio_filebuf.h>
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

/// The buffer of standard input and of standard output.
constexpr std::size_t stream_buffer_bytes = 8 << 10;

/// Blocks at least this large are mapped on their own and unmapped when
/// freed (glibc's `M_MMAP_THRESHOLD`).
constexpr int own_mapping_bytes = 4 << 20;

}  // namespace

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // A fixed threshold, not glibc's sliding one: after a large block is freed
  // (a library's reports, a big cubin) glibc raises the threshold to its
  // size, and blocks as large then stay in the heap after they are freed,
  // which raises inspect's peak memory on a large library.
  mallopt(M_MMAP_THRESHOLD, own_mapping_bytes);
#endif
  struct sigaction bus {};
  bus.sa_handler = on_bus_error;
  sigaction(SIGBUS, &bus, nullptr);
  // Input and output through buffers of their own, on the descriptors: batch
  // sees how much input is waiting (in_avail; it answers before it blocks),
  // and output leaves in blocks. Not sync_with_stdio(false), which gives the
  // same but allocates six buffers, the wide streams' included (120 KB: seven
  // page faults at every start). Errors go to std::cerr, unbuffered.
  __gnu_cxx::stdio_filebuf<char> input_buffer(stdin, std::ios::in, stream_buffer_bytes);
  __gnu_cxx::stdio_filebuf<char> output_buffer(stdout, std::ios::out, stream_buffer_bytes);
  std::istream input(&input_buffer);
  std::ostream output(&output_buffer);
  // No setlocale: numbers keep the C locale's spelling, and whether the
  // charts may use UTF-8 is read from the locale's name (render/terminal).
  const auto status = occcalc::cli::run(argc, argv, input, output, std::cerr);
  return static_cast<int>(status);
}
