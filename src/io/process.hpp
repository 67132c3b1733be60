// Running a tool occcalc can use when it is installed (ptxas), at the edge.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occcalc::cli {

/// The path of `name` in a PATH directory, if it is an executable there.
std::optional<std::string> find_program(const std::string& name);

/// Runs `argv` (argv[0] a path) with no shell and returns what it wrote to
/// standard error and standard output, at most `max_bytes`; throws
/// `occcalc::error` when it cannot start or exits with a failure.
std::string run_program(const std::vector<std::string>& argv, std::size_t max_bytes);

/// A file in `$TMPDIR` (else /tmp) holding given contents, for a tool that
/// reads only files; removed when destroyed.
class temporary_file {
 public:
  /// Throws `occcalc::error` when the file cannot be made or written.
  temporary_file(std::string_view contents, const std::string& suffix);
  ~temporary_file();
  temporary_file(const temporary_file&) = delete;
  temporary_file& operator=(const temporary_file&) = delete;
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace occcalc::cli
