/* SPDX-License-Identifier: MIT */
/* kernelbase_time.c - kernelbase's time functions for POSIX hosts (Windows
 * has its own): FILETIME and SYSTEMTIME conversions, the local time zone's
 * shift, the clock, and dates and times as text (GetDateFormat,
 * GetTimeFormat: pictures, en-US names). Conversions only: the calendar
 * arithmetic is common/'s. */
#include "win32_internal.h"

#if !defined(_WIN32)

static uint64_t ft_get(const FILETIME *ft)
{
    return (uint64_t)ft->dwHighDateTime << 32 | ft->dwLowDateTime;
}

static void ft_put(FILETIME *ft, uint64_t v)
{
    ft->dwLowDateTime = (DWORD)v;
    ft->dwHighDateTime = (DWORD)(v >> 32);
}

static void st_put(SYSTEMTIME *st, const uint16_t f[8])
{
    st->wYear = f[0];
    st->wMonth = f[1];
    st->wDayOfWeek = f[2];
    st->wDay = f[3];
    st->wHour = f[4];
    st->wMinute = f[5];
    st->wSecond = f[6];
    st->wMilliseconds = f[7];
}

static BOOL fail(DWORD code)
{
    SetLastError(code);
    return FALSE;
}

BOOL FileTimeToSystemTime(const FILETIME *lpFileTime, LPSYSTEMTIME lpSystemTime)
{
    uint16_t f[8];
    if (!lpFileTime || !lpSystemTime || petw__civil_from_filetime(ft_get(lpFileTime), f) != 0)
        return fail(ERROR_INVALID_PARAMETER);
    st_put(lpSystemTime, f);
    return TRUE;
}

BOOL SystemTimeToFileTime(const SYSTEMTIME *lpSystemTime, LPFILETIME lpFileTime)
{
    if (!lpSystemTime || !lpFileTime)
        return fail(ERROR_INVALID_PARAMETER);
    const uint16_t f[8] = {lpSystemTime->wYear,      lpSystemTime->wMonth,
                           lpSystemTime->wDayOfWeek, lpSystemTime->wDay,
                           lpSystemTime->wHour,      lpSystemTime->wMinute,
                           lpSystemTime->wSecond,    lpSystemTime->wMilliseconds};
    uint64_t v;
    if (petw__filetime_from_civil(f, &v) != 0)
        return fail(ERROR_INVALID_PARAMETER);
    ft_put(lpFileTime, v);
    return TRUE;
}

static BOOL shift(const FILETIME *in, LPFILETIME out, int64_t by)
{
    if (!in || !out)
        return fail(ERROR_INVALID_PARAMETER);
    uint64_t v = ft_get(in);
    if ((by < 0 && v < (uint64_t)-by) || (by > 0 && v + (uint64_t)by < v))
        return fail(ERROR_INVALID_PARAMETER);
    ft_put(out, v + (uint64_t)by);
    return TRUE;
}

BOOL FileTimeToLocalFileTime(const FILETIME *lpFileTime, LPFILETIME lpLocalFileTime)
{
    return shift(lpFileTime, lpLocalFileTime, petw__local_offset_100ns());
}

BOOL LocalFileTimeToFileTime(const FILETIME *lpLocalFileTime, LPFILETIME lpFileTime)
{
    return shift(lpLocalFileTime, lpFileTime, -petw__local_offset_100ns());
}

BOOL SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *lpTimeZoneInformation,
                                     const SYSTEMTIME *lpUniversalTime, LPSYSTEMTIME lpLocalTime)
{
    FILETIME utc, local = {0, 0};
    if (!lpUniversalTime || !lpLocalTime || !SystemTimeToFileTime(lpUniversalTime, &utc))
        return fail(ERROR_INVALID_PARAMETER);
    int64_t offset;
    if (!lpTimeZoneInformation)
        offset = petw__local_offset_100ns_at(ft_get(&utc));
    else if (lpTimeZoneInformation->DaylightDate.wMonth == 0)
        offset = -(int64_t)(lpTimeZoneInformation->Bias + lpTimeZoneInformation->StandardBias) *
                 60 * 10000000;
    else
        return fail(ERROR_NOT_SUPPORTED);
    return shift(&utc, &local, offset) && FileTimeToSystemTime(&local, lpLocalTime);
}

void GetSystemTimeAsFileTime(LPFILETIME lpSystemTimeAsFileTime)
{
    ft_put(lpSystemTimeAsFileTime, petw__system_filetime());
}

void GetSystemTime(LPSYSTEMTIME lpSystemTime)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    FileTimeToSystemTime(&ft, lpSystemTime);
}

void GetLocalTime(LPSYSTEMTIME lpSystemTime)
{
    FILETIME ft, local = {0, 0};
    GetSystemTimeAsFileTime(&ft);
    FileTimeToLocalFileTime(&ft, &local);
    FileTimeToSystemTime(&local, lpSystemTime);
}

LONG CompareFileTime(const FILETIME *lpFileTime1, const FILETIME *lpFileTime2)
{
    uint64_t a = ft_get(lpFileTime1), b = ft_get(lpFileTime2);
    return a < b ? -1 : a > b ? 1 : 0;
}

/* ---- GetDateFormat, GetTimeFormat: pictures, en-US names ---- */

static const char *const month_names[] = {"January",   "February", "March",    "April",
                                          "May",       "June",     "July",     "August",
                                          "September", "October",  "November", "December"};
static const char *const day_names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};

typedef struct picture_out {
    LPWSTR out;
    size_t cap, n; /* cap 0: count only */
} picture_out;

static void put_char(picture_out *o, wchar_t c)
{
    if (o->cap && o->n < o->cap)
        o->out[o->n] = c;
    o->n++;
}

static void put_ascii(picture_out *o, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++)
        put_char(o, (wchar_t)(unsigned char)s[i]);
}

static void put_number(picture_out *o, unsigned v, int width)
{
    char b[16];
    snprintf(b, sizeof(b), "%0*u", width > 9 ? 9 : width, v % 1000000000u);
    put_ascii(o, b, sizeof(b));
}

/* Expands `format` for `st`; dates take d/M/y, times h/H/m/s/t. */
static int expand_picture(const SYSTEMTIME *st, const wchar_t *format, int date, picture_out *o)
{
    for (const wchar_t *f = format; *f;) {
        wchar_t c = *f;
        if (c == L'\'') { /* quoted text; '' is a quote */
            f++;
            while (*f && !(f[0] == L'\'' && f[1] != L'\'')) {
                if (f[0] == L'\'')
                    f++;
                put_char(o, *f++);
            }
            if (*f)
                f++;
            continue;
        }
        int run = 1;
        while (f[run] == c)
            run++;
        f += run;
        if (date && c == L'd') {
            if (run <= 2)
                put_number(o, st->wDay, run);
            else
                put_ascii(o, day_names[st->wDayOfWeek % 7], run == 3 ? 3 : 16);
        } else if (date && c == L'M') {
            if (run <= 2)
                put_number(o, st->wMonth, run);
            else
                put_ascii(o, month_names[(st->wMonth + 11) % 12], run == 3 ? 3 : 16);
        } else if (date && c == L'y') {
            if (run <= 2)
                put_number(o, st->wYear % 100u, run);
            else
                put_number(o, st->wYear, run < 4 ? 4 : run);
        } else if (!date && (c == L'h' || c == L'H')) {
            unsigned h = st->wHour;
            if (c == L'h')
                h = h % 12 ? h % 12 : 12;
            put_number(o, h, run > 1 ? 2 : 1);
        } else if (!date && c == L'm') {
            put_number(o, st->wMinute, run > 1 ? 2 : 1);
        } else if (!date && c == L's') {
            put_number(o, st->wSecond, run > 1 ? 2 : 1);
        } else if (!date && c == L't') {
            put_ascii(o, st->wHour < 12 ? "AM" : "PM", run > 1 ? 2 : 1);
        } else {
            for (int i = 0; i < run; i++)
                put_char(o, c);
        }
    }
    return 0;
}

static int format_date_time(DWORD flags, const SYSTEMTIME *st, LPCWSTR format, LPWSTR out, int cch,
                            int date)
{
    SYSTEMTIME now;
    if (flags) {
        SetLastError(ERROR_INVALID_FLAGS);
        return 0;
    }
    if (cch < 0 || (cch && !out)) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (!st) {
        GetLocalTime(&now);
        st = &now;
    }
    if ((date && (st->wMonth < 1 || st->wMonth > 12 || st->wDay < 1 || st->wDay > 31)) ||
        (!date && (st->wHour > 23 || st->wMinute > 59 || st->wSecond > 59))) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    picture_out o = {out, (size_t)cch, 0};
    expand_picture(st, format ? format : date ? L"M/d/yyyy" : L"h:mm:ss tt", date, &o);
    put_char(&o, 0);
    if (o.n > INT_MAX) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (cch && o.n > (size_t)cch) {
        out[cch - 1] = 0;
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return 0;
    }
    return (int)o.n;
}

int GetDateFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                   LPWSTR lpDateStr, int cchDate)
{
    (void)Locale;
    return format_date_time(dwFlags, lpDate, lpFormat, lpDateStr, cchDate, 1);
}

int GetTimeFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                   LPWSTR lpTimeStr, int cchTime)
{
    (void)Locale;
    return format_date_time(dwFlags, lpTime, lpFormat, lpTimeStr, cchTime, 0);
}

int GetDateFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                    LPWSTR lpDateStr, int cchDate, LPCWSTR lpCalendar)
{
    (void)lpLocaleName, (void)lpCalendar;
    return format_date_time(dwFlags, lpDate, lpFormat, lpDateStr, cchDate, 1);
}

int GetTimeFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                    LPWSTR lpTimeStr, int cchTime)
{
    (void)lpLocaleName;
    return format_date_time(dwFlags, lpTime, lpFormat, lpTimeStr, cchTime, 0);
}

#endif /* !_WIN32 */
