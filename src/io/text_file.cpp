#include "io/text_file.hpp"

#include <array>
#include <fstream>

#include <fmt/format.h>

#include "occcalc/error.hpp"

namespace occcalc::cli {

std::string read_text_file(const std::string& path, std::string_view what) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw occcalc::error(fmt::format("{}: cannot read the {}", path, what));
  std::string text;
  std::array<char, 1 << 16> chunk{};
  while (file.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || file.gcount() > 0) {
    const auto got = static_cast<std::size_t>(file.gcount());
    if (text.size() + got > max_text_file_bytes) {
      throw occcalc::error(fmt::format("{}: the {} is larger than {} MiB; no real one comes near", path, what,
                                       max_text_file_bytes >> 20));
    }
    text.append(chunk.data(), got);
  }
  if (file.bad()) throw occcalc::error(fmt::format("{}: cannot read the {}", path, what));
  return text;
}

}  // namespace occcalc::cli
