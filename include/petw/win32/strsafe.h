/* SPDX-License-Identifier: MIT */
/* strsafe.h - Windows' safe string functions, for non-Windows hosts: the
 * documented family, each in A (char) and W (WCHAR) forms, counted in
 * characters (StringCch*) or bytes (StringCb*), with the UNICODE-selected
 * generic names:
 *
 *   Copy, CopyEx, CopyN, CopyNEx, Cat, CatEx, CatN, CatNEx, Printf,
 *   PrintfEx, VPrintf, VPrintfEx, Length, Gets, GetsEx.
 *
 * Each truncates and always NUL-terminates (a failed call leaves the text
 * that fit), and returns S_OK, STRSAFE_E_INSUFFICIENT_BUFFER (it did not
 * fit), STRSAFE_E_INVALID_PARAMETER (NULL or zero-sized destination, a
 * size over STRSAFE_MAX_CCH, unknown flags, a destination with no NUL for
 * Cat) or STRSAFE_E_END_OF_FILE (Gets). The Ex forms also return where the
 * text ends and how much room is left, and take the STRSAFE_* flags
 * (IGNORE_NULLS, FILL_BEHIND_NULL, FILL_ON_FAILURE, NULL_ON_FAILURE,
 * NO_TRUNCATION, with a fill byte from STRSAFE_FILL_BYTE).
 *
 * The W Printf forms read their format as <windows.h>'s vswprintf does:
 * Microsoft's reading (%s wide, %S narrow, I64) unless PETW_NO_MSVC_WPRINTF
 * is defined. WCHAR is 4 bytes on Linux, so the Cb forms count 4 bytes a
 * character there. */
#ifndef PETW_ETW_STRSAFE_H
#define PETW_ETW_STRSAFE_H

#if defined(_WIN32)
#include_next <strsafe.h>
#else
#include <windows.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

typedef LONG HRESULT;
#ifndef S_OK
#define S_OK ((HRESULT)0)
#endif
#define STRSAFE_E_INSUFFICIENT_BUFFER ((HRESULT)0x8007007AL)
#define STRSAFE_E_INVALID_PARAMETER ((HRESULT)0x80070057L)
#define STRSAFE_E_END_OF_FILE ((HRESULT)0x80070026L)
#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif

#define STRSAFE_MAX_CCH 2147483647
#define STRSAFE_IGNORE_NULLS 0x00000100
#define STRSAFE_FILL_BEHIND_NULL 0x00000200
#define STRSAFE_FILL_ON_FAILURE 0x00000400
#define STRSAFE_NULL_ON_FAILURE 0x00000800
#define STRSAFE_NO_TRUNCATION 0x00001000
#define STRSAFE_FILL_BYTE(x) ((DWORD)(((x)&0xFF) | STRSAFE_FILL_BEHIND_NULL))
#define STRSAFE_FAILURE_BYTE(x) ((DWORD)(((x)&0xFF) | STRSAFE_FILL_ON_FAILURE))
#define PETW__STRSAFE_FLAGS                                                                        \
    (0xFF | STRSAFE_IGNORE_NULLS | STRSAFE_FILL_BEHIND_NULL | STRSAFE_FILL_ON_FAILURE |            \
     STRSAFE_NULL_ON_FAILURE | STRSAFE_NO_TRUNCATION)

/* One template for both character types: S is the suffix (A or W), T the
 * character, LEN its strlen, VFMT its vsnprintf-like formatter (returns -1
 * or the full length), GETS its fgets. `keep` is the length a failed Cat
 * with NO_TRUNCATION goes back to. */
static inline int petw__strsafe_vsnprintfA(char *d, size_t n, const char *f, va_list a)
{
    return vsnprintf(d, n, f, a);
}
static inline int petw__strsafe_vsnprintfW(WCHAR *d, size_t n, const WCHAR *f, va_list a)
{
    /* vswprintf (petw's when <windows.h> maps it) returns -1 when the text
     * does not fit, leaving what fit and a NUL. */
    return vswprintf(d, n, f, a);
}
static inline char *petw__strsafe_getsA(char *d, size_t n)
{
    return fgets(d, (int)n, stdin);
}
static inline WCHAR *petw__strsafe_getsW(WCHAR *d, size_t n)
{
    return fgetws(d, (int)n, stdin);
}

#define PETW__STRSAFE_DEFINE(S, T, LEN)                                                            \
    static inline HRESULT StringCchLength##S(const T *psz, size_t cchMax, size_t *pcchLength)      \
    {                                                                                              \
        size_t n = 0;                                                                              \
        if (pcchLength)                                                                            \
            *pcchLength = 0;                                                                       \
        if (!psz || cchMax > STRSAFE_MAX_CCH)                                                      \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        while (n < cchMax && psz[n])                                                               \
            n++;                                                                                   \
        if (n == cchMax)                                                                           \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        if (pcchLength)                                                                            \
            *pcchLength = n;                                                                       \
        return S_OK;                                                                               \
    }                                                                                              \
    static inline HRESULT StringCbLength##S(const T *psz, size_t cbMax, size_t *pcbLength)         \
    {                                                                                              \
        size_t n = 0;                                                                              \
        HRESULT hr = StringCchLength##S(psz, cbMax / sizeof(T), &n);                               \
        if (pcbLength)                                                                             \
            *pcbLength = n * sizeof(T);                                                            \
        return hr;                                                                                 \
    }                                                                                              \
    /* Applies the Ex flags to a result of `len` characters in d (NUL at                           \
     * d[len]) and reports the end and the room left. */                                           \
    static inline HRESULT petw__strsafe_finish##S(T *d, size_t cch, size_t len, HRESULT hr,        \
                                                  T **end, size_t *rem, DWORD flags, size_t keep)  \
    {                                                                                              \
        if (SUCCEEDED(hr)) {                                                                       \
            if ((flags & STRSAFE_FILL_BEHIND_NULL) && len + 1 < cch)                               \
                memset(d + len + 1, (int)(flags & 0xFF), (cch - len - 1) * sizeof(T));             \
        } else if (flags & STRSAFE_FILL_ON_FAILURE) {                                              \
            memset(d, (int)(flags & 0xFF), cch * sizeof(T));                                       \
            len = cch - 1;                                                                         \
            d[len] = 0;                                                                            \
        } else if (flags & (STRSAFE_NULL_ON_FAILURE | STRSAFE_NO_TRUNCATION)) {                    \
            len = (flags & STRSAFE_NO_TRUNCATION) ? keep : 0;                                      \
            d[len] = 0;                                                                            \
        }                                                                                          \
        if (end)                                                                                   \
            *end = d + len;                                                                        \
        if (rem)                                                                                   \
            *rem = cch - len;                                                                      \
        return hr;                                                                                 \
    }                                                                                              \
    /* The destination checks every function shares: 0 when d can take                             \
     * text, else the error. */                                                                    \
    static inline HRESULT petw__strsafe_check##S(const T *d, size_t cch, DWORD flags)              \
    {                                                                                              \
        if ((flags & ~(DWORD)PETW__STRSAFE_FLAGS) || cch > STRSAFE_MAX_CCH || !d || cch == 0)      \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        return S_OK;                                                                               \
    }                                                                                              \
    static inline HRESULT StringCchCopyNEx##S(T *d, size_t cch, const T *src, size_t cchToCopy,    \
                                              T **end, size_t *rem, DWORD flags)                   \
    {                                                                                              \
        size_t i = 0;                                                                              \
        HRESULT hr = petw__strsafe_check##S(d, cch, flags);                                        \
        if (FAILED(hr))                                                                            \
            return hr;                                                                             \
        if (!src && !(flags & STRSAFE_IGNORE_NULLS))                                               \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        if (cchToCopy > STRSAFE_MAX_CCH)                                                           \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        for (; src && i + 1 < cch && i < cchToCopy && src[i]; i++)                                 \
            d[i] = src[i];                                                                         \
        d[i] = 0;                                                                                  \
        hr = src && i < cchToCopy && src[i] ? STRSAFE_E_INSUFFICIENT_BUFFER : S_OK;                \
        return petw__strsafe_finish##S(d, cch, i, hr, end, rem, flags, 0);                         \
    }                                                                                              \
    static inline HRESULT StringCchCatNEx##S(T *d, size_t cch, const T *src, size_t cchToAppend,   \
                                             T **end, size_t *rem, DWORD flags)                    \
    {                                                                                              \
        size_t n = 0;                                                                              \
        HRESULT hr = petw__strsafe_check##S(d, cch, flags);                                        \
        if (FAILED(hr))                                                                            \
            return hr;                                                                             \
        while (n < cch && d[n])                                                                    \
            n++;                                                                                   \
        if (n == cch)                                                                              \
            return STRSAFE_E_INVALID_PARAMETER; /* d is not NUL-terminated */                      \
        hr = StringCchCopyNEx##S(d + n, cch - n, src, cchToAppend, NULL, NULL,                     \
                                 flags & STRSAFE_IGNORE_NULLS);                                    \
        if (hr == STRSAFE_E_INVALID_PARAMETER)                                                     \
            return hr;                                                                             \
        return petw__strsafe_finish##S(d, cch, n + LEN(d + n), hr, end, rem, flags, n);            \
    }                                                                                              \
    static inline HRESULT StringCchVPrintfEx##S(T *d, size_t cch, T **end, size_t *rem,            \
                                                DWORD flags, const T *format, va_list args)        \
    {                                                                                              \
        HRESULT hr = petw__strsafe_check##S(d, cch, flags);                                        \
        if (FAILED(hr))                                                                            \
            return hr;                                                                             \
        if (!format && !(flags & STRSAFE_IGNORE_NULLS))                                            \
            return STRSAFE_E_INVALID_PARAMETER;                                                    \
        if (!format) {                                                                             \
            d[0] = 0;                                                                              \
            return petw__strsafe_finish##S(d, cch, 0, S_OK, end, rem, flags, 0);                   \
        }                                                                                          \
        int r = petw__strsafe_vsnprintf##S(d, cch, format, args);                                  \
        d[cch - 1] = 0;                                                                            \
        hr = r >= 0 && (size_t)r < cch ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;                     \
        return petw__strsafe_finish##S(d, cch, LEN(d), hr, end, rem, flags, 0);                    \
    }                                                                                              \
    static inline HRESULT StringCchGetsEx##S(T *d, size_t cch, T **end, size_t *rem, DWORD flags)  \
    {                                                                                              \
        HRESULT hr = petw__strsafe_check##S(d, cch, flags);                                        \
        if (FAILED(hr))                                                                            \
            return hr;                                                                             \
        if (cch == 1) {                                                                            \
            d[0] = 0;                                                                              \
            return petw__strsafe_finish##S(d, cch, 0, STRSAFE_E_INSUFFICIENT_BUFFER, end, rem,     \
                                           flags, 0);                                              \
        }                                                                                          \
        if (!petw__strsafe_gets##S(d, cch)) {                                                      \
            d[0] = 0;                                                                              \
            return petw__strsafe_finish##S(d, cch, 0, STRSAFE_E_END_OF_FILE, end, rem, flags, 0);  \
        }                                                                                          \
        size_t n = LEN(d);                                                                         \
        if (n > 0 && d[n - 1] == '\n')                                                             \
            d[--n] = 0; /* the newline is not kept, as Windows' _getts */                          \
        return petw__strsafe_finish##S(d, cch, n, S_OK, end, rem, flags, 0);                       \
    }                                                                                              \
    static inline HRESULT StringCchCopyEx##S(T *d, size_t cch, const T *src, T **end, size_t *rem, \
                                             DWORD flags)                                          \
    {                                                                                              \
        return StringCchCopyNEx##S(d, cch, src, STRSAFE_MAX_CCH, end, rem, flags);                 \
    }                                                                                              \
    static inline HRESULT StringCchCopyN##S(T *d, size_t cch, const T *src, size_t cchToCopy)      \
    {                                                                                              \
        return StringCchCopyNEx##S(d, cch, src, cchToCopy, NULL, NULL, 0);                         \
    }                                                                                              \
    static inline HRESULT StringCchCopy##S(T *d, size_t cch, const T *src)                         \
    {                                                                                              \
        return StringCchCopyNEx##S(d, cch, src, STRSAFE_MAX_CCH, NULL, NULL, 0);                   \
    }                                                                                              \
    static inline HRESULT StringCchCatEx##S(T *d, size_t cch, const T *src, T **end, size_t *rem,  \
                                            DWORD flags)                                           \
    {                                                                                              \
        return StringCchCatNEx##S(d, cch, src, STRSAFE_MAX_CCH, end, rem, flags);                  \
    }                                                                                              \
    static inline HRESULT StringCchCatN##S(T *d, size_t cch, const T *src, size_t cchToAppend)     \
    {                                                                                              \
        return StringCchCatNEx##S(d, cch, src, cchToAppend, NULL, NULL, 0);                        \
    }                                                                                              \
    static inline HRESULT StringCchCat##S(T *d, size_t cch, const T *src)                          \
    {                                                                                              \
        return StringCchCatNEx##S(d, cch, src, STRSAFE_MAX_CCH, NULL, NULL, 0);                    \
    }                                                                                              \
    static inline HRESULT StringCchVPrintf##S(T *d, size_t cch, const T *format, va_list args)     \
    {                                                                                              \
        return StringCchVPrintfEx##S(d, cch, NULL, NULL, 0, format, args);                         \
    }                                                                                              \
    static inline HRESULT StringCchPrintf##S(T *d, size_t cch, const T *format, ...)               \
    {                                                                                              \
        va_list args;                                                                              \
        va_start(args, format);                                                                    \
        HRESULT hr = StringCchVPrintfEx##S(d, cch, NULL, NULL, 0, format, args);                   \
        va_end(args);                                                                              \
        return hr;                                                                                 \
    }                                                                                              \
    static inline HRESULT StringCchPrintfEx##S(T *d, size_t cch, T **end, size_t *rem,             \
                                               DWORD flags, const T *format, ...)                  \
    {                                                                                              \
        va_list args;                                                                              \
        va_start(args, format);                                                                    \
        HRESULT hr = StringCchVPrintfEx##S(d, cch, end, rem, flags, format, args);                 \
        va_end(args);                                                                              \
        return hr;                                                                                 \
    }                                                                                              \
    static inline HRESULT StringCchGets##S(T *d, size_t cch)                                       \
    {                                                                                              \
        return StringCchGetsEx##S(d, cch, NULL, NULL, 0);                                          \
    }                                                                                              \
    /* The byte-counted forms: cb / sizeof(T) characters; remaining room in                        \
     * bytes. */                                                                                   \
    static inline HRESULT petw__strsafe_cb##S(HRESULT hr, size_t rem, size_t *pcbRemaining)        \
    {                                                                                              \
        if (pcbRemaining)                                                                          \
            *pcbRemaining = rem * sizeof(T);                                                       \
        return hr;                                                                                 \
    }                                                                                              \
    static inline HRESULT StringCbCopyNEx##S(T *d, size_t cb, const T *src, size_t cbToCopy,       \
                                             T **end, size_t *pcbRem, DWORD flags)                 \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr =                                                                               \
            StringCchCopyNEx##S(d, cb / sizeof(T), src, cbToCopy / sizeof(T), end, &rem, flags);   \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbCopyEx##S(T *d, size_t cb, const T *src, T **end,                \
                                            size_t *pcbRem, DWORD flags)                           \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr = StringCchCopyEx##S(d, cb / sizeof(T), src, end, &rem, flags);                 \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbCopyN##S(T *d, size_t cb, const T *src, size_t cbToCopy)         \
    {                                                                                              \
        return StringCchCopyN##S(d, cb / sizeof(T), src, cbToCopy / sizeof(T));                    \
    }                                                                                              \
    static inline HRESULT StringCbCopy##S(T *d, size_t cb, const T *src)                           \
    {                                                                                              \
        return StringCchCopy##S(d, cb / sizeof(T), src);                                           \
    }                                                                                              \
    static inline HRESULT StringCbCatNEx##S(T *d, size_t cb, const T *src, size_t cbToAppend,      \
                                            T **end, size_t *pcbRem, DWORD flags)                  \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr =                                                                               \
            StringCchCatNEx##S(d, cb / sizeof(T), src, cbToAppend / sizeof(T), end, &rem, flags);  \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbCatEx##S(T *d, size_t cb, const T *src, T **end, size_t *pcbRem, \
                                           DWORD flags)                                            \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr = StringCchCatEx##S(d, cb / sizeof(T), src, end, &rem, flags);                  \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbCatN##S(T *d, size_t cb, const T *src, size_t cbToAppend)        \
    {                                                                                              \
        return StringCchCatN##S(d, cb / sizeof(T), src, cbToAppend / sizeof(T));                   \
    }                                                                                              \
    static inline HRESULT StringCbCat##S(T *d, size_t cb, const T *src)                            \
    {                                                                                              \
        return StringCchCat##S(d, cb / sizeof(T), src);                                            \
    }                                                                                              \
    static inline HRESULT StringCbVPrintfEx##S(T *d, size_t cb, T **end, size_t *pcbRem,           \
                                               DWORD flags, const T *format, va_list args)         \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr = StringCchVPrintfEx##S(d, cb / sizeof(T), end, &rem, flags, format, args);     \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbVPrintf##S(T *d, size_t cb, const T *format, va_list args)       \
    {                                                                                              \
        return StringCchVPrintfEx##S(d, cb / sizeof(T), NULL, NULL, 0, format, args);              \
    }                                                                                              \
    static inline HRESULT StringCbPrintf##S(T *d, size_t cb, const T *format, ...)                 \
    {                                                                                              \
        va_list args;                                                                              \
        va_start(args, format);                                                                    \
        HRESULT hr = StringCchVPrintfEx##S(d, cb / sizeof(T), NULL, NULL, 0, format, args);        \
        va_end(args);                                                                              \
        return hr;                                                                                 \
    }                                                                                              \
    static inline HRESULT StringCbPrintfEx##S(T *d, size_t cb, T **end, size_t *pcbRem,            \
                                              DWORD flags, const T *format, ...)                   \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        va_list args;                                                                              \
        va_start(args, format);                                                                    \
        HRESULT hr = StringCchVPrintfEx##S(d, cb / sizeof(T), end, &rem, flags, format, args);     \
        va_end(args);                                                                              \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbGetsEx##S(T *d, size_t cb, T **end, size_t *pcbRem, DWORD flags) \
    {                                                                                              \
        size_t rem = 0;                                                                            \
        HRESULT hr = StringCchGetsEx##S(d, cb / sizeof(T), end, &rem, flags);                      \
        return petw__strsafe_cb##S(hr, rem, pcbRem);                                               \
    }                                                                                              \
    static inline HRESULT StringCbGets##S(T *d, size_t cb)                                         \
    {                                                                                              \
        return StringCchGetsEx##S(d, cb / sizeof(T), NULL, NULL, 0);                               \
    }

PETW__STRSAFE_DEFINE(A, char, strlen)
PETW__STRSAFE_DEFINE(W, WCHAR, wcslen)

#ifdef UNICODE
#define PETW__STRSAFE_T(name) name##W
#else
#define PETW__STRSAFE_T(name) name##A
#endif
#define StringCchCopy PETW__STRSAFE_T(StringCchCopy)
#define StringCchCopyEx PETW__STRSAFE_T(StringCchCopyEx)
#define StringCchCopyN PETW__STRSAFE_T(StringCchCopyN)
#define StringCchCopyNEx PETW__STRSAFE_T(StringCchCopyNEx)
#define StringCchCat PETW__STRSAFE_T(StringCchCat)
#define StringCchCatEx PETW__STRSAFE_T(StringCchCatEx)
#define StringCchCatN PETW__STRSAFE_T(StringCchCatN)
#define StringCchCatNEx PETW__STRSAFE_T(StringCchCatNEx)
#define StringCchPrintf PETW__STRSAFE_T(StringCchPrintf)
#define StringCchPrintfEx PETW__STRSAFE_T(StringCchPrintfEx)
#define StringCchVPrintf PETW__STRSAFE_T(StringCchVPrintf)
#define StringCchVPrintfEx PETW__STRSAFE_T(StringCchVPrintfEx)
#define StringCchLength PETW__STRSAFE_T(StringCchLength)
#define StringCchGets PETW__STRSAFE_T(StringCchGets)
#define StringCchGetsEx PETW__STRSAFE_T(StringCchGetsEx)
#define StringCbCopy PETW__STRSAFE_T(StringCbCopy)
#define StringCbCopyEx PETW__STRSAFE_T(StringCbCopyEx)
#define StringCbCopyN PETW__STRSAFE_T(StringCbCopyN)
#define StringCbCopyNEx PETW__STRSAFE_T(StringCbCopyNEx)
#define StringCbCat PETW__STRSAFE_T(StringCbCat)
#define StringCbCatEx PETW__STRSAFE_T(StringCbCatEx)
#define StringCbCatN PETW__STRSAFE_T(StringCbCatN)
#define StringCbCatNEx PETW__STRSAFE_T(StringCbCatNEx)
#define StringCbPrintf PETW__STRSAFE_T(StringCbPrintf)
#define StringCbPrintfEx PETW__STRSAFE_T(StringCbPrintfEx)
#define StringCbVPrintf PETW__STRSAFE_T(StringCbVPrintf)
#define StringCbVPrintfEx PETW__STRSAFE_T(StringCbVPrintfEx)
#define StringCbLength PETW__STRSAFE_T(StringCbLength)
#define StringCbGets PETW__STRSAFE_T(StringCbGets)
#define StringCbGetsEx PETW__STRSAFE_T(StringCbGetsEx)
#endif
#endif
