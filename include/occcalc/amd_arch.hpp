/// \file amd_arch.hpp
/// Moved to occcalc/amd/target.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/target.hpp"
