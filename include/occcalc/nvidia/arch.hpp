/// \file nvidia/arch.hpp
/// Plain descriptions of architectures and named GPUs, as loaded from the
/// JSON tables in `data/` (NVIDIA's; AMD's are in amd/target.hpp, both
/// together in tables/tables.hpp). No JSON here: see tables/load.hpp for the
/// loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "occcalc/nvidia/arch_figures.hpp"
#include "occcalc/nvidia/names.hpp"

namespace occcalc {

/// One NVIDIA compute capability as a table describes it: its figures
/// (`nvidia_arch_figures`, all the calculator reads) with its name, family
/// and sources.
struct nvidia_arch : nvidia_arch_figures {
  /// Identifier, `sm_` followed by major and minor digits (`sm_70`).
  std::string id;
  /// Compute capability major version.
  int cc_major = 0;
  /// Compute capability minor version.
  int cc_minor = 0;
  /// Marketing family name (`Volta`).
  std::string family;
  /// Ids of the sources the figures come from.
  std::vector<std::string> sources;
  /// Free text: where sources disagree and which one the table follows.
  std::string notes;

  /// The compute capability as `MAJOR.MINOR`.
  std::string compute_capability() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const nvidia_arch&, const nvidia_arch&) = default;
#endif
};

/// A compute capability the toolchain knows that the table cannot answer
/// for (`sm_88`), and why: what is missing, in the table's words.
struct unlisted_arch {
  /// `sm_88`.
  std::string id;
  int cc_major = 0;
  int cc_minor = 0;
  /// What is known and what is missing, for messages.
  std::string reason;
  std::vector<std::string> sources;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const unlisted_arch&, const unlisted_arch&) = default;
#endif
};

/// A named GPU: a product with its architecture and SM count.
struct gpu {
  /// Identifier: the lower-case name with `-` between words.
  std::string id;
  /// Product name as NVIDIA writes it.
  std::string name;
  /// Id of its `nvidia_arch`.
  std::string arch_id;
  /// Number of SMs.
  std::int64_t sm_count = 0;
  /// Other names people type for exactly this product (`H100 SXM`); never a
  /// name that would also fit another SKU.
  std::vector<std::string> aliases;
  /// Ids of the sources for the SM count.
  std::vector<std::string> sources;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const gpu&, const gpu&) = default;
#endif
};

/// Where a product's clusters can run, as measured or as published.
struct cluster_layout {
  /// Identifier (`gh100-132-sms`).
  std::string id;
  /// Ids of the GPUs it describes.
  std::vector<std::string> gpu_ids;
  /// The SMs of each placement domain, as measured; empty when only the GPC
  /// counts below are known.
  std::vector<std::int64_t> domain_sms;
  /// Otherwise: the numbers of GPCs the product may have enabled, the most
  /// TPCs a GPC of its die holds, and the SMs of a TPC. A layout is any split
  /// of the product's TPCs into that many GPCs of 1 to `max_tpcs_per_gpc`
  /// TPCs, one of which the runtime may split further into domains of whole
  /// TPCs (as measured on the H100 and H200, docs/clusters.md).
  std::vector<std::int64_t> gpc_counts;
  std::int64_t max_tpcs_per_gpc = 0;
  std::int64_t sms_per_tpc = 0;
  /// Ids of the sources.
  std::vector<std::string> sources;

  /// Whether the domains were measured.
  bool measured() const noexcept { return !domain_sms.empty(); }

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const cluster_layout&, const cluster_layout&) = default;
#endif
};

}  // namespace occcalc
