/* SPDX-License-Identifier: MIT */
/* test_win_crt.c - the Windows time functions, StringFromGUID2, the
 * Microsoft C runtime functions <windows.h> declares on other hosts, the
 * SDK constants added for real programs, and EnableTrace/EnableTraceEx. */
#include <errno.h>
#include <time.h>
#include <wchar.h>
#include <windows.h>
#include <objbase.h>
#include <sdkddkver.h>

#include "test_util.h"

static FILETIME ft_of(uint64_t v)
{
    FILETIME f = {(DWORD)v, (DWORD)(v >> 32)};
    return f;
}

static uint64_t ft_val(FILETIME f)
{
    return (uint64_t)f.dwHighDateTime << 32 | f.dwLowDateTime;
}

static void check_st(const SYSTEMTIME *st, int y, int mo, int dow, int d, int h, int mi, int s,
                     int ms)
{
    CHECK_EQ(st->wYear, y);
    CHECK_EQ(st->wMonth, mo);
    CHECK_EQ(st->wDayOfWeek, dow);
    CHECK_EQ(st->wDay, d);
    CHECK_EQ(st->wHour, h);
    CHECK_EQ(st->wMinute, mi);
    CHECK_EQ(st->wSecond, s);
    CHECK_EQ(st->wMilliseconds, ms);
}

/* FILETIME <-> SYSTEMTIME at known dates, both ways. */
static void test_time(void)
{
    SYSTEMTIME st;
    FILETIME f = ft_of(0), back;
    CHECK(FileTimeToSystemTime(&f, &st));
    check_st(&st, 1601, 1, 1, 1, 0, 0, 0, 0); /* a Monday */
    /* The Unix epoch: 116444736000000000, a Thursday. */
    f = ft_of(116444736000000000ULL);
    CHECK(FileTimeToSystemTime(&f, &st));
    check_st(&st, 1970, 1, 4, 1, 0, 0, 0, 0);
    CHECK(SystemTimeToFileTime(&st, &back));
    CHECK_EQ(ft_val(back), 116444736000000000ULL);
    /* 2024-02-29 12:34:56.789 UTC, a Thursday in a leap year (Unix time
     * 1709210096.789), and the 100 ns below the millisecond dropped. */
    uint64_t leap = 116444736000000000ULL + 17092100967890000ULL;
    f = ft_of(leap + 1234);
    CHECK(FileTimeToSystemTime(&f, &st));
    check_st(&st, 2024, 2, 4, 29, 12, 34, 56, 789);
    CHECK(SystemTimeToFileTime(&st, &back));
    CHECK_EQ(ft_val(back), leap);
    /* 2000-12-31 23:59:59.999 (day 366 of a leap century year), Sunday. */
    SYSTEMTIME y2k = {2000, 12, 0, 31, 23, 59, 59, 999};
    CHECK(SystemTimeToFileTime(&y2k, &back));
    CHECK_EQ(ft_val(back), 116444736000000000ULL + 9783071999990000ULL);
    CHECK(FileTimeToSystemTime(&back, &st));
    check_st(&st, 2000, 12, 0, 31, 23, 59, 59, 999);
    /* The day of week is not read. */
    y2k.wDayOfWeek = 5;
    CHECK(SystemTimeToFileTime(&y2k, &back));
    CHECK_EQ(ft_val(back), 116444736000000000ULL + 9783071999990000ULL);
    /* The last FILETIME it converts: 0x7FFFFFFFFFFFFFFF, 30828-09-14. */
    f = ft_of(0x7FFFFFFFFFFFFFFFULL);
    CHECK(FileTimeToSystemTime(&f, &st));
    check_st(&st, 30828, 9, 4, 14, 2, 48, 5, 477);

    /* Invalid input: FALSE and ERROR_INVALID_PARAMETER. */
    SetLastError(0);
    f = ft_of(0x8000000000000000ULL);
    CHECK(!FileTimeToSystemTime(&f, &st));
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    const SYSTEMTIME bad[] = {
        {1600, 12, 0, 31, 0, 0, 0, 0}, {30828, 1, 0, 1, 0, 0, 0, 0}, {2023, 2, 0, 29, 0, 0, 0, 0},
        {1900, 2, 0, 29, 0, 0, 0, 0},  {2024, 13, 0, 1, 0, 0, 0, 0}, {2024, 0, 0, 1, 0, 0, 0, 0},
        {2024, 4, 0, 31, 0, 0, 0, 0},  {2024, 1, 0, 0, 0, 0, 0, 0},  {2024, 1, 0, 1, 24, 0, 0, 0},
        {2024, 1, 0, 1, 0, 60, 0, 0},  {2024, 1, 0, 1, 0, 0, 60, 0}, {2024, 1, 0, 1, 0, 0, 0, 1000},
    };
    for (size_t i = 0; i < _countof(bad); i++) {
        SetLastError(0);
        CHECK(!SystemTimeToFileTime(&bad[i], &back));
        CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    }
    SYSTEMTIME feb29 = {2000, 2, 0, 29, 0, 0, 0, 0}; /* 2000 is a leap year */
    CHECK(SystemTimeToFileTime(&feb29, &back));

    /* Local time: a fixed zone five hours behind UTC. */
    setenv("TZ", "EST5", 1);
    tzset();
    f = ft_of(leap);
    CHECK(FileTimeToLocalFileTime(&f, &back));
    CHECK_EQ(ft_val(back), leap - 5ULL * 3600 * 10000000);
    CHECK(LocalFileTimeToFileTime(&back, &f));
    CHECK_EQ(ft_val(f), leap);
    f = ft_of(0);
    SetLastError(0);
    CHECK(!FileTimeToLocalFileTime(&f, &back)); /* before 1601 */
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    unsetenv("TZ");
    tzset();

    /* The clock: within a minute of time(). */
    GetSystemTimeAsFileTime(&f);
    int64_t unix_s = (int64_t)((ft_val(f) - 116444736000000000ULL) / 10000000);
    CHECK(llabs(unix_s - (int64_t)time(NULL)) < 60);
    GetSystemTime(&st);
    CHECK(st.wYear >= 2024 && st.wMonth >= 1 && st.wMonth <= 12);
    FILETIME a = ft_of(5), b = ft_of(6);
    CHECK_EQ(CompareFileTime(&a, &b), -1);
    CHECK_EQ(CompareFileTime(&b, &a), 1);
    CHECK_EQ(CompareFileTime(&a, &a), 0);
}

static void test_guid_text(void)
{
    /* {9e814aad-3204-11d2-9a82-006008a86939}: SystemTraceControlGuid. */
    const GUID g = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};
    WCHAR s[40];
    wmemset(s, L'#', 40);
    CHECK_EQ(StringFromGUID2(&g, s, _countof(s)), 39);
    CHECK(wcscmp(s, L"{9E814AAD-3204-11D2-9A82-006008A86939}") == 0);
    CHECK_EQ(s[39], L'#');
    CHECK_EQ(StringFromGUID2(&g, s, 38), 0);
    CHECK_EQ(sizeof(OLECHAR), sizeof(wchar_t));
}

static void test_printf(void)
{
    wchar_t w[128];
    /* Windows' reading of a wide format: %s wide, %S / %hs narrow, size
     * prefixes I64, I32, I and w. */
    CHECK_EQ(swprintf_s(w, _countof(w), L"%s|%S|%hs|%ls|%ws|%c|%C|%hc|%I64d|%I32u|%Iu|%5.2s|%%",
                        L"wide", "narrow", "nar2", L"w2", L"w3", L'x', 'y', 'z', -5LL, 7u,
                        (size_t)9, L"abc"),
             43);
    CHECK(wcscmp(w, L"wide|narrow|nar2|w2|w3|x|y|z|-5|7|9|   ab|%") == 0);
    /* Does not fit: -1, an empty string, ERANGE. */
    errno = 0;
    CHECK_EQ(swprintf_s(w, 4, L"%s", L"toolong"), -1);
    CHECK_EQ(w[0], 0);
    CHECK_EQ(errno, ERANGE);
    /* _snwprintf_s: _TRUNCATE keeps what fits and returns -1. */
    CHECK_EQ(_snwprintf_s(w, 5, _TRUNCATE, L"%d", 123456), -1);
    CHECK(wcscmp(w, L"1234") == 0);
    CHECK_EQ(_snwprintf_s(w, 10, 3, L"%s", L"abcdef"), -1);
    CHECK(wcscmp(w, L"abc") == 0);
    CHECK_EQ(_snwprintf_s(w, 10, 20, L"%s", L"abc"), 3);
    CHECK(wcscmp(w, L"abc") == 0);
    CHECK_EQ(_snwprintf_s(w, 4, 20, L"%s", L"abcdef"), -1);
    CHECK_EQ(w[0], 0);
    /* Longer than the internal first buffer. */
    wchar_t big[2000];
    CHECK_EQ(swprintf_s(big, _countof(big), L"%1500d|%s", 1, L"end"), 1504);
    CHECK(wcscmp(big + 1496, L"   1|end") == 0);

    char n[16];
    CHECK_EQ(sprintf_s(n, sizeof(n), "%s-%d", "ab", 12), 5);
    CHECK(strcmp(n, "ab-12") == 0);
    CHECK_EQ(sprintf_s(n, 4, "%s", "abcd"), -1);
    CHECK_EQ(n[0], 0);
    CHECK_EQ(_snprintf_s(n, sizeof(n), _TRUNCATE, "%s", "0123456789abcdefXYZ"), -1);
    CHECK(strcmp(n, "0123456789abcde") == 0);

    /* To a stream: UTF-8, whatever the locale. */
    FILE *f = tmpfile();
    CHECK(f);
    CHECK_EQ(fwprintf_s(f, L"%s %S %d\n", L"h\u00e9llo \u20ac\U0001F600", "x", 42), 14);
    rewind(f);
    char line[64] = {0};
    CHECK(fgets(line, sizeof(line), f));
    CHECK(strcmp(line, "h\xc3\xa9llo \xe2\x82\xac\xf0\x9f\x98\x80 x 42\n") == 0);
    fclose(f);
}

static void test_strings(void)
{
    wchar_t w[8];
    CHECK_EQ(wcscpy_s(w, _countof(w), L"abc"), 0);
    CHECK(wcscmp(w, L"abc") == 0);
    CHECK_EQ(wcscat_s(w, _countof(w), L"defg"), 0);
    CHECK(wcscmp(w, L"abcdefg") == 0);
    CHECK_EQ(wcscat_s(w, _countof(w), L"h"), ERANGE);
    CHECK_EQ(w[0], 0);
    CHECK_EQ(wcscpy_s(w, _countof(w), L"abcdefgh"), ERANGE);
    CHECK_EQ(w[0], 0);
    CHECK_EQ(wcscpy_s(w, _countof(w), NULL), EINVAL);
    CHECK_EQ(wcsncpy_s(w, _countof(w), L"abcdefghij", 3), 0);
    CHECK(wcscmp(w, L"abc") == 0);
    CHECK_EQ(wcsncpy_s(w, _countof(w), L"abcdefghij", _TRUNCATE), STRUNCATE);
    CHECK(wcscmp(w, L"abcdefg") == 0);
    CHECK_EQ(wcsncpy_s(w, _countof(w), L"abcdefghij", 9), ERANGE);
    char n[4];
    CHECK_EQ(strcpy_s(n, sizeof(n), "abc"), 0);
    CHECK_EQ(strcat_s(n, sizeof(n), "d"), ERANGE);
    CHECK_EQ(strncpy_s(n, sizeof(n), "xyz", 2), 0);
    CHECK(strcmp(n, "xy") == 0);
    CHECK(_wcsicmp(L"Hello", L"hELLO") == 0);
    CHECK(_wcsicmp(L"abc", L"abd") < 0);
    CHECK(_wcsicmp(L"b", L"A") > 0);
    CHECK(_wcsnicmp(L"ABCx", L"abcy", 3) == 0);
    CHECK(_stricmp("Tdh", "TDH") == 0);
    CHECK(_strnicmp("EvnTrace", "evntrace.h", 8) == 0);
    CHECK_EQ(_wtoi(L"-42"), -42);
    int arr[7];
    CHECK_EQ(_countof(arr), 7);
}

static void test_constants(void)
{
    CHECK_EQ(_WIN32_WINNT, 0x0A00);
    CHECK_EQ(WINVER, 0x0A00);
    CHECK_EQ(NTDDI_VERSION_FROM_WIN32_WINNT(_WIN32_WINNT_WIN7), NTDDI_WIN7);
    CHECK_EQ(EVENT_FILTER_TYPE_EVENT_ID, 0x80000200);
    CHECK_EQ(EVENT_FILTER_TYPE_PID, 0x80000004);
    CHECK_EQ(sizeof(EVENT_FILTER_EVENT_ID), 6);
    CHECK_EQ(offsetof(EVENT_FILTER_EVENT_ID, Events), 4);
    CHECK_EQ(EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD | EVENT_TRACE_FLAG_IMAGE_LOAD, 7);
    CHECK_EQ(EVENT_TRACE_FLAG_CSWITCH, 0x10);
    CHECK_EQ(EVENT_TRACE_FLAG_DISK_IO, 0x100);
    CHECK_EQ(EVENT_TRACE_FLAG_NETWORK_TCPIP, 0x10000);
    CHECK_EQ(EVENT_TRACE_FLAG_PROFILE, 0x01000000);
    CHECK_EQ(EVENT_TRACE_FLAG_FILE_IO_INIT, 0x04000000);
}

/* {6a1e9d42-71b3-4c0e-9f45-0b8f1b6d2c11} */
static const GUID CrtProvider = {
    0x6a1e9d42, 0x71b3, 0x4c0e, {0x9f, 0x45, 0x0b, 0x8f, 0x1b, 0x6d, 0x2c, 0x11}};
static ULONG cb_enabled = 99, cb_level;
static ULONGLONG cb_any;

static void WINAPI enable_cb(LPCGUID id, ULONG is_enabled, UCHAR level, ULONGLONG any,
                             ULONGLONG all, PEVENT_FILTER_DESCRIPTOR filter, PVOID ctx)
{
    (void)id, (void)all, (void)filter, (void)ctx;
    cb_enabled = is_enabled;
    cb_level = level;
    cb_any = any;
}

static void test_enable(void)
{
    char path[512];
    test_path(path, sizeof(path), "win-crt.etl");
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&CrtProvider, enable_cb, NULL, &reg), ERROR_SUCCESS);
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE h;
    CHECK_EQ(StartTraceA(&h, "petw-test-win-crt", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx(&CrtProvider, NULL, h, 1, 4, 0x30, 0, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(cb_enabled, 1);
    CHECK_EQ(cb_level, 4);
    CHECK_EQ(cb_any, 0x30);
    CHECK(EventEnabled(reg, &(EVENT_DESCRIPTOR){1, 0, 0, 4, 0, 0, 0x10}));
    CHECK_EQ(EnableTraceEx(&CrtProvider, NULL, h, 0, 0, 0, 0, 0, NULL), ERROR_SUCCESS);
    CHECK_EQ(cb_enabled, 0);
    /* What EnableTraceEx2 does not do is refused, never ignored. */
    CHECK_EQ(EnableTraceEx(&CrtProvider, NULL, h, 1, 4, 0, 0, EVENT_ENABLE_PROPERTY_PSM_KEY, NULL),
             ERROR_NOT_SUPPORTED);
    uint8_t payload_filter[16] = {0};
    EVENT_FILTER_DESCRIPTOR fd = {(ULONGLONG)(uintptr_t)payload_filter, sizeof(payload_filter),
                                  EVENT_FILTER_TYPE_PAYLOAD};
    CHECK_EQ(EnableTraceEx(&CrtProvider, NULL, h, 1, 4, 0, 0, 0, &fd), ERROR_NOT_SUPPORTED);
    fd = (EVENT_FILTER_DESCRIPTOR){0, 0, EVENT_FILTER_TYPE_PID}; /* malformed: no PIDs */
    CHECK_EQ(EnableTraceEx(&CrtProvider, NULL, h, 1, 4, 0, 0, 0, &fd), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EnableTraceEx(&CrtProvider, &SystemTraceControlGuid, h, 1, 4, 0, 0, 0, NULL),
             ERROR_NOT_SUPPORTED);
    CHECK_EQ(EnableTraceEx(NULL, NULL, h, 1, 4, 0, 0, 0, NULL), ERROR_INVALID_PARAMETER);
    CHECK_EQ(cb_enabled, 0);
    /* EnableTrace: EnableFlag is the keyword. */
    CHECK_EQ(EnableTrace(TRUE, 0x5, TRACE_LEVEL_WARNING, &CrtProvider, h), ERROR_SUCCESS);
    CHECK_EQ(cb_enabled, 1);
    CHECK_EQ(cb_level, TRACE_LEVEL_WARNING);
    CHECK_EQ(cb_any, 0x5);
    CHECK_EQ(EnableTrace(FALSE, 0, 0, &CrtProvider, h), ERROR_SUCCESS);
    CHECK_EQ(cb_enabled, 0);
    CHECK_EQ(EnableTrace(2, 0, 0, &CrtProvider, h), ERROR_INVALID_PARAMETER);
    CHECK_EQ(StopTraceA(h, NULL, &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTrace(TRUE, 0, 0, &CrtProvider, h), ERROR_INVALID_PARAMETER);
    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);
    unlink(path);
}

/* GetDateFormatW / GetTimeFormatW with the pictures consumer samples pass
 * (WppDumper: "yyyy'-'MM'-'dd" and "HH':'mm':'ss"), the defaults, sizes. */
static void test_date_time_text(void)
{
    SYSTEMTIME st = {2024, 3, 2, 5, 14, 7, 9, 250};
    WCHAR s[64];
    CHECK_EQ(GetDateFormatW(LOCALE_USER_DEFAULT, 0, &st, L"yyyy'-'MM'-'dd", s, 64), 11);
    CHECK(!wcscmp(s, L"2024-03-05"));
    CHECK_EQ(GetTimeFormatW(LOCALE_USER_DEFAULT, 0, &st, L"HH':'mm':'ss", s, 64), 9);
    CHECK(!wcscmp(s, L"14:07:09"));
    CHECK(GetDateFormatW(LOCALE_INVARIANT, 0, &st, L"dddd, MMMM d, yy 'o''clock'", s, 64) > 0);
    CHECK(!wcscmp(s, L"Tuesday, March 5, 24 o'clock"));
    CHECK(GetDateFormatW(LOCALE_USER_DEFAULT, 0, &st, NULL, s, 64) > 0);
    CHECK(!wcscmp(s, L"3/5/2024"));
    CHECK(GetTimeFormatEx(NULL, 0, &st, NULL, s, 64) > 0);
    CHECK(!wcscmp(s, L"2:07:09 PM"));
    CHECK_EQ(GetDateFormatW(LOCALE_USER_DEFAULT, 0, &st, L"yyyy", NULL, 0), 5);
    CHECK_EQ(GetDateFormatW(LOCALE_USER_DEFAULT, 0, &st, L"yyyy", s, 4), 0);
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
    st.wMonth = 13;
    CHECK_EQ(GetDateFormatW(LOCALE_USER_DEFAULT, 0, &st, NULL, s, 64), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
}

int main(void)
{
    test_date_time_text();
    test_time();
    test_guid_text();
    test_printf();
    test_strings();
    test_constants();
    test_enable();
    printf("win_crt: ok\n");
    return 0;
}
