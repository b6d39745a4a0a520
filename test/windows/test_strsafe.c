/* SPDX-License-Identifier: MIT */
/* test_strsafe.c - <strsafe.h>'s documented family as ETW samples call it:
 * StringCbPrintfW and StringCbPrintfExW building a line piece by piece
 * (the end pointer and the bytes left carried to the next call),
 * StringCbLengthA/W and StringCchLength bounding a string, the Copy, Cat and
 * their N and Ex forms with STRSAFE_* flags, and truncation reported as
 * STRSAFE_E_INSUFFICIENT_BUFFER with the text that fit. Built as C and as
 * C++ (compat/strsafe_cpp.cpp). */
#ifndef UNICODE
#define UNICODE
#endif
#include <windows.h>
#include <strsafe.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void printf_ex(void)
{
    WCHAR line[32];
    LPWSTR end = line;
    size_t left = sizeof(line);
    /* The consumer samples' pattern: append fields, carrying end and room. */
    CHECK(StringCbPrintfExW(end, left, &end, &left, 0, L"%s=%lu", L"Count", 42UL) == S_OK);
    CHECK(end == line + 8 && left == sizeof(line) - 8 * sizeof(WCHAR));
    CHECK(StringCbPrintfExW(end, left, &end, &left, 0, L", %s", L"next") == S_OK);
    CHECK(wcscmp(line, L"Count=42, next") == 0);
    CHECK(left == sizeof(line) - 14 * sizeof(WCHAR));
    /* Too long: what fit, NUL-terminated, and the error. */
    CHECK(StringCbPrintfExW(end, left, &end, &left, 0, L"%s", L"0123456789012345678901234") ==
          STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(wcslen(line) == 31 && left == sizeof(WCHAR) && *end == 0);
    /* NULL_ON_FAILURE empties it instead. */
    CHECK(StringCbPrintfExW(line, sizeof(line), &end, &left, STRSAFE_NULL_ON_FAILURE, L"%s",
                            L"0123456789012345678901234567890123456789") ==
          STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(line[0] == 0 && end == line && left == sizeof(line));
    /* FILL_BEHIND_NULL: the rest of the buffer gets the fill byte. */
    char a[8];
    CHECK(StringCchPrintfExA(a, sizeof(a), NULL, NULL, STRSAFE_FILL_BYTE('x'), "%d", 12) == S_OK);
    CHECK(memcmp(a, "12\0xxxxx", 8) == 0);
}

static void printf_plain(void)
{
    WCHAR w[16];
    CHECK(StringCbPrintfW(w, sizeof(w), L"%s %d", L"id", 7) == S_OK);
    CHECK(wcscmp(w, L"id 7") == 0);
    CHECK(StringCchPrintfW(w, 4, L"%s", L"abcdef") == STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(wcscmp(w, L"abc") == 0);
    char a[8];
    CHECK(StringCbPrintfA(a, sizeof(a), "%s", "toolongtext") == STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(strcmp(a, "toolong") == 0);
    CHECK(StringCchPrintf(w, 16, TEXT("%d"), 5) == S_OK); /* the generic name, UNICODE */
    CHECK(StringCbPrintfW(w, 0, L"x") == STRSAFE_E_INVALID_PARAMETER);
}

static void lengths(void)
{
    size_t n = 99;
    CHECK(StringCbLengthA("hello", 16, &n) == S_OK && n == 5);
    CHECK(StringCbLengthA("hello", 5, &n) == STRSAFE_E_INVALID_PARAMETER && n == 0);
    CHECK(StringCbLengthW(L"hello", 16 * sizeof(WCHAR), &n) == S_OK && n == 5 * sizeof(WCHAR));
    CHECK(StringCchLengthW(L"hi", STRSAFE_MAX_CCH, &n) == S_OK && n == 2);
    CHECK(StringCchLengthA(NULL, 4, &n) == STRSAFE_E_INVALID_PARAMETER);
    CHECK(StringCchLength(L"abc", 4, &n) == S_OK && n == 3);
}

static void copy_cat(void)
{
    WCHAR w[8];
    CHECK(StringCchCopyW(w, 8, L"abc") == S_OK);
    CHECK(StringCchCatW(w, 8, L"defgh") == STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(wcscmp(w, L"abcdefg") == 0);
    CHECK(StringCchCopyNW(w, 8, L"abcdef", 2) == S_OK && wcscmp(w, L"ab") == 0);
    CHECK(StringCchCatNW(w, 8, L"cdef", 1) == S_OK && wcscmp(w, L"abc") == 0);
    /* NO_TRUNCATION: a Cat that does not fit leaves the original text. */
    CHECK(StringCchCatExW(w, 8, L"0123456", NULL, NULL, STRSAFE_NO_TRUNCATION) ==
          STRSAFE_E_INSUFFICIENT_BUFFER);
    CHECK(wcscmp(w, L"abc") == 0);
    /* IGNORE_NULLS: a NULL source is an empty string. */
    LPWSTR end;
    size_t left;
    CHECK(StringCchCopyExW(w, 8, NULL, &end, &left, STRSAFE_IGNORE_NULLS) == S_OK);
    CHECK(w[0] == 0 && end == w && left == 8);
    CHECK(StringCchCopyW(w, 8, NULL) == STRSAFE_E_INVALID_PARAMETER);
    char a[6];
    CHECK(StringCbCopyA(a, sizeof(a), "abc") == S_OK);
    CHECK(StringCbCatA(a, sizeof(a), "de") == S_OK && strcmp(a, "abcde") == 0);
    CHECK(StringCbCopyNA(a, sizeof(a), "xyz", 2) == S_OK && strcmp(a, "xy") == 0);
    size_t cb;
    char *aend;
    CHECK(StringCbCatExA(a, sizeof(a), "q", &aend, &cb, 0) == S_OK && cb == 3 && *aend == 0);
    CHECK(StringCbCopyEx(w, sizeof(w), L"z", NULL, NULL, 0) == S_OK);
}

int main(void)
{
    printf_ex();
    printf_plain();
    lengths();
    copy_cat();
    return 0;
}
