// Analysis of inspected kernels: the shared-memory reserve the readers leave
// in a section figure, taken out with the architecture table; the launch
// sources' spellings, held to the schema.
#include "catch.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "builds/kernel_report.hpp"
#include "test_tables.hpp"

using occcalc::inspect::kernel_resources;
using occcalc::inspect::shared_memory_figure;

namespace {

kernel_resources kernel(const std::string& arch, std::int64_t shared, shared_memory_figure read_as) {
  kernel_resources k;
  k.name = "k";
  k.arch = occcalc::parse_gpu_target(arch);
  k.static_shared_memory_bytes = shared;
  k.shared_memory_read_as = read_as;
  return k;
}

}  // namespace

TEST_CASE("settle_static_shared_memory takes the table's reserve out of section figures", "[analysis]") {
  const auto& tables = occcalc::test::default_tables();
  SECTION("a CUDA 13 cubin section on sm_90 holds the 1 KiB reserve") {
    auto k = kernel("sm_90", 5120, shared_memory_figure::section_with_reserve);
    CHECK(occcalc::cli::settle_static_shared_memory(tables, k).empty());
    CHECK(k.static_shared_memory_bytes == 4096);
    CHECK(k.shared_memory_read_as == shared_memory_figure::own);
  }
  SECTION("nvlink's figure holds it from sm_90, not on sm_80") {
    auto hopper = kernel("sm_90", 5120, shared_memory_figure::linker_report);
    auto ampere = kernel("sm_80", 5120, shared_memory_figure::linker_report);
    occcalc::cli::settle_static_shared_memory(tables, hopper);
    occcalc::cli::settle_static_shared_memory(tables, ampere);
    CHECK(hopper.static_shared_memory_bytes == 4096);
    CHECK(ampere.static_shared_memory_bytes == 5120);
  }
  SECTION("nvlink's figure below the reserve is a kernel without static shared memory: it stands") {
    auto k = kernel("sm_90", 0, shared_memory_figure::linker_report);
    occcalc::cli::settle_static_shared_memory(tables, k);
    CHECK(k.static_shared_memory_bytes == 0);
  }
  SECTION("an architecture the table does not know leaves the figure unknown") {
    auto k = kernel("sm_99", 5120, shared_memory_figure::section_with_reserve);
    CHECK(occcalc::cli::settle_static_shared_memory(tables, k).empty());
    CHECK_FALSE(k.static_shared_memory_bytes);
  }
  SECTION("a section smaller than the reserve it must hold is named, and no occupancy is given") {
    auto k = kernel("sm_90", 512, shared_memory_figure::section_with_reserve);
    CHECK(occcalc::cli::settle_static_shared_memory(tables, k) ==
          "its shared memory section holds 512 bytes, fewer than the 1024 reserved bytes sm_90 cubins include");
    CHECK_FALSE(k.static_shared_memory_bytes);
    occcalc::inspect::inspected_kernel inspected{kernel("sm_90", 512, shared_memory_figure::section_with_reserve), "k"};
    inspected.resources.registers = 32;
    inspected.resources.max_threads = occcalc::inspect::dim3{256, 1, 1};
    const auto report = occcalc::cli::report_kernel(tables, "f", inspected, {});
    CHECK_FALSE(report.has_occupancy());
    CHECK(report.unavailable ==
          "its shared memory section holds 512 bytes, fewer than the 1024 reserved bytes sm_90 cubins include");
  }
  SECTION("a figure read as the kernel's own is left alone") {
    auto k = kernel("sm_90", 5120, shared_memory_figure::own);
    occcalc::cli::settle_static_shared_memory(tables, k);
    CHECK(k.static_shared_memory_bytes == 5120);
  }
}

TEST_CASE("every launch source is spelled as the inspect schema's block_size_from allows", "[analysis]") {
  std::ifstream in(std::string(OCCCALC_SOURCE_DIR) + "/schema/inspect.schema.json");
  const auto schema = nlohmann::json::parse(in);
  const auto allowed =
      schema["$defs"]["kernel"]["properties"]["block_size_from"]["enum"].get<std::vector<std::string>>();
  // `none` writes no block_size_from (a kernel without a block size has none).
  std::vector<std::string> spelled;
  for (const auto name : occcalc::cli::launch_source_spellings) {
    if (!name.empty()) spelled.emplace_back(name);
  }
  CHECK(spelled == allowed);
  CHECK(occcalc::cli::spelling(occcalc::cli::launch_source::launch_bounds) == "launch bounds");
  CHECK(occcalc::cli::spelling(occcalc::cli::launch_source::none).empty());
}
