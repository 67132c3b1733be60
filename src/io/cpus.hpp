// How many CPUs this process may use: its affinity mask, capped by a cgroup
// v2 CPU quota (a container's --cpus), at the edge.
#pragma once

#include <optional>
#include <string_view>

namespace occcalc::cli {

/// The CPUs a cgroup v2 `cpu.max` line allows ("200000 100000" is 2; a
/// fraction rounds up; "max ..." is no limit), or empty when it sets none or
/// cannot be read.
std::optional<unsigned> cpus_from_cgroup_max(std::string_view line);

/// The CPUs this process may run on: `sched_getaffinity`'s count, capped by
/// the quota of its cgroup (`/sys/fs/cgroup/cpu.max`); at least 1.
unsigned usable_cpus();

}  // namespace occcalc::cli
