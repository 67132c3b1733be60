/// \file resolve.hpp
/// Moved to occcalc/request/resolve.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/request/resolve.hpp"
