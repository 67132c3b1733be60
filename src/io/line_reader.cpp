#include "io/line_reader.hpp"

#include <algorithm>
#include <cstring>

namespace occcalc::cli {

namespace {

/// The most bytes taken from the stream buffer at once.
constexpr std::size_t chunk_bytes = std::size_t{64} << 10;

}  // namespace

line_reader::line_reader(std::streambuf& in, std::size_t max_line_bytes)
    : in_(in), max_line_bytes_(max_line_bytes), buffer_(chunk_bytes) {}

bool line_reader::refill() {
  begin_ = end_ = 0;
  std::streamsize waiting = in_.in_avail();
  if (waiting <= 0) {
    // Nothing held: wait for the next input (sgetc fills the stream
    // buffer), or its end.
    if (std::streambuf::traits_type::eq_int_type(in_.sgetc(), std::streambuf::traits_type::eof())) return false;
    waiting = std::max<std::streamsize>(in_.in_avail(), 1);
  }
  // No more than the stream buffer holds (or, for a file, than is left in
  // it): sgetn then never waits.
  const auto wanted = std::min<std::streamsize>(waiting, static_cast<std::streamsize>(buffer_.size()));
  end_ = static_cast<std::size_t>(std::max<std::streamsize>(in_.sgetn(buffer_.data(), wanted), 0));
  return end_ > 0;
}

bool line_reader::next(std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  bool any = false;
  for (;;) {
    if (begin_ == end_ && !refill()) return any;
    any = true;
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    const std::size_t length = newline ? static_cast<std::size_t>(newline - start) : end_ - begin_;
    const std::size_t kept = std::min(length, max_line_bytes_ - line.size());
    line.append(start, kept);
    too_long = too_long || kept < length;
    begin_ += length;
    if (newline) {
      ++begin_;
      return true;
    }
  }
}

bool line_reader::input_waiting() { return begin_ < end_ || in_.in_avail() > 0; }

}  // namespace occcalc::cli
