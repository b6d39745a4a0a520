/* SPDX-License-Identifier: MIT */
/* command_line.c - a Windows console tool's way to its wide arguments, as
 * the SDK's Eventing samples (tracelog.c) do it: main() ignores argv and
 * splits GetCommandLineW() with CommandLineToArgvW (<shellapi.h>), frees
 * the block with GlobalFree, and makes its -f argument absolute with
 * _tfullpath. The arguments, some with spaces, quotes and backslashes, must
 * come back as they were given; Windows' splitting rules are checked on
 * fixed strings too. */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>
#include <shellapi.h>
#include <tchar.h>

static int failures;

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);                                \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void split_is(LPCWSTR line, int count, LPCWSTR a1, LPCWSTR a2)
{
    int n = -1;
    LPWSTR *v = CommandLineToArgvW(line, &n);
    CHECK(v != NULL && n == count);
    if (v && n == count) {
        if (count > 1)
            CHECK(wcscmp(v[1], a1) == 0);
        if (count > 2)
            CHECK(wcscmp(v[2], a2) == 0);
        CHECK(v[n] == NULL);
    }
    LocalFree(v);
}

int main(int argc, char **argv)
{
    int wargc = 0;
    LPWSTR *targv = CommandLineToArgvW(GetCommandLineW(), &wargc);
    CHECK(targv != NULL);
    CHECK(wargc == argc);
    for (int i = 1; targv && i < argc && i < wargc; i++) {
        wchar_t expect[256];
        mbstowcs(expect, argv[i], 255);
        expect[255] = 0;
        CHECK(wcscmp(targv[i], expect) == 0);
    }
    GlobalFree(targv);

    split_is(L"prog a b", 3, L"a", L"b");
    split_is(L"prog \"a b\" c", 3, L"a b", L"c");
    split_is(L"prog a\\\\\"b c\" d", 3, L"a\\b c", L"d"); /* 2n backslashes, a quote */
    split_is(L"prog a\\\"b c", 3, L"a\"b", L"c");         /* 2n+1: a literal quote */
    split_is(L"prog a\\\\b \"\"", 3, L"a\\\\b", L"");     /* no quote: as is; empty */
    split_is(L"\"C:\\Program Files\\x.exe\" -f", 2, L"-f", NULL);
    {
        int n = 0;
        CHECK(CommandLineToArgvW(L"x", NULL) == NULL && GetLastError() == ERROR_INVALID_PARAMETER);
        LPWSTR *self = CommandLineToArgvW(L"", &n);
        CHECK(self != NULL && n == 1);
        LocalFree(self);
    }
    CHECK(LocalAlloc(LMEM_MOVEABLE, 8) == NULL && GetLastError() == ERROR_NOT_SUPPORTED);
    {
        TCHAR full[MAX_PATH];
        wchar_t wfull[MAX_PATH], *mine;
        CHECK(_tfullpath(full, _T("/var/./log/../tmp//x.etl"), MAX_PATH) == full);
        CHECK(_tcscmp(full, _T("/var/tmp/x.etl")) == 0);
        CHECK(_wfullpath(wfull, L"/a/b/../../..", MAX_PATH) && wcscmp(wfull, L"/") == 0);
        CHECK(_wfullpath(wfull, L"/a/b", 4) == NULL); /* does not fit */
        mine = _wfullpath(NULL, L"trace.etl", 0);     /* relative: under the directory */
        CHECK(mine && mine[0] == L'/' && wcsstr(mine, L"/trace.etl") != NULL);
        free(mine);
    }
    if (failures == 0)
        _tprintf(_T("command line: ok\n"));
    return failures != 0;
}
