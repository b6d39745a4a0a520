/* SPDX-License-Identifier: MIT */
/* win32_internal.h - shared by the Win32 layer's files: the Win32 and C
 * runtime functions Windows gives every process, for POSIX hosts, one file
 * per Windows DLL that holds them, as Wine has them (kernelbase.c and
 * kernelbase_time.c, advapi32.c, msvcrt.c, shell32.c, ole32.c). Its archive, libpetw_win32, is
 * linked only by code that asks for the ETW surface (pkg-config petw-etw);
 * wmain.c, the entry point of wmain programs, is an archive of its own
 * (pkg-config petw-wmain). On Windows none of it is built: the OS has them.
 *
 * Allowed dependencies: common/, platform/. */
#ifndef PETW_WIN32_INTERNAL_H
#define PETW_WIN32_INTERNAL_H

#include <windows.h>

#include "../../base/common/common.h"

/* UTF-8 to wchar_t: a fresh string (malloc), or NULL when out of memory. A
 * byte that is not part of valid UTF-8 becomes the code point of its value
 * (shell32.c; GetCommandLineW, _wfullpath and wmain.c use it). */
wchar_t *petw__widen_utf8(const char *s);

#endif
