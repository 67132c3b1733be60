// Lines read in bulk from a stream buffer: split at newlines across chunks,
// bounded in length, and never waiting for input a line does not need.
#include "catch.hpp"

#include <algorithm>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "io/line_reader.hpp"

using occcalc::cli::line_reader;

namespace {

/// A stream buffer that hands out its text a few bytes at a time and says
/// nothing is waiting beyond them, as a pipe does.
class trickle_buffer : public std::streambuf {
 public:
  explicit trickle_buffer(std::string text) : text_(std::move(text)) {}
  /// How many times it was asked for more input.
  int refills = 0;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (at_ == text_.size()) return traits_type::eof();
    ++refills;
    const std::size_t size = std::min<std::size_t>(1 + refills % 3, text_.size() - at_);
    char* start = text_.data() + at_;
    at_ += size;
    setg(start, start, start + size);
    return traits_type::to_int_type(*gptr());
  }
  std::streamsize showmanyc() override { return 0; }

 private:
  std::string text_;
  std::size_t at_ = 0;
};

/// Every line `reader` gives, with whether it was cut.
std::vector<std::pair<std::string, bool>> all_lines(line_reader& reader) {
  std::vector<std::pair<std::string, bool>> lines;
  std::string line;
  bool cut = false;
  while (reader.next(line, cut)) lines.emplace_back(line, cut);
  return lines;
}

}  // namespace

TEST_CASE("line reader: lines as std::getline splits them, a last one without a newline too", "[io][line_reader]") {
  std::stringstream in("first\n\nthird\r\n  \nlast");
  line_reader reader(*in.rdbuf(), 100);
  const auto lines = all_lines(reader);
  const std::vector<std::pair<std::string, bool>> expected = {
      {"first", false}, {"", false}, {"third\r", false}, {"  ", false}, {"last", false}};
  CHECK(lines == expected);
  std::stringstream empty("");
  line_reader none(*empty.rdbuf(), 100);
  CHECK(all_lines(none).empty());
}

TEST_CASE("line reader: lines across the 64 KiB chunks it reads, and lines past the limit cut", "[io][line_reader]") {
  std::string text;
  std::vector<std::pair<std::string, bool>> expected;
  for (int i = 0; i < 30000; ++i) {  // 30,000 lines of 1 to 30 bytes: many chunk boundaries
    std::string line(static_cast<std::size_t>(1 + i % 30), static_cast<char>('a' + i % 26));
    text += line + "\n";
    expected.emplace_back(line, false);
  }
  const std::string long_line(200000, 'x');  // three chunks long
  text += long_line + "\nafter\n";
  expected.emplace_back(long_line.substr(0, 1000), true);
  expected.emplace_back("after", false);
  std::stringstream in(text);
  line_reader reader(*in.rdbuf(), 1000);
  CHECK(all_lines(reader) == expected);
}

TEST_CASE("line reader: a pipe's trickle gives the same lines, and a line needs no input past its newline",
          "[io][line_reader]") {
  trickle_buffer pipe("{\"cc\": \"7.0\"}\n{\"cc\": \"7.5\"}\nend\n");
  line_reader reader(pipe, 100);
  std::string line;
  bool cut = false;
  REQUIRE(reader.next(line, cut));
  CHECK(line == "{\"cc\": \"7.0\"}");
  // A coprocess waits for this answer before it writes more: the first line
  // came without reading the second one's end.
  CHECK(pipe.refills < 12);
  const auto rest = all_lines(reader);
  const std::vector<std::pair<std::string, bool>> expected = {{"{\"cc\": \"7.5\"}", false}, {"end", false}};
  CHECK(rest == expected);
}
