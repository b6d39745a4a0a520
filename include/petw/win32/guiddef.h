/* SPDX-License-Identifier: MIT */
/* guiddef.h - GUID, DEFINE_GUID, IsEqualGUID and the GUID reference types,
 * for non-Windows hosts: they are in <windows.h>, as Windows' own
 * windows.h includes this header. Part of petw's Win32 layer.
 * On Windows this is the system's. */
#if defined(_WIN32)
#include_next <guiddef.h>
#else
#include <windows.h>
#endif
