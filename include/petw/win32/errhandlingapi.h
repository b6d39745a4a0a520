/* SPDX-License-Identifier: MIT */
/* errhandlingapi.h - the thread's last error (errhandlingapi.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <errhandlingapi.h>
#else
#ifndef PETW_WIN32_ERRHANDLINGAPI_H
#define PETW_WIN32_ERRHANDLINGAPI_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* The calling thread's last error, set by petw's ETW functions that return
 * a handle (OpenTrace). */
DWORD GetLastError(void);
void SetLastError(DWORD code);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_ERRHANDLINGAPI_H */
#endif /* !_WIN32 */
