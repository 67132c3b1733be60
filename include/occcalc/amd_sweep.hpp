/// \file amd_sweep.hpp
/// Moved to occcalc/amd/sweep.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/sweep.hpp"
