// tools/day-one's table entries, held to occcalc's own tables: what the CUDA
// runtime reported on the H200 and H100 (tests/fixtures/measured/*/
// clusters.jsonl.xz, the device record) gives a GPU and an architecture that
// answer as the built-in H200 and sm_90 do; what HIP reports of an MI300X and
// an RX 7900 XTX gives their compute units.
#include "catch.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "../../tools/day-one/table_entry.hpp"
#include "cli/embedded_tables.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/tables/load.hpp"
#include "test_tables.hpp"

namespace {

using occcalc::day_one::nvidia_device;

/// The H200's device record (tests/fixtures/measured/h200/clusters.jsonl.xz,
/// line 1); the four figures it does not record (warp size, threads and
/// registers per block, shared memory per block) are the CUDA Programming
/// Guide's for 9.0, as cudaDeviceProp reports them.
nvidia_device h200() {
  nvidia_device d;
  d.name = "Lab H200";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.warp_size_threads = 32;
  d.max_threads_per_block = 1024;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.registers_per_sm = 65536;
  d.registers_per_block = 65536;
  d.shared_memory_per_sm_bytes = 233472;
  d.shared_memory_per_block_bytes = 49152;
  d.shared_memory_per_block_optin_bytes = 232448;
  d.shared_memory_reserved_per_block_bytes = 1024;
  d.shared_memory_allocation_unit_bytes = 128;
  d.max_cluster_size = 16;  // the record's max_potential_cluster_size for one warp
  d.driver_version = 13000;
  d.runtime_version = 13000;
  return d;
}

std::string nvidia_table(const nvidia_device& d, bool with_architecture) {
  std::ostringstream out;
  occcalc::day_one::write_nvidia_table(out, d, with_architecture, "2026-11-27");
  return out.str();
}

occcalc::table with_builtin(const std::string& mine) {
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  texts.push_back({"mine.json", mine});
  return occcalc::load_tables(texts);
}

/// Every block size, register count and shared memory size in steps that
/// cross each rounding: where `a` and `b` differ, the first such launch.
std::string first_difference(const occcalc::nvidia_arch& a, const occcalc::nvidia_arch& b) {
  for (std::int64_t threads = 32; threads <= 1024; threads += 32) {
    for (std::int64_t regs = 8; regs <= 255; regs += 7) {
      for (std::int64_t smem = 0; smem <= 232448; smem += 3001) {
        const auto launch = occcalc::test::kernel(threads, regs, 0, smem);
        const auto x = occcalc::compute_occupancy(a, launch);
        const auto y = occcalc::compute_occupancy(b, launch);
        if (x.blocks_per_sm != y.blocks_per_sm || !(x.limiters == y.limiters)) {
          return std::to_string(threads) + " threads, " + std::to_string(regs) + " registers, " + std::to_string(smem) +
                 " B: " + std::to_string(x.blocks_per_sm) + " against " + std::to_string(y.blocks_per_sm);
        }
      }
    }
  }
  return "";
}

}  // namespace

TEST_CASE("a day-one GPU entry loads on the built-in tables and answers as the built-in H200", "[day-one]") {
  const auto tables = with_builtin(nvidia_table(h200(), false));
  const auto found = occcalc::find_named_gpu(tables, "Lab H200");
  REQUIRE(found.nvidia != nullptr);
  CHECK(found.nvidia->id == "lab-h200");
  CHECK(found.nvidia->arch_id == "sm_90");
  CHECK(found.nvidia->sm_count == occcalc::find_named_gpu(tables, "H200").nvidia->sm_count);
  CHECK(tables.sources.back().id == "day-one-lab-h200");
  CHECK(tables.sources.back().title ==
        "CUDA runtime properties of Lab H200 (driver 13000, runtime 13000), read by occcalc's tools/day-one on "
        "2026-11-27");
}

TEST_CASE("a day-one GPU named as a built-in one is refused, as any --table GPU is", "[day-one]") {
  nvidia_device d = h200();
  d.name = "NVIDIA H200";
  REQUIRE_THROWS_WITH(with_builtin(nvidia_table(d, false)),
                      "mine.json: gpu 'nvidia-h200': the name 'nvidia-h200' also names embedded:nvidia-gpus.json: gpu "
                      "'h200' (brand words, case, spaces and punctuation ignored)");
}

TEST_CASE("a day-one architecture from the runtime's figures answers as the built-in sm_90", "[day-one]") {
  // Loaded alone: its own source, architecture and GPU, nothing built in.
  const auto tables = occcalc::load_tables({{"mine.json", nvidia_table(h200(), true)}});
  REQUIRE(tables.architectures.size() == 1);
  const auto& mine = tables.architectures.front();
  CHECK(mine.max_cluster_size_portable == 8);
  CHECK(mine.max_cluster_size_nonportable == 16);
  CHECK(first_difference(mine, occcalc::test::arch("9.0")) == "");
}

TEST_CASE("a day-one architecture takes the place of one the tables list as unlisted", "[day-one]") {
  nvidia_device rubin = h200();
  rubin.name = "Lab Rubin";
  rubin.cc_major = 10;
  rubin.cc_minor = 7;
  const auto tables = with_builtin(nvidia_table(rubin, true));
  CHECK(std::none_of(tables.unlisted_architectures.begin(), tables.unlisted_architectures.end(),
                     [](const auto& u) { return u.id == "sm_107"; }));
  const auto found = occcalc::find_named_gpu(tables, "Lab Rubin");
  REQUIRE(found.nvidia != nullptr);
  CHECK(found.nvidia->arch_id == "sm_107");
  CHECK(std::any_of(tables.architectures.begin(), tables.architectures.end(),
                    [](const auto& a) { return a.id == "sm_107" && a.cc_major == 10 && a.cc_minor == 7; }));
  // In the file that lists it as unlisted, the two contradict each other.
  rubin.cc_minor = 9;
  std::string both = nvidia_table(rubin, true);
  both.insert(both.find('\n') + 1, R"( "unlisted_architectures": [{"id": "sm_109", "compute_capability": "10.9",
    "sources": ["day-one-lab-rubin"], "reason": "not yet"}],
)");
  REQUIRE_THROWS_WITH(with_builtin(both), "mine.json: unlisted architecture 'sm_109': is also in architectures");
}

TEST_CASE("a day-one architecture is refused where its id is built in", "[day-one]") {
  REQUIRE_THROWS_WITH(with_builtin(nvidia_table(h200(), true)),
                      Catch::Contains("mine.json: architecture 'sm_90' is already defined in"));
}

TEST_CASE("the shared memory allocation unit is measured from what the occupancy API answers", "[day-one]") {
  // The occupancy API simulated by occcalc's calculator, which agrees with
  // cuda_occupancy.h on every architecture: 7.x rounds to 256 B, 8.0 on to 128.
  for (const auto* cc : {"7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"}) {
    const auto& arch = occcalc::test::arch(cc);
    nvidia_device d;
    d.max_blocks_per_sm = arch.max_blocks_per_sm;
    d.shared_memory_per_sm_bytes = arch.shared_memory_per_sm_bytes;
    d.shared_memory_per_block_optin_bytes =
        arch.shared_memory_per_block_optin_bytes.value_or(arch.shared_memory_per_block_bytes);
    d.shared_memory_reserved_per_block_bytes = arch.shared_memory_reserved_per_block_bytes;
    const auto unit = occcalc::day_one::shared_memory_unit_from_occupancy(d, [&](std::int64_t bytes) {
      return occcalc::compute_occupancy(arch, occcalc::test::kernel(32, 16, 0, bytes)).blocks_per_sm;
    });
    INFO(cc);
    CHECK(unit == arch.shared_memory_allocation_unit_bytes);
  }
  // A runtime whose answers no unit predicts gets none, never a guess.
  nvidia_device d = h200();
  CHECK(occcalc::day_one::shared_memory_unit_from_occupancy(d, [](std::int64_t bytes) { return bytes % 3; }) == 0);
}

TEST_CASE("a day-one AMD GPU has the compute units HIP counts, WGPs doubled on gfx10 and later", "[day-one][amd]") {
  struct case_t {
    const char* name;
    const char* gcn_arch_name;
    std::int64_t multiprocessor_count;
    bool wgp_mode;
    const char* builtin;
  };
  // What hipDeviceProp_t reports (ROCm/hip#3198, #3767: an RX 7900 XT
  // reports 42 for its 84 CUs in the default WGP mode).
  for (const auto& c : {case_t{"Lab MI300X", "gfx942:sramecc+:xnack-", 304, true, "Instinct MI300X"},
                        case_t{"Lab 7900 XTX", "gfx1100", 48, true, "Radeon RX 7900 XTX"},
                        case_t{"Lab 7900 XTX CU mode", "gfx1100", 96, false, "Radeon RX 7900 XTX"},
                        case_t{"Lab 7600", "gfx1102", 16, true, "Radeon RX 7600"}}) {
    occcalc::day_one::amd_device d;
    d.name = c.name;
    d.gcn_arch_name = c.gcn_arch_name;
    d.multiprocessor_count = c.multiprocessor_count;
    d.wgp_mode = c.wgp_mode;
    d.runtime_version = 70200000;
    std::ostringstream out;
    occcalc::day_one::write_amd_table(out, d, "2026-11-29");
    const auto tables = with_builtin(out.str());
    const auto mine = occcalc::find_named_gpu(tables, c.name);
    const auto builtin = occcalc::find_named_gpu(tables, c.builtin);
    INFO(c.name);
    REQUIRE(mine.amd != nullptr);
    REQUIRE(builtin.amd != nullptr);
    CHECK(mine.amd->target_id == builtin.amd->target_id);
    CHECK(mine.amd->compute_units == builtin.amd->compute_units);
  }
}

TEST_CASE("a day-one entry's name is escaped and its id is the name's words", "[day-one]") {
  CHECK(occcalc::day_one::table_id("NVIDIA GeForce RTX 5090 D v2") == "nvidia-geforce-rtx-5090-d-v2");
  CHECK(occcalc::day_one::table_id("  (!) ") == "device");
  CHECK(occcalc::day_one::json_string("a \"b\"\\") == "\"a \\\"b\\\"\\\\\"");
  CHECK(occcalc::day_one::printable("\t NVIDIA\x01 B200 \n") == "NVIDIA B200");
  nvidia_device d = h200();
  d.name = "Lab \"quoted\"\tH200\n";
  const auto tables = with_builtin(nvidia_table(d, false));
  // Control characters, which the loader refuses in any text, become spaces.
  CHECK(tables.gpus.back().name == "Lab \"quoted\" H200");
  CHECK(tables.gpus.back().id == "lab-quoted-h200");
}

TEST_CASE("both day-one programs read --device and --name alike, a device that is not an index refused", "[day-one]") {
  using occcalc::day_one::option_read;
  const auto read = [](std::vector<std::string> args, occcalc::day_one::device_options& o) {
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::vector<option_read> out;
    for (int i = 1; i < static_cast<int>(argv.size()); ++i) {
      out.push_back(occcalc::day_one::read_device_option(static_cast<int>(argv.size()), argv.data(), i, o));
    }
    return out;
  };
  occcalc::day_one::device_options o;
  CHECK(read({"--device", "3", "--name", "Lab GPU"}, o) ==
        std::vector<option_read>{option_read::taken, option_read::taken});
  CHECK(o.device == 3);
  CHECK(o.name == "Lab GPU");
  CHECK(read({"--with-architecture"}, o) == std::vector<option_read>{option_read::not_shared});
  for (const char* bad : {"abc", "-1", "", "1x", "99999999999"}) {
    INFO(bad);
    occcalc::day_one::device_options fresh;
    CHECK(read({"--device", bad}, fresh) == std::vector<option_read>{option_read::bad_value});
  }
  occcalc::day_one::device_options missing;
  CHECK(read({"--device"}, missing) == std::vector<option_read>{option_read::bad_value});
  CHECK(read({"--name"}, missing) == std::vector<option_read>{option_read::bad_value});
}
