/// \file occupancy.hpp
/// Moved to occcalc/nvidia/occupancy.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/occupancy.hpp"
