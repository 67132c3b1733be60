// How many cases a property test walks. The default build walks them all;
// a sanitizer build (the sanitize preset: ASan and UBSan at -O0, 15 to 20
// times slower) walks one in `sanitized_share`, the first of each run, so
// it still reaches every path the cases reach while the whole walk stays in
// the default build's tests.
#pragma once

#include <cstddef>

namespace occcalc::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

/// One case in this many under a sanitizer.
inline constexpr std::size_t sanitized_share = 10;

/// How many of `cases` random cases to draw: all, or a share under a sanitizer.
constexpr std::size_t sample(std::size_t cases) noexcept {
  return sanitized ? (cases + sanitized_share - 1) / sanitized_share : cases;
}

/// Whether to walk case number `index` of an exhaustive loop.
constexpr bool walks(std::size_t index) noexcept { return !sanitized || index % sanitized_share == 0; }

}  // namespace occcalc::test
