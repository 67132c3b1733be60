// Reading AMD code objects: every kernel of every fixture (code objects,
// offload bundles, HIP host objects; tests/fixtures/amd/make-fixtures.sh)
// against the compiler's own report of the same build (its .s file): the
// counts, and the occupancy occcalc computes from them against the
// compiler's "; Occupancy:". Then MessagePack and bundle edge cases and
// hostile input.
#include "catch.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "builds/kernel_report.hpp"
#include "builds/readers/amdgpu_assembly.hpp"
#include "builds/readers/amdgpu_code_object.hpp"
#include "builds/readers/amdgpu_remarks.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"
#include "builds/readers/msgpack.hpp"
#include "builds/readers/offload_bundle.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "test_tables.hpp"

using namespace occcalc::inspect;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

using occcalc::test::amd_target;

namespace {

const std::string amd_fixtures = OCCCALC_AMD_FIXTURE_DIR;

/// What the compiler says about one kernel in its .s output.
struct compiler_report {
  std::int64_t vgprs = -1;      // ; NumVgprs
  std::int64_t agprs = -1;      // ; NumAgprs
  std::int64_t sgprs = -1;      // ; NumSgprs (clang-22: TotalNumSgprs)
  std::int64_t lds = -1;        // ; LDSByteSize
  std::int64_t scratch = -1;    // ; ScratchSize
  std::int64_t occupancy = -1;  // ; Occupancy
};

/// Reads the compiler's counts, not its NumVGPRsForWavesPerEU: LLVM 22
/// raises that (and the descriptor's next free VGPR) to the most registers
/// that keep the occupancy other limits set (gfx1250, 74 VGPRs and LDS for 10
/// waves: 81), where the metadata keeps the kernel's own count.
std::map<std::string, compiler_report> read_report(const std::string& name) {
  std::ifstream file(amd_fixtures + "/" + name);
  REQUIRE(file);
  std::map<std::string, compiler_report> out;
  const std::regex kernel(R"(^\s*\.amdhsa_kernel (\S+))");
  const std::regex figure(R"(^; (NumVgprs|NumAgprs|NumSgprs|TotalNumSgprs|ScratchSize|Occupancy): (\d+))");
  const std::regex lds(R"(^; LDSByteSize: (\d+) bytes)");
  // The figures follow the function, and the .amdhsa_kernel block comes
  // before them: remember the last kernel named.
  std::string line, current;
  std::smatch m;
  while (std::getline(file, line)) {
    if (std::regex_search(line, m, kernel)) {
      current = m[1];
    } else if (!current.empty() && std::regex_search(line, m, figure)) {
      auto& r = out[current];
      const std::int64_t v = std::stoll(m[2]);
      if (m[1] == "NumVgprs") r.vgprs = v;
      if (m[1] == "NumAgprs") r.agprs = v;
      if (m[1] == "NumSgprs" || m[1] == "TotalNumSgprs") r.sgprs = v;
      if (m[1] == "ScratchSize") r.scratch = v;
      if (m[1] == "Occupancy") r.occupancy = v;
    } else if (!current.empty() && std::regex_search(line, m, lds)) {
      out[current].lds = std::stoll(m[1]);
    }
  }
  return out;
}

inspection inspect_amd_fixture(const std::string& name) {
  const mapped_file file(amd_fixtures + "/" + name);
  inspect_options o;
  return inspect_bytes(file.bytes(), o);
}

struct fixture {
  const char* binary;
  /// The .s report per target the binary holds code for.
  std::map<std::string, const char*> reports;
  std::int64_t wave_size;
  /// WGP mode in the kernel descriptors (RDNA targets).
  bool wgp;
  std::size_t kernels;
};

}  // namespace

// [reference]: a check of figures against the compiler's, which the sanitize
// preset leaves out (21 s there); the fuzz replay reads every fixture under
// the sanitizers.
TEST_CASE("amd inspect: every fixture kernel agrees with the compiler's report", "[inspect][amd][reference]") {
  const fixture all[] = {
      {"kernels.gfx906.o", {{"gfx906", "kernels.gfx906.s"}}, 64, false, 5},
      {"kernels.gfx90a.o", {{"gfx90a", "kernels.gfx90a.s"}}, 64, false, 5},
      {"kernels.gfx90a.hsaco", {{"gfx90a", "kernels.gfx90a.s"}}, 64, false, 5},
      {"kernels.gfx1100.o", {{"gfx1100", "kernels.gfx1100.s"}}, 32, true, 5},
      {"kernels.gfx1201.o", {{"gfx1201", "kernels.gfx1201.s"}}, 32, true, 5},
      {"kernels.gfx1030-cu-w64.o", {{"gfx1030", "kernels.gfx1030-cu-w64.s"}}, 64, false, 5},
      {"kernels22.gfx1250.o", {{"gfx1250", "kernels22.gfx1250.s"}}, 32, false, 3},
      {"kernels22.gfx11-generic.o", {{"gfx11-generic", "kernels22.gfx11-generic.s"}}, 32, true, 3},
      {"kernels22.gfx9-4-generic.o", {{"gfx9-4-generic", "kernels22.gfx9-4-generic.s"}}, 64, false, 3},
      {"mfma.gfx908.o", {{"gfx908", "mfma.gfx908.s"}}, 64, false, 1},
      {"mfma.gfx90a.o", {{"gfx90a", "mfma.gfx90a.s"}}, 64, false, 1},
      {"kernels.hipfb", {{"gfx90a", "kernels.gfx90a.s"}, {"gfx1100", "kernels.gfx1100.s"}}, 0, true, 10},
      {"kernels_compressed.hipfb", {{"gfx90a", "kernels.gfx90a.s"}, {"gfx1100", "kernels.gfx1100.s"}}, 0, true, 10},
      {"app.o", {{"gfx90a", "app.gfx90a.s"}, {"gfx1100", "app.gfx1100.s"}}, 0, true, 4},
      {"app_compressed.o", {{"gfx90a", "app.gfx90a.s"}, {"gfx1100", "app.gfx1100.s"}}, 0, true, 4},
      {"libhip.so",
       {{"gfx90a", "app.gfx90a.s"}, {"gfx1100", "app.gfx1100.s"}, {"gfx942", "app2.gfx942.s"}},
       0,
       true,
       6},
  };
  const auto& tables = occcalc::test::default_tables();
  std::size_t checked = 0, through_result = 0;
  for (const auto& f : all) {
    const inspection in = inspect_amd_fixture(f.binary);
    CHECK(in.kernels.size() == f.kernels);
    for (const auto& kernel : in.kernels) {
      const auto& k = kernel.resources;
      INFO(f.binary << ": " << k.arch.name << " " << k.name);
      REQUIRE(f.reports.count(k.arch.name) == 1);
      const auto report = read_report(f.reports.at(k.arch.name));
      REQUIRE(report.count(k.name) == 1);
      const auto& c = report.at(k.name);
      const auto& t = amd_target(k.arch.name);
      // A unified file's .vgpr_count holds the AGPRs too, after the VGPRs
      // rounded up to 4 (LLVM's getTotalNumVGPRs; no rounding without AGPRs).
      constexpr std::int64_t agpr_alignment = 4;
      const std::int64_t total =
          c.agprs > 0 ? (c.vgprs + agpr_alignment - 1) / agpr_alignment * agpr_alignment + c.agprs : c.vgprs;
      CHECK(k.registers == (t.unified_vgpr_file ? total : c.vgprs));
      if (c.agprs > 0 || k.agprs) CHECK(k.agprs.value_or(0) == c.agprs);
      CHECK(k.sgprs == c.sgprs);
      CHECK(k.static_shared_memory_bytes == c.lds);
      CHECK(k.stack_size_bytes == c.scratch);
      if (c.scratch == 0) CHECK(k.vgpr_spills == 0);  // gfx9-4-generic's accumulate spills
      CHECK(k.wave_size == (f.wave_size ? f.wave_size : t.default_wave_size()));
      if (t.has_wgp_mode) CHECK(k.wgp_mode == f.wgp);

      // The compiler's occupancy over the kernel's work-group sizes, from
      // the counts inspect read.
      occcalc::amd_kernel ak;
      ak.vgprs = t.unified_vgpr_file ? *k.registers - k.agprs.value_or(0) : *k.registers;
      ak.agprs = k.agprs.value_or(0);
      ak.sgprs = *k.sgprs;
      ak.lds_bytes = *k.static_shared_memory_bytes;
      ak.min_work_group_size = k.required_threads ? volume(*k.required_threads) : 1;
      ak.max_work_group_size = k.required_threads ? volume(*k.required_threads) : volume(*k.max_threads);
      const occcalc::amd_mode mode{*k.wave_size, k.wgp_mode.value_or(false)};
      CHECK(occcalc::amd_llvm_occupancy(t, ak, mode).waves_per_simd == c.occupancy);
      // A required size is the one it launches with: inspect's own result
      // (what its table and JSON show) is the compiler's number.
      const auto r = occcalc::cli::report_kernel(tables, f.binary, kernel, {});
      REQUIRE(r.amd());
      if (k.required_threads) {
        CHECK(r.amd()->result.waves_per_simd == static_cast<double>(c.occupancy));
        ++through_result;
      }
      ++checked;
    }
  }
  CHECK(checked == 75);
  CHECK(through_result == 42);
}

TEST_CASE("amd inspect: hand-checked figures of the fixtures", "[inspect][amd]") {
  // lds_tile: 4096 floats of LDS, 256 work-items; two_d: 2 x 130 floats at
  // 128x2; mfma_acc on gfx90a: 32 accumulators in AGPRs, charged on top of
  // the VGPRs (.vgpr_count 64 = 32 + 32).
  const auto in = inspect_amd_fixture("kernels.gfx90a.o");
  std::map<std::string, kernel_resources> by_name;
  for (const auto& k : in.kernels) by_name[k.resources.name] = k.resources;
  CHECK(by_name.at("lds_tile").static_shared_memory_bytes == 16384);
  CHECK(by_name.at("lds_tile").required_threads == dim3{256, 1, 1});
  CHECK(by_name.at("two_d").static_shared_memory_bytes == 1040);
  CHECK(by_name.at("two_d").required_threads == dim3{128, 2, 1});
  CHECK(by_name.at("any_size").max_threads == dim3{256, 1, 1});  // OpenCL's default flat range
  CHECK(!by_name.at("any_size").required_threads);
  const auto mfma = inspect_amd_fixture("mfma.gfx90a.o").kernels.at(0).resources;
  CHECK(mfma.agprs == 32);
  CHECK(mfma.registers == 56);  // the compiler's 22 VGPRs rounded up to 24, + 32
  CHECK(inspect_amd_fixture("kernels.gfx90a.o").kind == "AMD code object");
  CHECK(inspect_amd_fixture("kernels.hipfb").kind == "offload bundle");
  const auto app = inspect_amd_fixture("app.o");
  CHECK(app.kind == "host ELF");
  CHECK_THAT(app.kernels.at(0).resources.origin, Contains(".hip_fatbin bundle at 0x0, hipv4-amdgcn-amd-amdhsa--gfx"));
  CHECK(app.kernels.at(1).demangled == "void tmpl<3>(float*)");
  // Two translation units linked: two bundles in one .hip_fatbin.
  const auto lib = inspect_amd_fixture("libhip.so");
  REQUIRE(lib.kernels.size() == 6);
  CHECK_THAT(lib.kernels.at(5).resources.origin, Contains(".hip_fatbin bundle at 0x"));
  CHECK_THAT(lib.kernels.at(5).resources.origin, !Contains("bundle at 0x0,"));
  CHECK(lib.kernels.at(5).resources.arch.name == "gfx942");
}

TEST_CASE("amd inspect: the target of a triple", "[inspect][amd]") {
  CHECK(amdgpu_target_of("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-") == "gfx90a:sramecc+:xnack-");
  CHECK(amdgpu_target_of("hipv4-amdgcn-amd-amdhsa--gfx1100") == "gfx1100");
  CHECK(amdgpu_target_of("hip-amdgcn-amd-amdhsa-gfx906") == "gfx906");
  CHECK(amdgpu_target_of("host-x86_64-unknown-linux--").empty());
  CHECK(amdgpu_target_of("x86_64-linux-gnu-notgfx").empty());
}

TEST_CASE("msgpack: every type, and hostile counts", "[inspect][amd]") {
  // Values view the bytes they were parsed from: keep each input alive.
  std::vector<std::vector<unsigned char>> inputs;
  const auto parse = [&](std::vector<unsigned char> bytes) {
    inputs.push_back(std::move(bytes));
    return msgpack::parse(byte_view(inputs.back().data(), inputs.back().size()));
  };
  // {"a": 1, "b": [-1, 300, 70000, true, nil, "xy", 1.5]}
  const auto v = parse({0x82, 0xa1, 'a',  0x01, 0xa1, 'b', 0x97, 0xff, 0xcd, 0x01, 0x2c, 0xce, 0x00, 0x01, 0x11,
                        0x70, 0xc3, 0xc0, 0xa2, 'x',  'y', 0xcb, 0x3f, 0xf8, 0,    0,    0,    0,    0,    0});
  CHECK(v.find("a")->as_integer() == 1);
  const auto& b = v.find("b")->items;
  REQUIRE(b.size() == 7);
  CHECK(b[0].as_integer() == -1);
  CHECK(b[1].as_integer() == 300);
  CHECK(b[2].as_integer() == 70000);
  CHECK(b[3].boolean);
  CHECK(b[4].type == msgpack::value::kind::nil);
  CHECK(b[5].as_string() == std::string_view("xy"));
  CHECK(b[6].floating == 1.5);
  CHECK(v.find("c") == nullptr);
  // uint64 beyond int64 is not an integer we accept.
  CHECK(!parse({0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}).as_integer());
  // An array that claims 2^32-1 elements in 5 bytes is refused before any
  // allocation; truncation and a reserved tag (0xc1) are errors.
  CHECK_THROWS_WITH(parse({0xdd, 0xff, 0xff, 0xff, 0xff}), Contains("cannot fit"));
  CHECK_THROWS_WITH(parse({0xa5, 'a'}), Contains("truncated"));
  CHECK_THROWS_WITH(parse({0xc1}), Contains("not a type tag"));
  CHECK_THROWS_WITH(parse({0x01, 0x02}), Contains("bytes after the value"));
  std::vector<unsigned char> deep(100, 0x91);
  deep.push_back(0x00);
  CHECK_THROWS_WITH(parse(deep), Contains("deeper than 64"));
  // A count bomb within the bytes: an array of 2,000,001 one-byte values
  // (each would cost a ~100-byte node) is refused at the value budget.
  std::vector<unsigned char> bomb = {0xdd, 0x00, 0x1e, 0x84, 0x81};  // array32 of 2,000,001
  bomb.resize(bomb.size() + 2'000'001, 0x01);
  CHECK_THROWS_WITH(parse(bomb), Contains("more than 2000000 values"));
  std::vector<unsigned char> within = {0xdd, 0x00, 0x0f, 0x42, 0x40};  // array32 of 1,000,000
  within.resize(within.size() + 1'000'000, 0x01);
  CHECK(parse(within).items.size() == 1'000'000);
}

TEST_CASE("amd inspect: truncated and corrupt inputs are one error, never a crash", "[inspect][amd]") {
  for (const char* name : {"kernels.gfx90a.o", "kernels_compressed.hipfb", "kernels.hipfb", "app_compressed.o"}) {
    const mapped_file file(amd_fixtures + "/" + name);
    const std::vector<unsigned char> bytes(file.bytes().data(), file.bytes().data() + file.bytes().size());
    inspect_options o;
    std::size_t errors = 0, cuts = 0;
    for (std::size_t cut = 1; cut < bytes.size(); cut += bytes.size() / 97 + 1) {
      ++cuts;
      try {
        inspect_bytes(byte_view(bytes.data(), cut), o);
      } catch (const format_error&) {
        ++errors;
      }
    }
    INFO(name);
    CHECK(errors > cuts / 2);  // most cuts lose the table, the note or the payload
    std::vector<unsigned char> flipped = bytes;
    for (int round = 0; round < 200; ++round) {
      flipped = bytes;
      for (int i = 0; i < 8; ++i) flipped[(round * 7919 + i * 104729) % flipped.size()] ^= 0x5a;
      try {
        inspect_bytes(byte_view(flipped.data(), flipped.size()), o);
      } catch (const format_error&) {
      }
    }
  }
  // A compressed bundle that declares more than the limit is refused before
  // decompressing.
  const mapped_file file(amd_fixtures + "/kernels_compressed.hipfb");
  std::vector<unsigned char> bomb(file.bytes().data(), file.bytes().data() + file.bytes().size());
  bomb[12] = 0xff;
  bomb[13] = 0xff;
  bomb[14] = 0xff;
  bomb[15] = 0x7f;  // uncompressed size 2 GiB
  CHECK_THROWS_WITH(inspect_bytes(byte_view(bomb.data(), bomb.size()), inspect_options{}), Contains("over the"));
}

TEST_CASE("amd assembly: clang -S output reads as its code object does", "[amd][inspect]") {
  // Each fixture's .s and .o come from one compile (make-fixtures.sh): the
  // metadata in the assembly's YAML must give what the object's MessagePack
  // gives, kernel for kernel.
  for (const std::string stem : {"kernels.gfx906", "kernels.gfx90a", "kernels.gfx1030-cu-w64", "kernels.gfx1100",
                                 "kernels.gfx1201", "mfma.gfx908", "mfma.gfx90a"}) {
    INFO(stem);
    const auto object = inspect_amd_fixture(stem + ".o");
    const occcalc::inspect::mapped_file file(amd_fixtures + "/" + stem + ".s");
    const auto assembly = occcalc::inspect::inspect_bytes(file.bytes(), {});
    CHECK(assembly.kind == "AMD assembly");
    REQUIRE(assembly.kernels.size() == object.kernels.size());
    for (std::size_t i = 0; i < object.kernels.size(); ++i) {
      const auto& a = assembly.kernels[i].resources;
      const auto& o = object.kernels[i].resources;
      CHECK(a.name == o.name);
      CHECK(a.arch.name == o.arch.name);
      CHECK(a.registers == o.registers);
      CHECK(a.agprs == o.agprs);
      CHECK(a.sgprs == o.sgprs);
      CHECK(a.static_shared_memory_bytes == o.static_shared_memory_bytes);
      CHECK(a.stack_size_bytes == o.stack_size_bytes);
      CHECK(a.wave_size == o.wave_size);
      CHECK(a.vgpr_spills == o.vgpr_spills);
      CHECK(a.sgpr_spills == o.sgpr_spills);
      CHECK(a.max_threads == o.max_threads);
      CHECK(a.required_threads == o.required_threads);
    }
  }
}

TEST_CASE("amd code objects for an LLVM processor the table cannot answer for are read, named and say why",
          "[amd][inspect]") {
  // kernels.gfx90a.s as clang would write it for gfx1310: the metadata's target is the only change.
  std::ifstream in(amd_fixtures + "/kernels.gfx90a.s");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto at = text.find("gfx90a"); at != std::string::npos; at = text.find("gfx90a", at))
    text.replace(at, 6, "gfx1310");
  const auto kernels = occcalc::inspect::read_amdgpu_assembly(text);
  REQUIRE(kernels.size() == 5);
  for (const auto& k : kernels) {
    INFO(k.name);
    CHECK(k.arch.name == "gfx1310");
    occcalc::inspect::inspected_kernel at;
    at.resources = k;
    const auto report = occcalc::cli::report_kernel(occcalc::test::default_tables(), "k.s", at, {});
    CHECK_FALSE(report.has_occupancy());
    CHECK_THAT(report.unavailable, StartsWith("gfx1310 is not in the AMD target table: LLVM after 22 defines GFX13"));
  }
}

TEST_CASE("amd remarks: every line clang-19 and clang-22 print is read; any other is counted and the first named",
          "[amd][inspect]") {
  // Every remarks fixture, from clang-19 and clang-22 (make-fixtures.sh), reads whole.
  std::size_t logs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(amd_fixtures)) {
    if (entry.path().extension() != ".remarks" || entry.path().filename() == "call22.gfx90a.remarks") continue;
    INFO(entry.path().filename().string());
    const occcalc::inspect::mapped_file file(entry.path().string());
    const auto read = occcalc::inspect::inspect_bytes(file.bytes(), {});
    CHECK(read.unread.lines == 0);
    CHECK(read.unread.first.empty());
    ++logs;
  }
  CHECK(logs == 12);

  // clang-22 on a kernel that calls a function defined elsewhere: its registers and occupancy are expressions,
  // unknown here (never 0) and named; the rest of its figures and the other kernel read as usual.
  const occcalc::inspect::mapped_file call(amd_fixtures + "/call22.gfx90a.remarks");
  const auto read = occcalc::inspect::inspect_bytes(call.bytes(), {});
  CHECK(read.unread.lines == 4);  // TotalSGPRs, VGPRs, AGPRs and Occupancy of `scale`
  CHECK(read.unread.first == "line 4: TotalSGPRs: scale.numbered_sgpr+6");
  REQUIRE(read.kernels.size() == 2);
  const auto& scale = read.kernels[0].resources;
  CHECK(scale.name == "scale");
  CHECK_FALSE(scale.sgprs);
  CHECK_FALSE(scale.arch_vgprs);
  CHECK_FALSE(scale.agprs);
  CHECK_FALSE(scale.compiler_waves_per_simd);
  CHECK(scale.stack_size_bytes == 0);
  CHECK(scale.static_shared_memory_bytes == 0);
  const auto& plain = read.kernels[1].resources;
  CHECK(plain.arch_vgprs == 2);
  CHECK(plain.sgprs == 10);
  CHECK(plain.compiler_waves_per_simd == 8);
  auto at = read.kernels[0];
  at.resources.arch = occcalc::parse_gpu_target("gfx90a");
  const auto report = occcalc::cli::report_kernel(occcalc::test::default_tables(), "r", at, {});
  CHECK_FALSE(report.has_occupancy());
  CHECK(report.unavailable == "its VGPR count is not stated");

  // A key a newer clang may add, a line without a figure and a figure before the first kernel: each counted.
  const std::string tag = " [-Rpass-analysis=kernel-resource-usage]\n";
  const std::string log = "a.hip:1:1: remark:     VGPRs: 3" + tag + "a.hip:1:1: remark: Function Name: k" + tag +
                          "a.hip:1:1: remark:     VGPRs: 7" + tag + "a.hip:1:1: remark:     Named Barriers: 2" + tag +
                          "a.hip:1:1: remark:     Dynamic Stack: Maybe" + tag + "a.hip:1:1: remark: something" + tag;
  occcalc::inspect::unread_remarks unread;
  const auto kernels = occcalc::inspect::read_amdgpu_remarks(log, &unread);
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].arch_vgprs == 7);
  CHECK(unread.lines == 4);
  CHECK(unread.first == "line 1: VGPRs: 3");
  // A count that is corrupt, not an expression, is refused naming the line.
  CHECK_THROWS_WITH(occcalc::inspect::read_amdgpu_remarks("a.hip:1:1: remark: Function Name: k" + tag +
                                                          "a.hip:1:1: remark:     VGPRs: -7" + tag),
                    Contains("line 2: VGPRs '-7' is not a count"));
  CHECK_THROWS_WITH(occcalc::inspect::read_amdgpu_remarks("a.hip:1:1: remark: Function Name: k" + tag +
                                                          "a.hip:1:1: remark:     VGPRs: 7x" + tag),
                    Contains("line 2: VGPRs '7x' is not a count"));
}

TEST_CASE("amd remarks: -Rpass-analysis=kernel-resource-usage reads as the code object does, given the target",
          "[amd][inspect]") {
  // make-fixtures.sh: the remarks of one compile beside its .o. The remark's
  // VGPRs exclude the AGPRs; the report charges the target's total, which
  // must be the code object's .vgpr_count (gfx90a: roundup(22, 4) + 32 = 56).
  for (const auto& [stem, target] : std::vector<std::pair<std::string, std::string>>{
           {"mfma.gfx90a", "gfx90a"}, {"mfma.gfx908", "gfx908"}, {"kernels.gfx1100", "gfx1100"}}) {
    INFO(stem);
    const auto object = inspect_amd_fixture(stem + ".o");
    const occcalc::inspect::mapped_file file(amd_fixtures + "/" + stem + ".remarks");
    auto remarks = occcalc::inspect::inspect_bytes(file.bytes(), {});
    CHECK(remarks.kind == "AMD remarks");
    REQUIRE(remarks.kernels.size() == object.kernels.size());
    for (std::size_t i = 0; i < object.kernels.size(); ++i) {
      auto& r = remarks.kernels[i];
      const auto& o = object.kernels[i];
      CHECK(r.resources.name == o.resources.name);
      CHECK(r.resources.arch.name.empty());  // the remarks do not say
      r.resources.arch = occcalc::parse_gpu_target(target);
      CHECK(r.resources.sgprs == o.resources.sgprs);
      CHECK(r.resources.agprs.value_or(0) == o.resources.agprs.value_or(0));
      CHECK(r.resources.static_shared_memory_bytes == o.resources.static_shared_memory_bytes);
      CHECK(r.resources.stack_size_bytes == o.resources.stack_size_bytes);
      CHECK(r.resources.vgpr_spills == o.resources.vgpr_spills);
      // At the code object's block size, the same occupancy.
      const auto from_object = occcalc::cli::report_kernel(occcalc::test::default_tables(), "o", o, {});
      REQUIRE(from_object.block_size);
      occcalc::cli::launch_overrides at;
      at.threads = *from_object.block_size;
      const auto from_remarks = occcalc::cli::report_kernel(occcalc::test::default_tables(), "r", r, at);
      CHECK(from_remarks.kernel.resources.registers == o.resources.registers);
      REQUIRE(from_remarks.has_occupancy());
      CHECK(from_remarks.summary()->groups_per_unit == from_object.summary()->groups_per_unit);
      CHECK(from_remarks.summary()->active_warps == from_object.summary()->active_warps);
    }
  }
}

TEST_CASE(
    "amd remarks from clang-19 and clang-22: every figure the code object's, and the compiler's occupancy occcalc's",
    "[amd][inspect]") {
  // make-fixtures.sh: remarks.hip (a kernel of flat work-group size 512 with 32 KiB of LDS, and a plain one) on
  // every target each compiler knows of gfx90a, gfx942, gfx1100, gfx1201 and gfx1250. clang-22 prints
  // TotalSGPRs where clang-19 prints SGPRs; neither prints the work-group size its Occupancy follows.
  std::size_t kernels = 0;
  for (const std::string compiler : {"19", "22"}) {
    for (const std::string target : {"gfx90a", "gfx942", "gfx1100", "gfx1201", "gfx1250"}) {
      if (compiler == "19" && target == "gfx1250") continue;
      const std::string stem = "remarks" + compiler + "." + target;
      INFO(stem);
      const auto object = inspect_amd_fixture(stem + ".o");
      const occcalc::inspect::mapped_file file(amd_fixtures + "/" + stem + ".remarks");
      auto remarks = occcalc::inspect::inspect_bytes(file.bytes(), {});
      REQUIRE(remarks.kernels.size() == object.kernels.size());
      for (std::size_t i = 0; i < object.kernels.size(); ++i) {
        auto& r = remarks.kernels[i];
        const auto& o = object.kernels[i];
        INFO(o.resources.name);
        r.resources.arch = occcalc::parse_gpu_target(target);
        CHECK(r.resources.name == o.resources.name);
        REQUIRE(r.resources.sgprs);
        CHECK(r.resources.sgprs == o.resources.sgprs);
        CHECK(r.resources.agprs.value_or(0) == o.resources.agprs.value_or(0));
        CHECK(r.resources.static_shared_memory_bytes == o.resources.static_shared_memory_bytes);
        CHECK(r.resources.stack_size_bytes == o.resources.stack_size_bytes);
        CHECK(r.resources.vgpr_spills == o.resources.vgpr_spills);
        CHECK(r.resources.sgpr_spills == o.resources.sgpr_spills);
        REQUIRE(r.resources.compiler_waves_per_simd);
        // The code object states the flat work-group size; there occcalc's waves are the compiler's own.
        const auto& tables = occcalc::test::default_tables();
        const auto from_object = occcalc::cli::report_kernel(tables, "o", o, {});
        REQUIRE(from_object.amd());
        CHECK(from_object.amd()->result.waves_per_simd == static_cast<double>(*r.resources.compiler_waves_per_simd));
        occcalc::cli::launch_overrides at;
        at.threads = *from_object.block_size;
        const auto at_its_size = occcalc::cli::report_kernel(tables, "r", r, at);
        CHECK(at_its_size.kernel.resources.registers == o.resources.registers);
        CHECK(at_its_size.compiler_difference().empty());
        CHECK(at_its_size.launch_occupancy() == from_object.launch_occupancy());
        // Without a size the remarks cannot say which one the compiler's figure follows: where occcalc's
        // suggestion gives another, the note says so and the gate takes the compiler's.
        const auto suggested = occcalc::cli::report_kernel(tables, "r", r, {});
        if (!occcalc::find_amd_target(tables, target)->hip) {
          // gfx1250 runs no HIP model: there is no HIP search to suggest a size (it read past an empty
          // optional, and divided by zero where that memory held zeros).
          CHECK(suggested.unavailable ==
                "the kernel declares no work-group size, and HIP's block size search has "
                "no figures for " +
                    target + ": give --threads");
          ++kernels;
          continue;
        }
        REQUIRE(suggested.block_size_from == occcalc::cli::launch_source::suggested);
        CHECK(suggested.launch_occupancy() == from_object.launch_occupancy());
        CHECK(suggested.compiler_difference().empty() ==
              (suggested.amd()->result.waves_per_simd == static_cast<double>(*r.resources.compiler_waves_per_simd)));
        ++kernels;
      }
    }
  }
  CHECK(kernels == 18);
}
