// The table entry of the GPU a day-one program runs on, from the figures its
// runtime reports: a --table file occcalc loads as it loads data/*.json
// (docs/architectures.md). Plain C++17 with no CUDA, HIP or occcalc header,
// so that the CUDA and HIP programs beside it share it and occcalc's tests
// hold what it writes to occcalc's own tables (tests/tools/day_one_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <functional>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace occcalc::day_one {

/// What the CUDA runtime reports of one device (`cudaDeviceProp`, and
/// `cudaOccupancyMaxPotentialClusterSize` with non-portable sizes allowed).
struct nvidia_device {
  std::string name;  ///< `prop.name`, or the --name given
  int cc_major = 0, cc_minor = 0;
  std::int64_t sm_count = 0;                    ///< multiProcessorCount
  std::int64_t warp_size_threads = 0;           ///< warpSize
  std::int64_t max_threads_per_block = 0;       ///< maxThreadsPerBlock
  std::int64_t max_threads_per_sm = 0;          ///< maxThreadsPerMultiProcessor
  std::int64_t max_blocks_per_sm = 0;           ///< maxBlocksPerMultiProcessor
  std::int64_t registers_per_sm = 0;            ///< regsPerMultiprocessor
  std::int64_t registers_per_block = 0;         ///< regsPerBlock
  std::int64_t shared_memory_per_sm_bytes = 0;  ///< sharedMemPerMultiprocessor
  std::int64_t shared_memory_per_block_bytes = 0;        ///< sharedMemPerBlock
  std::int64_t shared_memory_per_block_optin_bytes = 0;  ///< sharedMemPerBlockOptin
  std::int64_t shared_memory_reserved_per_block_bytes = 0;  ///< reservedSharedMemPerBlock
  /// The shared memory a block's allocation rounds up to, measured through
  /// the occupancy API (`shared_memory_unit_from_occupancy`).
  std::int64_t shared_memory_allocation_unit_bytes = 0;
  /// The largest cluster one block of 32 threads launches in with
  /// non-portable sizes allowed; empty where the device has no cluster launch.
  std::optional<std::int64_t> max_cluster_size;
  int driver_version = 0, runtime_version = 0;  ///< cudaDriverGetVersion, cudaRuntimeGetVersion
};

/// What the HIP runtime reports of one device (`hipDeviceProp_t`).
struct amd_device {
  std::string name;           ///< `prop.name`, or the --name given
  std::string gcn_arch_name;  ///< `gcnArchName`, as `gfx90a:sramecc+:xnack-`
  /// `multiProcessorCount`: compute units, or on gfx10 and later in the
  /// runtime's default WGP mode, work-group processors of two CUs each
  /// (ROCm/hip#3767).
  std::int64_t multiprocessor_count = 0;
  bool wgp_mode = true;  ///< false where GPU_ENABLE_WGP_MODE=0 set the runtime to CU mode
  int runtime_version = 0;  ///< hipRuntimeGetVersion
};

/// The figures the CUDA runtime does not report, as every architecture from
/// 7.0 to 12.1 in occcalc's tables has them.
struct nvidia_assumed {
  static constexpr std::int64_t max_registers_per_thread = 256;
  static constexpr std::int64_t max_compiled_registers_per_thread = 255;
  static constexpr std::int64_t register_allocation_unit_registers = 256;
  static constexpr std::int64_t register_file_partitions = 4;
  static constexpr std::int64_t max_barriers_per_block = 16;
  static constexpr std::int64_t max_cluster_size_portable = 8;
};

/// The lower-case name with `-` between words, as table ids are written.
inline std::string table_id(const std::string& name) {
  std::string id;
  for (const char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (alnum || (c >= 'A' && c <= 'Z')) {
      id += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else if (!id.empty() && id.back() != '-') {
      id += '-';
    }
  }
  while (!id.empty() && id.back() == '-') id.pop_back();
  return id.empty() ? "device" : id;
}

/// `name` with control characters as spaces, runs of spaces as one, and
/// none at either end: table text fields hold printable text.
inline std::string printable(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool space = static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ';
    if (!space) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

/// Printable `text` as a JSON string.
inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : printable(text)) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// The allocation unit of a block's shared memory, from `blocks_at(bytes)`:
/// the runtime's resident blocks per SM for a one-warp kernel with `bytes`
/// of dynamic shared memory. Of the units 8 B to 4 KiB, the one whose
/// rounding predicts every count where shared memory is the limit; 0 where
/// none does (the caller then refuses to guess).
inline std::int64_t shared_memory_unit_from_occupancy(const nvidia_device& d,
                                                     const std::function<std::int64_t(std::int64_t)>& blocks_at) {
  // Where shared memory, not the block limit, decides: past per-SM / blocks.
  const std::int64_t first = d.shared_memory_per_sm_bytes / d.max_blocks_per_sm;
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;
  for (std::int64_t bytes = first; bytes <= first + 8192 && bytes <= d.shared_memory_per_block_optin_bytes;
       bytes += 8) {
    seen.emplace_back(bytes, blocks_at(bytes));
  }
  for (std::int64_t unit = 8; unit <= 4096; unit *= 2) {
    bool fits = !seen.empty();
    for (const auto& [bytes, blocks] : seen) {
      const std::int64_t per_block = (bytes + d.shared_memory_reserved_per_block_bytes + unit - 1) / unit * unit;
      const std::int64_t predicted = std::min(d.max_blocks_per_sm, d.shared_memory_per_sm_bytes / per_block);
      if (predicted != blocks) {
        fits = false;
        break;
      }
    }
    if (fits) return unit;
  }
  return 0;
}

/// The options both programs take: the device to read and the name to
/// give it.
struct device_options {
  int device = 0;
  std::string name;
};

/// What `read_device_option` made of `argv[i]`.
enum class option_read { taken, not_shared, bad_value };

/// Reads `argv[i]` into `o` where it is `--device N` (an index from 0) or
/// `--name NAME`, moving `i` past its value; `not_shared` for any other
/// argument, `bad_value` for a missing value or a device that is not an
/// index (never read as device 0).
inline option_read read_device_option(int argc, char** argv, int& i, device_options& o) {
  const std::string arg = argv[i];
  if (arg != "--device" && arg != "--name") return option_read::not_shared;
  if (i + 1 >= argc) return option_read::bad_value;
  const std::string value = argv[++i];
  if (arg == "--name") {
    o.name = value;
    return option_read::taken;
  }
  const bool index = !value.empty() && value.size() <= 9 &&
                     std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!index) return option_read::bad_value;
  o.device = std::stoi(value);
  return option_read::taken;
}

/// Today's date, `2026-11-29` (UTC): when the runtime was read.
inline std::string today() {
  char text[16] = {};
  const std::time_t now = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

/// The source every entry a day-one program writes cites: the runtime it
/// asked, on the day it asked.
inline std::string source_id(const std::string& device_id) { return "day-one-" + device_id; }

/// A --table file for the NVIDIA device `d`: its GPU entry, and with
/// `with_architecture` an entry for its compute capability too (for one
/// occcalc does not know or lists as unlisted). `date` is when it was read.
inline void write_nvidia_table(std::ostream& out, nvidia_device d, bool with_architecture, const std::string& date) {
  d.name = printable(d.name);
  const std::string id = table_id(d.name);
  const std::string arch = "sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor);
  const std::string source = source_id(id);
  out << "{\"schema_version\": 1,\n \"sources\": [{\"id\": " << json_string(source) << ", \"title\": "
      << json_string("CUDA runtime properties of " + d.name + " (driver " + std::to_string(d.driver_version) +
                     ", runtime " + std::to_string(d.runtime_version) + "), read by occcalc's tools/day-one on " +
                     date)
      << ", \"url\": \"https://docs.nvidia.com/cuda/cuda-runtime-api/structcudaDeviceProp.html\"}],\n";
  if (with_architecture) {
    const nvidia_assumed a;
    out << " \"architectures\": [{\n  \"id\": " << json_string(arch) << ", \"compute_capability\": \""
        << d.cc_major << "." << d.cc_minor << "\", \"family\": " << json_string(d.name)
        << ", \"sources\": [" << json_string(source) << "],\n  \"notes\": "
        << json_string(
               "From the CUDA runtime's properties of " + d.name +
               "; the shared memory allocation unit measured through cudaOccupancyMaxActiveBlocksPerMultiprocessor; "
               "registers per thread, the register allocation unit, register file partitions and barriers per block "
               "are not reported and taken as every architecture from 7.0 to 12.1 has them; the shared memory is the "
               "largest carveout, as the runtime reports it, so --carveout has no smaller sizes to choose")
        << ",\n  \"warp_size_threads\": " << d.warp_size_threads
        << ", \"max_threads_per_block\": " << d.max_threads_per_block
        << ", \"max_warps_per_sm\": " << d.max_threads_per_sm / d.warp_size_threads
        << ", \"max_blocks_per_sm\": " << d.max_blocks_per_sm << ",\n  \"registers_per_sm\": " << d.registers_per_sm
        << ", \"max_registers_per_block\": " << d.registers_per_block
        << ", \"max_registers_per_thread\": " << a.max_registers_per_thread
        << ", \"max_compiled_registers_per_thread\": " << a.max_compiled_registers_per_thread
        << ",\n  \"register_allocation_scope\": \"warp\", \"register_allocation_unit_registers\": "
        << a.register_allocation_unit_registers << ", \"register_file_partitions\": " << a.register_file_partitions
        << ",\n  \"shared_memory_config\": \"fixed\", \"shared_memory_per_sm_bytes\": " << d.shared_memory_per_sm_bytes
        << ", \"shared_memory_per_block_bytes\": " << d.shared_memory_per_block_bytes
        << ", \"shared_memory_per_block_optin_bytes\": " << d.shared_memory_per_block_optin_bytes
        << ",\n  \"shared_memory_reserved_per_block_bytes\": " << d.shared_memory_reserved_per_block_bytes
        << ", \"shared_memory_allocation_unit_bytes\": " << d.shared_memory_allocation_unit_bytes
        << ", \"max_barriers_per_block\": " << a.max_barriers_per_block;
    if (d.max_cluster_size) {
      out << ",\n  \"max_cluster_size_portable\": " << a.max_cluster_size_portable;
      if (*d.max_cluster_size > a.max_cluster_size_portable) {
        out << ", \"max_cluster_size_nonportable\": " << *d.max_cluster_size;
      }
    }
    out << "}],\n";
  }
  out << " \"gpus\": [{\"id\": " << json_string(id) << ", \"name\": " << json_string(d.name)
      << ", \"arch\": " << json_string(arch) << ", \"sm_count\": " << d.sm_count << ", \"sources\": ["
      << json_string(source) << "]}]}\n";
}

/// The processor of a target id: `gfx90a` of `gfx90a:sramecc+:xnack-`.
inline std::string amd_processor(const std::string& gcn_arch_name) {
  return gcn_arch_name.substr(0, gcn_arch_name.find(':'));
}

/// The compute units of `d`: in WGP mode, on gfx10 and later (a processor
/// number of four digits or more), the runtime counts WGPs of two CUs.
inline std::int64_t amd_compute_units(const amd_device& d) {
  const std::string processor = amd_processor(d.gcn_arch_name);
  const bool has_wgps = processor.size() >= 7 && processor.compare(0, 3, "gfx") == 0;
  return has_wgps && d.wgp_mode ? 2 * d.multiprocessor_count : d.multiprocessor_count;
}

/// A --table file for the AMD device `d`: its GPU entry, for its target as
/// occcalc's tables hold it (HIP reports none of a target's register or LDS
/// granules; a new target's entry comes from LLVM, docs/amd.md).
inline void write_amd_table(std::ostream& out, amd_device d, const std::string& date) {
  d.name = printable(d.name);
  const std::string id = table_id(d.name);
  const std::string source = source_id(id);
  out << "{\"schema_version\": 1,\n \"sources\": [{\"id\": " << json_string(source) << ", \"title\": "
      << json_string("HIP runtime properties of " + d.name + " (" + d.gcn_arch_name + ", runtime " +
                     std::to_string(d.runtime_version) + (d.wgp_mode ? "" : ", CU mode") +
                     "), read by occcalc's tools/day-one on " + date)
      << ", \"url\": \"https://rocm.docs.amd.com/projects/HIP/en/latest/doxygen/html/structhip_device_prop__t.html\"}],\n"
      << " \"amd_gpus\": [{\"id\": " << json_string(id) << ", \"name\": " << json_string(d.name)
      << ", \"target\": " << json_string(amd_processor(d.gcn_arch_name))
      << ", \"compute_units\": " << amd_compute_units(d) << ", \"sources\": [" << json_string(source) << "]}]}\n";
}

}  // namespace occcalc::day_one
