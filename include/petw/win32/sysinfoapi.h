/* SPDX-License-Identifier: MIT */
/* sysinfoapi.h - the Windows version (sysinfoapi.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <sysinfoapi.h>
#else
#ifndef PETW_WIN32_SYSINFOAPI_H
#define PETW_WIN32_SYSINFOAPI_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* The Windows version (sysinfoapi.h). petw implements Windows 10's ETW and
 * writes its trace files as Windows 10 does, so GetVersionEx reports
 * Windows 10: 10.0, build 19041 (version 2004), VER_PLATFORM_WIN32_NT, no
 * service pack, and in the EX form VER_NT_WORKSTATION. The Linux kernel's
 * own release is not a Windows version and is not reported. FALSE with
 * ERROR_INSUFFICIENT_BUFFER when dwOSVersionInfoSize is neither structure's
 * size. */
#define VER_PLATFORM_WIN32s 0
#define VER_PLATFORM_WIN32_WINDOWS 1
#define VER_PLATFORM_WIN32_NT 2
#define VER_NT_WORKSTATION 0x0000001
#define VER_NT_DOMAIN_CONTROLLER 0x0000002
#define VER_NT_SERVER 0x0000003
/* The fields every OSVERSIONINFO form shares; the EX forms add the rest. */
#define PETW__OSVERSION_FIELDS(CH)                                                                 \
    DWORD dwOSVersionInfoSize;                                                                     \
    DWORD dwMajorVersion;                                                                          \
    DWORD dwMinorVersion;                                                                          \
    DWORD dwBuildNumber;                                                                           \
    DWORD dwPlatformId;                                                                            \
    CH szCSDVersion[128]
#define PETW__OSVERSION_EX_FIELDS                                                                  \
    WORD wServicePackMajor;                                                                        \
    WORD wServicePackMinor;                                                                        \
    WORD wSuiteMask;                                                                               \
    BYTE wProductType;                                                                             \
    BYTE wReserved
typedef struct _OSVERSIONINFOA {
    PETW__OSVERSION_FIELDS(CHAR);
} OSVERSIONINFOA, *POSVERSIONINFOA, *LPOSVERSIONINFOA;
typedef struct _OSVERSIONINFOW {
    PETW__OSVERSION_FIELDS(WCHAR);
} OSVERSIONINFOW, *POSVERSIONINFOW, *LPOSVERSIONINFOW, RTL_OSVERSIONINFOW, *PRTL_OSVERSIONINFOW;
typedef struct _OSVERSIONINFOEXA {
    PETW__OSVERSION_FIELDS(CHAR);
    PETW__OSVERSION_EX_FIELDS;
} OSVERSIONINFOEXA, *POSVERSIONINFOEXA, *LPOSVERSIONINFOEXA;
typedef struct _OSVERSIONINFOEXW {
    PETW__OSVERSION_FIELDS(WCHAR);
    PETW__OSVERSION_EX_FIELDS;
} OSVERSIONINFOEXW, *POSVERSIONINFOEXW, *LPOSVERSIONINFOEXW, RTL_OSVERSIONINFOEXW,
    *PRTL_OSVERSIONINFOEXW;
BOOL GetVersionExA(LPOSVERSIONINFOA lpVersionInformation);
BOOL GetVersionExW(LPOSVERSIONINFOW lpVersionInformation);
#ifdef UNICODE
typedef OSVERSIONINFOW OSVERSIONINFO, *POSVERSIONINFO, *LPOSVERSIONINFO;
typedef OSVERSIONINFOEXW OSVERSIONINFOEX, *POSVERSIONINFOEX, *LPOSVERSIONINFOEX;
#define GetVersionEx GetVersionExW
#else
typedef OSVERSIONINFOA OSVERSIONINFO, *POSVERSIONINFO, *LPOSVERSIONINFO;
typedef OSVERSIONINFOEXA OSVERSIONINFOEX, *POSVERSIONINFOEX, *LPOSVERSIONINFOEX;
#define GetVersionEx GetVersionExA
#endif

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_SYSINFOAPI_H */
#endif /* !_WIN32 */
