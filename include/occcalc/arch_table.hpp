/// \file arch_table.hpp
/// Moved to occcalc/tables/load.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/tables/load.hpp"
