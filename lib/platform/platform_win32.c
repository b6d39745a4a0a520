/* platform_win32.c - the Win32 base functions that Windows gives every
 * process and petw's <windows.h> declares, for POSIX hosts: the thread's
 * last error, the local and global heaps, and the C runtime's
 * case-insensitive wide compares. On Windows the OS has them, and
 * platform_win.c calls the OS's; on POSIX petw provides them here, in the
 * OS layer too, so one name means one layer on both systems and everything
 * above (the ETW surface included) calls down to it. */
#include <stdlib.h>
#include <windows.h>

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

#endif /* !_WIN32 */
