#include "builds/readers/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <istream>

#include "builds/readers/page_advice.hpp"

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

std::vector<unsigned char> read_stream(std::istream& in, const std::string& name) {
  std::vector<unsigned char> out;
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (out.size() + n > max_stream_bytes) {
      throw occcalc::error(fmt::format("{}: more than {} bytes; give a regular file", name, max_stream_bytes));
    }
    out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

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
      if (buffer_.size() + static_cast<std::size_t>(n) > max_stream_bytes) {
        fail(path, fmt::format("more than {} bytes from a pipe or device; give a regular file", max_stream_bytes));
      }
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
  if (mapping_ != nullptr) advise_whole_pages(range.data(), range.size(), MADV_DONTNEED);
}

}  // namespace occcalc::inspect
