#include "io/cpus.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>
#include <thread>

#include <sched.h>

namespace occcalc::cli {

namespace {

std::optional<unsigned long long> number(std::string_view text) {
  unsigned long long n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

}  // namespace

std::optional<unsigned> cpus_from_cgroup_max(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.remove_suffix(1);
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto quota = number(line.substr(0, space));  // "max": no limit
  const auto period = number(line.substr(space + 1));
  if (!quota || !period || *period == 0 || *quota == 0) return std::nullopt;
  const unsigned long long cpus = (*quota + *period - 1) / *period;
  return static_cast<unsigned>(std::min<unsigned long long>(cpus, 1u << 16));
}

unsigned usable_cpus() {
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) == 0) cpus = static_cast<unsigned>(std::max(1, CPU_COUNT(&mask)));
  // The process's own cgroup is the root of the v2 hierarchy as a container
  // sees it.
  std::ifstream file("/sys/fs/cgroup/cpu.max");
  std::string line;
  if (file && std::getline(file, line)) {
    if (const auto quota = cpus_from_cgroup_max(line)) cpus = std::min(cpus, std::max(1u, *quota));
  }
  return cpus;
}

}  // namespace occcalc::cli
