/// \file occcalc.hpp
/// Umbrella header: the whole occcalc core.
#pragma once

#include "occcalc/amd_occupancy.hpp"
#include "occcalc/amd_request.hpp"
#include "occcalc/amd_sweep.hpp"
#include "occcalc/arch.hpp"
#include "occcalc/arch_table.hpp"
#include "occcalc/error.hpp"
#include "occcalc/explain.hpp"
#include "occcalc/launch.hpp"
#include "occcalc/lookup.hpp"
#include "occcalc/occupancy.hpp"
#include "occcalc/parse.hpp"
#include "occcalc/request.hpp"
#include "occcalc/suggest.hpp"
#include "occcalc/sweep.hpp"
#include "occcalc/tables/tables.hpp"
#include "occcalc/version.hpp"
#include "occcalc/waves.hpp"
