#include "inspect/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace occcalc::inspect {

namespace {

/// Closes a file descriptor on scope exit.
struct descriptor {
  int fd;
  ~descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw occcalc::error(fmt::format("{}: {}", path, what));
}

}  // namespace

mapped_file::mapped_file(const std::string& path) {
  const descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) fail(path, fmt::format("cannot stat: {}", std::strerror(errno)));
  if (S_ISDIR(info.st_mode)) fail(path, "is a directory");
  if (!S_ISREG(info.st_mode)) {
    // A pipe or device: read it.
    std::vector<unsigned char> chunk(1 << 16);
    for (;;) {
      const auto n = ::read(file.fd, chunk.data(), chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path, fmt::format("cannot read: {}", std::strerror(errno)));
      if (n == 0) break;
      buffer_.insert(buffer_.end(), chunk.begin(), chunk.begin() + n);
    }
    data_ = buffer_.data();
    size_ = buffer_.size();
    return;
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ == 0) return;
  void* mapping = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
  if (mapping == MAP_FAILED) fail(path, fmt::format("cannot map: {}", std::strerror(errno)));
  mapping_ = mapping;
  data_ = static_cast<const unsigned char*>(mapping);
}

mapped_file::~mapped_file() {
  if (mapping_ != nullptr) ::munmap(mapping_, size_);
}

void mapped_file::release(byte_view range) const noexcept {
  if (mapping_ == nullptr || range.empty()) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(range.data()) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(range.data()) + range.size()) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace occcalc::inspect
