#include "io/process.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "occcalc/error.hpp"

extern char** environ;

namespace occcalc::cli {

std::optional<std::string> find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string dirs = path;
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

std::string run_program(const std::vector<std::string>& argv, std::size_t max_bytes) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw occcalc::error(fmt::format("{}: cannot start: {}", argv[0], std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    throw occcalc::error(fmt::format("{}: cannot start: {}", argv[0], std::strerror(spawned)));
  }
  std::string output;
  char buffer[1 << 16];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (output.size() < max_bytes) output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const auto first_line = output.substr(0, output.find('\n'));
    throw occcalc::error(fmt::format("{} failed{}", argv[0], first_line.empty() ? "" : ": " + first_line));
  }
  return output;
}

temporary_file::temporary_file(std::string_view contents, const std::string& suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/occcalc-XXXXXX" + suffix;
  const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0) throw occcalc::error(fmt::format("{}: cannot make a temporary file: {}", name, std::strerror(errno)));
  path_ = name;
  for (std::size_t written = 0; written < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      ::unlink(path_.c_str());
      throw occcalc::error(fmt::format("{}: cannot write a temporary file: {}", path_, std::strerror(saved)));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

temporary_file::~temporary_file() { ::unlink(path_.c_str()); }

}  // namespace occcalc::cli
