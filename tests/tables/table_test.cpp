// The default tables' coverage, and the loader's rejection of bad tables.
#include "catch.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "cli/embedded_tables.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/tables/load.hpp"
#include "test_tables.hpp"

using occcalc::test::matchers::Contains;

namespace {

const char* const minimal_arch = R"({
  "id": "sm_99", "compute_capability": "9.9", "family": "Test", "sources": ["S"],
  "warp_size_threads": 32, "max_threads_per_block": 1024, "max_warps_per_sm": 64, "max_blocks_per_sm": 32,
  "registers_per_sm": 65536, "max_registers_per_block": 65536, "max_registers_per_thread": 255,
  "register_allocation_scope": "warp", "register_allocation_unit_registers": 256, "register_file_partitions": 4,
  "shared_memory_per_sm_bytes": 102400, "shared_memory_per_block_bytes": 49152,
  "shared_memory_reserved_per_block_bytes": 1024, "shared_memory_allocation_unit_bytes": 128,
  "shared_memory_config": "fixed", "max_barriers_per_block": 16})";

std::string document(const std::string& arch) {
  return R"({"schema_version": 1, "sources": [{"id": "S", "title": "t", "url": "u"}], "architectures": [)" + arch +
         "]}";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

void load(const std::string& json) { occcalc::load_tables({{"test.json", json}}); }

}  // namespace

TEST_CASE("the default tables cover every compute capability from 1.0 to 12.1", "[table]") {
  std::set<std::string> ids;
  for (const auto& arch : occcalc::test::default_tables().architectures) {
    ids.insert(arch.compute_capability());
    CHECK_FALSE(arch.sources.empty());
  }
  const std::set<std::string> expected = {"1.0", "1.1", "1.2", "1.3", "2.0",  "2.1",  "3.0",  "3.2",  "3.5",  "3.7",
                                          "5.0", "5.2", "5.3", "6.0", "6.1",  "6.2",  "7.0",  "7.2",  "7.5",  "8.0",
                                          "8.6", "8.7", "8.9", "9.0", "10.0", "10.1", "10.3", "11.0", "12.0", "12.1"};
  CHECK(ids == expected);
}

TEST_CASE("compute capabilities the toolchain knows and the table cannot answer for say why", "[table]") {
  const auto& tables = occcalc::test::default_tables();
  // 8.8: ptxas 13 builds sm_88; NVIDIA publishes no per-SM figures.
  const auto* sm88 = occcalc::find_unlisted_arch(tables, {8, 8});
  REQUIRE(sm88 != nullptr);
  CHECK(sm88->id == "sm_88");
  CHECK_THAT(occcalc::missing_arch_message(tables, {8, 8}),
             Contains("compute capability 8.8 is not in the architecture table: ptxas 13 builds for sm_88") &&
                 Contains("no warps, threads, registers or shared memory per SM"));
  CHECK_THROWS_WITH(occcalc::require_arch(tables, "--cc", "8.8"),
                    Contains("'8.8': compute capability 8.8") && Contains("no 8.8 column"));
  // 10.1 is Thor's pre-CUDA 13 name: 11.0's figures, with the header's 10.1
  // rules (24 blocks, one barrier per resident block).
  const auto& thor = occcalc::require_arch(tables, "--cc", "10.1");
  const auto& renamed = occcalc::require_arch(tables, "--cc", "11.0");
  CHECK(thor.max_warps_per_sm == renamed.max_warps_per_sm);
  CHECK(thor.max_blocks_per_sm == 24);
  CHECK(thor.block_barriers_per_sm == 24);
  CHECK(thor.shared_memory_per_sm_bytes == renamed.shared_memory_per_sm_bytes);
  // An unlisted id may not also be listed.
  const std::string both = R"({"schema_version": 1, "sources": [{"id": "S", "title": "t", "url": "u"}],
    "architectures": [)" + std::string(minimal_arch) +
                           R"(],
    "unlisted_architectures": [{"id": "sm_99", "compute_capability": "9.9", "sources": ["S"], "reason": "r"}]})";
  CHECK_THROWS_WITH(load(both), Contains("unlisted architecture 'sm_99': is also in architectures"));
  CHECK_THROWS_WITH(
      load(replace(both, R"("compute_capability": "9.9", "sources")", R"("compute_capability": "9.8", "sources")")),
      Contains("field 'id': 'sm_99' does not match compute_capability '9.8'"));
}

TEST_CASE("7.0 and later take 256 registers per thread as cuda_occupancy.h does; compilers stop at 255", "[table]") {
  for (const auto& arch : occcalc::test::default_tables().architectures) {
    INFO(arch.id);
    CHECK(arch.max_compiled_registers_per_thread <= arch.max_registers_per_thread);
    if (arch.cc_major >= 7) {
      CHECK(arch.max_registers_per_thread == 256);
      CHECK(arch.max_compiled_registers_per_thread == 255);
    } else {
      CHECK(arch.max_compiled_registers_per_thread == arch.max_registers_per_thread);
    }
  }
}

TEST_CASE("the default tables name at least 50 GPUs, each with a source", "[table]") {
  const auto& gpus = occcalc::test::default_tables().gpus;
  CHECK(gpus.size() >= 50);
  for (const auto& g : gpus) CHECK_FALSE(g.sources.empty());
}

TEST_CASE("a well-formed user table loads", "[table]") {
  const auto tables = occcalc::load_tables({{"test.json", document(minimal_arch)}});
  REQUIRE(tables.architectures.size() == 1);
  CHECK(tables.architectures[0].max_warps_per_sm == 64);
}

TEST_CASE("the loader rejects bad tables, naming file, entry and field", "[table]") {
  const std::string good = document(minimal_arch);
  SECTION("unknown field") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("family": "Test")", R"("family": "Test", "colour": 1)")),
                        "test.json: architectures[0] (sm_99): field 'colour': is not a known field");
  }
  SECTION("missing field") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("max_blocks_per_sm": 32,)", "")),
                        "test.json: architectures[0] (sm_99): field 'max_blocks_per_sm': is missing");
  }
  SECTION("out-of-range value") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("max_warps_per_sm": 64)", R"("max_warps_per_sm": 0)")),
                        "test.json: architectures[0] (sm_99): field 'max_warps_per_sm': 0 is outside [1, 2147483647]");
  }
  SECTION("a control character in text, which would be printed") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("family": "Test")", R"("family": "Te\u001b[2Jst")")),
                        "test.json: architectures[0] (sm_99): field 'family': 'Te\\x1b[2Jst' holds a control "
                        "character; text fields hold printable text");
  }
  SECTION("wrong type") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("max_warps_per_sm": 64)", R"("max_warps_per_sm": "64")")),
                        Contains("field 'max_warps_per_sm': \"64\" is not an integer"));
  }
  SECTION("unknown mode name") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("shared_memory_config": "fixed")", R"("shared_memory_config": "x")")),
                        Contains("field 'shared_memory_config': 'x' is not one of fixed, cache_config, carveout"));
  }
  SECTION("duplicate key inside an entry") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("family": "Test")", R"("family": "Test", "family": "Other")")),
                        "test.json: duplicate key 'family' in an object");
  }
  SECTION("id that does not match the compute capability") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("id": "sm_99")", R"("id": "sm_98")")),
                        Contains("field 'id': 'sm_98' does not match compute_capability '9.9'"));
  }
  SECTION("inconsistent limits") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("max_threads_per_block": 1024)", R"("max_threads_per_block": 4096)")),
                        Contains("field 'max_threads_per_block': exceeds max_warps_per_sm x warp_size_threads"));
  }
  SECTION("a field of the other register scope") {
    REQUIRE_THROWS_WITH(
        load(replace(good, R"("register_file_partitions": 4)",
                     R"("register_file_partitions": 4, "register_warp_allocation_multiple": 2)")),
        Contains("field 'register_warp_allocation_multiple': does not apply to register_allocation_scope warp"));
  }
  SECTION("carveouts not ascending") {
    const std::string carveout = replace(
        good, R"("shared_memory_config": "fixed")",
        R"("shared_memory_config": "carveout", "shared_memory_carveout_sizes_bytes": [0, 65536, 32768, 102400])");
    REQUIRE_THROWS_WITH(load(carveout),
                        Contains("field 'shared_memory_carveout_sizes_bytes': must be strictly ascending"));
  }
  SECTION("more carveouts than an architecture holds") {
    // nvidia_arch_figures is a literal type: its lists have a capacity (16 carveouts; Hopper has 10).
    const std::string carveout = replace(good, R"("shared_memory_config": "fixed")",
                                         R"("shared_memory_config": "carveout", "shared_memory_carveout_sizes_bytes": )"
                                         R"([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 102400])");
    REQUIRE_THROWS_WITH(
        load(carveout),
        Contains("field 'shared_memory_carveout_sizes_bytes': holds 17 values; at most 16 are allowed"));
  }
  SECTION("unknown source") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("sources": ["S"])", R"("sources": ["NOPE"])")),
                        "test.json: architecture 'sm_99': field 'sources': 'NOPE' is not a known source id");
  }
  SECTION("malformed JSON") {
    REQUIRE_THROWS_WITH(load(good.substr(0, good.size() - 3)), Contains("test.json: parse error at line 8"));
  }
  SECTION("wrong schema version") {
    REQUIRE_THROWS_WITH(load(replace(good, R"("schema_version": 1)", R"("schema_version": 2)")),
                        "test.json: field 'schema_version': 2 is outside [1, 1]");
  }
}

TEST_CASE("the loader takes any positive divisor and the core divides by it plainly", "[table]") {
  // Warps of 24 threads, 3 register file partitions, units of 96 registers
  // and of 96 bytes: no GPU has them, but nothing in the rules needs powers
  // of two. 240 threads are 10 warps; 20 registers x 24 = 480 per warp (5
  // units); a partition holds 65536 / 3 / 480 = 45 warps, the SM 45 x 3 /
  // 10 = 13 blocks; the warp slots 64 / 10 = 6; 1000 + 1024 bytes round up
  // to 2112, and 102400 / 2112 = 48 blocks.
  std::string odd = replace(minimal_arch, R"("warp_size_threads": 32)", R"("warp_size_threads": 24)");
  odd = replace(odd, R"("register_allocation_unit_registers": 256, "register_file_partitions": 4)",
                R"("register_allocation_unit_registers": 96, "register_file_partitions": 3,)"
                R"( "register_allocation_unit_overrides": [{"registers_per_thread": [300], "unit_registers": 72}])");
  odd = replace(odd, R"("shared_memory_allocation_unit_bytes": 128)", R"("shared_memory_allocation_unit_bytes": 96)");
  const auto tables = occcalc::load_tables({{"test.json", document(odd)}});
  occcalc::launch_config launch;
  launch.threads_per_block = 240;
  launch.registers_per_thread = 20;
  launch.static_shared_memory_bytes = 1000;
  const auto r = occcalc::compute_occupancy(tables.architectures.front(), launch);
  CHECK(r.registers.per_warp == 480);
  CHECK(r.registers.warps_per_partition == 45);
  CHECK(r.limit(occcalc::resource::registers).blocks == std::int64_t{13});
  CHECK(r.limit(occcalc::resource::warps).blocks == std::int64_t{6});
  CHECK(r.shared_memory.per_block_bytes == 2112);
  CHECK(r.limit(occcalc::resource::shared_memory).blocks == std::int64_t{48});
  CHECK(r.blocks_per_sm == 6);
  CHECK(occcalc::register_allocation_unit(tables.architectures.front(), 300) == 72);
}

TEST_CASE("ids must be unique across table files", "[table]") {
  const std::string extra = R"({"schema_version": 1, "architectures": [)" +
                            replace(replace(minimal_arch, "sm_99", "sm_70"), "9.9", "7.0") + "]}";
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  texts.push_back({"mine.json", extra});
  REQUIRE_THROWS_WITH(
      occcalc::load_tables(texts),
      Contains("mine.json: architecture 'sm_70' is already defined in embedded:nvidia-architectures.json"));
}

TEST_CASE("a user's GPU may use a built-in architecture; an unknown one is rejected", "[table]") {
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  const std::string mine = R"({"schema_version": 1, "gpus": [
    {"id": "my-gpu", "name": "My GPU", "arch": "sm_90", "sm_count": 7, "sources": ["PG13"]}]})";
  texts.push_back({"mine.json", mine});
  CHECK(occcalc::load_tables(texts).gpus.back().sm_count == 7);
  const std::string bad = replace(mine, "sm_90", "sm_91");
  texts.back() = {"mine.json", bad};
  REQUIRE_THROWS_WITH(occcalc::load_tables(texts),
                      "mine.json: gpu 'my-gpu': field 'arch': 'sm_91' is not a known architecture id");
}

TEST_CASE("AMD targets load from the table and the loader rejects bad ones", "[table][amd]") {
  const auto& tables = occcalc::test::default_tables();
  std::set<std::string> ids;
  for (const auto& t : tables.amd_targets) ids.insert(t.id);
  for (const char* id :
       {"gfx600",          "gfx700",          "gfx803",        "gfx900",       "gfx908",       "gfx90a",
        "gfx942",          "gfx950",          "gfx1010",       "gfx1030",      "gfx1100",      "gfx1151",
        "gfx1200",         "gfx1201",         "gfx1250",       "gfx1251",      "gfx9-generic", "gfx9-4-generic",
        "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic"}) {
    CHECK(ids.count(id) == 1);
  }
  const std::string good = R"({"schema_version": 1, "sources": [{"id": "S", "title": "t", "url": "u"}],
    "amd_targets": [{"id": "gfx999", "family": "Test", "sources": ["S"], "max_waves_per_simd": 10,
      "simds_per_cu": 4, "vgpr_files": [{"wave_size": 64, "total": 256, "granule": 4}],
      "sgprs_per_simd": 800, "sgpr_granule": 16,
      "llvm_sgpr_steps": [{"max_sgprs": 80, "waves": 10}, {"max_sgprs": 108, "waves": 7}],
      "lds_per_cu_bytes": 65536, "max_barriers_per_cu": 16,
      "models": ["llvm", "hip"], "max_work_group_size": 1024, "max_lds_per_work_group_bytes": 65536,
      "max_vgprs_per_wave": 256, "max_sgprs_per_wave": 108, "hip": {"max_waves_per_simd": 8, "sgpr_granule": 16}}],
    "amd_gpus": [{"id": "test-gpu", "name": "Test GPU", "target": "gfx999", "compute_units": 4, "sources": ["S"]}]})";
  CHECK_NOTHROW(load(good));
  CHECK_THROWS_WITH(load(replace(good, R"("wave_size": 64)", R"("wave_size": 48)")),
                    Contains("vgpr_files[0]: field 'wave_size': 48 is not 32 or 64"));
  CHECK_THROWS_WITH(load(replace(good, R"("id": "gfx999")", R"("id": "sm_99")")),
                    Contains("field 'id': 'sm_99' is not an LLVM processor name"));
  CHECK_THROWS_WITH(load(replace(good, R"("sgprs_per_simd": 800, )", "")),
                    Contains("field 'sgpr_granule': applies only with sgprs_per_simd"));
  // The compiler's SGPR steps: where the file is shared, growing, reaching every count.
  const std::string steps = R"([{"max_sgprs": 80, "waves": 10}, {"max_sgprs": 108, "waves": 7}])";
  CHECK_THROWS_WITH(load(replace(good, R"("llvm_sgpr_steps": )" + steps + ",", "")),
                    Contains("field 'llvm_sgpr_steps': is required exactly where sgprs_per_simd is"));
  CHECK_THROWS_WITH(load(replace(good, steps, R"([{"max_sgprs": 80, "waves": 10}, {"max_sgprs": 100, "waves": 7}])")),
                    Contains("field 'llvm_sgpr_steps': must reach max_sgprs_per_wave (108)"));
  CHECK_THROWS_WITH(load(replace(good, steps, R"([{"max_sgprs": 80, "waves": 7}, {"max_sgprs": 108, "waves": 8}])")),
                    Contains("llvm_sgpr_steps[1]: field 'max_sgprs': must grow, and waves fall"));
  CHECK_THROWS_WITH(load(replace(good, steps, "[]")), Contains("field 'llvm_sgpr_steps': must not be empty"));
  CHECK_THROWS_WITH(load(replace(good, R"("max_barriers_per_cu": 16)", R"("max_barriers_per_cu": 16, "x": 1)")),
                    Contains("field 'x': is not a known field"));
  CHECK_THROWS_WITH(load(replace(good, R"(["llvm", "hip"])", R"(["llvm", "hip", "rcp"])")),
                    Contains("field 'rcp': is required exactly when models name rcp"));
  CHECK_THROWS_WITH(load(replace(good, R"(["llvm", "hip"])", R"(["llvm", "cuda"])")),
                    Contains("field 'models': 'cuda' is not a model: llvm, hip or rcp"));
  CHECK_THROWS_WITH(
      load(replace(good, R"("max_lds_per_work_group_bytes": 65536)", R"("max_lds_per_work_group_bytes": 65537)")),
      Contains("field 'max_lds_per_work_group_bytes': 65537 is outside [1, 65536]"));
  CHECK_THROWS_WITH(load(replace(good, R"("target": "gfx999")", R"("target": "gfx998")")),
                    Contains("AMD GPU 'test-gpu': field 'target': 'gfx998' is not a known AMD target id"));
  // Generic targets name their members, and only they do.
  const std::string generic =
      replace(replace(good, R"("id": "gfx999")", R"("id": "gfx9-generic", "members": ["gfx998"])"),
              R"("target": "gfx999")", R"("target": "gfx9-generic")");
  CHECK_THROWS_WITH(load(generic), Contains("field 'members': 'gfx998' is not a known AMD processor id"));
  CHECK_THROWS_WITH(load(replace(generic, R"(, "members": ["gfx998"])", "")),
                    Contains("field 'members': names the processors of a generic target, and only of one"));
  CHECK_THROWS_WITH(load(replace(good, R"("id": "gfx999")", R"("id": "gfx999", "members": ["gfx999"])")),
                    Contains("field 'members': names the processors of a generic target, and only of one"));
  CHECK_THROWS_WITH(load(replace(good, R"("id": "gfx999")", R"("id": "gfx9x-generic")")),
                    Contains("is not an LLVM processor name"));
  // The shipped generic targets: members known, figures no larger than any
  // member's (the compiler sizes generic code for all of them).
  std::size_t generics = 0;
  for (const auto& t : tables.amd_targets) {
    if (t.members.empty()) continue;
    ++generics;
    INFO(t.id);
    CHECK(occcalc::is_generic_gfx_name(t.id));
    for (const auto& id : t.members) {
      const auto* m = occcalc::find_amd_target(tables, id);
      REQUIRE(m != nullptr);
      INFO(id);
      CHECK(t.max_waves_per_simd <= m->max_waves_per_simd);
      CHECK(t.lds_per_cu_bytes <= m->lds_per_cu_bytes);
      CHECK(t.vgpr_files.front().total <= m->vgpr_files.front().total);
      CHECK(t.vgpr_files.front().wave_size == m->vgpr_files.front().wave_size);
    }
  }
  CHECK(generics == 7);
  // VLIW parts keep their R600 names.
  CHECK_NOTHROW(load(replace(replace(good, R"("id": "gfx999")", R"("id": "cypress")"), R"("target": "gfx999")",
                             R"("target": "cypress")")));
  // The shipped devices: at least 40, each on a known target.
  CHECK(tables.amd_gpus.size() >= 40);
}

TEST_CASE("LLVM processors the table cannot answer for say why, and a later file may answer", "[table][amd]") {
  const auto& tables = occcalc::test::default_tables();
  for (const char* id : {"gfx1154", "gfx12-5-generic", "gfx1310"}) {
    INFO(id);
    CHECK(occcalc::find_amd_target(tables, id) == nullptr);
    const auto* u = occcalc::find_unlisted_amd_target(tables, id);
    REQUIRE(u != nullptr);
    CHECK_FALSE(u->sources.empty());
    CHECK_THROWS_WITH(occcalc::require_amd_target(tables, "gfx", id),
                      Contains(std::string("'") + id + "' is not in the AMD target table: LLVM after 22 defines"));
  }
  CHECK_THROWS_WITH(occcalc::require_amd_target(tables, "gfx", "GFX1310"), Contains("register file, LDS, wave slots"));
  // A target the tables know is no longer unlisted once a later file gives its figures; in the same file the two
  // contradict each other.
  const std::string target = R"({"schema_version": 1, "sources": [{"id": "mine", "title": "t", "url": "u"}],
    "amd_targets": [{"id": "gfx1310", "family": "Mine", "sources": ["mine"], "max_waves_per_simd": 16,
      "simds_per_cu": 2, "vgpr_files": [{"wave_size": 32, "total": 1536, "granule": 24}],
      "lds_per_cu_bytes": 131072, "max_barriers_per_cu": 16, "has_wgp_mode": true,
      "models": ["llvm"], "max_work_group_size": 1024, "max_lds_per_work_group_bytes": 65536,
      "max_vgprs_per_wave": 256, "max_sgprs_per_wave": 106}]})";
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  texts.push_back({"mine.json", target});
  const auto mine = occcalc::load_tables(texts);
  CHECK(occcalc::find_unlisted_amd_target(mine, "gfx1310") == nullptr);
  CHECK(occcalc::require_amd_target(mine, "gfx", "gfx1310").family == "Mine");
  CHECK(occcalc::find_unlisted_amd_target(mine, "gfx1154") != nullptr);
  const std::string both = replace(target, R"(}]})", R"(}],
    "unlisted_amd_targets": [{"id": "gfx1310", "sources": ["mine"], "reason": "r"}]})");
  CHECK_THROWS_WITH(load(both), Contains("test.json: unlisted AMD target 'gfx1310': is also in amd_targets"));
  CHECK_THROWS_WITH(load(replace(both, R"("id": "gfx1310", "sources")", R"("id": "sm_131", "sources")")),
                    Contains("field 'id': 'sm_131' is not an LLVM processor name"));
}

TEST_CASE("Jetson modules have the SMs their data sheets' CUDA cores give", "[table][gpu]") {
  // NVIDIA's Jetson module data sheets (source JETSONDS): CUDA cores over the
  // cores per SM of the architecture (192 Kepler; 128 Maxwell, Pascal,
  // Ampere, Blackwell; 64 Volta).
  struct module {
    const char* id;
    std::int64_t cuda_cores;
    std::int64_t cores_per_sm;
  };
  const auto m = GENERATE(values<module>({
      {"jetson-tk1", 192, 192},
      {"jetson-tx1", 256, 128},
      {"jetson-nano", 128, 128},
      {"jetson-tx2", 256, 128},
      {"jetson-agx-xavier", 512, 64},
      {"jetson-xavier-nx", 384, 64},
      {"jetson-agx-orin-64gb", 2048, 128},
      {"jetson-agx-orin-32gb", 1792, 128},
      {"jetson-orin-nx-16gb", 1024, 128},
      {"jetson-orin-nx-8gb", 1024, 128},
      {"jetson-orin-nano-8gb", 1024, 128},  // not 4: that is the 4GB module
      {"jetson-orin-nano-4gb", 512, 128},
      {"jetson-agx-thor", 2560, 128},
  }));
  const auto& gpus = occcalc::test::default_tables().gpus;
  const auto g = std::find_if(gpus.begin(), gpus.end(), [&](const auto& x) { return x.id == m.id; });
  REQUIRE(g != gpus.end());
  CHECK(g->sm_count == m.cuda_cores / m.cores_per_sm);
  CHECK(std::find(g->sources.begin(), g->sources.end(), "JETSONDS") != g->sources.end());
}
