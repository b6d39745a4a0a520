/* SPDX-License-Identifier: MIT */
/* winnls.h - locales: case mapping, dates and times as text, the code page in use
 * (winnls.h, datetimeapi.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <winnls.h>
#else
#ifndef PETW_WIN32_WINNLS_H
#define PETW_WIN32_WINNLS_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* LCMapStringEx (winnls.h) for the mappings ETW code uses: LCMAP_UPPERCASE
 * or LCMAP_LOWERCASE (the C library's case mapping, whatever the locale
 * name: LOCALE_NAME_INVARIANT, NULL or another), and LCMAP_BYTEREV, which
 * swaps the two bytes of each UTF-16 unit (WCHAR values up to U+FFFF; on
 * Linux a WCHAR is 4 bytes, so code hashing the result as 2-byte units,
 * such as TraceLoggingDynamic's name-to-GUID, gets another GUID than on
 * Windows). In place when lpDestStr is lpSrcStr. Returns the WCHARs
 * written (with the NUL when cchSrc is -1), or with cchDest 0 those
 * needed; 0 with ERROR_INVALID_FLAGS for other flags,
 * ERROR_INSUFFICIENT_BUFFER, or ERROR_INVALID_PARAMETER (NULL source, a
 * length of 0 or below -1, a version, reserved or sort handle). */
#define LOCALE_NAME_INVARIANT L""
#define LOCALE_NAME_USER_DEFAULT NULL
#define LCMAP_LOWERCASE 0x00000100
#define LCMAP_UPPERCASE 0x00000200
#define LCMAP_BYTEREV 0x00000800
int LCMapStringEx(LPCWSTR lpLocaleName, DWORD dwMapFlags, LPCWSTR lpSrcStr, int cchSrc,
                  LPWSTR lpDestStr, int cchDest, LPVOID lpVersionInformation, LPVOID lpReserved,
                  LPARAM sortHandle);
/* Dates and times as text (datetimeapi.h), for the pictures consumer code
 * passes: d, dd, ddd, dddd, M, MM, MMM, MMMM, y, yy, yyyy (dates); h, hh,
 * H, HH, m, mm, s, ss, t, tt (times); text in single quotes ('' is a
 * quote) and any other character kept. Names and the default pictures
 * (lpFormat NULL: "M/d/yyyy", "h:mm:ss tt") are en-US's, whatever the
 * locale (LOCALE_USER_DEFAULT, LOCALE_SYSTEM_DEFAULT, LOCALE_INVARIANT or a
 * name for the Ex forms). lpDate / lpTime NULL means the local time now.
 * Returns the characters written with the NUL, or with cchDate 0 those
 * needed; 0 with ERROR_INSUFFICIENT_BUFFER, ERROR_INVALID_FLAGS (dwFlags
 * other than 0) or ERROR_INVALID_PARAMETER (an invalid date or time). */
typedef DWORD LCID;
#define LOCALE_USER_DEFAULT ((LCID)0x0400)
#define LOCALE_SYSTEM_DEFAULT ((LCID)0x0800)
#define LOCALE_INVARIANT ((LCID)0x007f)
#define LOCALE_NAME_SYSTEM_DEFAULT L"!x-sys-default-locale"
int GetDateFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                   LPWSTR lpDateStr, int cchDate);
int GetTimeFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                   LPWSTR lpTimeStr, int cchTime);
int GetDateFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                    LPWSTR lpDateStr, int cchDate, LPCWSTR lpCalendar);
int GetTimeFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                    LPWSTR lpTimeStr, int cchTime);
#ifdef UNICODE
#define GetDateFormat GetDateFormatW
#define GetTimeFormat GetTimeFormatW
#endif
/* The code pages: always CP_UTF8 (65001) on Linux. */
UINT GetACP(void);
UINT GetOEMCP(void);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_WINNLS_H */
#endif /* !_WIN32 */
