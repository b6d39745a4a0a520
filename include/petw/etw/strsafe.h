/* strsafe.h - the few strsafe.h functions ETW samples use (copy, append,
 * format), for non-Windows hosts. Each truncates, always NUL-terminates,
 * and returns S_OK (0) or STRSAFE_E_INSUFFICIENT_BUFFER when the result did
 * not fit. The Printf formats are the C library's: in StringCchPrintfW a
 * wide string is %ls (Windows reads %s as wide there). */
#ifndef PETW_ETW_STRSAFE_H
#define PETW_ETW_STRSAFE_H

#if defined(_WIN32)
#include_next <strsafe.h>
#else
#include <windows.h>

#include <stdarg.h>
#include <stdio.h>
#include <wchar.h>

typedef LONG HRESULT;
#ifndef S_OK
#define S_OK ((HRESULT)0)
#endif
#define STRSAFE_E_INSUFFICIENT_BUFFER ((HRESULT)0x8007007AL)
#define STRSAFE_E_INVALID_PARAMETER ((HRESULT)0x80070057L)
#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif

static inline HRESULT StringCchCopyW(LPWSTR dst, size_t cch, LPCWSTR src)
{
    size_t i;
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    for (i = 0; i + 1 < cch && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
    return src[i] ? STRSAFE_E_INSUFFICIENT_BUFFER : S_OK;
}
static inline HRESULT StringCchCopyA(LPSTR dst, size_t cch, LPCSTR src)
{
    size_t i;
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    for (i = 0; i + 1 < cch && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
    return src[i] ? STRSAFE_E_INSUFFICIENT_BUFFER : S_OK;
}
static inline HRESULT StringCbCopyW(LPWSTR dst, size_t cb, LPCWSTR src)
{
    return StringCchCopyW(dst, cb / sizeof(WCHAR), src);
}
static inline HRESULT StringCbCopyA(LPSTR dst, size_t cb, LPCSTR src)
{
    return StringCchCopyA(dst, cb, src);
}
static inline HRESULT StringCchCatW(LPWSTR dst, size_t cch, LPCWSTR src)
{
    size_t n = 0;
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    while (n < cch && dst[n])
        n++;
    if (n == cch)
        return STRSAFE_E_INVALID_PARAMETER; /* dst is not NUL-terminated */
    return StringCchCopyW(dst + n, cch - n, src);
}
static inline HRESULT StringCchCatA(LPSTR dst, size_t cch, LPCSTR src)
{
    size_t n = 0;
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    while (n < cch && dst[n])
        n++;
    if (n == cch)
        return STRSAFE_E_INVALID_PARAMETER;
    return StringCchCopyA(dst + n, cch - n, src);
}
static inline HRESULT StringCchVPrintfA(LPSTR dst, size_t cch, LPCSTR format, va_list args)
{
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    int n = vsnprintf(dst, cch, format, args);
    if (n < 0) {
        dst[0] = 0;
        return STRSAFE_E_INVALID_PARAMETER;
    }
    return (size_t)n < cch ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;
}
static inline HRESULT StringCchVPrintfW(LPWSTR dst, size_t cch, LPCWSTR format, va_list args)
{
    if (!dst || cch == 0)
        return STRSAFE_E_INVALID_PARAMETER;
    /* vswprintf fails (-1) when the text does not fit: what fit stays. */
    int n = vswprintf(dst, cch, format, args);
    dst[cch - 1] = 0;
    return n >= 0 ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;
}
static inline HRESULT StringCchPrintfA(LPSTR dst, size_t cch, LPCSTR format, ...)
{
    va_list args;
    va_start(args, format);
    HRESULT hr = StringCchVPrintfA(dst, cch, format, args);
    va_end(args);
    return hr;
}
static inline HRESULT StringCchPrintfW(LPWSTR dst, size_t cch, LPCWSTR format, ...)
{
    va_list args;
    va_start(args, format);
    HRESULT hr = StringCchVPrintfW(dst, cch, format, args);
    va_end(args);
    return hr;
}
#ifdef UNICODE
#define StringCchCat StringCchCatW
#define StringCchPrintf StringCchPrintfW
#define StringCchVPrintf StringCchVPrintfW
#else
#define StringCchCat StringCchCatA
#define StringCchPrintf StringCchPrintfA
#define StringCchVPrintf StringCchVPrintfA
#endif
#ifdef UNICODE
#define StringCchCopy StringCchCopyW
#define StringCbCopy StringCbCopyW
#else
#define StringCchCopy StringCchCopyA
#define StringCbCopy StringCbCopyA
#endif
#endif
#endif
