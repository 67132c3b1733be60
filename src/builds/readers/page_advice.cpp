#include "builds/readers/page_advice.hpp"

#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

namespace occcalc::inspect {

void advise_whole_pages(const void* data, std::size_t bytes, int advice) noexcept {
  if (data == nullptr || bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}

void prefer_huge_pages(const void* data, std::size_t bytes) noexcept {
#ifdef MADV_HUGEPAGE
  if (bytes >= huge_page_hint_min_bytes) advise_whole_pages(data, bytes, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace occcalc::inspect
