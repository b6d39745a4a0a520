/* SPDX-License-Identifier: MIT */
/* A C program whose entry point is wmain, as Windows console programs
 * declare it; libpetw's main converts the UTF-8 arguments. Run as:
 * wmain_c h<e-acute>llo <U+1F600> "" */
#include <windows.h>
#include <wchar.h>

int wmain(int argc, wchar_t *argv[], wchar_t *envp[])
{
    if (argc != 4 || wcscmp(argv[1], L"h\u00e9llo") != 0 || wcscmp(argv[2], L"\U0001F600") != 0 ||
        argv[3][0] != 0 || argv[4] != NULL || envp == NULL) {
        _putws(L"unexpected arguments");
        return 1;
    }
    int path = 0;
    for (int i = 0; envp[i]; i++)
        if (wcsncmp(envp[i], L"PATH=", 5) == 0)
            path = 1;
    wprintf_s(L"%s %s: %d arguments, PATH %s\n", argv[1], argv[2], argc,
              path ? L"seen" : L"missing");
    return path ? 0 : 1;
}
