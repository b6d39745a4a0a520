/* strsafe.h - the few strsafe.h copies ETW samples use, for non-Windows hosts.
 * Each copies with truncation, always NUL-terminates, and returns S_OK (0)
 * or STRSAFE_E_INSUFFICIENT_BUFFER when the source did not fit. */
#ifndef PETW_ETW_STRSAFE_H
#define PETW_ETW_STRSAFE_H

#if defined(_WIN32)
#include_next <strsafe.h>
#else
#include <windows.h>

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
#ifdef UNICODE
#define StringCchCopy StringCchCopyW
#define StringCbCopy StringCbCopyW
#else
#define StringCchCopy StringCchCopyA
#define StringCbCopy StringCbCopyA
#endif
#endif
#endif
