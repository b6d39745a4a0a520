/* SPDX-License-Identifier: MIT */
/* test_codepage.c - MultiByteToWideChar and WideCharToMultiByte as ETW
 * programs call them: the size query, a buffer too small, text that is not
 * UTF-8 (or not Unicode) with and without the flags that refuse it, and the
 * flags and arguments Windows refuses. ANSI is UTF-8 here. */
#include <windows.h>

#include "test_util.h"

static void test_to_wide(void)
{
    /* "h\u00e9\u20ac\U0001F600": 1 + 2 + 3 + 4 bytes, 4 characters. */
    const char *s = "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
    WCHAR w[16];
    /* Size query, the NUL counted with -1 and not with a length. */
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0), 5);
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, 10, NULL, 0), 4);
    CHECK_EQ(MultiByteToWideChar(CP_ACP, MB_PRECOMPOSED, s, -1, NULL, 0), 5);
    wmemset(w, L'x', 16);
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, -1, w, 16), 5);
    CHECK(w[0] == L'h' && w[1] == 0xE9 && w[2] == 0x20AC && w[3] == 0x1F600 && w[4] == 0);
    CHECK(w[5] == L'x');
    /* A length: no NUL written; an embedded NUL converted. */
    wmemset(w, L'x', 16);
    CHECK_EQ(MultiByteToWideChar(CP_ACP, 0, "a\0b", 3, w, 16), 3);
    CHECK(w[0] == L'a' && w[1] == 0 && w[2] == L'b' && w[3] == L'x');
    /* Too small: 0, ERROR_INSUFFICIENT_BUFFER. */
    SetLastError(0);
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, -1, w, 4), 0);
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
    /* Not UTF-8: U+FFFD, or refused with MB_ERR_INVALID_CHARS. */
    const char *bad[] = {"a\xFF", "a\xC3", "a\xC0\x80", "a\xED\xA0\x80", "a\xF4\x90\x80\x80"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int n = MultiByteToWideChar(CP_UTF8, 0, bad[i], -1, w, 16);
        CHECK(n >= 3);
        CHECK(w[0] == L'a' && w[1] == 0xFFFD && w[n - 1] == 0);
        SetLastError(0);
        CHECK_EQ(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, bad[i], -1, w, 16), 0);
        CHECK_EQ(GetLastError(), ERROR_NO_UNICODE_TRANSLATION);
        CHECK_EQ(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, bad[i], -1, NULL, 0), 0);
    }
    /* A sequence cut by the length is not UTF-8 either. */
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, "\xC3\xA9", 1, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_NO_UNICODE_TRANSLATION);
    /* What Windows refuses. */
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, MB_PRECOMPOSED, s, -1, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_FLAGS);
    CHECK_EQ(MultiByteToWideChar(CP_ACP, MB_COMPOSITE, s, -1, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_FLAGS);
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, 0, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, NULL, -1, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK_EQ(MultiByteToWideChar(1252, 0, s, -1, w, 16), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK_EQ(GetACP(), CP_UTF8);
}

static void test_to_multibyte(void)
{
    const WCHAR w[] = {L'h', 0xE9, 0x20AC, 0x1F600, 0};
    char s[16];
    BOOL used = TRUE;
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL), 11);
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, 4, NULL, 0, NULL, NULL), 10);
    memset(s, 'x', sizeof(s));
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, -1, s, sizeof(s), NULL, NULL), 11);
    CHECK(strcmp(s, "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80") == 0);
    CHECK(s[11] == 'x');
    /* The round trip. */
    WCHAR back[8];
    CHECK_EQ(MultiByteToWideChar(CP_UTF8, 0, s, -1, back, 8), 5);
    CHECK(wcscmp(back, w) == 0);
    /* Too small, even by the last byte of a character. */
    SetLastError(0);
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, -1, s, 10, NULL, NULL), 0);
    CHECK_EQ(GetLastError(), ERROR_INSUFFICIENT_BUFFER);
    /* The ANSI code page: the same bytes; nothing replaced. */
    CHECK_EQ(WideCharToMultiByte(CP_ACP, WC_NO_BEST_FIT_CHARS, w, -1, s, sizeof(s), "?", &used),
             11);
    CHECK(!used);
    /* Not Unicode: U+FFFD, lpDefaultChar in the ANSI page, or refused. */
    const WCHAR bad[] = {L'a', (WCHAR)0xD800, L'b', 0};
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, bad, -1, s, sizeof(s), NULL, NULL), 6);
    CHECK(strcmp(s, "a\xEF\xBF\xBD"
                    "b") == 0);
    CHECK_EQ(WideCharToMultiByte(CP_ACP, 0, bad, -1, s, sizeof(s), "?", &used), 4);
    CHECK(strcmp(s, "a?b") == 0 && used);
    SetLastError(0);
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, bad, -1, s, sizeof(s), NULL, NULL),
             0);
    CHECK_EQ(GetLastError(), ERROR_NO_UNICODE_TRANSLATION);
    /* CP_UTF8 takes no default character and no WC_ flag but that one. */
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, -1, s, sizeof(s), NULL, &used), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, WC_NO_BEST_FIT_CHARS, w, -1, s, sizeof(s), NULL, NULL),
             0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_FLAGS);
    CHECK_EQ(WideCharToMultiByte(CP_UTF8, 0, w, 0, s, sizeof(s), NULL, NULL), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
}

/* LCMapStringEx as TraceLoggingDynamic hashes a provider name: upper
 * case, then each UTF-16 unit's bytes swapped, in place. */
static void test_lcmap(void)
{
    WCHAR buf[8] = L"ab\u00e9";
    CHECK_EQ(LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_UPPERCASE, buf, 2, buf, 8, NULL, NULL, 0),
             2);
    CHECK(buf[0] == L'A' && buf[1] == L'B');
    CHECK_EQ(LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_BYTEREV, buf, -1, buf, 8, NULL, NULL, 0),
             4);
    CHECK(buf[0] == 0x4100 && buf[1] == 0x4200 && buf[2] == 0xe900 && buf[3] == 0);
    CHECK_EQ(LCMapStringEx(NULL, LCMAP_LOWERCASE, L"Q", -1, NULL, 0, NULL, NULL, 0), 2);
    CHECK_EQ(LCMapStringEx(NULL, 0x80000000u, L"Q", -1, buf, 8, NULL, NULL, 0), 0);
    CHECK_EQ(GetLastError(), ERROR_INVALID_FLAGS);
}

int main(void)
{
    test_lcmap();
    test_to_wide();
    test_to_multibyte();
    printf("codepage: ok\n");
    return 0;
}
