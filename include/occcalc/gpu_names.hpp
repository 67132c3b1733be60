/// \file gpu_names.hpp
/// Moved to occcalc/tables/gpu_names.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/tables/gpu_names.hpp"
