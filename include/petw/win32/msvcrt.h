/* SPDX-License-Identifier: MIT */
/* msvcrt.h - the Microsoft C runtime's functions Windows code calls: the secure (_s)
 * functions, the wide printf family's _s forms, case-insensitive compares, paths, and the
 * intrinsics its <stdlib.h> declares, for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows the system's C runtime declares these. */
#if defined(_WIN32)
#include <windows.h>
#else
#ifndef PETW_WIN32_MSVCRT_H
#define PETW_WIN32_MSVCRT_H

#include <minwindef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Microsoft C runtime's functions Windows ETW code calls, declared here
 * since petw cannot add them to the C library's own headers.
 *
 * The wide printf family (wprintf_s, fwprintf_s, swprintf_s, _snwprintf_s
 * and their v forms) reads its format as Windows does in a wide format:
 * %s and %c take a wide string and character, %S, %C, %hs and %hc narrow
 * ones (glibc reads %s as narrow: these functions rewrite those to glibc's
 * %ls / %s), and the I64, I32, I and w size prefixes are understood; %Lf
 * (and %Le, %Lg, %La) reads a double, since MSVC's long double is one (pass
 * a double, not a GCC long double). To a
 * stream they write UTF-8 (or wide characters, if the stream is already
 * wide-oriented), whatever the locale. The narrow ones take glibc's format.
 * The _s functions return their error (-1, EINVAL, ERANGE) instead of
 * calling an invalid-parameter handler, and leave an empty string in the
 * destination on failure. */
typedef int errno_t;
#ifndef _TRUNCATE
#define _TRUNCATE ((size_t)-1)
#endif
#ifndef STRUNCATE
#define STRUNCATE 80
#endif
#ifndef ARRAYSIZE
#define ARRAYSIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef _countof
#define _countof(a) (sizeof(a) / sizeof((a)[0]))
#endif
int wprintf_s(const wchar_t *format, ...);
int fwprintf_s(FILE *stream, const wchar_t *format, ...);
int vwprintf_s(const wchar_t *format, va_list args);
int vfwprintf_s(FILE *stream, const wchar_t *format, va_list args);
int swprintf_s(wchar_t *buffer, size_t sizeOfBuffer, const wchar_t *format, ...);
int vswprintf_s(wchar_t *buffer, size_t sizeOfBuffer, const wchar_t *format, va_list args);
int _snwprintf_s(wchar_t *buffer, size_t sizeOfBuffer, size_t count, const wchar_t *format, ...);
int _vsnwprintf_s(wchar_t *buffer, size_t sizeOfBuffer, size_t count, const wchar_t *format,
                  va_list args);
int sprintf_s(char *buffer, size_t sizeOfBuffer, const char *format, ...);
int vsprintf_s(char *buffer, size_t sizeOfBuffer, const char *format, va_list args);
int _snprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, ...);
int _vsnprintf_s(char *buffer, size_t sizeOfBuffer, size_t count, const char *format, va_list args);
#define printf_s printf
#define fprintf_s fprintf
#define vprintf_s vprintf
#define vfprintf_s vfprintf
/* Writes the string and a newline to stdout: 0, or WEOF on error. */
int _putws(const wchar_t *str);
errno_t wcscpy_s(wchar_t *dest, size_t destSize, const wchar_t *src);
errno_t wcsncpy_s(wchar_t *dest, size_t destSize, const wchar_t *src, size_t count);
errno_t wcscat_s(wchar_t *dest, size_t destSize, const wchar_t *src);
errno_t strcpy_s(char *dest, size_t destSize, const char *src);
errno_t strncpy_s(char *dest, size_t destSize, const char *src, size_t count);
errno_t strcat_s(char *dest, size_t destSize, const char *src);
/* Case-insensitive comparisons: A-Z folded, as in Windows' default "C"
 * locale. */
int _wcsicmp(const wchar_t *a, const wchar_t *b);
int _wcsnicmp(const wchar_t *a, const wchar_t *b, size_t count);
/* The absolute path of relPath (against the current directory, with "."
 * and ".." resolved by name, not through the file system), in absPath
 * (maxLength characters) or, when absPath is NULL, in a malloc'ed string.
 * NULL, with errno ERANGE when it does not fit (EINVAL: no relPath). */
char *_fullpath(char *absPath, const char *relPath, size_t maxLength);
wchar_t *_wfullpath(wchar_t *absPath, const wchar_t *relPath, size_t maxLength);
#ifndef _MAX_PATH
#define _MAX_PATH 260
#endif
#define _stricmp strcasecmp
#define _strnicmp strncasecmp
#define _wcsdup wcsdup
#define _wtoi(s) ((int)wcstol((s), NULL, 10))
#define _wtol(s) wcstol((s), NULL, 10)
#define _wtoi64(s) wcstoll((s), NULL, 10)
/* One character from stdin. Unlike Windows' console read, a terminal in
 * its usual line mode delivers it after Enter, and the key is echoed;
 * WEOF at the end of input. */
static inline wint_t _getwch(void)
{
    int c = getchar();
    return c == EOF ? WEOF : (wint_t)c;
}
#define _getch getchar

/* The compiler intrinsics Microsoft's C runtime declares in <stdlib.h>
 * (which Windows' <windows.h> includes): byte swaps and 32-bit rotations.
 * Left alone when the compiler's own headers defined them first (GCC's
 * <x86intrin.h> defines _rotl and _rotr as macros, with the same
 * results). */
static inline USHORT _byteswap_ushort(USHORT v)
{
    return (USHORT)((v >> 8) | (v << 8));
}
static inline ULONG _byteswap_ulong(ULONG v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}
static inline ULONGLONG _byteswap_uint64(ULONGLONG v)
{
    return ((ULONGLONG)_byteswap_ulong((ULONG)v) << 32) | _byteswap_ulong((ULONG)(v >> 32));
}
#ifndef _rotl
static inline unsigned int _rotl(unsigned int value, int shift)
{
    shift &= 31;
    return shift ? (value << shift) | (value >> (32 - shift)) : value;
}
#endif
#ifndef _rotr
static inline unsigned int _rotr(unsigned int value, int shift)
{
    shift &= 31;
    return shift ? (value >> shift) | (value << (32 - shift)) : value;
}
#endif
#ifndef _rotl64
static inline ULONGLONG _rotl64(ULONGLONG value, int shift)
{
    shift &= 63;
    return shift ? (value << shift) | (value >> (64 - shift)) : value;
}
#endif
#ifndef _rotr64
static inline ULONGLONG _rotr64(ULONGLONG value, int shift)
{
    shift &= 63;
    return shift ? (value >> shift) | (value << (64 - shift)) : value;
}
#endif

#ifdef __cplusplus
}
/* C++: the secure functions' array overloads (the size taken from the
 * array). */
extern "C++" {
template <size_t N> inline errno_t wcscpy_s(wchar_t (&dest)[N], const wchar_t *src)
{
    return wcscpy_s(dest, N, src);
}
template <size_t N> inline errno_t wcscat_s(wchar_t (&dest)[N], const wchar_t *src)
{
    return wcscat_s(dest, N, src);
}
template <size_t N> inline errno_t strcpy_s(char (&dest)[N], const char *src)
{
    return strcpy_s(dest, N, src);
}
template <size_t N> inline errno_t strcat_s(char (&dest)[N], const char *src)
{
    return strcat_s(dest, N, src);
}
template <size_t N, typename... A>
inline int swprintf_s(wchar_t (&buffer)[N], const wchar_t *format, A... args)
{
    return swprintf_s(buffer, N, format, args...);
}
template <size_t N, typename... A>
inline int _snwprintf_s(wchar_t (&buffer)[N], size_t count, const wchar_t *format, A... args)
{
    return _snwprintf_s(buffer, N, count, format, args...);
}
template <size_t N, typename... A>
inline int sprintf_s(char (&buffer)[N], const char *format, A... args)
{
    return sprintf_s(buffer, N, format, args...);
}
template <size_t N, typename... A>
inline int _snprintf_s(char (&buffer)[N], size_t count, const char *format, A... args)
{
    return _snprintf_s(buffer, N, count, format, args...);
}
}
#endif

#endif /* PETW_WIN32_MSVCRT_H */
#endif /* !_WIN32 */
