/* etw_win32.c - the few Win32 functions beyond ETW that ETW tools call
 * around it, for non-Windows hosts: GetCommandLineW/A, CommandLineToArgvW
 * (<shellapi.h>), LocalAlloc/LocalFree, GlobalAlloc/GlobalFree, the
 * process heap, GetVersionEx, the code page conversions (UTF-8, the ANSI code page here, and
 * wchar_t). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "etw_internal.h"

#include <shellapi.h> /* after <windows.h>, as Windows' own requires */

#if !defined(_WIN32)

wchar_t *petw__widen_utf8(const char *s); /* etw_wmain.c */

static HLOCAL mem_alloc(UINT flags, SIZE_T bytes)
{
    void *p;
    if (flags & LMEM_MOVEABLE) {
        SetLastError(ERROR_NOT_SUPPORTED);
        return NULL;
    }
    p = (flags & LMEM_ZEROINIT) ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
    if (!p)
        SetLastError(ERROR_NOT_ENOUGH_MEMORY);
    return p;
}

HLOCAL LocalAlloc(UINT uFlags, SIZE_T uBytes)
{
    return mem_alloc(uFlags, uBytes);
}

HLOCAL LocalFree(HLOCAL hMem)
{
    free(hMem);
    return NULL;
}

HGLOBAL GlobalAlloc(UINT uFlags, SIZE_T dwBytes)
{
    return mem_alloc(uFlags, dwBytes);
}

HGLOBAL GlobalFree(HGLOBAL hMem)
{
    free(hMem);
    return NULL;
}

/* ---- The process heap ---- */

/* Each block's size, in front of it; 16 bytes keep the block 16-byte
 * aligned, as Windows' 64-bit heap aligns. */
#define HEAP_HEADER 16

static int process_heap; /* its address is the heap's handle */

HANDLE GetProcessHeap(void)
{
    return &process_heap;
}

static LPVOID heap_block(char *p, SIZE_T bytes)
{
    memcpy(p, &bytes, sizeof(bytes));
    return p + HEAP_HEADER;
}

static SIZE_T heap_size_of(LPCVOID mem)
{
    SIZE_T n;
    memcpy(&n, (const char *)mem - HEAP_HEADER, sizeof(n));
    return n;
}

LPVOID HeapAlloc(HANDLE hHeap, DWORD dwFlags, SIZE_T dwBytes)
{
    (void)hHeap;
    char *p = dwBytes > (SIZE_T)-1 - HEAP_HEADER ? NULL
              : (dwFlags & HEAP_ZERO_MEMORY)     ? calloc(1, HEAP_HEADER + dwBytes)
                                                 : malloc(HEAP_HEADER + dwBytes);
    if (!p) {
        SetLastError(ERROR_NOT_ENOUGH_MEMORY);
        return NULL;
    }
    return heap_block(p, dwBytes);
}

LPVOID HeapReAlloc(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem, SIZE_T dwBytes)
{
    (void)hHeap;
    if (!lpMem) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return NULL;
    }
    SIZE_T old = heap_size_of(lpMem);
    if (dwFlags & HEAP_REALLOC_IN_PLACE_ONLY) {
        if (dwBytes > old) {
            SetLastError(ERROR_NOT_ENOUGH_MEMORY);
            return NULL;
        }
        return heap_block((char *)lpMem - HEAP_HEADER, dwBytes);
    }
    char *p = dwBytes > (SIZE_T)-1 - HEAP_HEADER
                  ? NULL
                  : realloc((char *)lpMem - HEAP_HEADER, HEAP_HEADER + dwBytes);
    if (!p) {
        SetLastError(ERROR_NOT_ENOUGH_MEMORY);
        return NULL;
    }
    if ((dwFlags & HEAP_ZERO_MEMORY) && dwBytes > old)
        memset(p + HEAP_HEADER + old, 0, dwBytes - old);
    return heap_block(p, dwBytes);
}

BOOL HeapFree(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem)
{
    (void)hHeap, (void)dwFlags;
    if (lpMem)
        free((char *)lpMem - HEAP_HEADER);
    return TRUE;
}

SIZE_T HeapSize(HANDLE hHeap, DWORD dwFlags, LPCVOID lpMem)
{
    (void)hHeap, (void)dwFlags;
    if (!lpMem) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return (SIZE_T)-1;
    }
    return heap_size_of(lpMem);
}

/* ---- The version ---- */

/* Windows 10 version 2004, whose ETW petw implements (see <windows.h>),
 * into either form of either structure (the A and W ones differ only in
 * szCSDVersion's characters, which end both). */
#define FILL_VERSION(v, small, large)                                                              \
    do {                                                                                           \
        if (!(v)) {                                                                                \
            SetLastError(ERROR_INVALID_PARAMETER);                                                 \
            return FALSE;                                                                          \
        }                                                                                          \
        if ((v)->dwOSVersionInfoSize != sizeof(small) &&                                           \
            (v)->dwOSVersionInfoSize != sizeof(large)) {                                           \
            SetLastError(ERROR_INSUFFICIENT_BUFFER);                                               \
            return FALSE;                                                                          \
        }                                                                                          \
        (v)->dwMajorVersion = 10;                                                                  \
        (v)->dwMinorVersion = 0;                                                                   \
        (v)->dwBuildNumber = 19041;                                                                \
        (v)->dwPlatformId = VER_PLATFORM_WIN32_NT;                                                 \
        (v)->szCSDVersion[0] = 0;                                                                  \
        if ((v)->dwOSVersionInfoSize == sizeof(large)) {                                           \
            (v)->wServicePackMajor = (v)->wServicePackMinor = (v)->wSuiteMask = 0;                 \
            (v)->wProductType = VER_NT_WORKSTATION;                                                \
            (v)->wReserved = 0;                                                                    \
        }                                                                                          \
        return TRUE;                                                                               \
    } while (0)

BOOL GetVersionExA(LPOSVERSIONINFOA lpVersionInformation)
{
    FILL_VERSION((OSVERSIONINFOEXA *)lpVersionInformation, OSVERSIONINFOA, OSVERSIONINFOEXA);
}

BOOL GetVersionExW(LPOSVERSIONINFOW lpVersionInformation)
{
    FILL_VERSION((OSVERSIONINFOEXW *)lpVersionInformation, OSVERSIONINFOW, OSVERSIONINFOEXW);
}

/* ---- Code pages ---- */

/* The ANSI code pages (UTF-8 on this host) and UTF-8: 1, 0 for UTF-8 by
 * name (fewer flags allowed), -1 for another code page. */
static int ansi_page(UINT page)
{
    if (page == CP_UTF8)
        return 0;
    if (page == CP_ACP || page == CP_OEMCP || page == CP_MACCP || page == CP_THREAD_ACP)
        return 1;
    return -1;
}

UINT GetACP(void)
{
    return CP_UTF8;
}

UINT GetOEMCP(void)
{
    return CP_UTF8;
}

int MultiByteToWideChar(UINT CodePage, DWORD dwFlags, LPCSTR lpMultiByteStr, int cbMultiByte,
                        LPWSTR lpWideCharStr, int cchWideChar)
{
    int ansi = ansi_page(CodePage);
    DWORD allowed = MB_ERR_INVALID_CHARS | (ansi == 1 ? MB_PRECOMPOSED | MB_USEGLYPHCHARS : 0);
    size_t n, needed;
    if (ansi < 0 || !lpMultiByteStr || cbMultiByte == 0 || cbMultiByte < -1 || cchWideChar < 0 ||
        (cchWideChar > 0 && !lpWideCharStr) || (const void *)lpMultiByteStr == lpWideCharStr) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (dwFlags & ~allowed) {
        SetLastError(ERROR_INVALID_FLAGS);
        return 0;
    }
    n = cbMultiByte == -1 ? strlen(lpMultiByteStr) + 1 : (size_t)cbMultiByte;
    if (petw__utf8_to_wcs_n(lpMultiByteStr, n, lpWideCharStr, (size_t)cchWideChar,
                            (dwFlags & MB_ERR_INVALID_CHARS) != 0, &needed) != 0) {
        SetLastError(ERROR_NO_UNICODE_TRANSLATION);
        return 0;
    }
    if (needed > INT_MAX || (cchWideChar && needed > (size_t)cchWideChar)) {
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return 0;
    }
    return (int)needed;
}

int WideCharToMultiByte(UINT CodePage, DWORD dwFlags, LPCWSTR lpWideCharStr, int cchWideChar,
                        LPSTR lpMultiByteStr, int cbMultiByte, LPCSTR lpDefaultChar,
                        LPBOOL lpUsedDefaultChar)
{
    int ansi = ansi_page(CodePage), replaced = 0;
    DWORD allowed =
        WC_ERR_INVALID_CHARS | (ansi == 1 ? WC_COMPOSITECHECK | WC_DISCARDNS | WC_SEPCHARS |
                                                WC_DEFAULTCHAR | WC_NO_BEST_FIT_CHARS
                                          : 0);
    size_t n, needed;
    if (ansi < 0 || !lpWideCharStr || cchWideChar == 0 || cchWideChar < -1 || cbMultiByte < 0 ||
        (cbMultiByte > 0 && !lpMultiByteStr) || (const void *)lpWideCharStr == lpMultiByteStr ||
        (ansi == 0 && (lpDefaultChar || lpUsedDefaultChar))) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (dwFlags & ~allowed) {
        SetLastError(ERROR_INVALID_FLAGS);
        return 0;
    }
    n = cchWideChar == -1 ? wcslen(lpWideCharStr) + 1 : (size_t)cchWideChar;
    int strict = (dwFlags & WC_ERR_INVALID_CHARS) != 0;
    if (lpDefaultChar && lpDefaultChar[0]) {
        /* The default character in place of U+FFFD: convert one by one. */
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
            char b[8];
            size_t w;
            int bad;
            if (petw__wcs_to_utf8_n(lpWideCharStr + i, 1, b, sizeof(b), strict, &w, &bad) != 0) {
                SetLastError(ERROR_NO_UNICODE_TRANSLATION);
                return 0;
            }
            if (bad) {
                b[0] = lpDefaultChar[0];
                w = 1;
                replaced = 1;
            }
            if (cbMultiByte && o + w <= (size_t)cbMultiByte)
                memcpy(lpMultiByteStr + o, b, w);
            o += w;
        }
        needed = o;
    } else if (petw__wcs_to_utf8_n(lpWideCharStr, n, lpMultiByteStr, (size_t)cbMultiByte, strict,
                                   &needed, &replaced) != 0) {
        SetLastError(ERROR_NO_UNICODE_TRANSLATION);
        return 0;
    }
    if (lpUsedDefaultChar)
        *lpUsedDefaultChar = replaced;
    if (needed > INT_MAX || (cbMultiByte && needed > (size_t)cbMultiByte)) {
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return 0;
    }
    return (int)needed;
}

/* ---- The command line ---- */

/* Appends `arg` to `out` (at *n, growing *cap), quoted as Windows' parser
 * expects: as is when it has no space, tab or quote and is not empty; else
 * in quotes, with backslashes doubled before a quote or the closing quote. */
static int append_quoted(char **out, size_t *n, size_t *cap, const char *arg)
{
    size_t len = strlen(arg), need = *n + 2 * len + 4;
    int plain = len && !strpbrk(arg, " \t\"");
    if (need > *cap) {
        char *p = realloc(*out, need * 2);
        if (!p)
            return -1;
        *out = p;
        *cap = need * 2;
    }
    char *o = *out + *n;
    if (*n)
        *o++ = ' ';
    if (plain) {
        memcpy(o, arg, len);
        o += len;
    } else {
        *o++ = '"';
        for (const char *a = arg;; a++) {
            size_t slashes = 0;
            while (*a == '\\') {
                slashes++;
                a++;
            }
            if (!*a || *a == '"') {
                /* Before a quote (the argument's or the closing one): doubled. */
                memset(o, '\\', slashes * 2);
                o += slashes * 2;
                if (!*a)
                    break;
                *o++ = '\\';
                *o++ = '"';
            } else {
                memset(o, '\\', slashes);
                o += slashes;
                *o++ = *a;
            }
        }
        *o++ = '"';
    }
    *o = 0;
    *n = (size_t)(o - *out);
    return 0;
}

/* The command line, built once: the first caller to finish installs it. */
static _Atomic(char *) command_line_a;
static _Atomic(wchar_t *) command_line_w;

static void build_command_line(void)
{
    char *raw = NULL, *out;
    size_t rn = 0, n = 0, cap = 0;
    wchar_t *w = NULL;
    char *expect_a = NULL;
    if (petw__own_command_line(&raw, &rn) != 0)
        return;
    out = calloc(1, 1);
    for (size_t i = 0; out && i < rn; i += strlen(raw + i) + 1) {
        if (append_quoted(&out, &n, &cap, raw + i) != 0) {
            free(out);
            out = NULL;
        }
    }
    free(raw);
    if (!out || !(w = petw__widen_utf8(out))) {
        free(out);
        return;
    }
    /* seq_cst: publishes the narrow string's bytes (written above) to the
     * loads in GetCommandLineA/W; pairs with them. */
    if (atomic_compare_exchange_strong(&command_line_a, &expect_a, out)) {
        /* seq_cst: publishes the wide string to GetCommandLineW's loads. */
        atomic_store(&command_line_w, w);
    } else {
        free(out);
        free(w);
    }
}

LPSTR GetCommandLineA(void)
{
    /* seq_cst: pairs with build_command_line's compare-exchange (the
     * string's bytes are visible once its pointer is). */
    if (!atomic_load(&command_line_a))
        build_command_line();
    /* seq_cst: as above. */
    return atomic_load(&command_line_a);
}

LPWSTR GetCommandLineW(void)
{
    /* seq_cst: pairs with build_command_line's compare-exchange. */
    if (!atomic_load(&command_line_a))
        build_command_line();
    /* seq_cst: pairs with build_command_line's compare-exchange and store.
     * Another thread may have installed the narrow string and not yet the
     * wide one: wait for it (a few stores away). */
    while (atomic_load(&command_line_a) && !atomic_load(&command_line_w))
        ;
    /* seq_cst: pairs with build_command_line's store of the wide string. */
    return atomic_load(&command_line_w);
}

/* Splits `line` into `args` (each NUL-terminated, written to `buf` when it
 * is not NULL); returns the argument count and sets *chars to the
 * characters written. Windows' rules (the program name: up to the next
 * space or tab, or quoted; no backslash rules in it). */
static int split(const wchar_t *line, wchar_t **args, wchar_t *buf, size_t *chars)
{
    const wchar_t *p = line;
    size_t used = 0;
    int argc = 0;
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        wchar_t put_ = (ch); /* evaluated (p++) whether or not it is stored */                     \
        if (buf)                                                                                   \
            buf[used] = put_;                                                                      \
        used++;                                                                                    \
    } while (0)
    /* The program name. */
    if (args)
        args[argc] = buf + used;
    argc++;
    if (*p == L'"') {
        for (p++; *p && *p != L'"'; p++)
            PUT(*p);
        if (*p == L'"')
            p++;
    } else {
        for (; *p && *p != L' ' && *p != L'\t'; p++)
            PUT(*p);
    }
    PUT(0);
    for (;;) {
        int quoted = 0;
        while (*p == L' ' || *p == L'\t')
            p++;
        if (!*p)
            break;
        if (args)
            args[argc] = buf + used;
        argc++;
        while (*p && (quoted || (*p != L' ' && *p != L'\t'))) {
            size_t slashes = 0;
            while (*p == L'\\') {
                slashes++;
                p++;
            }
            if (*p == L'"') {
                for (size_t i = 0; i < slashes / 2; i++)
                    PUT(L'\\');
                if (slashes % 2) {
                    PUT(L'"');
                    p++;
                } else if (quoted && p[1] == L'"') { /* "" inside quotes: a quote */
                    PUT(L'"');
                    p += 2;
                } else {
                    quoted = !quoted;
                    p++;
                }
            } else {
                for (size_t i = 0; i < slashes; i++)
                    PUT(L'\\');
                if (*p && (quoted || (*p != L' ' && *p != L'\t')))
                    PUT(*p++);
            }
        }
        PUT(0);
    }
#undef PUT
    *chars = used;
    return argc;
}

LPWSTR *CommandLineToArgvW(LPCWSTR lpCmdLine, int *pNumArgs)
{
    size_t chars = 0;
    int argc;
    LPWSTR *argv;
    if (!pNumArgs) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return NULL;
    }
    if (!lpCmdLine || !*lpCmdLine) {
        /* Windows: the program's path. */
        LPWSTR all = GetCommandLineW();
        LPWSTR *whole = all ? CommandLineToArgvW(all, pNumArgs) : NULL;
        if (whole)
            *pNumArgs = 1;
        return whole;
    }
    argc = split(lpCmdLine, NULL, NULL, &chars);
    argv = (LPWSTR *)LocalAlloc(LPTR, (size_t)(argc + 1) * sizeof(LPWSTR) + chars * sizeof(WCHAR));
    if (!argv)
        return NULL;
    split(lpCmdLine, argv, (wchar_t *)(argv + argc + 1), &chars);
    argv[argc] = NULL;
    *pNumArgs = argc;
    return argv;
}

#else
typedef int petw__no_win32_shims; /* Windows: the system's */
#endif
