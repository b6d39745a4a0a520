/* SPDX-License-Identifier: MIT */
/* timezoneapi.h - FILETIME and SYSTEMTIME conversions, the time now (timezoneapi.h,
 * sysinfoapi.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <timezoneapi.h>
#else
#ifndef PETW_WIN32_TIMEZONEAPI_H
#define PETW_WIN32_TIMEZONEAPI_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* Time (minwinbase.h, timezoneapi.h, sysinfoapi.h). FileTimeToSystemTime
 * fails (FALSE, ERROR_INVALID_PARAMETER) for a FILETIME of 2^63 or more;
 * SystemTimeToFileTime for a field out of range (year 1601-30827, the day
 * in its month, hour, minute, second, millisecond; wDayOfWeek is not read).
 * FileTimeToLocalFileTime and LocalFileTimeToFileTime use the local zone's
 * offset now, daylight time included when in effect now, as Windows does. */
BOOL FileTimeToSystemTime(const FILETIME *lpFileTime, LPSYSTEMTIME lpSystemTime);
BOOL SystemTimeToFileTime(const SYSTEMTIME *lpSystemTime, LPFILETIME lpFileTime);
BOOL FileTimeToLocalFileTime(const FILETIME *lpFileTime, LPFILETIME lpLocalFileTime);
BOOL LocalFileTimeToFileTime(const FILETIME *lpLocalFileTime, LPFILETIME lpFileTime);
void GetSystemTimeAsFileTime(LPFILETIME lpSystemTimeAsFileTime);
void GetSystemTime(LPSYSTEMTIME lpSystemTime);
void GetLocalTime(LPSYSTEMTIME lpSystemTime);
/* A UTC SYSTEMTIME as local time in a zone. With lpTimeZoneInformation
 * NULL, the local zone (the C library's, TZ included) with the offset in
 * effect at that date, daylight time included, as Windows does. A zone
 * given with no daylight date (DaylightDate.wMonth 0) applies Bias +
 * StandardBias; one with yearly daylight rules fails with
 * ERROR_NOT_SUPPORTED. Fails (FALSE, ERROR_INVALID_PARAMETER) for a NULL
 * pointer or a SYSTEMTIME SystemTimeToFileTime refuses. */
BOOL SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *lpTimeZoneInformation,
                                     const SYSTEMTIME *lpUniversalTime, LPSYSTEMTIME lpLocalTime);
LONG CompareFileTime(const FILETIME *lpFileTime1, const FILETIME *lpFileTime2);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_TIMEZONEAPI_H */
#endif /* !_WIN32 */
