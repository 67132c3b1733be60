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

class gpu_name_index;  // request/lookup.hpp

/// A table's index of its GPUs' names, which a copy of the table does not
/// keep: the index points into the table it was built from.
class gpu_name_index_ref {
 public:
  gpu_name_index_ref() = default;
  gpu_name_index_ref(const gpu_name_index_ref&) noexcept {}
  gpu_name_index_ref& operator=(const gpu_name_index_ref&) noexcept {
    index_ = nullptr;
    return *this;
  }
  gpu_name_index_ref& operator=(const gpu_name_index* index) noexcept {
    index_ = index;
    return *this;
  }
  const gpu_name_index* get() const noexcept { return index_; }

#if __cplusplus >= 202002L
  friend bool operator==(const gpu_name_index_ref&, const gpu_name_index_ref&) noexcept { return true; }
#endif

 private:
  const gpu_name_index* index_ = nullptr;
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
  /// An index of the GPUs' names, where whoever holds the table for many
  /// requests built one (`gpu_name_index`): a GPU or family name is then
  /// found without reading every name. None: each lookup reads them.
  gpu_name_index_ref gpu_names;

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
