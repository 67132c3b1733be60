/// \file sweep.hpp
/// Moved to occcalc/nvidia/sweep.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/sweep.hpp"
