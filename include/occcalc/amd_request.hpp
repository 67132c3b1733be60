/// \file amd_request.hpp
/// Moved to occcalc/request/amd.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/request/amd.hpp"
