// Catch2 for the tests, whichever major version the system has: 2 (Debian
// 12's single header) or 3 (Ubuntu 24.04's library). The string matchers
// the tests use are spelt once here.
#pragma once

#include <string>

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
using Catch::Approx;  // global in Catch2 2, as the tests write it
namespace occcalc::test::matchers {
/// Catch2 3 renamed the substring matcher (its Contains is for ranges).
inline Catch::Matchers::StringContainsMatcher Contains(const std::string& text) {
  return Catch::Matchers::ContainsSubstring(text);
}
using Catch::Matchers::Matches;
using Catch::Matchers::StartsWith;
}  // namespace occcalc::test::matchers
#else
#include <catch2/catch.hpp>
namespace occcalc::test::matchers {
using Catch::Matchers::Contains;
using Catch::Matchers::Matches;
using Catch::Matchers::StartsWith;
}  // namespace occcalc::test::matchers
#endif
