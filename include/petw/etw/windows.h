/* windows.h - the Windows base types ETW code needs, for non-Windows hosts.
 *
 * Part of petw's ETW-compatible surface (pkg-config petw-etw). On Windows
 * this forwards to the system header. Sizes are Windows' own: ULONG and
 * LONG are 32-bit everywhere; WCHAR is wchar_t so L"..." literals work
 * (32-bit on Linux: petw converts to UTF-16LE where ETW stores text).
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

/* Time (minwinbase.h, timezoneapi.h, sysinfoapi.h). FileTimeToSystemTime
 * fails (FALSE, ERROR_INVALID_PARAMETER) for a FILETIME of 2^63 or more;
 * SystemTimeToFileTime for a field out of range (year 1601-30827, the day
 * in its month, hour, minute, second, millisecond; wDayOfWeek is not read).
 * FileTimeToLocalFileTime and LocalFileTimeToFileTime use the local zone's
 * offset now, daylight time included when in effect now, as Windows does. */
BOOL FileTimeToSystemTime(const FILETIME *lpFileTime, LPSYSTEMTIME lpSystemTime);
BOOL SystemTimeToFileTime(const SYSTEMTIME *lpSystemTime, LPFILETIME lpFileTime);
BOOL FileTimeToLocalFileTime(const FILETIME *lpFileTime, LPFILETIME lpLocalFileTime);
BOOL LocalFileTimeToFileTime(const FILETIME *lpLocalFileTime, LPFILETIME lpFileTime);
void GetSystemTimeAsFileTime(LPFILETIME lpSystemTimeAsFileTime);
void GetSystemTime(LPSYSTEMTIME lpSystemTime);
void GetLocalTime(LPSYSTEMTIME lpSystemTime);
/* A UTC SYSTEMTIME as local time in a zone. With lpTimeZoneInformation
 * NULL, the local zone (the C library's, TZ included) with the offset in
 * effect at that date, daylight time included, as Windows does. A zone
 * given with no daylight date (DaylightDate.wMonth 0) applies Bias +
 * StandardBias; one with yearly daylight rules fails with
 * ERROR_NOT_SUPPORTED. Fails (FALSE, ERROR_INVALID_PARAMETER) for a NULL
 * pointer or a SYSTEMTIME SystemTimeToFileTime refuses. */
BOOL SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *lpTimeZoneInformation,
                                     const SYSTEMTIME *lpUniversalTime, LPSYSTEMTIME lpLocalTime);
LONG CompareFileTime(const FILETIME *lpFileTime1, const FILETIME *lpFileTime2);

/* COM's GUID text (combaseapi.h; <objbase.h> and <combaseapi.h> include
 * this header): "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", upper case, into
 * lpsz. Returns the characters written with the NUL (39), or 0 when cchMax
 * is below 39. OLECHAR is WCHAR: 4 bytes a character on Linux. The GUID
 * is a REFGUID, as in Windows' declaration: a pointer in C, a reference in
 * C++, with no pointer overload (a class converting to both stays
 * unambiguous). */
typedef WCHAR OLECHAR, *LPOLESTR;
typedef const WCHAR *LPCOLESTR;
int StringFromGUID2(REFGUID rguid, LPOLESTR lpsz, int cchMax);

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

/* The calling thread's last error, set by petw's ETW functions that return
 * a handle (OpenTrace). */
DWORD GetLastError(void);
void SetLastError(DWORD code);

/* The process's command line (processenv.h): its arguments (Linux's
 * /proc/self/cmdline), each quoted as needed so that CommandLineToArgvW
 * (<shellapi.h>) splits them back; one string for the process's life.
 * GetCommandLineA: the same in UTF-8. NULL when out of memory. */
LPWSTR GetCommandLineW(void);
LPSTR GetCommandLineA(void);
#ifdef UNICODE
#define GetCommandLine GetCommandLineW
#else
#define GetCommandLine GetCommandLineA
#endif

/* Local and global memory (winbase.h): fixed heap blocks, freed with
 * LocalFree/GlobalFree (which return NULL). A movable block (LMEM_MOVEABLE,
 * GMEM_MOVEABLE) cannot be honoured: NULL, with ERROR_NOT_SUPPORTED. */
typedef HANDLE HLOCAL, HGLOBAL;
#define LMEM_FIXED 0x0000
#define LMEM_MOVEABLE 0x0002
#define LMEM_ZEROINIT 0x0040
#define LPTR (LMEM_FIXED | LMEM_ZEROINIT)
#define GMEM_FIXED 0x0000
#define GMEM_MOVEABLE 0x0002
#define GMEM_ZEROINIT 0x0040
#define GPTR (GMEM_FIXED | GMEM_ZEROINIT)
HLOCAL LocalAlloc(UINT uFlags, SIZE_T uBytes);
HLOCAL LocalFree(HLOCAL hMem);
HGLOBAL GlobalAlloc(UINT uFlags, SIZE_T dwBytes);
HGLOBAL GlobalFree(HGLOBAL hMem);

/* The process heap (heapapi.h): blocks from the C library's heap with
 * their size in front, 16-byte aligned. GetProcessHeap returns the one
 * heap (HeapCreate is not here); hHeap is not read otherwise. HeapAlloc:
 * NULL with ERROR_NOT_ENOUGH_MEMORY when out of memory (no exception:
 * HEAP_GENERATE_EXCEPTIONS is ignored, as HEAP_NO_SERIALIZE is; the heap is
 * always thread-safe). HEAP_ZERO_MEMORY zeroes the block, and in
 * HeapReAlloc the bytes added; HeapReAlloc with HEAP_REALLOC_IN_PLACE_ONLY
 * fails (NULL, ERROR_NOT_ENOUGH_MEMORY) unless the block shrinks or keeps
 * its size. HeapSize: the size asked for. HeapFree: TRUE (NULL included). */
#define HEAP_NO_SERIALIZE 0x00000001
#define HEAP_GENERATE_EXCEPTIONS 0x00000004
#define HEAP_ZERO_MEMORY 0x00000008
#define HEAP_REALLOC_IN_PLACE_ONLY 0x00000010
HANDLE GetProcessHeap(void);
LPVOID HeapAlloc(HANDLE hHeap, DWORD dwFlags, SIZE_T dwBytes);
LPVOID HeapReAlloc(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem, SIZE_T dwBytes);
BOOL HeapFree(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem);
SIZE_T HeapSize(HANDLE hHeap, DWORD dwFlags, LPCVOID lpMem);

/* The Windows version (sysinfoapi.h). petw implements Windows 10's ETW and
 * writes its trace files as Windows 10 does, so GetVersionEx reports
 * Windows 10: 10.0, build 19041 (version 2004), VER_PLATFORM_WIN32_NT, no
 * service pack, and in the EX form VER_NT_WORKSTATION. The Linux kernel's
 * own release is not a Windows version and is not reported. FALSE with
 * ERROR_INSUFFICIENT_BUFFER when dwOSVersionInfoSize is neither structure's
 * size. */
#define VER_PLATFORM_WIN32s 0
#define VER_PLATFORM_WIN32_WINDOWS 1
#define VER_PLATFORM_WIN32_NT 2
#define VER_NT_WORKSTATION 0x0000001
#define VER_NT_DOMAIN_CONTROLLER 0x0000002
#define VER_NT_SERVER 0x0000003
/* The fields every OSVERSIONINFO form shares; the EX forms add the rest. */
#define PETW__OSVERSION_FIELDS(CH)                                                                 \
    DWORD dwOSVersionInfoSize;                                                                     \
    DWORD dwMajorVersion;                                                                          \
    DWORD dwMinorVersion;                                                                          \
    DWORD dwBuildNumber;                                                                           \
    DWORD dwPlatformId;                                                                            \
    CH szCSDVersion[128]
#define PETW__OSVERSION_EX_FIELDS                                                                  \
    WORD wServicePackMajor;                                                                        \
    WORD wServicePackMinor;                                                                        \
    WORD wSuiteMask;                                                                               \
    BYTE wProductType;                                                                             \
    BYTE wReserved
typedef struct _OSVERSIONINFOA {
    PETW__OSVERSION_FIELDS(CHAR);
} OSVERSIONINFOA, *POSVERSIONINFOA, *LPOSVERSIONINFOA;
typedef struct _OSVERSIONINFOW {
    PETW__OSVERSION_FIELDS(WCHAR);
} OSVERSIONINFOW, *POSVERSIONINFOW, *LPOSVERSIONINFOW, RTL_OSVERSIONINFOW, *PRTL_OSVERSIONINFOW;
typedef struct _OSVERSIONINFOEXA {
    PETW__OSVERSION_FIELDS(CHAR);
    PETW__OSVERSION_EX_FIELDS;
} OSVERSIONINFOEXA, *POSVERSIONINFOEXA, *LPOSVERSIONINFOEXA;
typedef struct _OSVERSIONINFOEXW {
    PETW__OSVERSION_FIELDS(WCHAR);
    PETW__OSVERSION_EX_FIELDS;
} OSVERSIONINFOEXW, *POSVERSIONINFOEXW, *LPOSVERSIONINFOEXW, RTL_OSVERSIONINFOEXW,
    *PRTL_OSVERSIONINFOEXW;
BOOL GetVersionExA(LPOSVERSIONINFOA lpVersionInformation);
BOOL GetVersionExW(LPOSVERSIONINFOW lpVersionInformation);
#ifdef UNICODE
typedef OSVERSIONINFOW OSVERSIONINFO, *POSVERSIONINFO, *LPOSVERSIONINFO;
typedef OSVERSIONINFOEXW OSVERSIONINFOEX, *POSVERSIONINFOEX, *LPOSVERSIONINFOEX;
#define GetVersionEx GetVersionExW
#else
typedef OSVERSIONINFOA OSVERSIONINFO, *POSVERSIONINFO, *LPOSVERSIONINFO;
typedef OSVERSIONINFOEXA OSVERSIONINFOEX, *POSVERSIONINFOEX, *LPOSVERSIONINFOEX;
#define GetVersionEx GetVersionExA
#endif

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

/* Code pages (stringapiset.h). The ANSI code pages (CP_ACP, CP_OEMCP,
 * CP_MACCP, CP_THREAD_ACP) are UTF-8 on Linux, as is CP_UTF8; another code
 * page fails with ERROR_INVALID_PARAMETER, as one Windows lacks does. Wide
 * text is WCHAR: UTF-32 on Linux, so a character beyond U+FFFF is one
 * WCHAR (Windows counts two, a surrogate pair).
 *
 * MultiByteToWideChar converts cbMultiByte bytes, or with -1 the string
 * and its NUL (then counted in the result), into at most cchWideChar
 * WCHARs; it returns the WCHARs written, or with cchWideChar 0 those
 * needed (lpWideCharStr is not read). Input that is not UTF-8 becomes
 * U+FFFD, or with MB_ERR_INVALID_CHARS fails (0, ERROR_NO_UNICODE_TRANSLATION).
 * Flags: MB_ERR_INVALID_CHARS; with the ANSI code pages also
 * MB_PRECOMPOSED and MB_USEGLYPHCHARS, which change nothing for UTF-8
 * (MB_COMPOSITE, decomposing, is not done: ERROR_INVALID_FLAGS, as any
 * other flag). WideCharToMultiByte is its inverse, with cbMultiByte 0 for
 * the size; a lone surrogate or a value above U+10FFFF becomes U+FFFD, or
 * with WC_ERR_INVALID_CHARS fails with ERROR_NO_UNICODE_TRANSLATION.
 * CP_UTF8 takes only that flag and no lpDefaultChar or lpUsedDefaultChar
 * (ERROR_INVALID_FLAGS, ERROR_INVALID_PARAMETER), as on Windows; the ANSI
 * code pages take Windows' WC_ flags, which change nothing, and set
 * *lpUsedDefaultChar when a character was replaced (by lpDefaultChar's
 * first byte, when given). Both: 0 with ERROR_INSUFFICIENT_BUFFER when
 * the output does not fit (what fit is written), ERROR_INVALID_PARAMETER
 * for a length of 0 or below -1, a NULL input, or the same buffer for
 * both. */
#define CP_ACP 0
#define CP_OEMCP 1
#define CP_MACCP 2
#define CP_THREAD_ACP 3
#define CP_SYMBOL 42
#define CP_UTF7 65000
#define CP_UTF8 65001
#define MB_PRECOMPOSED 0x00000001
#define MB_COMPOSITE 0x00000002
#define MB_USEGLYPHCHARS 0x00000004
#define MB_ERR_INVALID_CHARS 0x00000008
#define WC_COMPOSITECHECK 0x00000200
#define WC_DISCARDNS 0x00000010
#define WC_SEPCHARS 0x00000020
#define WC_DEFAULTCHAR 0x00000040
#define WC_ERR_INVALID_CHARS 0x00000080
#define WC_NO_BEST_FIT_CHARS 0x00000400
int MultiByteToWideChar(UINT CodePage, DWORD dwFlags, LPCSTR lpMultiByteStr, int cbMultiByte,
                        LPWSTR lpWideCharStr, int cchWideChar);
int WideCharToMultiByte(UINT CodePage, DWORD dwFlags, LPCWSTR lpWideCharStr, int cchWideChar,
                        LPSTR lpMultiByteStr, int cbMultiByte, LPCSTR lpDefaultChar,
                        LPBOOL lpUsedDefaultChar);
/* LCMapStringEx (winnls.h) for the mappings ETW code uses: LCMAP_UPPERCASE
 * or LCMAP_LOWERCASE (the C library's case mapping, whatever the locale
 * name: LOCALE_NAME_INVARIANT, NULL or another), and LCMAP_BYTEREV, which
 * swaps the two bytes of each UTF-16 unit (WCHAR values up to U+FFFF; on
 * Linux a WCHAR is 4 bytes, so code hashing the result as 2-byte units,
 * such as TraceLoggingDynamic's name-to-GUID, gets another GUID than on
 * Windows). In place when lpDestStr is lpSrcStr. Returns the WCHARs
 * written (with the NUL when cchSrc is -1), or with cchDest 0 those
 * needed; 0 with ERROR_INVALID_FLAGS for other flags,
 * ERROR_INSUFFICIENT_BUFFER, or ERROR_INVALID_PARAMETER (NULL source, a
 * length of 0 or below -1, a version, reserved or sort handle). */
#define LOCALE_NAME_INVARIANT L""
#define LOCALE_NAME_USER_DEFAULT NULL
#define LCMAP_LOWERCASE 0x00000100
#define LCMAP_UPPERCASE 0x00000200
#define LCMAP_BYTEREV 0x00000800
int LCMapStringEx(LPCWSTR lpLocaleName, DWORD dwMapFlags, LPCWSTR lpSrcStr, int cchSrc,
                  LPWSTR lpDestStr, int cchDest, LPVOID lpVersionInformation, LPVOID lpReserved,
                  LPARAM sortHandle);
/* Dates and times as text (datetimeapi.h), for the pictures consumer code
 * passes: d, dd, ddd, dddd, M, MM, MMM, MMMM, y, yy, yyyy (dates); h, hh,
 * H, HH, m, mm, s, ss, t, tt (times); text in single quotes ('' is a
 * quote) and any other character kept. Names and the default pictures
 * (lpFormat NULL: "M/d/yyyy", "h:mm:ss tt") are en-US's, whatever the
 * locale (LOCALE_USER_DEFAULT, LOCALE_SYSTEM_DEFAULT, LOCALE_INVARIANT or a
 * name for the Ex forms). lpDate / lpTime NULL means the local time now.
 * Returns the characters written with the NUL, or with cchDate 0 those
 * needed; 0 with ERROR_INSUFFICIENT_BUFFER, ERROR_INVALID_FLAGS (dwFlags
 * other than 0) or ERROR_INVALID_PARAMETER (an invalid date or time). */
typedef DWORD LCID;
#define LOCALE_USER_DEFAULT ((LCID)0x0400)
#define LOCALE_SYSTEM_DEFAULT ((LCID)0x0800)
#define LOCALE_INVARIANT ((LCID)0x007f)
#define LOCALE_NAME_SYSTEM_DEFAULT L"!x-sys-default-locale"
int GetDateFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                   LPWSTR lpDateStr, int cchDate);
int GetTimeFormatW(LCID Locale, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                   LPWSTR lpTimeStr, int cchTime);
int GetDateFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpDate, LPCWSTR lpFormat,
                    LPWSTR lpDateStr, int cchDate, LPCWSTR lpCalendar);
int GetTimeFormatEx(LPCWSTR lpLocaleName, DWORD dwFlags, const SYSTEMTIME *lpTime, LPCWSTR lpFormat,
                    LPWSTR lpTimeStr, int cchTime);
#ifdef UNICODE
#define GetDateFormat GetDateFormatW
#define GetTimeFormat GetTimeFormatW
#endif
/* The code pages: always CP_UTF8 (65001) on Linux. */
UINT GetACP(void);
UINT GetOEMCP(void);

/* Security identifiers (winnt.h, securitybaseapi.h). A SID is laid out
 * as Windows lays it out: PSID points at one. GetLengthSid: 8 + 4 bytes a
 * sub-authority (the SID is not checked). IsValidSid: revision 1 and at
 * most 15 sub-authorities. EqualSid: both valid and the same bytes (FALSE
 * with ERROR_INVALID_SID when one is not valid). CopySid: FALSE with
 * ERROR_INSUFFICIENT_BUFFER when nDestinationSidLength is too small,
 * ERROR_INVALID_SID for an invalid source.
 *
 * CreateWellKnownSid builds the SIDs that do not depend on a machine or a
 * domain, as Windows does (WinWorldSid S-1-1-0, WinLocalSystemSid
 * S-1-5-18, WinBuiltinAdministratorsSid S-1-5-32-544, the mandatory
 * labels, ...); DomainSid is not read. With *cbSid too small: FALSE,
 * ERROR_INSUFFICIENT_BUFFER and *cbSid the size needed. A type petw does
 * not build (the account and domain SIDs, which need a domain, and the
 * logon and capability SIDs): FALSE with ERROR_NOT_SUPPORTED; a value
 * outside the enumeration: ERROR_INVALID_PARAMETER.
 *
 * AllocateAndInitializeSid: a SID of nSubAuthorityCount (1-8) of the
 * given sub-authorities, freed with FreeSid (which returns NULL). */
typedef struct _SID_IDENTIFIER_AUTHORITY {
    BYTE Value[6];
} SID_IDENTIFIER_AUTHORITY, *PSID_IDENTIFIER_AUTHORITY;
typedef struct _SID {
    BYTE Revision;
    BYTE SubAuthorityCount;
    SID_IDENTIFIER_AUTHORITY IdentifierAuthority;
    DWORD SubAuthority[ANYSIZE_ARRAY];
} SID, *PISID;
typedef PVOID PSID;
typedef struct _SID_AND_ATTRIBUTES {
    PSID Sid;
    DWORD Attributes;
} SID_AND_ATTRIBUTES, *PSID_AND_ATTRIBUTES;
typedef struct _TOKEN_USER {
    SID_AND_ATTRIBUTES User;
} TOKEN_USER, *PTOKEN_USER;
#define SID_REVISION 1
#define SID_MAX_SUB_AUTHORITIES 15
#define SID_RECOMMENDED_SUB_AUTHORITIES 1
#define SECURITY_MAX_SID_SIZE                                                                      \
    (sizeof(SID) - sizeof(DWORD) + (SID_MAX_SUB_AUTHORITIES * sizeof(DWORD)))
/* An identifier authority: 48 bits, big-endian (SID_IDENTIFIER_AUTHORITY). */
#define PETW__SID_AUTHORITY(n)                                                                     \
    {                                                                                              \
        {                                                                                          \
            0, 0, 0, 0, 0, n                                                                       \
        }                                                                                          \
    }
#define SECURITY_NULL_SID_AUTHORITY PETW__SID_AUTHORITY(0)
#define SECURITY_WORLD_SID_AUTHORITY PETW__SID_AUTHORITY(1)
#define SECURITY_LOCAL_SID_AUTHORITY PETW__SID_AUTHORITY(2)
#define SECURITY_CREATOR_SID_AUTHORITY PETW__SID_AUTHORITY(3)
#define SECURITY_NT_AUTHORITY PETW__SID_AUTHORITY(5)
#define SECURITY_MANDATORY_LABEL_AUTHORITY PETW__SID_AUTHORITY(16)
#define SECURITY_NULL_RID 0x00000000L
#define SECURITY_WORLD_RID 0x00000000L
#define SECURITY_LOCAL_RID 0x00000000L
#define SECURITY_INTERACTIVE_RID 0x00000004L
#define SECURITY_SERVICE_RID 0x00000006L
#define SECURITY_AUTHENTICATED_USER_RID 0x0000000BL
#define SECURITY_LOCAL_SYSTEM_RID 0x00000012L
#define SECURITY_LOCAL_SERVICE_RID 0x00000013L
#define SECURITY_NETWORK_SERVICE_RID 0x00000014L
#define SECURITY_BUILTIN_DOMAIN_RID 0x00000020L
#define DOMAIN_ALIAS_RID_ADMINS 0x00000220L
#define DOMAIN_ALIAS_RID_USERS 0x00000221L
#define DOMAIN_ALIAS_RID_GUESTS 0x00000222L
#define DOMAIN_ALIAS_RID_POWER_USERS 0x00000223L
#define DOMAIN_ALIAS_RID_MONITORING_USERS 0x0000022EL
#define DOMAIN_ALIAS_RID_LOGGING_USERS 0x0000022FL
#define DOMAIN_ALIAS_RID_EVENT_LOG_READERS_GROUP 0x0000023DL
typedef enum {
    WinNullSid = 0,
    WinWorldSid = 1,
    WinLocalSid = 2,
    WinCreatorOwnerSid = 3,
    WinCreatorGroupSid = 4,
    WinCreatorOwnerServerSid = 5,
    WinCreatorGroupServerSid = 6,
    WinNtAuthoritySid = 7,
    WinDialupSid = 8,
    WinNetworkSid = 9,
    WinBatchSid = 10,
    WinInteractiveSid = 11,
    WinServiceSid = 12,
    WinAnonymousSid = 13,
    WinProxySid = 14,
    WinEnterpriseControllersSid = 15,
    WinSelfSid = 16,
    WinAuthenticatedUserSid = 17,
    WinRestrictedCodeSid = 18,
    WinTerminalServerSid = 19,
    WinRemoteLogonIdSid = 20,
    WinLogonIdsSid = 21,
    WinLocalSystemSid = 22,
    WinLocalServiceSid = 23,
    WinNetworkServiceSid = 24,
    WinBuiltinDomainSid = 25,
    WinBuiltinAdministratorsSid = 26,
    WinBuiltinUsersSid = 27,
    WinBuiltinGuestsSid = 28,
    WinBuiltinPowerUsersSid = 29,
    WinBuiltinAccountOperatorsSid = 30,
    WinBuiltinSystemOperatorsSid = 31,
    WinBuiltinPrintOperatorsSid = 32,
    WinBuiltinBackupOperatorsSid = 33,
    WinBuiltinReplicatorSid = 34,
    WinBuiltinPreWindows2000CompatibleAccessSid = 35,
    WinBuiltinRemoteDesktopUsersSid = 36,
    WinBuiltinNetworkConfigurationOperatorsSid = 37,
    WinAccountAdministratorSid = 38,
    WinAccountGuestSid = 39,
    WinAccountKrbtgtSid = 40,
    WinAccountDomainAdminsSid = 41,
    WinAccountDomainUsersSid = 42,
    WinAccountDomainGuestsSid = 43,
    WinAccountComputersSid = 44,
    WinAccountControllersSid = 45,
    WinAccountCertAdminsSid = 46,
    WinAccountSchemaAdminsSid = 47,
    WinAccountEnterpriseAdminsSid = 48,
    WinAccountPolicyAdminsSid = 49,
    WinAccountRasAndIasServersSid = 50,
    WinNTLMAuthenticationSid = 51,
    WinDigestAuthenticationSid = 52,
    WinSChannelAuthenticationSid = 53,
    WinThisOrganizationSid = 54,
    WinOtherOrganizationSid = 55,
    WinBuiltinIncomingForestTrustBuildersSid = 56,
    WinBuiltinPerfMonitoringUsersSid = 57,
    WinBuiltinPerfLoggingUsersSid = 58,
    WinBuiltinAuthorizationAccessSid = 59,
    WinBuiltinTerminalServerLicenseServersSid = 60,
    WinBuiltinDCOMUsersSid = 61,
    WinBuiltinIUsersSid = 62,
    WinIUserSid = 63,
    WinBuiltinCryptoOperatorsSid = 64,
    WinUntrustedLabelSid = 65,
    WinLowLabelSid = 66,
    WinMediumLabelSid = 67,
    WinHighLabelSid = 68,
    WinSystemLabelSid = 69,
    WinWriteRestrictedCodeSid = 70,
    WinCreatorOwnerRightsSid = 71,
    WinCacheablePrincipalsGroupSid = 72,
    WinNonCacheablePrincipalsGroupSid = 73,
    WinEnterpriseReadonlyControllersSid = 74,
    WinAccountReadonlyControllersSid = 75,
    WinBuiltinEventLogReadersGroup = 76,
    WinNewEnterpriseReadonlyControllersSid = 77,
    WinBuiltinCertSvcDComAccessGroup = 78,
    WinMediumPlusLabelSid = 79,
    WinLocalLogonSid = 80,
    WinConsoleLogonSid = 81,
    WinThisOrganizationCertificateSid = 82,
    WinApplicationPackageAuthoritySid = 83,
    WinBuiltinAnyPackageSid = 84,
    WinCapabilityInternetClientSid = 85,
    WinCapabilityInternetClientServerSid = 86,
    WinCapabilityPrivateNetworkClientServerSid = 87,
    WinCapabilityPicturesLibrarySid = 88,
    WinCapabilityVideosLibrarySid = 89,
    WinCapabilityMusicLibrarySid = 90,
    WinCapabilityDocumentsLibrarySid = 91,
    WinCapabilitySharedUserCertificatesSid = 92,
    WinCapabilityEnterpriseAuthenticationSid = 93,
    WinCapabilityRemovableStorageSid = 94,
    WinBuiltinRDSRemoteAccessServersSid = 95,
    WinBuiltinRDSEndpointServersSid = 96,
    WinBuiltinRDSManagementServersSid = 97,
    WinUserModeDriversSid = 98,
    WinBuiltinHyperVAdminsSid = 99,
    WinAccountCloneableControllersSid = 100,
    WinBuiltinAccessControlAssistanceOperatorsSid = 101,
    WinBuiltinRemoteManagementUsersSid = 102,
    WinAuthenticationAuthorityAssertedSid = 103,
    WinAuthenticationServiceAssertedSid = 104,
    WinLocalAccountSid = 105,
    WinLocalAccountAndAdministratorSid = 106,
    WinAccountProtectedUsersSid = 107,
    WinCapabilityAppointmentsSid = 108,
    WinCapabilityContactsSid = 109,
    WinAccountDefaultSystemManagedSid = 110,
    WinBuiltinDefaultSystemManagedGroupSid = 111,
    WinBuiltinStorageReplicaAdminsSid = 112,
    WinAccountKeyAdminsSid = 113,
    WinAccountEnterpriseKeyAdminsSid = 114,
    WinAuthenticationKeyTrustSid = 115,
    WinAuthenticationKeyPropertyMFASid = 116,
    WinAuthenticationKeyPropertyAttestationSid = 117
} WELL_KNOWN_SID_TYPE;
DWORD GetLengthSid(PSID pSid);
BOOL IsValidSid(PSID pSid);
BOOL EqualSid(PSID pSid1, PSID pSid2);
BOOL CopySid(DWORD nDestinationSidLength, PSID pDestinationSid, PSID pSourceSid);
BOOL CreateWellKnownSid(WELL_KNOWN_SID_TYPE WellKnownSidType, PSID DomainSid, PSID pSid,
                        DWORD *cbSid);
BOOL AllocateAndInitializeSid(PSID_IDENTIFIER_AUTHORITY pIdentifierAuthority,
                              BYTE nSubAuthorityCount, DWORD nSubAuthority0, DWORD nSubAuthority1,
                              DWORD nSubAuthority2, DWORD nSubAuthority3, DWORD nSubAuthority4,
                              DWORD nSubAuthority5, DWORD nSubAuthority6, DWORD nSubAuthority7,
                              PSID *pSid);
PVOID FreeSid(PSID pSid);
DWORD GetSidLengthRequired(UCHAR nSubAuthorityCount);
PDWORD GetSidSubAuthority(PSID pSid, DWORD nSubAuthority);
PUCHAR GetSidSubAuthorityCount(PSID pSid);
PSID_IDENTIFIER_AUTHORITY GetSidIdentifierAuthority(PSID pSid);

/* Win32 error codes ETW functions return. */
#define ERROR_SUCCESS 0L
#define NO_ERROR 0L
#define ERROR_FILE_NOT_FOUND 2L
#define ERROR_PATH_NOT_FOUND 3L
#define ERROR_ACCESS_DENIED 5L
#define ERROR_INVALID_HANDLE 6L
#define ERROR_NOT_ENOUGH_MEMORY 8L
#define ERROR_INVALID_DATA 13L
#define ERROR_OUTOFMEMORY 14L
#define ERROR_BAD_LENGTH 24L
#define ERROR_WRITE_FAULT 29L
#define ERROR_NOT_SUPPORTED 50L
#define ERROR_INVALID_PARAMETER 87L
#define ERROR_DISK_FULL 112L
#define ERROR_INSUFFICIENT_BUFFER 122L
#define ERROR_BAD_PATHNAME 161L
#define ERROR_BAD_FILE_TYPE 222L
#define ERROR_BROKEN_PIPE 109L
#define ERROR_PROCESS_ABORTED 1067L
#define ERROR_TIMEOUT 1460L
#define ERROR_BUSY 170L
#define ERROR_ALREADY_EXISTS 183L
#define ERROR_MORE_DATA 234L
#define ERROR_NO_MORE_ITEMS 259L
#define ERROR_ARITHMETIC_OVERFLOW 534L
#define ERROR_CANCELLED 1223L
#define ERROR_NOT_FOUND 1168L
#define ERROR_INVALID_FLAGS 1004L
#define ERROR_NO_UNICODE_TRANSLATION 1113L
#define ERROR_INVALID_SID 1337L
#define ERROR_FILE_CORRUPT 1392L
#define ERROR_NO_SYSTEM_RESOURCES 1450L
#define ERROR_FUNCTION_FAILED 1627L
#define ERROR_WMI_GUID_NOT_FOUND 4200L
#define ERROR_WMI_INSTANCE_NOT_FOUND 4201L
#define ERROR_CTX_CLOSE_PENDING 7007L
#define ERROR_EVT_INVALID_EVENT_DATA 15005L

/* COM-style results (TraceLoggingRegister returns one). */
typedef LONG HRESULT;
#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#define E_FAIL ((HRESULT)0x80004005L)
#define E_INVALIDARG ((HRESULT)0x80070057L)
#define E_OUTOFMEMORY ((HRESULT)0x8007000EL)
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#define FACILITY_WIN32 7
#define HRESULT_CODE(hr) ((hr)&0xFFFF)
#define HRESULT_FACILITY(hr) (((hr) >> 16) & 0x1fff)
#define HRESULT_SEVERITY(hr) (((hr) >> 31) & 0x1)
#define MAKE_HRESULT(sev, fac, code)                                                               \
    ((HRESULT)(((unsigned long)(sev) << 31) | ((unsigned long)(fac) << 16) |                       \
               ((unsigned long)(code))))
#define HRESULT_FROM_WIN32(x)                                                                      \
    ((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((x)&0x0000FFFF) | (7 << 16) | 0x80000000))

/* COM's task memory and GUID text as a new string (combaseapi.h, which
 * Windows' <windows.h> includes): CoTaskMemAlloc/CoTaskMemFree are malloc
 * and free; StringFromCLSID returns in *lplpsz the StringFromGUID2 text,
 * which the caller frees with CoTaskMemFree: S_OK, E_INVALIDARG for a NULL
 * pointer (*lplpsz NULL), E_OUTOFMEMORY. */
LPVOID CoTaskMemAlloc(SIZE_T cb);
void CoTaskMemFree(LPVOID pv);
HRESULT StringFromCLSID(REFGUID rclsid, LPOLESTR *lplpsz);

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
