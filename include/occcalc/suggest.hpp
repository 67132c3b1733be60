/// \file suggest.hpp
/// Moved to occcalc/nvidia/suggest.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/suggest.hpp"
