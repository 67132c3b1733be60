/// \file explain.hpp
/// Moved to occcalc/nvidia/explain.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/nvidia/explain.hpp"
