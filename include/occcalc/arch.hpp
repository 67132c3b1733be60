/// \file arch.hpp
/// Moved to occcalc/nvidia/arch.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/arch.hpp"
