/// \file request.hpp
/// Moved to occcalc/request/request.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/request/request.hpp"
