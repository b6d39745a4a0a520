/* SPDX-License-Identifier: MIT */
/* minwindef.h - the base types, calling conventions, GUIDs and memory macros (minwindef.h,
 * winnt.h, guiddef.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <minwindef.h>
#else
#ifndef PETW_WIN32_MINWINDEF_H
#define PETW_WIN32_MINWINDEF_H

#include <sdkddkver.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h> /* ULONG_MAX and friends, as Windows' headers provide them */
#include <stdint.h>
#include <stdio.h>
/* malloc and free: Microsoft's ETW samples call them with only <windows.h>
 * (and <stdio.h>) included, as Windows' headers allow. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include <sal.h> /* first: in C++ it includes standard headers (see there) */

#ifdef __cplusplus
#define EXTERN_C extern "C"
#define EXTERN_C_START extern "C" {
#define EXTERN_C_END }
extern "C" {
#else
#define EXTERN_C extern
#define EXTERN_C_START
#define EXTERN_C_END
#endif

#define WINAPI
#define NTAPI
#define EVNTAPI
#define WMIAPI
#define CALLBACK
#define APIENTRY
#define STDMETHODCALLTYPE
/* Calling conventions and alignment qualifiers mean nothing here: one
 * calling convention, and the processors petw builds for (x86-64, ARM64)
 * load unaligned words (Windows' own x86 headers define UNALIGNED empty). */
#ifndef __cdecl
#define __cdecl
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef UNALIGNED
#define UNALIGNED
#endif
#ifdef __cplusplus
#define FORCEINLINE inline /* member functions too: not static */
#else
#define FORCEINLINE static inline
#endif
#define DECLSPEC_NOINITALL
/* MSVC's sized integer keywords (`unsigned __int64` in mc.exe's headers):
 * macros, so that `unsigned` may precede them. */
#ifndef __int64
#define __int64 long long
#define __int32 int
#define __int16 short
#define __int8 char
#endif
#define VOID void
#define CONST const
#define FAR
#define NEAR
#define UNREFERENCED_PARAMETER(p) ((void)(p))

/* __declspec(...) and winnt.h's DECLSPEC_* for the attributes ETW code uses
 * (selectany: a weak definition, as with the generated provider headers'
 * `EXTERN_C __declspec(selectany) const GUID name = {...};`). */
#if defined(__GNUC__) || defined(__clang__)
#ifndef __declspec
#define __declspec(a) PETW__DECLSPEC_##a
#endif
#define PETW__DECLSPEC_selectany __attribute__((weak))
#define PETW__DECLSPEC_noinline __attribute__((noinline))
#define PETW__DECLSPEC_noreturn __attribute__((noreturn))
#define PETW__DECLSPEC_nothrow __attribute__((nothrow))
#define PETW__DECLSPEC_deprecated __attribute__((deprecated))
#define PETW__DECLSPEC_align(n) __attribute__((aligned(n)))
#define PETW__DECLSPEC_dllexport __attribute__((visibility("default")))
#define PETW__DECLSPEC_dllimport
#define PETW__DECLSPEC_novtable
#define PETW__DECLSPEC_uuid(s)
#define PETW__DECLSPEC_thread __thread
#define PETW__MAYBE_UNUSED __attribute__((unused))
#define DECLSPEC_SELECTANY __attribute__((weak))
#define DECLSPEC_NOINLINE __attribute__((noinline))
#define DECLSPEC_NORETURN __attribute__((noreturn))
#define DECLSPEC_NOTHROW __attribute__((nothrow))
#define DECLSPEC_ALIGN(n) __attribute__((aligned(n)))
/* winnt.h's cache-line alignment: 64 bytes on x86, 128 elsewhere. */
#if defined(__x86_64__) || defined(__i386__)
#define SYSTEM_CACHE_ALIGNMENT_SIZE 64
#else
#define SYSTEM_CACHE_ALIGNMENT_SIZE 128
#endif
#define DECLSPEC_CACHEALIGN DECLSPEC_ALIGN(SYSTEM_CACHE_ALIGNMENT_SIZE)
#else
#define PETW__MAYBE_UNUSED
#define DECLSPEC_SELECTANY
#define DECLSPEC_NOINLINE
#define DECLSPEC_NORETURN
#define DECLSPEC_NOTHROW
#define DECLSPEC_ALIGN(n)
#define DECLSPEC_CACHEALIGN
#endif
#define DECLSPEC_IMPORT
#define DECLSPEC_EXPORT
#define DECLSPEC_NOVTABLE
#define DECLSPEC_UUID(s)

typedef uint8_t UCHAR, BYTE, BOOLEAN, *PUCHAR, *PBYTE, *PBOOLEAN, *LPBYTE;
typedef const BYTE *LPCBYTE, *PCBYTE;
typedef char CHAR, *PCHAR;
typedef uint16_t USHORT, WORD, *PUSHORT, *PWORD;
typedef int16_t SHORT;
typedef uint32_t ULONG, DWORD, UINT, *PULONG, *PDWORD, *LPDWORD;
typedef uint32_t ULONG32, DWORD32, *PULONG32, *PDWORD32;
typedef int32_t LONG32, *PLONG32;
typedef int32_t LONG, INT, *PLONG;
typedef int BOOL, *PBOOL, *LPBOOL;
typedef uint64_t ULONGLONG, ULONG64, DWORD64, UINT64, *PULONGLONG, *PULONG64;
typedef int64_t LONGLONG, LONG64, INT64, *PLONGLONG;
typedef uint8_t UINT8, *PUINT8;
typedef int8_t INT8, *PINT8;
typedef uint16_t UINT16, *PUINT16;
typedef int16_t INT16, *PINT16;
typedef uint32_t UINT32, *PUINT32;
typedef int32_t INT32, *PINT32;
typedef LONG NTSTATUS;
typedef uintptr_t ULONG_PTR, UINT_PTR, DWORD_PTR, SIZE_T, *PULONG_PTR;
typedef intptr_t LONG_PTR, INT_PTR, LPARAM;
typedef uintptr_t WPARAM;
typedef void *PVOID, *LPVOID, *HANDLE, **PHANDLE;
typedef const void *LPCVOID, *PCVOID;
typedef wchar_t WCHAR, *PWCHAR, *LPWSTR, *PWSTR;
typedef const wchar_t *LPCWSTR, *PCWSTR;
typedef char *LPSTR, *PSTR;
typedef const char *LPCSTR, *PCSTR;
typedef HANDLE HMODULE, HINSTANCE;
typedef PVOID PSECURITY_DESCRIPTOR;

#ifdef UNICODE
typedef WCHAR TCHAR;
typedef LPWSTR LPTSTR;
typedef LPCWSTR LPCTSTR;
#define TEXT(s) L##s
#else
typedef char TCHAR;
typedef LPSTR LPTSTR;
typedef LPCSTR LPCTSTR;
#define TEXT(s) s
#endif
#define _T(s) TEXT(s)

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
#define INVALID_HANDLE_VALUE ((HANDLE)(LONG_PTR)-1)
#define MAX_PATH 260
#ifndef ANYSIZE_ARRAY
#define ANYSIZE_ARRAY 1
#endif

typedef union _LARGE_INTEGER {
    struct {
        DWORD LowPart;
        LONG HighPart;
    };
    struct {
        DWORD LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef union _ULARGE_INTEGER {
    struct {
        DWORD LowPart;
        DWORD HighPart;
    };
    struct {
        DWORD LowPart;
        DWORD HighPart;
    } u;
    ULONGLONG QuadPart;
} ULARGE_INTEGER, *PULARGE_INTEGER;

typedef struct _FILETIME {
    DWORD dwLowDateTime;
    DWORD dwHighDateTime;
} FILETIME, *PFILETIME, *LPFILETIME;

typedef struct _SYSTEMTIME {
    WORD wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond, wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME, *LPSYSTEMTIME;

typedef struct _TIME_ZONE_INFORMATION {
    LONG Bias;
    WCHAR StandardName[32];
    SYSTEMTIME StandardDate;
    LONG StandardBias;
    WCHAR DaylightName[32];
    SYSTEMTIME DaylightDate;
    LONG DaylightBias;
} TIME_ZONE_INFORMATION, *PTIME_ZONE_INFORMATION;

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
    uint32_t Data1;
    uint16_t Data2;
    uint16_t Data3;
    uint8_t Data4[8];
} GUID;
#endif
typedef GUID *LPGUID, *PGUID;
typedef const GUID *LPCGUID, *PCGUID;
typedef GUID IID, CLSID;
#ifdef __cplusplus
#define REFGUID const GUID &
#else
#define REFGUID const GUID *
#endif

/* Without INITGUID, one static copy per translation unit, so both the
 * INITGUID and the plain idiom link. With it, as on Windows: an extern "C"
 * definition with selectany (weak) semantics. <initguid.h> switches to it. */
#ifdef __cplusplus
#define PETW__GUID_EXTERN extern "C"
#else
#define PETW__GUID_EXTERN /* a file-scope const is external in C */
#endif
#ifdef INITGUID
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    PETW__GUID_EXTERN const GUID DECLSPEC_SELECTANY name = {                                       \
        l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    static const GUID name PETW__MAYBE_UNUSED = {l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#endif

#ifdef __cplusplus
static inline BOOL IsEqualGUID(const GUID &a, const GUID &b)
{
    return memcmp(&a, &b, sizeof(GUID)) == 0;
}
static inline bool operator==(const GUID &a, const GUID &b)
{
    return IsEqualGUID(a, b) != 0;
}
static inline bool operator!=(const GUID &a, const GUID &b)
{
    return !(a == b);
}
#else
#define IsEqualGUID(a, b) (memcmp((a), (b), sizeof(GUID)) == 0)
#endif
#define InlineIsEqualGUID IsEqualGUID

#define ZeroMemory(p, n) memset((p), 0, (n))
#define RtlZeroMemory(p, n) memset((p), 0, (n))
#define SecureZeroMemory(p, n) memset((p), 0, (n))
#define CopyMemory(d, s, n) memcpy((d), (s), (n))
#define RtlCopyMemory(d, s, n) memcpy((d), (s), (n))
#define MoveMemory(d, s, n) memmove((d), (s), (n))
#define FillMemory(d, n, v) memset((d), (v), (n))

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_MINWINDEF_H */
#endif /* !_WIN32 */
