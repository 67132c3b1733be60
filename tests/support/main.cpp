// Debian 12's Catch2 2.13 has no Catch2WithMain: this is the test main.
#define CATCH_CONFIG_RUNNER
#include "catch.hpp"

#include <cstdlib>

int main(int argc, char* argv[]) {
  // The command tests run occcalc in-process on absolute fixture paths:
  // lay text out for a wide terminal unless a test sets COLUMNS itself, and
  // never colour, whatever the environment says.
  ::setenv("COLUMNS", "1000", 1);
  ::unsetenv("FORCE_COLOR");
  ::unsetenv("CLICOLOR_FORCE");
  return Catch::Session().run(argc, argv);
}
