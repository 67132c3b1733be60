// Thread block clusters: the rule of docs/clusters.md on the measured layout, the ranges over
// published GPC counts, the request's --cluster, and the table's layouts.
#include "catch.hpp"

#include <string>
#include <vector>

#include "cli/embedded_tables.hpp"
#include "occcalc/nvidia/cluster.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/load.hpp"
#include "test_tables.hpp"

using occcalc::test::matchers::Contains;

namespace {

const occcalc::nvidia_arch& arch(const char* cc) {
  return occcalc::require_arch(occcalc::test::default_tables(), "cc", cc);
}

const occcalc::cluster_layout* layout_of(const char* gpu) {
  const auto& tables = occcalc::test::default_tables();
  return occcalc::find_cluster_layout(tables, occcalc::require_gpu(tables, "gpu", gpu));
}

}  // namespace

TEST_CASE("clusters on the measured H200: a domain of d SMs holds floor(d * b / c), none when d < c", "[cluster]") {
  const auto* h200 = layout_of("H200");
  REQUIRE(h200 != nullptr);
  REQUIRE(h200->measured());
  const auto& sm90 = arch("9.0");
  // Domains 18, 18, 16 x 5, 8, 2 x 4 (docs/clusters.md). One block per SM, clusters of 16: the
  // seven domains of 16 or more hold one each (the runtime's 7, where 132 / 16 would say 8).
  CHECK(occcalc::max_active_clusters(sm90, h200, 132, 1, 16).most == 7);
  // Clusters of 2 at one block per SM: 9 + 9 + 8 x 5 + 4 + 1 x 4 = 66, every SM.
  CHECK(occcalc::max_active_clusters(sm90, h200, 132, 1, 2).most == 66);
  // Clusters of 3: 6 + 6 + 5 x 5 + 2 + 0 = 39.
  const auto three = occcalc::max_active_clusters(sm90, h200, 132, 1, 3);
  CHECK((three.fewest == 39 && three.most == 39));
  // Four blocks per SM, clusters of 4: 18 + 18 + 16 x 5 + 8 + 2 x 4 = 124.
  CHECK(occcalc::max_active_clusters(sm90, h200, 132, 4, 4).most == 124);
  // A cluster launch keeps at most 8 blocks on an SM on 9.0: 32 blocks per SM answer as 8.
  CHECK(occcalc::max_active_clusters(sm90, h200, 132, 32, 1).most == 132 * 8);
  CHECK(occcalc::max_active_clusters(sm90, h200, 132, 0, 4).most == 0);

  const auto c = occcalc::cluster_capacity_on(sm90, h200, 132, 4, 4);
  CHECK(c.basis == occcalc::cluster_basis::measured);
  CHECK(c.blocks_in_clusters.most == 496);
  CHECK(c.blocks_without_clusters == 528);
  CHECK(c.occupancy.most == Approx(496.0 / 528.0));
  const auto largest = occcalc::largest_cluster_size(sm90, h200, 132, 4);
  CHECK((largest.fewest == 16 && largest.most == 16));
  const auto none = occcalc::cluster_capacity_on(sm90, h200, 132, 0, 4);
  CHECK((occcalc::largest_cluster_size(sm90, h200, 132, 0).most == 0 && none.occupancy.most == 0.0));
}

TEST_CASE("unmeasured products answer the range their published GPC counts allow", "[cluster]") {
  const auto& sm90 = arch("9.0");
  const auto* pcie = layout_of("H100 PCIe");
  REQUIRE(pcie != nullptr);
  REQUIRE_FALSE(pcie->measured());
  // 57 TPCs in 7 or 8 GPCs of up to 9 TPCs, one GPC possibly split into pairs; one block per SM.
  // Clusters of 2: every TPC holds one, whatever the layout.
  const auto two = occcalc::max_active_clusters(sm90, pcie, 114, 1, 2);
  CHECK((two.fewest == 57 && two.most == 57));
  // Clusters of 8: 7 x 7 TPCs (one each) + 8 split into pairs (none) = 7; 7 x 8 TPCs (two each) = 14.
  const auto eight = occcalc::max_active_clusters(sm90, pcie, 114, 1, 8);
  CHECK((eight.fewest == 7 && eight.most == 14));
  // Past the portable 8 nothing is promised where nothing was measured.
  CHECK(occcalc::max_active_clusters(sm90, pcie, 114, 1, 9).fewest == 0);
  // The measured H100 SXM5's answers lie in the range its own GPC counts give (8 GPCs of 9 TPCs):
  // tests/python/test_clusters.py holds every recorded answer to it; here the 16-block case.
  occcalc::cluster_layout gh100_132;
  gh100_132.gpc_counts = {8};
  gh100_132.max_tpcs_per_gpc = 9;
  gh100_132.sms_per_tpc = 2;
  const auto sixteen = occcalc::max_active_clusters(sm90, &gh100_132, 132, 1, 16);
  CHECK((sixteen.fewest == 0 && sixteen.most == 8));
  // Without a layout: none to every SM's blocks.
  const auto bare = occcalc::max_active_clusters(sm90, nullptr, 148, 1, 4);
  CHECK((bare.fewest == 0 && bare.most == 37));
}

TEST_CASE("the published GB200 figures lie in the range of 8 GPCs of up to 10 TPCs", "[cluster]") {
  // One block per SM on a 152-SM GB200, as collected in the project's reference notes (nvidia-limits.md,
  // vector 22): size 8 -> 15, 6 -> 23, 5 -> 28, 4 -> 36, 3 -> 46 clusters.
  occcalc::cluster_layout gb200;
  gb200.gpc_counts = {8};
  gb200.max_tpcs_per_gpc = 10;
  gb200.sms_per_tpc = 2;
  const auto& sm100 = arch("10.0");
  for (const auto& [size, clusters] : std::vector<std::pair<int, int>>{{8, 15}, {6, 23}, {5, 28}, {4, 36}, {3, 46}}) {
    const auto r = occcalc::max_active_clusters(sm100, &gb200, 152, 1, size);
    CAPTURE(size, r.fewest, r.most);
    CHECK((r.fewest <= clusters && clusters <= r.most));
  }
}

TEST_CASE("blocks per SM in a cluster launch: capped where measured, a range where not", "[cluster]") {
  const auto capped = occcalc::cluster_blocks_per_sm(arch("9.0"), 12);
  CHECK((capped.fewest == 8 && capped.most == 8));
  const auto open = occcalc::cluster_blocks_per_sm(arch("12.0"), 12);
  CHECK((open.fewest == 8 && open.most == 12));
  CHECK_FALSE(arch("8.0").max_cluster_size_portable.has_value());
}

TEST_CASE("--cluster: blocks or a shape, within what the architecture launches", "[cluster][request]") {
  const auto& tables = occcalc::test::default_tables();
  occcalc::request req;
  req.gpu = "H200";
  req.threads = "256";
  req.regs = "64";
  req.cluster = "2x2";
  auto r = occcalc::resolve(tables, req);
  REQUIRE(r.cluster);
  CHECK((r.cluster->x == 2 && r.cluster->y == 2 && r.cluster->z == 1 && r.cluster->blocks() == 4));
  REQUIRE(r.cluster_devices.size() == 1);
  CHECK(r.cluster_devices[0].layout == layout_of("H200"));
  CHECK(r.cluster_devices[0].sm_count == 132);
  req.cluster = occcalc::field_value::of_integer(16);
  CHECK(occcalc::resolve(tables, req).cluster->blocks() == 16);
  // A part of the GPU (--sm-count) has no known layout.
  req.sm_count = "66";
  CHECK(occcalc::resolve(tables, req).cluster_devices[0].layout == nullptr);
  CHECK(occcalc::resolve(tables, req).cluster_devices[0].sm_count == 66);
  // All of its SMs are the GPU itself: its measured layout stays.
  req.sm_count = "132";
  CHECK(occcalc::resolve(tables, req).cluster_devices[0].layout == layout_of("H200"));
  req.sm_count.reset();
  // A family: each product, with its own layout or none.
  req.gpu = "H100";
  CHECK(occcalc::resolve(tables, req).cluster_devices.size() == 3);

  const auto refused = [&](const char* cc, occcalc::field_value value) {
    occcalc::request bad = req;
    bad.gpu.reset();
    bad.cc = cc;
    bad.cluster = std::move(value);
    occcalc::resolve(tables, bad);
  };
  REQUIRE_THROWS_WITH(refused("8.0", "2"),
                      "2 does not apply to sm_80: thread block clusters need compute "
                      "capability 9.0 or later");
  REQUIRE_THROWS_WITH(refused("9.0", "17"), Contains("17 is outside [1, 16] blocks for sm_90 (8 portable"));
  // Blackwell (10.0): 16 with the non-portable opt-in, as NVIDIA's tuning guide documents for B200.
  REQUIRE_THROWS_WITH(refused("10.0", "3x3x2"), Contains("3x3x2 is outside [1, 16] blocks for sm_100 (8 portable"));
  REQUIRE_THROWS_WITH(refused("12.0", "3x3"), Contains("3x3 is outside [1, 8] blocks for sm_120"));
  REQUIRE_THROWS_WITH(refused("9.0", "0x4"), Contains("0x4 is outside [1, 16]"));
  REQUIRE_THROWS_WITH(refused("9.0", "4294967296x4294967296x4294967296"), Contains("is outside [1, 16]"));
  for (const char* junk : {"", "x", "2x", "x2", "2x2x2x2", "2*2", "-1", "2 x 2", "0x10"}) {
    CAPTURE(junk);
    REQUIRE_THROWS_AS(refused("9.0", junk), occcalc::input_error);
  }
}

TEST_CASE("a 1-block cluster runs wherever a block does, on any layout", "[cluster]") {
  const auto& sm90 = arch("9.0");
  const auto& sm100 = arch("10.0");
  // No layout (B200): every SM's blocks, the per-SM cap of a cluster launch unmeasured (8 to all 12).
  const auto b200 = occcalc::max_active_clusters(sm100, nullptr, 148, 12, 1);
  CHECK((b200.fewest == 148 * 8 && b200.most == 148 * 12));
  // Published GPC counts (H100 PCIe) and none at all give the same, exact where the cap is measured.
  const auto pcie = occcalc::max_active_clusters(sm90, layout_of("H100 PCIe"), 114, 3, 1);
  CHECK((pcie.fewest == 342 && pcie.most == 342));
  CHECK(occcalc::max_active_clusters(sm90, nullptr, 114, 3, 1).fewest == 342);
  // The largest cluster size is never 0 where a block fits.
  CHECK(occcalc::largest_cluster_size(sm100, nullptr, 148, 1).fewest == 1);
  CHECK(occcalc::largest_cluster_size(sm100, nullptr, 148, 1).most == 16);
  CHECK(occcalc::largest_cluster_size(sm100, nullptr, 148, 1, 8).most == 8);
}

TEST_CASE("the published RTX Blackwell layouts are pinned", "[cluster]") {
  const auto& sm120 = arch("12.0");
  // GeForce RTX 5090: 11 GPCs, 85 TPCs. Clusters of 2 at one block per SM: one per TPC, on any layout.
  const auto pair = occcalc::max_active_clusters(sm120, layout_of("RTX 5090"), 170, 1, 2);
  CHECK((pair.fewest == 85 && pair.most == 85));
  // RTX 5080: the full GB203, 7 GPCs of 6 TPCs; clusters of 8 at one block per SM: one per GPC of 12
  // SMs, none where the runtime splits one GPC into pairs.
  const auto* gb203 = layout_of("RTX 5080");
  REQUIRE(gb203 != nullptr);
  const auto eight = occcalc::max_active_clusters(sm120, gb203, 84, 1, 8);
  CHECK((eight.fewest == 6 && eight.most == 7));
}

TEST_CASE("a layout too large to search answers from its SM count, at once", "[cluster]") {
  const auto& sm90 = arch("9.0");
  // 64 GPCs of up to 64 TPCs (4,096 TPCs): within the loader's bounds, past the search's budget.
  occcalc::cluster_layout huge;
  huge.id = "huge";
  huge.gpc_counts = {64, 63, 62, 61};
  huge.max_tpcs_per_gpc = 64;
  huge.sms_per_tpc = 2;
  CHECK(occcalc::cluster_basis_of(&huge, 8000) == occcalc::cluster_basis::sm_count);
  const auto r = occcalc::max_active_clusters(sm90, &huge, 8000, 4, 8);
  CHECK((r.fewest == 0 && r.most == 8000 * 4 / 8));
  const auto c = occcalc::cluster_capacity_on(sm90, &huge, 8000, 4, 8);
  CHECK((c.basis == occcalc::cluster_basis::sm_count && c.layout == nullptr));
  // Absurd figures built by hand (no loader) neither overflow nor run long.
  huge.gpc_counts = {std::int64_t{1} << 40};
  huge.max_tpcs_per_gpc = std::int64_t{1} << 40;
  CHECK(occcalc::cluster_basis_of(&huge, std::int64_t{1} << 40) == occcalc::cluster_basis::sm_count);
  // A small one is searched.
  occcalc::cluster_layout small = huge;
  small.gpc_counts = {8};
  small.max_tpcs_per_gpc = 9;
  CHECK(occcalc::cluster_basis_of(&small, 132) == occcalc::cluster_basis::gpc_counts);
}

TEST_CASE("cluster layouts: the loader refuses one that cannot describe its GPUs", "[cluster][table]") {
  const auto load_with = [](const std::string& layout) {
    std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
    const std::string mine = R"({"schema_version": 1, "cluster_layouts": [)" + layout + "]}";
    texts.push_back({"mine.json", mine});
    return occcalc::load_tables(texts);
  };
  CHECK(load_with(R"({"id": "l", "gpus": ["b200"], "gpc_counts": [8], "max_tpcs_per_gpc": 10, "sms_per_tpc": 2,
                      "sources": ["PG13"]})")
            .cluster_layouts.back()
            .gpu_ids == std::vector<std::string>{"b200"});
  REQUIRE_THROWS_WITH(
      load_with(R"({"id": "l", "gpus": ["b200"], "domain_sms": [100, 40], "sources": ["PG13"]})"),
      "mine.json: cluster layout 'l': does not fit gpu 'b200': its domain_sms add up to 140 SMs, not 148");
  REQUIRE_THROWS_WITH(
      load_with(R"({"id": "l", "gpus": ["b200"], "gpc_counts": [7], "max_tpcs_per_gpc": 10, "sms_per_tpc": 2,
                    "sources": ["PG13"]})"),
      "mine.json: cluster layout 'l': does not fit gpu 'b200': 74 TPCs do not fit 7 GPCs of 1 to 10 TPCs");
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["h200"], "gpc_counts": [8], "max_tpcs_per_gpc": 9,
                                    "sms_per_tpc": 2, "sources": ["PG13"]})"),
                      "mine.json: cluster layout 'l': field 'gpus': 'h200' also has cluster layout "
                      "'gh100-132-sms-measured'");
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["a100-sxm4-80gb"], "domain_sms": [108], "sources": ["PG13"]})"),
                      "mine.json: cluster layout 'l': field 'gpus': 'a100-sxm4-80gb' is an sm_80 GPU, which has no "
                      "clusters");
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["nope"], "domain_sms": [1], "sources": ["PG13"]})"),
                      "mine.json: cluster layout 'l': field 'gpus': 'nope' is not a known gpu id");
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["b200"], "domain_sms": [148], "gpc_counts": [8],
                                    "sources": ["PG13"]})"),
                      Contains("field 'gpc_counts': does not apply to a measured layout"));
  // Bounds that keep every cluster answer within a second: a hostile table is refused, naming the field.
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["b200"], "gpc_counts": [100], "max_tpcs_per_gpc": 100000,
                                    "sms_per_tpc": 2, "sources": ["PG13"]})"),
                      Contains("field 'gpc_counts': 100 is not an integer in [1, 64]"));
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["b200"], "gpc_counts": [8], "max_tpcs_per_gpc": 100000,
                                    "sms_per_tpc": 2, "sources": ["PG13"]})"),
                      Contains("field 'max_tpcs_per_gpc': 100000 is outside [1, 64]"));
  REQUIRE_THROWS_WITH(load_with(R"({"id": "l", "gpus": ["b200"], "gpc_counts": [1, 2, 3, 4, 5, 6, 7, 8, 9],
                                    "max_tpcs_per_gpc": 64, "sms_per_tpc": 2, "sources": ["PG13"]})"),
                      Contains("field 'gpc_counts': holds 9 counts; at most 8"));
}
