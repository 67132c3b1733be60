/// \file occcalc.hpp
/// Umbrella header: the whole occcalc core, layer by layer. `common/` names
/// no vendor; `nvidia/` and `amd/` build on it; `tables/` loads both;
/// `request/` turns typed-in text into resolved, validated launches.
///
/// No JSON library comes with it: a program that reads table files includes
/// `occcalc/tables/load.hpp` (nlohmann) itself; the compiled-in figures are
/// `occcalc/nvidia/builtin_architectures.hpp`.
#pragma once

#include "occcalc/error.hpp"
#include "occcalc/version.hpp"

#include "occcalc/common/change_search.hpp"
#include "occcalc/common/enum_set.hpp"
#include "occcalc/common/fixed_list.hpp"
#include "occcalc/common/host_device.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/common/percent.hpp"
#include "occcalc/common/problem.hpp"
#include "occcalc/common/summary.hpp"
#include "occcalc/common/sweep.hpp"
#include "occcalc/common/text.hpp"
#include "occcalc/common/waves.hpp"

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/arch_figures.hpp"
#include "occcalc/nvidia/builtin_architectures.hpp"
#include "occcalc/nvidia/checked.hpp"
#include "occcalc/nvidia/cluster.hpp"
#include "occcalc/nvidia/cluster_shape.hpp"
#include "occcalc/nvidia/compute_capability.hpp"
#include "occcalc/nvidia/explain.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/limits.hpp"
#include "occcalc/nvidia/names.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/nvidia/sweep.hpp"

#include "occcalc/amd/checked.hpp"
#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/limits.hpp"
#include "occcalc/amd/llvm.hpp"
#include "occcalc/amd/occupancy.hpp"
#include "occcalc/amd/rcp.hpp"
#include "occcalc/amd/result.hpp"
#include "occcalc/amd/steps.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/amd/sweep.hpp"
#include "occcalc/amd/target.hpp"

#include "occcalc/tables/gpu_names.hpp"
#include "occcalc/tables/tables.hpp"

#include "occcalc/request/amd.hpp"
#include "occcalc/request/gpu_name_index.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/request/parse.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/request/resolve.hpp"
#include "occcalc/request/target.hpp"
