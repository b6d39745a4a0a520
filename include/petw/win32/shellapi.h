/* SPDX-License-Identifier: MIT */
/* shellapi.h - CommandLineToArgvW, the one shell function ETW tools use
 * (to read their wide command line), for non-Windows hosts. Part of petw's
 * ETW-compatible surface; on Windows this is the system's.
 *
 * CommandLineToArgvW splits a command line by Windows' rules (spaces and
 * tabs separate arguments; "..." groups; 2n backslashes before a quote are
 * n backslashes and the quote delimits, 2n+1 are n and a literal quote)
 * into one block of argument pointers and strings, freed with LocalFree.
 * NULL with GetLastError() ERROR_INVALID_PARAMETER (no pNumArgs) or
 * ERROR_NOT_ENOUGH_MEMORY. An empty lpCmdLine gives the program's path, as
 * on Windows. GetCommandLineW (<windows.h>) is the process's arguments
 * quoted so that this splits them back. No other shell function is here.
 */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' shellapi.h does not stand alone */
#include_next <shellapi.h>
#else
#ifndef PETW_ETW_SHELLAPI_H
#define PETW_ETW_SHELLAPI_H

#include <windows.h>

#ifdef __cplusplus
extern "C" {
#endif

LPWSTR *CommandLineToArgvW(LPCWSTR lpCmdLine, int *pNumArgs);

#ifdef __cplusplus
}
#endif
#endif /* PETW_ETW_SHELLAPI_H */
#endif
