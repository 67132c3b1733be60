/// \file request/resolve.hpp
/// The one place a request's vendor is decided: `resolve_any` returns the
/// NVIDIA or the AMD resolution, and everything downstream visits it, so a
/// new vendor makes the compiler list each place that must handle it.
#pragma once

#include <variant>

#include "occcalc/request/amd.hpp"
#include "occcalc/request/request.hpp"

namespace occcalc {

/// A request resolved for its vendor.
using resolved_any = std::variant<resolved_request, resolved_amd_request>;

/// The request key a device name given alone stands for (the page's one
/// box, the C library's device names): `cc` for a compute capability
/// (`8.6`, `sm_90`), `gfx` for an AMD target (`gfx90a`, or one the table
/// names without figures: `gfx1310`), else `gpu` (a GPU or family name,
/// either vendor's).
inline std::string target_key_of(const table& tables, const std::string& text) {
  try {
    parse_compute_capability("cc", text);
    return "cc";
  } catch (const input_error&) {
  }
  const std::string_view id = detail::trim(text);
  if (find_amd_target(tables, id) != nullptr || find_unlisted_amd_target(tables, id) != nullptr) return "gfx";
  return "gpu";
}

/// Resolves `req` as an AMD request when it names a target, an AMD GPU or
/// only AMD fields, else as an NVIDIA one. Throws `input_error`.
inline resolved_any resolve_any(const table& tables, const request& req) {
  // A GPU's name is looked up once, for the vendor and for the device.
  request_vendor vendor = vendor_of(tables, req);
  if (vendor.amd) return resolve_amd(tables, req, std::move(vendor.gpu));
  return resolve(tables, req, std::move(vendor.gpu));
}

}  // namespace occcalc
