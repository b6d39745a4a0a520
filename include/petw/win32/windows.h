/* SPDX-License-Identifier: MIT */
/* windows.h - the Win32 API Windows code expects, for non-Windows hosts: an
 * umbrella over one header per API set, as mingw-w64's windows.h is (the base
 * types in <minwindef.h>, errors in <winerror.h>, the heap in <heapapi.h>, SIDs
 * in <securitybaseapi.h>, code pages in <stringapiset.h>, the C runtime's
 * additions in <msvcrt.h>, COM's basics in <combaseapi.h>, ...).
 *
 * Part of petw's Win32 layer (include/petw/win32, the archive libpetw_win32;
 * pkg-config petw-etw). On Windows this forwards to the system header. Sizes
 * are Windows' own: ULONG and LONG are 32-bit everywhere; WCHAR is wchar_t so
 * L"..." literals work (32-bit on Linux: petw converts to UTF-16LE where ETW
 * stores text).
 *
 * Only this header (not its pieces) gives the two things that change how C
 * code reads: the __try/__finally macros and the Microsoft reading of the
 * wide printf family (below).
 *
 * C and C++ (g++, clang++; libstdc++ or libc++). SAL annotations, old and
 * new style, are empty macros (<sal.h>, included here; it says which names
 * it leaves out for the standard headers' sake).
 *
 * DEFINE_GUID defines a static copy per translation unit, so both ETW idioms
 * link (INITGUID in one file, or in none). With INITGUID defined (or after
 * <initguid.h>) it defines the GUID as Windows does: one extern "C" object
 * with __declspec(selectany) semantics (a weak symbol), so it also matches
 * an `EXTERN_C const GUID name;` declaration.
 */
#ifndef PETW_ETW_WINDOWS_H
#define PETW_ETW_WINDOWS_H

#if defined(_WIN32)
#include_next <windows.h>
#if !defined(PETW_USE_NATIVE_ETW)
/* The same DEFINE_GUID as on other hosts: one static copy per translation
 * unit without INITGUID; with it, the system's (a selectany definition). */
#ifndef INITGUID
#undef DEFINE_GUID
#if defined(__GNUC__) || defined(__clang__)
#define PETW__MAYBE_UNUSED __attribute__((unused))
#else
#define PETW__MAYBE_UNUSED
#endif
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    static const GUID name PETW__MAYBE_UNUSED = {l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#endif
#endif
#else

/* The API sets, one header each, as mingw-w64's windows.h includes them. */
#include <minwindef.h>
#include <winerror.h>
#include <errhandlingapi.h>
#include <timezoneapi.h>
#include <msvcrt.h>
#include <processenv.h>
#include <winbase.h>
#include <heapapi.h>
#include <sysinfoapi.h>
#include <stringapiset.h>
#include <winnls.h>
#include <securitybaseapi.h>
#include <combaseapi.h> /* COM's basics, as Windows' own windows.h brings them */

/* Structured exception handling's termination handlers, in C only:
 * `__try { ... } __finally { ... }` runs the __finally block after the
 * __try block, and `__leave` goes straight to it. They are a loop that
 * runs once, so a `break` or `continue` written inside the __try block
 * (outside a loop of its own) leaves it as __leave does, a `__leave`
 * inside a loop or switch of the __try block leaves only that, and a
 * `return` or `goto` out of the __try block skips the __finally block
 * (on Windows it runs). No exception is caught: there is no __except.
 * Not in C++, where the C++ library names __try (libstdc++'s `try`). */
#if !defined(__cplusplus) && !defined(__try)
#define __try do
#define __finally                                                                                  \
    while (0)                                                                                      \
        ;
#define __leave break
#define AbnormalTermination() 0
#endif

/* The plain wide printf family, as Microsoft's C runtime reads it (the
 * wprintf_s family's reading above): wprintf, fwprintf, swprintf (the ISO
 * form, with a count), their v forms, _snwprintf and _vsnwprintf become
 * macros for petw_ functions. %s and %c take wide arguments, %S, %hs, %C
 * and %hc narrow ones, I64, I32, I and w are size prefixes, and %Lf reads
 * a double (MSVC's long double). To a stream they write UTF-8, or wide characters if the stream is
 * already wide-oriented: they never set a stream's orientation, so printf and wprintf mix on stdout
 * as they do on Windows. swprintf and vswprintf return -1 when the text does not fit, leaving what
 * fit and a NUL; _snwprintf and _vsnwprintf as Microsoft's: count characters and no NUL when the
 * text has count characters or more, and -1 when it has more.
 *
 * In C++ the standard headers that declare these (<cwchar>, <wchar.h>) are
 * included first, so a later #include of them is a no-op, and std:: gets
 * the petw_ names, so std::wprintf is the same function. Define
 * PETW_NO_MSVC_WPRINTF before including this header to keep the C
 * library's (glibc: %s narrow, no I64). */
#ifndef PETW_NO_MSVC_WPRINTF
#ifdef __cplusplus
extern "C++" { /* even when included inside extern "C" { } */
#include <cstdio>
#include <cwchar>
}
extern "C" {
#endif
int petw_wprintf(const wchar_t *format, ...);
int petw_fwprintf(FILE *stream, const wchar_t *format, ...);
int petw_swprintf(wchar_t *buffer, size_t count, const wchar_t *format, ...);
int petw_vwprintf(const wchar_t *format, va_list args);
int petw_vfwprintf(FILE *stream, const wchar_t *format, va_list args);
int petw_vswprintf(wchar_t *buffer, size_t count, const wchar_t *format, va_list args);
int petw_snwprintf(wchar_t *buffer, size_t count, const wchar_t *format, ...);
int petw_vsnwprintf(wchar_t *buffer, size_t count, const wchar_t *format, va_list args);
#ifdef __cplusplus
}
namespace std
{
using ::petw_fwprintf;
using ::petw_swprintf;
using ::petw_vfwprintf;
using ::petw_vswprintf;
using ::petw_vwprintf;
using ::petw_wprintf;
} // namespace std
#endif
  /* The C library may define some as macros (glibc's fortified headers do,
   * for compilers without __builtin_va_arg_pack). */
#undef wprintf
#undef fwprintf
#undef swprintf
#undef vwprintf
#undef vfwprintf
#undef vswprintf
#undef _snwprintf
#undef _vsnwprintf
#define wprintf petw_wprintf
#define fwprintf petw_fwprintf
#define swprintf petw_swprintf
#define vwprintf petw_vwprintf
#define vfwprintf petw_vfwprintf
#define vswprintf petw_vswprintf
#define _snwprintf petw_snwprintf
#define _vsnwprintf petw_vsnwprintf
#endif /* !PETW_NO_MSVC_WPRINTF */

#endif /* !_WIN32 */
#endif /* PETW_ETW_WINDOWS_H */
