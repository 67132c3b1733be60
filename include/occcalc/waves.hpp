/// \file waves.hpp
/// Moved to occcalc/common/waves.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/common/waves.hpp"
