// Lines of a stream read in bulk, each bounded in length, at the edge.
#pragma once

#include <cstddef>
#include <streambuf>
#include <string>
#include <vector>

namespace occcalc::cli {

/// Reads lines from a stream buffer: takes what the buffer holds in one
/// copy and splits it with memchr, where reading a character at a time
/// costs some twenty instructions a byte. Never waits for input it does not
/// need: a line is returned as soon as its newline has arrived.
class line_reader {
 public:
  /// Reads from `in`, keeping at most `max_line_bytes` of a line.
  line_reader(std::streambuf& in, std::size_t max_line_bytes);

  /// Reads the next line, without its newline, into `line`, keeping at most
  /// `max_line_bytes` and skipping the rest; false at the end of input (a
  /// last line without a newline is still a line). `too_long` tells whether
  /// anything was skipped.
  bool next(std::string& line, bool& too_long);

  /// Whether input is waiting, here or in the stream buffer: the next line
  /// has begun to arrive (reading it may still wait for its end).
  bool input_waiting();

 private:
  /// Refills the buffer with what the stream buffer holds, waiting for it
  /// only when it holds nothing; false at the end of input.
  bool refill();

  std::streambuf& in_;
  std::size_t max_line_bytes_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
};

}  // namespace occcalc::cli
