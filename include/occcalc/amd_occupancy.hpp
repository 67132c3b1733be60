/// \file amd_occupancy.hpp
/// Moved to occcalc/amd/occupancy.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/occupancy.hpp"
