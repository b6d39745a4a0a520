/* SPDX-License-Identifier: MIT */
/* processenv.h - the process's command line (processenv.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <processenv.h>
#else
#ifndef PETW_WIN32_PROCESSENV_H
#define PETW_WIN32_PROCESSENV_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* The process's command line (processenv.h): its arguments (Linux's
 * /proc/self/cmdline), each quoted as needed so that CommandLineToArgvW
 * (<shellapi.h>) splits them back; one string for the process's life.
 * GetCommandLineA: the same in UTF-8. NULL when out of memory. */
LPWSTR GetCommandLineW(void);
LPSTR GetCommandLineA(void);
#ifdef UNICODE
#define GetCommandLine GetCommandLineW
#else
#define GetCommandLine GetCommandLineA
#endif

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_PROCESSENV_H */
#endif /* !_WIN32 */
