/// \file json_input.hpp
/// Moved to occcalc/tables/json_input.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/tables/json_input.hpp"
