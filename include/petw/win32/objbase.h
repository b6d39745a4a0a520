/* SPDX-License-Identifier: MIT */
/* objbase.h - StringFromGUID2 and the COM types ETW code takes from it, for
 * non-Windows hosts (StringFromGUID2 is in <windows.h>, as Windows' own
 * windows.h includes this header; the COM types are <combaseapi.h>'s). Part of petw's
 * ETW-compatible surface. On Windows this is the system's. */
#if defined(_WIN32)
#include_next <objbase.h>
#else
#include <windows.h>
#include <combaseapi.h>
#endif
