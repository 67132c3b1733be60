#include "builds/directory.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "occcalc/error.hpp"

namespace occcalc::cli {

namespace fs = std::filesystem;

namespace {

/// Deeper than any build tree; a bound on recursion for hostile trees.
constexpr int max_directory_depth = 128;

void walk(const fs::path& dir, int depth, std::vector<std::string>& files, std::vector<std::string>& unreadable) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec || depth > max_directory_depth) {
    unreadable.push_back(dir.string());
    return;
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) {
      unreadable.push_back(dir.string());
      return;
    }
    std::error_code entry_ec;
    const fs::file_status link = it->symlink_status(entry_ec);
    if (entry_ec) continue;
    if (fs::is_directory(link)) {
      walk(it->path(), depth + 1, files, unreadable);
    } else if (fs::is_regular_file(it->status(entry_ec)) && !entry_ec) {
      files.push_back(it->path().string());  // a file, or a link to one; links to directories are not followed
    }
  }
}

}  // namespace

bool is_directory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::vector<std::string> files_under(const std::string& dir, std::vector<std::string>& unreadable) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw occcalc::error(fmt::format("{}: not a directory", dir));
  std::vector<std::string> files;
  walk(dir, 0, files, unreadable);
  std::sort(files.begin(), files.end());
  return files;
}

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && !ec;
}

}  // namespace occcalc::cli
