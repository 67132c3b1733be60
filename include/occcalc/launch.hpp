/// \file launch.hpp
/// Moved to occcalc/nvidia/launch.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/launch.hpp"
