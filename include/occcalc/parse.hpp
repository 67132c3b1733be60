/// \file parse.hpp
/// Moved to occcalc/request/parse.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/request/parse.hpp"
