/* SPDX-License-Identifier: MIT */
/* test_msvc_wprintf.c - the plain wide printf family (wprintf, fwprintf,
 * swprintf, their v forms, _snwprintf, _vsnwprintf, and _tprintf's family
 * with UNICODE) reads its format as Microsoft's C runtime does once
 * <windows.h> is included: %s and %c wide, %S, %hs and %hc narrow, I64, I32
 * and I size prefixes, and %Lf reading a double (MSVC's long double). Built
 * as C and as C++ (test_msvc_wprintf.cpp). */
#ifndef UNICODE
#define UNICODE
#endif
#include <stdarg.h>
#include <stdint.h>
#include <wchar.h>
#include <windows.h>
#include <tchar.h>
#ifdef __cplusplus
#include <cstdio>
#include <cwchar>
#include <string>
#include <vector>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Own checks: test_util.h is C only. */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_) {                                                                            \
            fprintf(stderr, "%s:%d: %s == %lld, want %lld\n", __FILE__, __LINE__, #a, a_, b_);     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Every conversion whose reading differs from glibc's, and some that do
 * not. */
#define FORMAT L"%s|%S|%hs|%c|%hc|%I64u|%Iu|%I32d|%ls|%d|%5.2f|%%|%*.*s|%-4d|"
#define ARGS                                                                                       \
    L"wide", "narrow", "hs", (wchar_t)0xE9, 'n', (unsigned long long)UINT64_MAX,                   \
        (size_t)123456789012u, -5, L"ls", -7, 3.14159, 6, 2, L"abcdef", 9
static const wchar_t want_w[] =
    L"wide|narrow|hs|\u00e9|n|18446744073709551615|123456789012|-5|ls|-7| 3.14|%|    ab|9   |";
/* The same text in UTF-8, as the functions write it to a stream. */
static const char want_utf8[] =
    "wide|narrow|hs|\xc3\xa9|n|18446744073709551615|123456789012|-5|ls|-7| 3.14|%|    ab|9   |";

#define CHECK_WCS(got, want)                                                                       \
    do {                                                                                           \
        if (wcscmp((got), (want)) != 0) {                                                          \
            fprintf(stderr, "%s:%d: got \"%ls\", want \"%ls\"\n", __FILE__, __LINE__, (got),       \
                    (want));                                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static int call_vswprintf(wchar_t *buf, size_t n, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vswprintf(buf, n, format, ap);
    va_end(ap);
    return r;
}

static int call_vsnwprintf(wchar_t *buf, size_t n, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = _vsnwprintf(buf, n, format, ap);
    va_end(ap);
    return r;
}

static int call_vfwprintf(FILE *f, const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vfwprintf(f, format, ap);
    va_end(ap);
    return r;
}

static int call_vwprintf(const wchar_t *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = vwprintf(format, ap);
    va_end(ap);
    return r;
}

static int call_vtprintf(const _TCHAR *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int r = _vtprintf(format, ap);
    va_end(ap);
    return r;
}

static const int want_len = (int)(sizeof(want_w) / sizeof(want_w[0]) - 1);

static void test_buffers(void)
{
    wchar_t buf[128];
    CHECK_EQ(swprintf(buf, 128, FORMAT, ARGS), want_len);
    CHECK_WCS(buf, want_w);
    wmemset(buf, L'#', 128);
    CHECK_EQ(call_vswprintf(buf, 128, FORMAT, ARGS), want_len);
    CHECK_WCS(buf, want_w);
    wmemset(buf, L'#', 128);
    CHECK_EQ(_snwprintf(buf, 128, FORMAT, ARGS), want_len);
    CHECK_WCS(buf, want_w);
    wmemset(buf, L'#', 128);
    CHECK_EQ(call_vsnwprintf(buf, 128, FORMAT, ARGS), want_len);
    CHECK_WCS(buf, want_w);

    /* swprintf: -1 when the text does not fit, what fit and a NUL. */
    CHECK_EQ(swprintf(buf, 4, L"%s", L"abcdef"), -1);
    CHECK_WCS(buf, L"abc");
    CHECK_EQ(call_vswprintf(buf, 4, L"%S", "abcdef"), -1);
    CHECK_WCS(buf, L"abc");
    /* _snwprintf: count characters and no NUL when the text has count or
     * more; -1 when more. */
    wmemset(buf, L'#', 128);
    CHECK_EQ(_snwprintf(buf, 3, L"%s", L"abcdef"), -1);
    CHECK(wmemcmp(buf, L"abc#", 4) == 0);
    wmemset(buf, L'#', 128);
    CHECK_EQ(_snwprintf(buf, 3, L"%hs", "abc"), 3);
    CHECK(wmemcmp(buf, L"abc#", 4) == 0);
    wmemset(buf, L'#', 128);
    CHECK_EQ(call_vsnwprintf(buf, 4, L"%c%c", L'a', L'b'), 2);
    CHECK_WCS(buf, L"ab");

#ifdef __cplusplus
    /* std:: names are the same functions. */
    CHECK_EQ(std::swprintf(buf, 128, L"%s %S", L"std", "names"), 9);
    CHECK_WCS(buf, L"std names");
    CHECK(std::to_wstring(42) == L"42");
#endif
}

/* Reads a stream's bytes from the start and compares them. */
static void check_file(FILE *f, const char *want)
{
    char got[512];
    fflush(f);
    rewind(f);
    size_t n = fread(got, 1, sizeof(got) - 1, f);
    got[n] = 0;
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "stream: got \"%s\", want \"%s\"\n", got, want);
        exit(1);
    }
}

static void test_streams(void)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK_EQ(fwprintf(f, FORMAT, ARGS), want_len);
    check_file(f, want_utf8);
    fclose(f);

    f = tmpfile();
    CHECK(f != NULL);
    CHECK_EQ(call_vfwprintf(f, FORMAT, ARGS), want_len);
    check_file(f, want_utf8);
    fclose(f);

    /* A byte-oriented stream takes narrow and wide printing alike. */
    f = tmpfile();
    CHECK(f != NULL);
    fprintf(f, "narrow ");
    CHECK_EQ(fwprintf(f, L"%s ", L"wide"), 5);
    CHECK_EQ(_ftprintf(f, _T("%s"), _T("tchar")), 5);
    check_file(f, "narrow wide tchar");
    fclose(f);
}

/* wprintf, vwprintf and _tprintf on stdout, sent to a file for the test. */
static void test_stdout(void)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    fflush(stdout);
    int saved = dup(1);
    CHECK(saved >= 0);
    CHECK(dup2(fileno(f), 1) == 1);
    printf("printf ");
    int r1 = wprintf(FORMAT, ARGS);
    int r2 = call_vwprintf(L" %s", L"v");
    int r3 = _tprintf(_T(" %s"), _T("t"));
    int r4 = call_vtprintf(_T(" %s"), _T("vt"));
    fflush(stdout);
    CHECK(dup2(saved, 1) == 1);
    close(saved);
    CHECK_EQ(r1, want_len);
    CHECK_EQ(r2, 2);
    CHECK_EQ(r3, 2);
    CHECK_EQ(r4, 3);
    char want[512];
    snprintf(want, sizeof(want), "printf %s v t vt", want_utf8);
    check_file(f, want);
    fclose(f);
}

/* %Lf, %Le, %Lg read a double: MSVC's long double is one, so Windows code
 * passes a double there (glibc would read a long double and print 0). */
static void test_long_double_is_double(void)
{
    wchar_t buf[64];
    double x = 2.5;
    CHECK_EQ(swprintf(buf, 64, L"%Lf|%.1Le|%Lg|%d", x, x, x, 7), 22);
    CHECK(wcscmp(buf, L"2.500000|2.5e+00|2.5|7") == 0);
    CHECK_EQ(call_vswprintf(buf, 64, L"%.2Lf", x), 4);
    CHECK(wcscmp(buf, L"2.50") == 0);
}

int main(void)
{
    test_long_double_is_double();
    test_buffers();
    test_streams();
    test_stdout();
    return 0;
}
