// Parsing of the values users type, and finding architectures and GPUs.
#include "catch.hpp"
#include "sampling.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "cli/embedded_tables.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/load.hpp"
#include "test_tables.hpp"

using occcalc::input_error;
using occcalc::test::matchers::Contains;
using occcalc::test::matchers::StartsWith;

TEST_CASE("compute capabilities parse in every accepted spelling", "[parse]") {
  using row = std::tuple<std::string, int, int>;
  const auto [text, major, minor] = GENERATE(table<std::string, int, int>({
      row{"7.0", 7, 0},
      row{"70", 7, 0},
      row{"sm_70", 7, 0},
      row{"compute_70", 7, 0},
      row{"SM_86", 8, 6},
      row{"sm_90a", 9, 0},
      row{"sm_100f", 10, 0},
      row{"10.3", 10, 3},
      row{"120", 12, 0},
      row{"7", 7, 0},
      row{" 12.1 ", 12, 1},
  }));
  CAPTURE(text);
  const auto cc = occcalc::parse_compute_capability("cc", text);
  CHECK(cc.major == major);
  CHECK(cc.minor == minor);
}

TEST_CASE("malformed compute capabilities are errors naming the field", "[parse]") {
  for (const std::string text : {"", "seven", "7.", ".5", "7.0.1", "sm_", "sm_7.0", "-7.0", "7.10", "sm_70b"}) {
    CAPTURE(text);
    try {
      occcalc::parse_compute_capability("cc", text);
      FAIL("no error for " << text);
    } catch (const input_error& e) {
      CHECK(e.field() == "cc");
      CHECK_THAT(e.what(), Contains("is not a compute capability"));
    }
  }
}

TEST_CASE("bare two-digit compute capabilities from 10 to 19 are refused, naming both readings", "[parse]") {
  using row = std::tuple<std::string, std::string>;
  const auto [text, message] = GENERATE(table<std::string, std::string>({
      row{"10", "'10' is ambiguous: compute capability 1.0 or 10.0; write 1.0 or 10.0 (or sm_10 for 1.0)"},
      row{"11", "'11' is ambiguous: compute capability 1.1 or 11.0; write 1.1 or 11.0 (or sm_11 for 1.1)"},
      row{" 12", "'12' is ambiguous: compute capability 1.2 or 12.0; write 1.2 or 12.0 (or sm_12 for 1.2)"},
      row{"13", "'13' is ambiguous: compute capability 1.3 or 13.0; write 1.3 or 13.0 (or sm_13 for 1.3)"},
  }));
  CAPTURE(text);
  try {
    occcalc::parse_compute_capability("cc", text);
    FAIL("no error for " << text);
  } catch (const input_error& e) {
    CHECK(e.field() == "cc");
    CHECK(std::string(e.what()) == message);
  }
  // The unambiguous spellings keep their meaning.
  CHECK(occcalc::parse_compute_capability("cc", "sm_10").major == 1);
  CHECK(occcalc::parse_compute_capability("cc", "compute_12").minor == 2);
  CHECK(occcalc::parse_compute_capability("cc", "100").major == 10);
  CHECK(occcalc::parse_compute_capability("cc", "1.2").major == 1);
  CHECK(occcalc::parse_compute_capability("cc", "12.0").major == 12);
  CHECK(occcalc::parse_compute_capability("cc", "20").major == 2);
}

TEST_CASE("a cubin loads on the GPUs CUDA's binary compatibility allows", "[parse]") {
  using occcalc::loads_cubin;
  using occcalc::target_features;
  const auto cc = [](const char* text) { return occcalc::parse_compute_capability("cc", text); };
  // Programming Guide: a cubin for X.y runs on X.z, z >= y; never on another major.
  CHECK(loads_cubin(cc("8.0"), target_features::none, cc("8.6")));
  CHECK(loads_cubin(cc("8.0"), target_features::none, cc("8.9")));
  CHECK_FALSE(loads_cubin(cc("8.6"), target_features::none, cc("8.0")));
  CHECK_FALSE(loads_cubin(cc("8.0"), target_features::none, cc("9.0")));
  CHECK_FALSE(loads_cubin(cc("9.0"), target_features::none, cc("8.9")));
  // sm_90a, sm_100a: that compute capability alone (what Triton builds for 9.0 and later).
  CHECK(loads_cubin(cc("sm_90a"), occcalc::features_of("sm_90a"), cc("9.0")));
  CHECK_FALSE(loads_cubin(cc("sm_100a"), occcalc::features_of("sm_100a"), cc("10.3")));
  // sm_100f: the family, 10.0 and 10.3; sm_120f: 12.0 and 12.1.
  CHECK(loads_cubin(cc("sm_100f"), occcalc::features_of("sm_100f"), cc("10.3")));
  CHECK(loads_cubin(cc("sm_120f"), occcalc::features_of("sm_120f"), cc("12.1")));
  CHECK_FALSE(loads_cubin(cc("sm_103f"), occcalc::features_of("sm_103f"), cc("10.0")));
  CHECK(occcalc::features_of("sm_80") == target_features::none);
  CHECK(occcalc::features_of("SM_90A") == target_features::arch_specific);
}

TEST_CASE("an unknown compute capability lists the supported ones", "[lookup]") {
  REQUIRE_THROWS_WITH(
      occcalc::require_arch(occcalc::test::default_tables(), "cc", "7.7"),
      Contains("'7.7' is not a supported compute capability; supported: 1.0, 1.1,") && Contains("12.1"));
}

TEST_CASE("sizes take bytes, K or KiB", "[parse]") {
  const occcalc::int_range range{0, occcalc::max_request_value};
  CHECK(occcalc::parse_bytes("smem", "4096", range) == 4096);
  CHECK(occcalc::parse_bytes("smem", "48K", range) == 49152);
  CHECK(occcalc::parse_bytes("smem", "48k", range) == 49152);
  CHECK(occcalc::parse_bytes("smem", "48KiB", range) == 49152);
  CHECK(occcalc::parse_bytes("smem", "100 B", range) == 100);
  REQUIRE_THROWS_WITH(occcalc::parse_bytes("smem", "48M", range), Contains("'48M' is not a size"));
  REQUIRE_THROWS_WITH(occcalc::parse_bytes("smem", "-1", range), "-1 is outside [0, 2147483647] bytes");
  REQUIRE_THROWS_WITH(occcalc::parse_bytes("smem", "2097152K", range), "2097152K is outside [0, 2147483647] bytes");
}

TEST_CASE("counts reject non-numbers, negatives and values out of range", "[parse]") {
  const occcalc::int_range range{1, occcalc::max_request_value};
  CHECK(occcalc::parse_count("threads", "128", range) == 128);
  REQUIRE_THROWS_WITH(occcalc::parse_count("threads", "0", range), "0 is outside [1, 2147483647]");
  REQUIRE_THROWS_WITH(occcalc::parse_count("threads", "-5", range), "-5 is outside [1, 2147483647]");
  REQUIRE_THROWS_WITH(occcalc::parse_count("threads", "12abc", range),
                      "'12abc' is not an integer; expected an integer in [1, 2147483647]");
  REQUIRE_THROWS_WITH(occcalc::parse_count("threads", "99999999999999999999", range), Contains("is not an integer"));
  REQUIRE_THROWS_WITH(occcalc::parse_count("threads", "1.5", range), Contains("is not an integer"));
}

TEST_CASE("carveouts and cache preferences", "[parse]") {
  CHECK(occcalc::parse_carveout("carveout", "default") == std::nullopt);
  CHECK(occcalc::parse_carveout("carveout", "max-shared") == 100);
  CHECK(occcalc::parse_carveout("carveout", "MAX-L1") == 0);
  CHECK(occcalc::parse_carveout("carveout", "50") == 50);
  CHECK(occcalc::parse_carveout("carveout", "25%") == 25);
  REQUIRE_THROWS_WITH(occcalc::parse_carveout("carveout", "101"), Contains("percentage in [0, 100]"));
  CHECK(occcalc::parse_cache("cache", "L1") == occcalc::cache_preference::l1);
  REQUIRE_THROWS_WITH(occcalc::parse_cache("cache", "big"), Contains("expected none, shared, l1 or equal"));
}

TEST_CASE("GPU names match exactly: case, punctuation and brand words ignored, nothing else", "[lookup]") {
  const auto& tables = occcalc::test::default_tables();
  CHECK(occcalc::require_gpu(tables, "gpu", "geforce rtx 4090").arch_id == "sm_89");
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4090").name == "GeForce RTX 4090");
  CHECK(occcalc::require_gpu(tables, "gpu", "NVIDIA GeForce RTX 4090").name == "GeForce RTX 4090");
  CHECK(occcalc::require_gpu(tables, "gpu", "rtx4090").name == "GeForce RTX 4090");
  CHECK(occcalc::require_gpu(tables, "gpu", "a100-sxm4-80gb").sm_count == 108);
  CHECK(occcalc::require_gpu(tables, "gpu", "T4").sm_count == 40);  // "Tesla" is a brand word
  CHECK(occcalc::require_gpu(tables, "gpu", "Tesla T4").sm_count == 40);
  // The issue's cases: a word that tells products apart is never added.
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4060").sm_count == 24);
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4060 Ti").sm_count == 34);
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4070 Ti").sm_count == 60);
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4070 Ti SUPER").sm_count == 66);
  CHECK(occcalc::require_gpu(tables, "gpu", "Quadro RTX 6000").arch_id == "sm_75");
  REQUIRE_THROWS_WITH(occcalc::require_gpu(tables, "gpu", "RTX 6000"),
                      StartsWith("'RTX 6000' is not a known GPU; did you mean RTX 6000 Ada, Quadro RTX 6000?"));
  // Aliases people type, and names as the driver reports them.
  CHECK(occcalc::require_gpu(tables, "gpu", "H100 SXM").id == "h100-sxm5-80gb");
  CHECK(occcalc::require_gpu(tables, "gpu", "NVIDIA H100 80GB HBM3").id == "h100-sxm5-80gb");
  CHECK(occcalc::require_gpu(tables, "gpu", "L40").sm_count == 142);
  CHECK(occcalc::require_gpu(tables, "gpu", "L40S").sm_count == 142);
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX PRO 6000").sm_count == 188);
  CHECK(occcalc::require_named_gpu(tables, "gpu", "MI300X").amd->compute_units == 304);
  // A name that only starts several products: each is a candidate, prefixes first, shortest first.
  REQUIRE_THROWS_WITH(occcalc::require_gpu(tables, "gpu", "RTX 40"),
                      StartsWith("'RTX 40' is not a known GPU; did you mean GeForce RTX 4060, GeForce RTX 4070"));
  REQUIRE_THROWS_WITH(occcalc::require_gpu(tables, "gpu", "GeForce RTX 4900"),
                      Contains("'GeForce RTX 4900' is not a known GPU; did you mean ") && Contains("GeForce RTX 4090"));
  // A huge name is not compared letter by letter with every table name.
  REQUIRE_THROWS_WITH(occcalc::require_gpu(tables, "gpu", std::string(100000, 'x')),
                      Contains("is not a known GPU (occcalc list gpus"));
}

TEST_CASE("a family name covers its products' variants, never another product", "[lookup][family]") {
  const auto& tables = occcalc::test::default_tables();
  const auto names = [](const std::vector<const occcalc::gpu*>& family) {
    std::vector<std::string> out;
    for (const auto* g : family) out.push_back(g->name);
    return out;
  };
  // Form factors and memory sizes are what a family name leaves out.
  const auto h100 = occcalc::require_nvidia_gpu(tables, "gpu", "H100");
  CHECK(h100.nvidia == nullptr);
  CHECK(names(h100.nvidia_family) == std::vector<std::string>{"H100 SXM5 80GB", "H100 PCIe", "H100 NVL"});
  CHECK(names(occcalc::require_nvidia_gpu(tables, "gpu", "a100").nvidia_family) ==
        std::vector<std::string>{"A100-PCIE-40GB", "A100-SXM4-40GB", "A100-SXM4-80GB"});
  CHECK(names(occcalc::require_nvidia_gpu(tables, "gpu", "A100 SXM4").nvidia_family) ==
        std::vector<std::string>{"A100-SXM4-40GB", "A100-SXM4-80GB"});
  CHECK(occcalc::require_nvidia_gpu(tables, "gpu", "Tesla V100").nvidia_family.size() == 2);
  CHECK(occcalc::require_nvidia_gpu(tables, "gpu", "Jetson AGX Orin").nvidia_family.size() == 2);
  // A family of one variant is that product.
  CHECK(occcalc::require_gpu(tables, "gpu", "GTX 1060").name == "GeForce GTX 1060 6GB");
  CHECK(occcalc::require_gpu(tables, "gpu", "P100").name == "Tesla P100-PCIE-16GB");
  // Ti, SUPER, Ada, XT tell products apart: never a variant.
  CHECK(occcalc::require_gpu(tables, "gpu", "RTX 4060").name == "GeForce RTX 4060");
  CHECK(occcalc::find_named_gpu(tables, "RTX 4070 Ti").nvidia->name == "GeForce RTX 4070 Ti");
  CHECK_FALSE(occcalc::find_named_gpu(tables, "MI300").found());  // MI300X and MI300A are two products
  CHECK_FALSE(occcalc::find_named_gpu(tables, "RX 7900").found());
  // Where one device is needed, a family is named with its SM counts.
  // The field it points to is each front end's to spell: --sm-count, sm_count=.
  try {
    occcalc::require_gpu(tables, "gpu", "H100");
    FAIL("a family is not one GPU");
  } catch (const occcalc::input_error& e) {
    CHECK(occcalc::flagged_text(e) ==
          "--gpu 'H100' names several GPUs: H100 SXM5 80GB (132 SMs), H100 PCIe (114 SMs), H100 NVL (132 SMs); "
          "give one of them, or --sm-count");
    CHECK(e.keyed_text() ==
          "gpu 'H100' names several GPUs: H100 SXM5 80GB (132 SMs), H100 PCIe (114 SMs), H100 NVL (132 SMs); "
          "give one of them, or sm_count");
  }
  // The words: lower case, brand words dropped; variants: form factors and memory sizes.
  CHECK(occcalc::gpu_name_words("Tesla V100-PCIE-16GB") == std::vector<std::string>{"v100", "pcie", "16gb"});
  CHECK(occcalc::is_variant_word("80gb"));
  CHECK(occcalc::is_variant_word("sxm4"));
  CHECK_FALSE(occcalc::is_variant_word("gb"));
  CHECK_FALSE(occcalc::is_variant_word("ti"));
  CHECK_FALSE(occcalc::is_variant_word("8x"));
}

namespace {

/// The family rule over whole word lists, as lookups applied it before they read names in place: the family's
/// words, then variant words only.
bool is_family_variant(const std::vector<std::string>& family, const std::vector<std::string>& name) {
  if (family.empty() || name.size() <= family.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (i < family.size() ? name[i] != family[i] : !occcalc::is_variant_word(name[i])) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a family lookup read in place answers as the words it replaced", "[request][gpu]") {
  // is_family_variant_name (no string built) against the rule over gpu_name_words, for every name, id and alias of
  // every GPU, asked as every leading run of every other name's words, in both cases and with punctuation.
  const auto& tables = occcalc::test::default_tables();
  std::vector<std::string> names;
  const auto add = [&](const auto& g) {
    names.push_back(g.name);
    names.push_back(g.id);
    names.insert(names.end(), g.aliases.begin(), g.aliases.end());
  };
  for (const auto& g : tables.gpus) add(g);
  for (const auto& g : tables.amd_gpus) add(g);
  std::vector<std::string> queries = {"", "-", "H100", "h100 pcie", "RTX 4060", "GeForce", "MI300", "A100 80GB"};
  for (const auto& name : names) {
    const auto words = occcalc::gpu_name_words(name);
    std::string query;
    for (const auto& w : words) {
      query += (query.empty() ? "" : "-") + w;
      queries.push_back(query);
      std::string upper = query;
      for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      queries.push_back("NVIDIA " + upper);
    }
  }
  std::size_t compared = 0, variants = 0, walked = 0;
  for (const auto& q : queries) {
    if (!occcalc::test::walks(walked++)) continue;
    const auto family = occcalc::gpu_name_words(q);
    for (const auto& name : names) {
      const bool expected = is_family_variant(family, occcalc::gpu_name_words(name));
      if (occcalc::is_family_variant_name(family, name) != expected) FAIL("'" << q << "' against '" << name << "'");
      variants += expected;
      ++compared;
    }
  }
  CHECK(compared > occcalc::test::sample(500'000));
  CHECK(variants > occcalc::test::sample(100));
}

TEST_CASE("a table's index of GPU names answers every lookup as reading the names does", "[request][gpu]") {
  // gpu_name_index::find against find_named_gpu's scan (the table has no index) for every name, id and alias of
  // every GPU, each leading run of its words, in both cases and with punctuation, and names that match nothing.
  const auto& tables = occcalc::test::default_tables();
  REQUIRE(tables.gpu_names.get() == nullptr);
  const occcalc::gpu_name_index index(tables);
  std::vector<std::string> queries = {"",         " ",       "-",        "nvidia",    "H100",  "h100 pcie",
                                      "RTX 4060", "GeForce", "MI300",    "A100 80GB", "H1000", "rtx",
                                      "80GB",     "PCIe",    "\xff\xfe", "4090 RTX"};
  const auto add = [&](const std::string& name) {
    queries.push_back(name);
    std::string query;
    for (const auto& w : occcalc::gpu_name_words(name)) {
      query += (query.empty() ? "" : "_") + w;
      queries.push_back(query);
      std::string upper = query;
      for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      queries.push_back("  NVIDIA " + upper + " ");
    }
  };
  const auto add_gpu = [&](const auto& g) {
    add(g.name);
    add(g.id);
    for (const auto& alias : g.aliases) add(alias);
  };
  for (const auto& g : tables.gpus) add_gpu(g);
  for (const auto& g : tables.amd_gpus) add_gpu(g);
  std::size_t families = 0, products = 0;
  for (const auto& q : queries) {
    const auto want = occcalc::find_named_gpu(tables, q);
    const auto got = index.find(q);
    INFO("'" << q << "'");
    REQUIRE(got.nvidia == want.nvidia);
    REQUIRE(got.amd == want.amd);
    REQUIRE(got.nvidia_family == want.nvidia_family);
    REQUIRE(got.amd_family == want.amd_family);
    families += !want.nvidia_family.empty() || !want.amd_family.empty();
    products += want.nvidia != nullptr || want.amd != nullptr;
  }
  CHECK(queries.size() > 1500);
  CHECK(families > 50);
  CHECK(products > 1000);
}

TEST_CASE("a family resolves to its architecture, and to its SM count where its products share one",
          "[lookup][family]") {
  const auto& tables = occcalc::test::default_tables();
  occcalc::request req;
  req.gpu = "A100";
  req.threads = "256";
  req.regs = "64";
  req.grid = "1000";
  const auto a100 = occcalc::resolve(tables, req);
  CHECK(a100.arch->id == "sm_80");
  CHECK(a100.named_gpu == nullptr);
  CHECK(a100.family.size() == 3);
  CHECK(a100.family_name == "A100");
  CHECK(a100.sm_count == 108);  // every A100 has 108 SMs: one answer for the grid

  req.gpu = " H100 ";
  // H100s have 132 or 114 SMs: the grid's waves are per product.
  const auto h100 = occcalc::resolve(tables, req);
  CHECK(h100.family_name == "H100");
  CHECK_FALSE(h100.sm_count);
  CHECK(h100.grid_blocks == 1000);
  req.grid.reset();
  CHECK(occcalc::resolve(tables, req).arch->id == "sm_90");  // per SM, no grid: one answer
}

TEST_CASE("the tables refuse two GPUs that answer to the same name", "[table]") {
  const std::string table = R"({"schema_version": 1,
    "gpus": [{"id": "lab-a", "name": "Lab GPU", "arch": "sm_90", "sm_count": 66, "sources": ["PG13"]},
             {"id": "lab-b", "name": "NVIDIA Lab-GPU", "arch": "sm_90", "sm_count": 60, "sources": ["PG13"]}]})";
  std::vector<occcalc::table_text> texts = occcalc::cli::embedded_tables();
  texts.push_back({"mine.json", table});
  REQUIRE_THROWS_WITH(occcalc::load_tables(texts),
                      "mine.json: gpu 'lab-b': the name 'NVIDIA Lab-GPU' also names mine.json: gpu 'lab-a' (brand "
                      "words, case, spaces and punctuation ignored)");
}

TEST_CASE("requests: required fields, defaults and flags that do not apply", "[request]") {
  const auto& tables = occcalc::test::default_tables();
  occcalc::request req;
  req.cc = "8.0";
  req.threads = "256";
  req.regs = "32";
  const auto resolved = occcalc::resolve(tables, req);
  CHECK(resolved.arch->id == "sm_80");
  CHECK(resolved.launch.barriers == 1);
  CHECK(resolved.launch.static_shared_memory_bytes == 0);
  CHECK_FALSE(resolved.launch.carveout_percent.has_value());

  auto missing = req;
  missing.regs.reset();
  REQUIRE_THROWS_WITH(occcalc::resolve(tables, missing), Contains("is required"));

  auto carveout_on_pascal = req;
  carveout_on_pascal.cc = "6.1";
  carveout_on_pascal.carveout = "50";
  REQUIRE_THROWS_WITH(occcalc::resolve(tables, carveout_on_pascal), Contains("50 does not apply to sm_61"));

  auto cache_on_maxwell = req;
  cache_on_maxwell.cc = "5.2";
  cache_on_maxwell.cache = "l1";
  REQUIRE_THROWS_WITH(occcalc::resolve(tables, cache_on_maxwell), Contains("l1 does not apply to sm_52"));

  auto too_many_barriers = req;
  too_many_barriers.barriers = "17";
  REQUIRE_THROWS_WITH(occcalc::resolve(tables, too_many_barriers), "17 is outside [0, 16] for sm_80");

  auto both = req;
  both.gpu = "A100-PCIE-40GB";
  REQUIRE_THROWS_WITH(occcalc::resolve(tables, both), Contains("cannot be given together with cc"));

  auto by_gpu = req;
  by_gpu.cc.reset();
  by_gpu.gpu = "RTX 3090";
  CHECK(occcalc::resolve(tables, by_gpu).arch->id == "sm_86");
}

TEST_CASE("field values: a batch integer is checked as the number it is, with the text path's messages", "[parse]") {
  using occcalc::field_value;
  CHECK(occcalc::parse_count("threads", field_value::of_integer(128), {1, 1024}) == 128);
  CHECK(occcalc::parse_bytes("smem", field_value::of_integer(4096), {0, 49152}) == 4096);
  CHECK(occcalc::parse_carveout("carveout", field_value::of_integer(50)) == 50);
  // The same message as the text "0", "70000" and "150".
  CHECK_THROWS_WITH(occcalc::parse_count("threads", field_value::of_integer(0), {1, 1024}), "0 is outside [1, 1024]");
  CHECK_THROWS_WITH(occcalc::parse_count("threads", field_value("0"), {1, 1024}), "0 is outside [1, 1024]");
  CHECK_THROWS_WITH(occcalc::parse_bytes("smem", field_value::of_integer(70000), {0, 49152}),
                    "70000 is outside [0, 49152] bytes");
  CHECK_THROWS_WITH(occcalc::parse_bytes("smem", field_value("70000"), {0, 49152}),
                    "70000 is outside [0, 49152] bytes");
  CHECK_THROWS_WITH(occcalc::parse_carveout("carveout", field_value::of_integer(150)),
                    "'150' is not a carveout; expected default, max-shared, max-l1 or a percentage in [0, 100]");
  // Text still takes its suffixes; an integer is bytes.
  CHECK(occcalc::parse_bytes("smem", field_value("4K"), {0, 49152}) == 4096);
  // A name given as an integer (a compute capability of 70) reads as its digits.
  CHECK(field_value::of_integer(70).text() == "70");
  CHECK(field_value("sm_70") == "sm_70");
  CHECK(field_value::of_integer(70) != "70");
}

TEST_CASE("a GPU name's key compared as it is read equals the key built", "[lookup]") {
  for (const char* name : {"NVIDIA GeForce RTX 4060 Ti", "Tesla V100-PCIE-16GB", "H100 SXM5 80GB", "rtx4090", "", "--",
                           "GeForce", "AMD Instinct MI300X", "Radeon 8060S (Ryzen AI Max+ 395)", "a-b c"}) {
    INFO(name);
    const std::string key = occcalc::gpu_name_key(name);
    CHECK(occcalc::gpu_name_key_is(name, key));
    CHECK_FALSE(occcalc::gpu_name_key_is(name, key + "x"));
    if (!key.empty()) {
      CHECK_FALSE(occcalc::gpu_name_key_is(name, key.substr(1)));
      CHECK_FALSE(occcalc::gpu_name_key_is(name, key.substr(0, key.size() - 1)));
    }
  }
}
