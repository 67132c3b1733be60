// A whole file, read-only, as bytes: memory-mapped where possible, so that a
// large library costs only the pages actually read.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "builds/readers/bytes.hpp"

namespace occcalc::inspect {

/// The most bytes read from a pipe, a device or standard input, which cannot
/// be mapped: a compiler log is far smaller, and `/dev/zero` never ends.
inline constexpr std::size_t max_stream_bytes = std::size_t{256} << 20;

/// Reads a stream to its end, or throws `occcalc::error` past
/// `max_stream_bytes`; `name` is what the message calls it.
std::vector<unsigned char> read_stream(std::istream& in, const std::string& name);

/// The contents of one input file.
class mapped_file {
 public:
  /// Opens and maps `path` (a pipe or device is read instead). Throws
  /// `occcalc::error` naming the path and the system's reason.
  explicit mapped_file(const std::string& path);
  ~mapped_file();
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;

  byte_view bytes() const noexcept { return {data_, size_}; }

  /// Tells the system the pages wholly inside `range` will not be read
  /// again, so they leave this process's resident memory.
  void release(byte_view range) const noexcept;

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  void* mapping_ = nullptr;
  std::vector<unsigned char> buffer_;  // a file that cannot be mapped
};

}  // namespace occcalc::inspect
