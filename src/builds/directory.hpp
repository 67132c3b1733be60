// The regular files under a directory, for inputs given as directories.
#pragma once

#include <string>
#include <vector>

namespace occcalc::cli {

/// Every regular file under `dir`, recursively, in sorted path order (the
/// same output on every run). Symbolic links to directories are not
/// followed (no cycles); directories that cannot be read are listed in
/// `unreadable`. Throws `occcalc::error` when `dir` itself cannot be read.
std::vector<std::string> files_under(const std::string& dir, std::vector<std::string>& unreadable);

/// Whether `path` names a directory.
bool is_directory(const std::string& path);

/// Whether `path` names a regular file (one that can be read twice; a pipe
/// or a process substitution cannot).
bool is_regular_file(const std::string& path);

}  // namespace occcalc::cli
