/* SPDX-License-Identifier: MIT */
/* kernelbase.c - the Win32 base functions that Windows gives every
 * process and petw's <windows.h> declares, for POSIX hosts: the thread's
 * last error, the local, global and process heaps, the version, the code
 * pages (through platform_utf.c) and the C runtime's case-insensitive wide
 * compares. On Windows the OS has them, and platform_win.c calls the OS's;
 * on POSIX petw provides them here, in the OS layer too, so one name means
 * one layer on both systems and everything above (the ETW surface
 * included) calls down to it. */
#include <limits.h>
#include <stdlib.h>
#include <wctype.h>

#include "win32_internal.h"

#if !defined(_WIN32)

/* ---- the last error ---- */

static _Thread_local DWORD last_error;

DWORD GetLastError(void)
{
    return last_error;
}

void SetLastError(DWORD code)
{
    last_error = code;
}

/* ---- LocalAlloc, GlobalAlloc: fixed blocks only ---- */

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

/* ---- _wcsicmp, _wcsnicmp ---- */

/* Folds A-Z only, as Windows' C runtime does in its default "C" locale. */
static uint32_t fold(wchar_t c)
{
    return c >= L'A' && c <= L'Z' ? (uint32_t)(c - L'A' + L'a') : (uint32_t)c;
}

int _wcsnicmp(const wchar_t *a, const wchar_t *b, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint32_t x = fold(a[i]), y = fold(b[i]);
        if (x != y)
            return x < y ? -1 : 1;
        if (!x)
            break;
    }
    return 0;
}

int _wcsicmp(const wchar_t *a, const wchar_t *b)
{
    return _wcsnicmp(a, b, (size_t)-1);
}

/* ---- LCMapStringEx: case and byte order ---- */

int LCMapStringEx(LPCWSTR lpLocaleName, DWORD dwMapFlags, LPCWSTR lpSrcStr, int cchSrc,
                  LPWSTR lpDestStr, int cchDest, LPVOID lpVersionInformation, LPVOID lpReserved,
                  LPARAM sortHandle)
{
    const DWORD known = LCMAP_LOWERCASE | LCMAP_UPPERCASE | LCMAP_BYTEREV;
    (void)lpLocaleName;
    if (!lpSrcStr || cchSrc == 0 || cchSrc < -1 || cchDest < 0 || (cchDest && !lpDestStr) ||
        lpVersionInformation || lpReserved || sortHandle) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (!dwMapFlags || (dwMapFlags & ~known) ||
        (dwMapFlags & (LCMAP_LOWERCASE | LCMAP_UPPERCASE)) == (LCMAP_LOWERCASE | LCMAP_UPPERCASE)) {
        SetLastError(ERROR_INVALID_FLAGS);
        return 0;
    }
    size_t n = cchSrc == -1 ? wcslen(lpSrcStr) + 1 : (size_t)cchSrc;
    if (n > INT_MAX) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return 0;
    }
    if (cchDest == 0)
        return (int)n;
    if ((size_t)cchDest < n) {
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return 0;
    }
    for (size_t i = 0; i < n; i++) { /* in place when lpDestStr == lpSrcStr */
        wchar_t c = lpSrcStr[i];
        if (dwMapFlags & LCMAP_UPPERCASE)
            c = (wchar_t)towupper((wint_t)c);
        else if (dwMapFlags & LCMAP_LOWERCASE)
            c = (wchar_t)towlower((wint_t)c);
        if ((dwMapFlags & LCMAP_BYTEREV) && (uint32_t)c <= 0xFFFF)
            c = (wchar_t)((((uint32_t)c & 0xFF) << 8) | (((uint32_t)c >> 8) & 0xFF));
        lpDestStr[i] = c;
    }
    return (int)n;
}

#endif /* !_WIN32 */
