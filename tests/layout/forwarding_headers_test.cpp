// Every header path of 0.1 still compiles: the old flat paths forward to
// the layered ones for the 0.x series (README: Layout).
#include "occcalc/amd_arch.hpp"
#include "occcalc/amd_hip.hpp"
#include "occcalc/amd_kernel.hpp"
#include "occcalc/amd_llvm.hpp"
#include "occcalc/amd_occupancy.hpp"
#include "occcalc/amd_rcp.hpp"
#include "occcalc/amd_request.hpp"
#include "occcalc/amd_result.hpp"
#include "occcalc/amd_sweep.hpp"
#include "occcalc/arch.hpp"
#include "occcalc/arch_table.hpp"
#include "occcalc/explain.hpp"
#include "occcalc/gpu_names.hpp"
#include "occcalc/json_input.hpp"
#include "occcalc/launch.hpp"
#include "occcalc/lookup.hpp"
#include "occcalc/occupancy.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/request.hpp"
#include "occcalc/resolve.hpp"
#include "occcalc/suggest.hpp"
#include "occcalc/sweep.hpp"
#include "occcalc/waves.hpp"

#include "catch.hpp"

TEST_CASE("the old header paths forward to the layered ones", "[layout]") {
  // One name from each layer, reached through the old paths.
  CHECK(occcalc::detail::divide_round_up(5, 2) == 3);
  CHECK(occcalc::to_string(occcalc::amd_model::hip) == "hip");
  CHECK(occcalc::to_string(occcalc::cache_preference::l1) == "l1");
}
