// Debian 12's Catch2 2.13 has no Catch2WithMain: this is the test main.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
