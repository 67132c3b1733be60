/// \file amd_rcp.hpp
/// Moved to occcalc/amd/rcp.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/rcp.hpp"
