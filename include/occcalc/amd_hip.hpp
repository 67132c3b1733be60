/// \file amd_hip.hpp
/// Moved to occcalc/amd/hip.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/hip.hpp"
