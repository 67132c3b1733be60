// Advice to the system about inspect's memory, by whole pages: the pages of
// a mapped input it is done with, and its large buffers.
//
// Each page of fresh memory costs one page fault at its first write, and a
// fault costs far more than filling the page (most of a large library's
// faults are in such buffers: docs/performance.md); a transparent huge page
// is one fault for 512 pages.
#pragma once

#include <cstddef>

namespace occcalc::inspect {

/// `madvise(advice)` on the pages wholly inside `[data, data + bytes)`;
/// nothing where that holds no whole page. Advice is a hint: a failure is
/// ignored.
void advise_whole_pages(const void* data, std::size_t bytes, int advice) noexcept;

/// Buffers smaller than this get no hint: they are in pages already touched,
/// or too small to hold one huge page.
inline constexpr std::size_t huge_page_hint_min_bytes = std::size_t{2} << 20;

/// Asks the system to back the pages of `[data, data + bytes)` with
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`, for systems whose THP
/// setting is `madvise`, Debian's and most distributions' default). Only a
/// hint: ignored below `huge_page_hint_min_bytes`, where the system refuses
/// or lacks it, and for pages already touched.
void prefer_huge_pages(const void* data, std::size_t bytes) noexcept;

}  // namespace occcalc::inspect
