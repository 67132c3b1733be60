// occcalc sweep.
#include "catch.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using occcalc::cli::exit_status;
using occcalc::test::run;
using occcalc::test::matchers::Contains;

namespace {

/// A minimal XML reader for the SVG test: checks that tags nest and close,
/// attribute values are quoted, and collects each element's name and
/// attributes in document order.
struct xml_element {
  std::string name;
  std::map<std::string, std::string> attributes;
  int depth = 0;
};

std::vector<xml_element> parse_xml(const std::string& text) {
  std::vector<xml_element> elements;
  std::vector<std::string> open;
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string::npos) {
    const auto end = text.find('>', at);
    REQUIRE(end != std::string::npos);
    std::string tag = text.substr(at + 1, end - at - 1);
    at = end + 1;
    if (tag.rfind("?", 0) == 0 || tag.rfind("!", 0) == 0) continue;
    if (tag.rfind("/", 0) == 0) {
      REQUIRE_FALSE(open.empty());
      CHECK(open.back() == tag.substr(1));
      open.pop_back();
      continue;
    }
    const bool self_closing = !tag.empty() && tag.back() == '/';
    if (self_closing) tag.pop_back();
    xml_element e;
    e.depth = static_cast<int>(open.size());
    std::size_t i = tag.find_first_of(" \n");
    e.name = tag.substr(0, i);
    while (i != std::string::npos && i < tag.size()) {
      i = tag.find_first_not_of(" \n", i);
      if (i == std::string::npos) break;
      const auto eq = tag.find('=', i);
      REQUIRE(eq != std::string::npos);
      REQUIRE(tag[eq + 1] == '"');
      const auto close = tag.find('"', eq + 2);
      REQUIRE(close != std::string::npos);
      e.attributes[tag.substr(i, eq - i)] = tag.substr(eq + 2, close - eq - 2);
      i = close + 1;
    }
    if (!self_closing) open.push_back(e.name);
    elements.push_back(std::move(e));
  }
  CHECK(open.empty());
  return elements;
}

}  // namespace

TEST_CASE("cli: sweep --svg writes the three charts, each with its series and the current configuration",
          "[cli][sweep]") {
  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/sweep.svg";
  std::remove(path.c_str());
  const auto r = run({"sweep", "--vary", "regs", "--cc", "8.0", "--threads", "256", "--regs", "40", "--smem", "4K",
                      "--svg", path, "--ascii"});
  REQUIRE(r.status == exit_status::ok);
  std::ifstream file(path);
  const std::string svg((std::istreambuf_iterator<char>(file)), {});
  const auto elements = parse_xml(svg);
  REQUIRE_FALSE(elements.empty());
  CHECK(elements.front().name == "svg");
  CHECK(elements.front().attributes.at("xmlns") == "http://www.w3.org/2000/svg");
  std::vector<std::string> charts;
  int series = 0, markers = 0, axes = 0;
  for (const auto& e : elements) {
    const auto cls = e.attributes.count("class") ? e.attributes.at("class") : "";
    if (e.name == "g" && cls == "chart") charts.push_back(e.attributes.at("id"));
    if (e.name == "polyline" && cls == "series") {
      ++series;
      CHECK(std::count(e.attributes.at("points").begin(), e.attributes.at("points").end(), ',') > 10);
    }
    if (e.name == "circle" && cls == "current") ++markers;
    if (e.name == "line" && cls == "axis") ++axes;
  }
  CHECK(charts == std::vector<std::string>{"vary-threads", "vary-regs", "vary-smem"});
  CHECK(series == 3);
  CHECK(markers == 3);
  CHECK(axes == 6);
  CHECK_THAT(svg, Contains("<title>sm_80 (compute capability 8.0): 256 threads, 40 registers, 4096 B shared memory "
                           "per block</title>"));
  CHECK_THAT(svg, Contains(">registers per thread</text>"));
  CHECK_THAT(svg, Contains(">shared memory per block (KiB)</text>"));
  CHECK_THAT(svg, Contains("now: 40 (75.0%)"));  // 40 registers on 8.0: 48 of 64 warps
}

TEST_CASE("cli amd: sweep varies threads, VGPRs, SGPRs or LDS under the chosen model", "[cli][amd][sweep]") {
  const auto r = run(
      {"sweep", "--vary", "lds", "--gfx", "gfx1100", "--threads", "256", "--vgprs", "96", "--model", "hip", "--json"});
  REQUIRE(r.status == exit_status::ok);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["arch"] == "gfx1100");
  CHECK(j["model"] == "hip");
  CHECK(j["unit"] == "wgp");
  CHECK(j["points"].size() == 257);  // 0 to 64 KiB in 256-byte steps
  // HIP divides the 64 KiB a work-group may use: 8 groups (VGPR- and
  // slot-limited) up to 8 KiB, then 65536 / LDS.
  CHECK(j["points"][32]["value"] == 8192);
  CHECK(j["points"][32]["blocks_per_sm"] == 8);
  CHECK(j["points"][33]["blocks_per_sm"] == 7);
  CHECK(j["points"][256]["blocks_per_sm"] == 1);
  CHECK(j["cliffs"].front()["before"] == 8192);

  // gfx90a's AGPRs share the 512 registers per lane with the VGPRs, in
  // granules of 8: 128 VGPRs + 0 AGPRs -> 4 waves per SIMD; + 1 -> 136,
  // 3 waves; + 40 -> 168, 3; + 41 -> 176, 2; + 128 -> 256, 2; + 129 -> 1.
  const auto agprs = nlohmann::json::parse(
      run({"sweep", "--vary", "agprs", "--gfx", "gfx90a", "--threads", "256", "--vgprs", "128", "--json"}).out);
  CHECK(agprs["points"].size() == 257);
  CHECK(agprs["cliffs"] == nlohmann::json::parse(R"([
    {"before": 0, "after": 1, "occupancy_before": 0.5, "occupancy_after": 0.375},
    {"before": 40, "after": 41, "occupancy_before": 0.375, "occupancy_after": 0.25},
    {"before": 128, "after": 129, "occupancy_before": 0.25, "occupancy_after": 0.125}])"));

  const std::string path = std::string(OCCCALC_TEMP_DIR) + "/amd-sweep.svg";
  std::remove(path.c_str());
  REQUIRE(run({"sweep", "--vary", "vgprs", "--gpu", "Instinct MI210", "--threads", "256", "--vgprs", "128", "--svg",
               path, "--ascii"})
              .status == exit_status::ok);
  std::ifstream file(path);
  const std::string svg((std::istreambuf_iterator<char>(file)), {});
  std::vector<std::string> charts;
  for (const auto& e : parse_xml(svg)) {
    if (e.name == "g" && e.attributes.count("class") && e.attributes.at("class") == "chart") {
      charts.push_back(e.attributes.at("id"));
    }
  }
  CHECK(charts == std::vector<std::string>{"vary-threads", "vary-vgprs", "vary-lds"});
  CHECK_THAT(svg, Contains("Instinct MI210, gfx90a (CDNA2, model llvm): 256 work-items, 128 VGPRs, 0 B LDS"));
  CHECK_THAT(svg, Contains("now: 128 (50.0%)"));

  const auto bad = [](std::vector<std::string> args) { return run(std::move(args)).err; };
  CHECK(bad({"sweep", "--vary", "regs", "--gfx", "gfx90a", "--threads", "64", "--vgprs", "8"}) ==
        "occcalc: error: --vary 'regs' is not one of threads, vgprs, sgprs, lds, agprs (AMD)\n");
  CHECK(bad({"sweep", "--vary", "agprs", "--gfx", "gfx1100", "--threads", "64", "--vgprs", "8"}) ==
        "occcalc: error: --vary agprs does not apply to gfx1100 (RDNA3): AGPRs exist on CDNA only\n");
  CHECK(bad({"sweep", "--vary", "vgprs", "--gfx", "gfx90a", "--threads", "64", "--vgprs", "8", "--to", "300"}) ==
        "occcalc: error: --to 300 is outside [0, 256] on gfx90a\n");
  CHECK(bad({"sweep", "--vary", "sgprs", "--gfx", "cypress", "--threads", "64", "--vgprs", "8"}) ==
        "occcalc: error: --vary sgprs does not apply to cypress (VLIW5): it has no scalar registers\n");
}
