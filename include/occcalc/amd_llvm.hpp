/// \file amd_llvm.hpp
/// Moved to occcalc/amd/llvm.hpp; this path forwards to it for the 0.x series.
#pragma once
#include "occcalc/amd/llvm.hpp"
