// Reading kernels from build outputs: every fixture binary agrees with the
// compiler's own log of its build, hand-checked figures, and hostile input.
#include "catch.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "builds/kernel_report.hpp"
#include "builds/readers/compiler_log.hpp"
#include "builds/readers/decompress.hpp"
#include "builds/readers/demangle.hpp"
#include "builds/readers/elf.hpp"
#include "builds/readers/fatbin.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"
#include "files.hpp"
#include "test_tables.hpp"

using occcalc::test::fixture_dir;
using namespace occcalc::inspect;
using occcalc::test::matchers::Contains;

namespace {

/// Overrides with only a block size, as `--threads N` gives.
occcalc::cli::launch_overrides threads_override(std::int64_t threads) {
  occcalc::cli::launch_overrides o;
  o.threads = threads;
  return o;
}

std::vector<unsigned char> file_bytes(const std::string& name) {
  const mapped_file file(fixture_dir + "/" + name);
  return {file.bytes().data(), file.bytes().data() + file.bytes().size()};
}

inspect_options options() {
  inspect_options o;
  o.workers = 2;
  return o;
}

/// `in` with each kernel's shared memory as analysis settles it (the reserve
/// taken out with the default tables), as every output shows it.
inspection settled(inspection in) {
  for (auto& k : in.kernels) occcalc::cli::settle_static_shared_memory(occcalc::test::default_tables(), k.resources);
  return in;
}

inspection inspect_fixture(const std::string& name) {
  const auto bytes = file_bytes(name);
  return settled(inspect_bytes({bytes.data(), bytes.size()}, options()));
}

inspection inspect_data(const std::vector<unsigned char>& bytes) {
  return settled(inspect_bytes({bytes.data(), bytes.size()}, options()));
}

/// A compiler log's kernels, settled as above.
std::vector<kernel_resources> read_log(std::string_view text) {
  auto kernels = read_compiler_log(text);
  for (auto& k : kernels) occcalc::cli::settle_static_shared_memory(occcalc::test::default_tables(), k);
  return kernels;
}

using kernel_key = std::pair<std::string, std::string>;  // name, arch

std::map<kernel_key, kernel_resources> by_key(const inspection& in) {
  std::map<kernel_key, kernel_resources> out;
  for (const auto& k : in.kernels) {
    const bool inserted = out.emplace(kernel_key{k.resources.name, k.resources.arch.name}, k.resources).second;
    INFO(k.resources.name << " " << k.resources.arch.name);
    CHECK(inserted);
  }
  return out;
}

kernel_resources find(const inspection& in, const std::string& name, const std::string& arch) {
  for (const auto& k : in.kernels) {
    if (k.resources.name == name && k.resources.arch.name == arch) return k.resources;
  }
  FAIL("no kernel " << name << " for " << arch);
  return {};
}

/// Checks that `figure` agrees wherever both sources state it.
template <typename T>
void check_same(const char* what, const std::optional<T>& from_binary, const std::optional<T>& from_log) {
  INFO(what);
  if (from_binary && from_log) CHECK(*from_binary == *from_log);
}

}  // namespace

TEST_CASE("inspect: every fixture binary agrees with its build's ptxas or nvlink log", "[inspect]") {
  const auto [binary, log, kind, kernels] = GENERATE(table<std::string, std::string, std::string, std::size_t>({
      {"kernels.sm_75.cubin", "kernels.sm_75.log", "cubin", 10},
      {"kernels.sm_80.cubin", "kernels.sm_80.log", "cubin", 10},
      {"kernels.sm_86.cubin", "kernels.sm_86.log", "cubin", 10},
      {"kernels.sm_89.cubin", "kernels.sm_89.log", "cubin", 10},
      {"kernels.sm_90.cubin", "kernels.sm_90.log", "cubin", 10},
      {"kernels.sm_100.cubin", "kernels.sm_100.log", "cubin", 10},
      {"kernels.sm_120.cubin", "kernels.sm_120.log", "cubin", 10},
      {"cluster.sm_90.cubin", "cluster.sm_90.log", "cubin", 1},
      {"reqntid.sm_80.cubin", "reqntid.sm_80.log", "cubin", 1},
      {"multiarch.fatbin", "multiarch.log", "fatbin", 30},
      {"zstd.fatbin", "zstd.log", "fatbin", 20},
      {"lz4.fatbin", "lz4.log", "fatbin", 20},
      {"app", "app.log", "host ELF", 20},
      {"libkernels.so", "libkernels.so.log", "host ELF", 10},
      {"kernels.rdc.o", "kernels.rdc.o.log", "host ELF", 20},
      {"app_rdc", "app_rdc.log", "host ELF", 2},
      {"embedded.o", "zstd.log", "host ELF", 20},
  }));
  INFO(binary);
  const auto from_binary = inspect_fixture(binary);
  const auto from_log = inspect_fixture(log);
  CHECK(from_binary.kind == kind);
  CHECK(from_log.kind == "compiler log");
  CHECK(from_binary.kernels.size() == kernels);
  const auto b = by_key(from_binary);
  const auto l = by_key(from_log);
  // The same kernels on the same architectures, none more, none fewer.
  std::vector<kernel_key> binary_keys, log_keys;
  for (const auto& [key, _] : b) binary_keys.push_back(key);
  for (const auto& [key, _] : l) log_keys.push_back(key);
  CHECK(binary_keys == log_keys);
  for (const auto& [key, k] : b) {
    const auto it = l.find(key);
    if (it == l.end()) continue;
    const auto& g = it->second;
    INFO(key.first << " " << key.second);
    // The figures occupancy needs are in both and must be equal.
    REQUIRE(k.registers);
    REQUIRE(g.registers);
    CHECK(*k.registers == *g.registers);
    REQUIRE(k.static_shared_memory_bytes);
    REQUIRE(g.static_shared_memory_bytes);
    CHECK(*k.static_shared_memory_bytes == *g.static_shared_memory_bytes);
    REQUIRE(k.barriers);
    REQUIRE(g.barriers);
    CHECK(*k.barriers == *g.barriers);
    check_same("stack frame", k.stack_frame_bytes, g.stack_frame_bytes);
    check_same("cumulative stack", k.stack_size_bytes, g.stack_size_bytes);
  }
}

TEST_CASE("inspect: hand-checked figures from kernels.cu", "[inspect]") {
  const auto arch = GENERATE(as<std::string>{}, "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120");
  INFO(arch);
  const auto in = inspect_fixture("kernels." + arch + ".cubin");

  // __shared__ float tile[1024]: 4096 bytes and one __syncthreads, on every
  // architecture (sm_90+ sections hold 5120: the reserve is taken out).
  const auto shared = find(in, "_ZN4demo11static_smemEPKfPfi", arch);
  CHECK(shared.static_shared_memory_bytes == 4096);
  CHECK(shared.barriers == 1);
  // extern __shared__ only: no static shared memory.
  CHECK(find(in, "_ZN4demo12dynamic_smemEPf", arch).static_shared_memory_bytes == 0);
  // bar.sync 1..3 plus __syncthreads: 4 barriers; float s[128]: 512 bytes.
  const auto named = find(in, "_ZN4demo14named_barriersEPf", arch);
  CHECK(named.barriers == 4);
  CHECK(named.static_shared_memory_bytes == 512);
  // __launch_bounds__(256): the maximum block size, no register cap.
  const auto bounded = find(in, "_ZN4demo7boundedEPKfPfi", arch);
  CHECK(bounded.max_threads == dim3{256, 1, 1});
  CHECK_FALSE(bounded.register_cap);
  CHECK_FALSE(bounded.required_threads);
  // __launch_bounds__(256, 4): 65536 / (256 x 4) = 64 registers.
  const auto min_blocks = find(in, "_ZN4demo18bounded_min_blocksEPKfPfi", arch);
  CHECK(min_blocks.max_threads == dim3{256, 1, 1});
  CHECK(min_blocks.register_cap == 64);
  // __maxnreg__(40).
  CHECK(find(in, "_ZN4demo6cappedEPKfPfi", arch).register_cap == 40);
  // A kernel without launch bounds declares nothing.
  CHECK_FALSE(find(in, "plain_c", arch).max_threads);
  // The device function helper() is not a kernel.
  for (const auto& k : in.kernels) CHECK_THAT(k.resources.name, !Contains("helper"));
  CHECK(in.kernels.size() == 10);
}

TEST_CASE("inspect: spills and caps under __launch_bounds__(1024, 2)", "[inspect]") {
  // 65536 / (1024 x 2) = 32 registers where 2 x 1024 threads fit on an SM
  // (2048 threads: sm_75 is 1024, sm_86/89/120 are 1536, so ptxas ignores
  // the minimum there).
  const auto cap = GENERATE(table<std::string, std::optional<std::int64_t>>(
      {{"sm_80", 32}, {"sm_90", 32}, {"sm_100", 32}, {"sm_86", 64}, {"sm_120", 64}}));
  const auto& [arch, expected] = cap;
  INFO(arch);
  const auto k = find(inspect_fixture("kernels." + arch + ".cubin"), "_ZN4demo8spillingEPKfPfii", arch);
  CHECK(k.register_cap == expected);
  CHECK(k.registers <= expected);
}

TEST_CASE("inspect: ptxas logs carry spills; binaries do not", "[inspect]") {
  // kernels.sm_90.log: "280 bytes stack frame, 440 bytes spill stores, 440 bytes spill loads".
  const auto log = find(inspect_fixture("kernels.sm_90.log"), "_ZN4demo8spillingEPKfPfii", "sm_90");
  CHECK(log.spill_store_bytes == 440);
  CHECK(log.spill_load_bytes == 440);
  CHECK(log.stack_frame_bytes == 280);
  CHECK(log.stack_size_bytes == 280);
  CHECK(log.registers == 32);
  const auto binary = find(inspect_fixture("kernels.sm_90.cubin"), "_ZN4demo8spillingEPKfPfii", "sm_90");
  CHECK_FALSE(binary.spill_store_bytes);
  CHECK(binary.stack_frame_bytes == 280);
}

TEST_CASE("inspect: cluster dimensions and demangled names", "[inspect]") {
  const auto cluster = inspect_fixture("cluster.sm_90.cubin");
  REQUIRE(cluster.kernels.size() == 1);
  CHECK(cluster.kernels[0].resources.cluster_dims == dim3{2, 1, 1});
  CHECK(cluster.kernels[0].resources.max_threads == dim3{128, 1, 1});
  CHECK(cluster.kernels[0].demangled == "clustered(float*)");

  const auto in = inspect_fixture("kernels.sm_80.cubin");
  std::vector<std::string> names;
  for (const auto& k : in.kernels) names.push_back(k.demangled);
  CHECK(std::count(names.begin(), names.end(), "void demo::scale<float, 4>(float*, float)") == 1);
  CHECK(std::count(names.begin(), names.end(), "plain_c") == 1);
}

TEST_CASE("inspect: a required block size and the cap .minnctapersm implies", "[inspect]") {
  const auto in = inspect_fixture("reqntid.sm_80.cubin");
  REQUIRE(in.kernels.size() == 1);
  const auto& k = in.kernels[0].resources;
  CHECK(k.required_threads == dim3{128, 2, 1});
  CHECK_FALSE(k.max_threads);
  // 65536 registers / (256 threads x 4 blocks) = 64.
  CHECK(k.register_cap == 64);
  const auto report = occcalc::cli::report_kernel(occcalc::test::default_tables(), "f", in.kernels[0], {});
  CHECK(report.block_size == 256);
  CHECK(report.block_size_from == occcalc::cli::launch_source::required);
  REQUIRE(report.nvidia());
  CHECK(report.nvidia()->result.blocks_per_sm == 8);  // 64 warps / 8 per block
  // The required size wins over --threads: the kernel launches with no other.
  const auto forced =
      occcalc::cli::report_kernel(occcalc::test::default_tables(), "f", in.kernels[0], threads_override(64));
  CHECK(forced.block_size == 256);
  CHECK(forced.block_size_from == occcalc::cli::launch_source::required);
}

TEST_CASE("inspect: --threads beyond the launch bounds gives no occupancy", "[inspect]") {
  const auto in = inspect_fixture("kernels.sm_80.cubin");
  for (const auto& k : in.kernels) {
    if (k.resources.name != "_ZN4demo7boundedEPKfPfi") continue;  // __launch_bounds__(256)
    const auto report = occcalc::cli::report_kernel(occcalc::test::default_tables(), "f", k, threads_override(512));
    CHECK_FALSE(report.has_occupancy());
    CHECK(report.unavailable ==
          "block size 512 (from --threads) exceeds the kernel's launch bounds of 256 threads per block");
    const auto fits = occcalc::cli::report_kernel(occcalc::test::default_tables(), "f", k, threads_override(128));
    CHECK(fits.nvidia());
  }
}

TEST_CASE("inspect: fat binary entries name their compression and skip PTX", "[inspect]") {
  const auto multi = inspect_fixture("multiarch.fatbin");
  CHECK(multi.skipped_entries == 1);  // compute_90 PTX
  const auto lz4 = inspect_fixture("lz4.fatbin");
  CHECK(lz4.skipped_entries == 1);
  CHECK_THAT(lz4.kernels.front().resources.origin, Contains("lz4"));
  CHECK_THAT(inspect_fixture("zstd.fatbin").kernels.front().resources.origin, Contains("zstd"));
  CHECK_THAT(inspect_fixture("kernels.rdc.o").kernels.front().resources.origin, Contains("__nv_relfatbin"));
}

TEST_CASE("inspect: the reserve is in linked sm_90+ sections only", "[inspect]") {
  // nvlink reports the linked section (5120 on sm_90, 4096 on sm_80);
  // occcalc reports ptxas's 4096 for both.
  for (const auto& [arch, expected] : {std::pair<std::string, std::int64_t>{"sm_80", 4096}, {"sm_90", 4096}}) {
    CHECK(find(inspect_fixture("app_rdc.log"), "_ZN4demo11static_smemEPKfPfi", arch).static_shared_memory_bytes ==
          expected);
    CHECK(find(inspect_fixture("kernels.rdc.o"), "_ZN4demo11static_smemEPKfPfi", arch).static_shared_memory_bytes ==
          expected);
  }
  // The table marks exactly the architectures whose linked cubins carry it.
  for (const auto& arch : occcalc::test::default_tables().architectures) {
    INFO(arch.id);
    CHECK(arch.binary_shared_section_includes_reserved == (arch.cc_major >= 9));
  }
}

TEST_CASE("inspect: linked cubins declare the reserve; the table agrees for CUDA 13", "[inspect]") {
  // Every fixture cubin is linked by CUDA 13.0: it references
  // .nv.reservedSmem.offset0 exactly where nvlink's figure holds the reserve.
  for (const std::string arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    INFO(arch);
    const auto bytes = file_bytes("kernels." + arch + ".cubin");
    const elf_file file({bytes.data(), bytes.size()});
    bool references_reserve = false;
    for (const auto& s : file.sections()) {
      if (s.type != 2) continue;
      for (const auto& sym : file.symbols(s)) references_reserve |= sym.name == ".nv.reservedSmem.offset0";
    }
    CHECK(references_reserve ==
          occcalc::require_arch(occcalc::test::default_tables(), "cc", arch).binary_shared_section_includes_reserved);
  }
}

TEST_CASE("inspect: a cubin without the reserve symbol keeps its section as is", "[inspect]") {
  // Older toolkits' sm_90 cubins (libcufft's) hold ptxas's figure in the
  // section. Renaming the symbol in the sm_90 fixture makes it one of them:
  // its 5120-byte section is then all the kernel's.
  auto bytes = file_bytes("kernels.sm_90.cubin");
  const std::string symbol = ".nv.reservedSmem.offset0";
  auto at = std::search(bytes.begin(), bytes.end(), symbol.begin(), symbol.end());
  REQUIRE(at != bytes.end());
  at[4] = 'X';
  CHECK(find(inspect_data(bytes), "_ZN4demo11static_smemEPKfPfi", "sm_90").static_shared_memory_bytes == 5120);
}

TEST_CASE("inspect: fat binaries embedded as data are found by their header", "[inspect]") {
  const auto fatbin = file_bytes("zstd.fatbin");
  std::vector<unsigned char> data(12, 0);
  // A decoy: the magic with an impossible header.
  for (const unsigned char b : {0x50, 0xED, 0x55, 0xBA, 9, 0, 16, 0}) data.push_back(b);
  data.resize(36, 0xff);
  data.insert(data.end(), fatbin.begin(), fatbin.end());
  data.resize(data.size() + 5, 0);
  const auto found = find_embedded_fatbins({data.data(), data.size()});
  REQUIRE(found.size() == 1);
  CHECK(found[0].offset == 36);
  CHECK(found[0].size == fatbin.size());
  CHECK_THAT(inspect_fixture("embedded.o").kernels.front().resources.origin, Contains(".rodata+0xc entry 1"));
}

TEST_CASE("inspect: repeated cubins are read and listed once", "[inspect]") {
  // Two copies of zstd.fatbin back to back, then multiarch.fatbin: the
  // second copy's two cubins repeat the first's.
  auto bytes = file_bytes("zstd.fatbin");
  const auto copy = bytes;
  bytes.insert(bytes.end(), copy.begin(), copy.end());
  const auto other = file_bytes("multiarch.fatbin");
  bytes.insert(bytes.end(), other.begin(), other.end());
  const auto in = inspect_data(bytes);
  CHECK(in.duplicate_entries == 2);
  CHECK(in.kernels.size() == 20 + 30);
  CHECK(by_key(in).size() == in.kernels.size());
  // A cubin that differs in one byte is not a repeat.
  auto changed = copy;
  changed.insert(changed.end(), copy.begin(), copy.end());
  changed[changed.size() - 9] ^= 1;  // inside the last entry's payload
  // Its zstd data is now corrupt: it is read, not skipped as a repeat.
  CHECK_THROWS_WITH(inspect_data(changed), Contains("entry 4 (sm_100, zstd)"));
}

TEST_CASE("compiler log: formats and edge cases", "[inspect]") {
  SECTION("older ptxas without barriers, device functions left out") {
    const auto kernels = read_log(
        "ptxas info    : Function properties for _Z6helperv\n"
        "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_61'\n"
        "ptxas info    : Function properties for _Z1kPf\n"
        "    0 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Used 30 registers, 1024 bytes smem, 328 bytes cmem[0]\n");
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].name == "_Z1kPf");
    CHECK(kernels[0].arch.name == "sm_61");
    CHECK(kernels[0].registers == 30);
    CHECK(kernels[0].static_shared_memory_bytes == 1024);
    CHECK_FALSE(kernels[0].barriers);
    CHECK(kernels[0].spill_store_bytes == 4);
    CHECK(kernels[0].spill_load_bytes == 8);
  }
  SECTION("nvlink output with targets; the sm_90 reserve taken out") {
    const auto kernels = read_log(
        "nvlink info    : Function properties for '_Z1kv': (target: sm_90)\r\n"
        "nvlink info    : used 10 registers, used 1 barriers, 16 stack, 5120 bytes smem, 548 bytes cmem[0], "
        "32 bytes lmem (target: sm_90)\r\n");
    REQUIRE(kernels.size() == 1);
    CHECK(kernels[0].arch.name == "sm_90");
    CHECK(kernels[0].static_shared_memory_bytes == 4096);
    CHECK(kernels[0].stack_size_bytes == 16);
    CHECK(kernels[0].local_memory_bytes == 32);
  }
  SECTION("an unknown architecture leaves nvlink's shared memory unknown") {
    const auto kernels = read_log(
        "nvlink info    : Function properties for '_Z1kv': (target: sm_99)\n"
        "nvlink info    : used 10 registers, used 1 barriers, 0 stack, 5120 bytes smem (target: sm_99)\n");
    REQUIRE(kernels.size() == 1);
    CHECK_FALSE(kernels[0].static_shared_memory_bytes);
  }
  SECTION("a figure past 64 bits names its line") {
    CHECK_THROWS_WITH(read_log("ptxas info    : Compiling entry function '_Z1kv' for 'sm_80'\n"
                               "ptxas info    : Used 99999999999999999999 registers\n"),
                      Contains("line 2"));
  }
  SECTION("text that is not a log is rejected") {
    const std::string text = "hello\nworld\n";
    const std::vector<unsigned char> bytes(text.begin(), text.end());
    CHECK_THROWS_WITH(inspect_data(bytes),
                      Contains("not a cubin, fat binary, static library, AMD code object, offload bundle, ELF file"));
  }
}

TEST_CASE("inspect: truncated files fail with a message, never a crash", "[inspect][hostile]") {
  const auto name =
      GENERATE(as<std::string>{}, "kernels.sm_90.cubin", "zstd.fatbin", "lz4.fatbin", "kernels.rdc.o", "app");
  INFO(name);
  const auto bytes = file_bytes(name);
  std::size_t failures = 0;
  for (std::size_t size = 0; size < bytes.size(); size += std::max<std::size_t>(1, bytes.size() / 97)) {
    const std::vector<unsigned char> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    try {
      inspect_data(cut);
    } catch (const format_error& e) {
      ++failures;
      CHECK(std::strlen(e.what()) > 0);
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  }
  // Nearly every cut loses the section table at the end of the file.
  CHECK(failures > 90);
}

TEST_CASE("inspect: corrupted bytes fail with a message or read, never crash", "[inspect][hostile]") {
  const auto name = GENERATE(as<std::string>{}, "kernels.sm_80.cubin", "multiarch.fatbin", "zstd.fatbin", "lz4.fatbin",
                             "libkernels.so");
  INFO(name);
  const auto original = file_bytes(name);
  std::mt19937 random(12345);
  for (int round = 0; round < 300; ++round) {
    auto bytes = original;
    for (int flips = 0; flips < 8; ++flips) {
      bytes[random() % bytes.size()] = static_cast<unsigned char>(random());
    }
    try {
      inspect_data(bytes);
    } catch (const format_error&) {
    }
  }
  SUCCEED("300 corrupted copies read or rejected");
}

namespace {

/// A fat binary with one compressed entry (`flags` 0x8000 zstd, 0x2000
/// LZ4) declaring `declared` bytes around `frame`.
std::vector<unsigned char> fatbin_with(std::uint64_t declared, const std::vector<unsigned char>& frame,
                                       std::uint64_t flags) {
  const std::uint64_t padded = (frame.size() + 7) / 8 * 8;
  const std::uint64_t entry_header = 64;
  std::vector<unsigned char> out(16 + entry_header + padded);
  const auto put = [&](std::size_t at, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
      out[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(value >> (8 * i));
  };
  put(0, 0xBA55ED50, 4);
  put(4, 1, 2);
  put(6, 16, 2);
  put(8, entry_header + padded, 8);
  put(16 + 0x00, 2, 2);  // cubin
  put(16 + 0x04, entry_header, 4);
  put(16 + 0x08, padded, 8);
  put(16 + 0x10, frame.size(), 4);
  put(16 + 0x1c, 90, 4);
  put(16 + 0x28, flags, 8);
  put(16 + 0x38, declared, 8);
  std::copy(frame.begin(), frame.end(), out.begin() + 16 + static_cast<std::ptrdiff_t>(entry_header));
  return out;
}

/// A fat binary with one zstd entry declaring `declared` bytes whose frame
/// holds `actual` zero bytes; the frame states its size unless `streamed`.
std::vector<unsigned char> zstd_fatbin(std::uint64_t declared, std::size_t actual, bool streamed = false) {
  const std::vector<unsigned char> zeros(actual);
  std::vector<unsigned char> frame(ZSTD_compressBound(actual));
  if (streamed) {
    ZSTD_CCtx* context = ZSTD_createCCtx();
    ZSTD_outBuffer output{frame.data(), frame.size(), 0};
    ZSTD_inBuffer input{zeros.data(), zeros.size(), 0};
    ZSTD_compressStream2(context, &output, &input, ZSTD_e_continue);
    while (ZSTD_compressStream2(context, &output, &input, ZSTD_e_end) != 0) {
    }
    ZSTD_freeCCtx(context);
    frame.resize(output.pos);
  } else {
    frame.resize(ZSTD_compress(frame.data(), frame.size(), zeros.data(), zeros.size(), 19));
  }
  return fatbin_with(declared, frame, 0x8011);
}

}  // namespace

TEST_CASE("inspect: decompression bombs are refused", "[inspect][hostile]") {
  SECTION("an entry that expands past its declared size") {
    // 64 MiB of zeros compress to a few KiB; the header claims 1 MiB. The
    // frame says 64 MiB, so nothing is allocated for it.
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(1 << 20, 64 << 20)),
                      Contains("the zstd frame holds 67108864 bytes, not the declared 1048576"));
  }
  SECTION("an entry that declares more than the limit") {
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(max_decompressed_entry_bytes + 1, 1024)),
                      Contains("over the 268435456-byte limit"));
  }
  SECTION("a frame without its size that expands past the declared size") {
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(1 << 20, 64 << 20, true)), Contains("Destination buffer is too small"));
  }
  SECTION("LZ4 data that declares more than 255 times its size") {
    const std::vector<unsigned char> block(64, 0);
    CHECK_THROWS_WITH(inspect_data(fatbin_with(1 << 20, block, 0x2011)), Contains("cannot expand to the declared"));
  }
  SECTION("an entry smaller than declared") {
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(4096, 1024)), Contains("holds 1024 bytes, not the declared 4096"));
  }
  SECTION("an entry that expands more than 128 times beyond 16 MiB") {
    // 64 MiB of zeros: a few KiB of zstd, within the per-entry limit.
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(64 << 20, 64 << 20)),
                      Contains("declares 67108864 bytes decompressed from") && Contains("more than 128 times"));
  }
  SECTION("entries that together declare more than the input's budget") {
    // 20 entries of 16 MiB each, every one within the per-entry floor, from
    // a file of a few KiB: refused before anything is decompressed.
    const std::vector<unsigned char> one = fatbin_with(16 << 20, std::vector<unsigned char>(8, 0), 0x8011);
    std::vector<unsigned char> many;
    for (int i = 0; i < 20; ++i) many.insert(many.end(), one.begin(), one.end());
    CHECK_THROWS_WITH(inspect_data(many), Contains("its entries declare more than") && Contains("in all"));
  }
  SECTION("zeros that decompress cleanly are not a cubin") {
    CHECK_THROWS_WITH(inspect_data(zstd_fatbin(1024, 1024)), Contains("not an ELF file"));
  }
}

TEST_CASE("inspect: a truncated static archive names the header it lacks", "[inspect][hostile]") {
  const std::string text = "!<arch>\nsomething";
  CHECK_THROWS_WITH(inspect_data({text.begin(), text.end()}), Contains("an archive member header"));
}

TEST_CASE("inspect: LTO IR entries are counted apart, with where to look instead", "[inspect]") {
  // make-fixtures.sh: nvcc -fatbin -gencode arch=compute_80,code=lto_80 (entry kind 8).
  const auto in = inspect_fixture("lto.fatbin");
  CHECK(in.kernels.empty());
  CHECK(in.skipped_entries == 1);
  CHECK(in.lto_entries == 1);
}

TEST_CASE("inspect: the decompression buffer grows at least twofold", "[inspect]") {
  // Each growth is fresh memory, all of whose pages fault again when
  // written: a library's entries in rising sizes must not regrow it each time.
  scratch_buffer buffer;
  unsigned char* first = buffer.reserve(3 << 20);
  first[0] = 1;
  unsigned char* grown = buffer.reserve((3 << 20) + 1);
  grown[(3 << 20)] = 1;
  CHECK(buffer.reserve(6 << 20) == grown);  // twice 3 MiB already there
  CHECK(buffer.reserve(1024) == grown);     // smaller: the same memory
}

TEST_CASE("inspect: a mapped input's fat binaries are handed back whole once planned", "[inspect]") {
  // Planning reads every entry's header, which maps the pages around it:
  // the fat binary is handed to `done_with` once its entries are planned,
  // and each payload once read. The kernels read are the same either way.
  for (const std::string name : {"app", "embedded.o", "zstd.fatbin"}) {
    INFO(name);
    const auto bytes = file_bytes(name);
    const byte_view input(bytes.data(), bytes.size());
    std::vector<byte_view> handed;
    std::mutex handing;
    inspect_options o = options();
    o.done_with = [&](byte_view range) {
      const std::lock_guard<std::mutex> lock(handing);
      handed.push_back(range);
    };
    const auto read = inspect_bytes(input, o);
    // The region whose entries were planned: the linked section of a host
    // ELF file, the embedded fat binary of an object, the whole of a fat binary.
    byte_view planned = input;
    if (name == "app") {
      const elf_file host(input);
      planned = host.contents(*host.find_section(".nv_fatbin"));
    } else if (name == "embedded.o") {
      const auto found = find_embedded_fatbins(input);
      REQUIRE(found.size() == 1);
      planned = input.sub(found[0].offset, found[0].size, "the embedded fat binary");
    }
    for (const auto& range : handed) {
      CHECK(range.data() >= input.data());
      CHECK(range.data() + range.size() <= input.data() + input.size());
    }
    CHECK(std::any_of(handed.begin(), handed.end(), [&](const byte_view& range) {
      return range.data() == planned.data() && range.size() == planned.size();
    }));
    const auto summary = [](const inspection& in) {
      std::vector<std::tuple<std::string, std::string, std::string, std::optional<std::int64_t>>> kernels;
      for (const auto& k : in.kernels) {
        kernels.emplace_back(k.resources.name, k.resources.arch.name, k.resources.origin, k.resources.registers);
      }
      return kernels;
    };
    CHECK(!read.kernels.empty());
    CHECK(summary(read) == summary(inspect_data(bytes)));
  }
}

TEST_CASE("demangle: real names demangle; a name nested past the cap stays mangled, in the CLI and the page alike",
          "[inspect][demangle]") {
  using occcalc::inspect::demangle;
  using occcalc::inspect::mangled_nesting;
  // cuBLASLt's, 12 deep (template arguments, nested names, pointers to const).
  const std::string cublas =
      "_ZN8cublasLt19splitKreduce_kernelILi8ELi32EliafaLb0EaafLb0ELb0ELb1ELb0EEEvNS_18cublasSplitKParamsIT4_EEPKT2_"
      "PKT8_PT7_PT3_PKS2_SF_PKT9_S6_PSG_PvlPS2_PiSL_SL_SF_SF_SF_SF_SF_";
  CHECK(mangled_nesting(cublas) == 12);
  CHECK(demangle(cublas).rfind("void cublasLt::splitKreduce_kernel<8, 32, long, int, signed char, float,", 0) == 0);
  CHECK(mangled_nesting("_Z1fv") == 0);
  CHECK(mangled_nesting("_Z1fPPPPi") == 4);
  // Letters in a source name nest nothing: 'INFO' is a name, not four groups.
  CHECK(mangled_nesting("_Z4INFOv") == 0);
  CHECK(mangled_nesting("_ZN4demo5scaleIfLi4EEEvPT_S1_") == 3);
  const auto nested = [](std::size_t levels) {
    std::string name = "_Z1f";
    for (std::size_t i = 0; i < levels; ++i) name += "I1a";
    return name + std::string(levels, 'E') + "vv";  // f<a<a<...>>>: a template returns void
  };
  CHECK(mangled_nesting(nested(128)) == 128);
  CHECK(demangle(nested(128)).rfind("void f<a<a<a<", 0) == 0);
  CHECK(demangle(nested(129)) == nested(129));
  const std::string pointers = "_Z1f" + std::string(300, 'P') + "i";
  CHECK(demangle(pointers) == pointers);
  const std::string functions = [] {
    std::string name = "_Z1f";
    for (int i = 0; i < 200; ++i) name += "PF";
    return name + "v" + std::string(200, 'E');
  }();
  CHECK(mangled_nesting(functions) == 400);
  CHECK(demangle(functions) == functions);
}
