/// \file amd_kernel.hpp
/// Moved to occcalc/amd/kernel.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/kernel.hpp"
