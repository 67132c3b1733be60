/// \file tables/tables.hpp
/// Everything the loaded tables describe, both vendors together, and the text
/// of a table file. No JSON here: arch_table.hpp loads them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "occcalc/amd/target.hpp"
#include "occcalc/nvidia/arch.hpp"

namespace occcalc {

/// A document a table figure comes from.
struct source {
  /// Short key used by entries (`PG13`).
  std::string id;
  /// What it is.
  std::string title;
  /// Where to read it.
  std::string url;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const source&, const source&) = default;
#endif
};

/// Everything the loaded tables describe.
struct table {
  std::vector<source> sources;
  std::vector<nvidia_arch> architectures;
  /// Compute capabilities known to be out of the table, with the reason.
  std::vector<unlisted_arch> unlisted_architectures;
  std::vector<gpu> gpus;
  /// Where each product's thread block clusters run, from
  /// data/nvidia-cluster-layouts.json.
  std::vector<cluster_layout> cluster_layouts;
  /// AMD targets (`gfx900`), from data/amd-targets.json.
  std::vector<amd_target> amd_targets;
  /// LLVM processors known to be out of the table, with the reason.
  std::vector<unlisted_amd_target> unlisted_amd_targets;
  /// Named AMD GPUs, from data/amd-gpus.json.
  std::vector<amd_gpu> amd_gpus;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const table&, const table&) = default;
#endif
};

/// The text of one table file and where it came from (a path, or a name for
/// an embedded table), for error messages.
struct table_text {
  std::string origin;
  std::string_view json;
};

}  // namespace occcalc
