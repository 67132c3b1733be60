// PTX directives read directly: .maxntid, .reqntid, .maxnreg, the target.
#include "catch.hpp"

#include "builds/readers/fatbin_entries.hpp"
#include "builds/readers/identify.hpp"
#include "builds/readers/ptx.hpp"

using occcalc::test::matchers::Contains;

TEST_CASE("ptx: each entry's launch directives and the target", "[inspect][ptx]") {
  const std::string text =
      "//\n.version 8.0\n.target sm_90a, texmode_independent\n.address_size 64\n\n"
      ".visible .entry bounded(\n\t.param .u64 p\n)\n.maxntid 256, 1, 1\n.maxnreg 64\n{\n\tret;\n}\n"
      ".entry fixed(\n)\n.reqntid 32, 4\n.minnctapersm 2\n{\n\tret;\n}\n"
      ".entry plain()\n{\n\tret;\n}\n";
  const occcalc::inspect::byte_view bytes(reinterpret_cast<const unsigned char*>(text.data()), text.size());
  CHECK(occcalc::inspect::identify(bytes) == occcalc::inspect::input_kind::ptx);
  const auto kernels = occcalc::inspect::read_ptx(text);
  REQUIRE(kernels.size() == 3);
  CHECK(kernels[0].name == "bounded");
  CHECK(kernels[0].arch.name == "sm_90a");
  CHECK(kernels[0].max_threads == occcalc::inspect::dim3{256, 1, 1});
  CHECK(kernels[0].register_cap == 64);
  CHECK(kernels[1].required_threads == occcalc::inspect::dim3{32, 4, 1});
  CHECK_FALSE(kernels[1].max_threads);
  CHECK_FALSE(kernels[2].max_threads);
  CHECK_FALSE(kernels[2].registers);  // ptxas's to decide
  CHECK_THROWS_WITH(occcalc::inspect::read_ptx(".version 8.0\n.target sm_80\n.entry k()\n.maxntid 0\n{\n}\n"),
                    Contains("line 4: '0' is not a directive's count"));
  // A directive without its count (found by the fuzzer: it once read past
  // an empty list).
  CHECK_THROWS_WITH(occcalc::inspect::read_ptx(".version 8.0\n.target sm_80\n.entry k()\n.maxntid\n{\n}\n"),
                    Contains("line 4: a directive without its count"));
  CHECK_THROWS_WITH(occcalc::inspect::read_ptx(".version 8.0\n.target sm_80\n.entry k()\n.maxnreg \n{\n}\n"),
                    Contains("a directive without its count"));
}

TEST_CASE("ptx: an input's PTX beyond max_ptx_sources is counted, its text not kept", "[inspect][ptx]") {
  // libcufft holds 8,000 PTX sources: the first max_ptx_sources texts are
  // kept for ptxas, the rest counted, and every source's kernels listed.
  constexpr std::size_t sources = 40;
  occcalc::inspect::inspection in;
  for (std::size_t i = 0; i < sources; ++i) {
    const std::string name = "k" + std::to_string(i);
    occcalc::inspect::add_ptx_kernels(".version 8.0\n.target sm_80\n.entry " + name + "()\n{\n\tret;\n}\n", "sm_80",
                                      "entry " + std::to_string(i), in);
  }
  CHECK(in.kernels.size() == sources);
  REQUIRE(in.ptx_sources.size() == occcalc::inspect::max_ptx_sources);
  CHECK(in.ptx_sources_left_out == sources - occcalc::inspect::max_ptx_sources);
  CHECK(in.ptx_sources.back().first_kernel == occcalc::inspect::max_ptx_sources - 1);
  CHECK(in.kernels.back().resources.name == "k39");
}
