/// \file amd_result.hpp
/// Moved to occcalc/amd/result.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/result.hpp"
