/// \file lookup.hpp
/// Moved to occcalc/request/lookup.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/request/lookup.hpp"
