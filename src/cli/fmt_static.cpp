// fmt's compiled functions for a static link. Debian ships fmt as a shared
// library and headers, no archive: a static occcalc takes the functions the
// objects call from here, compiled once, so it links the very objects the
// shared build links (cmake/dependencies.cmake picks this or libfmt.so).
// format-inl.h defines them (not inline: FMT_HEADER_ONLY is not set); the
// templates format.h declares extern are instantiated below, as fmt's own
// library does.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
