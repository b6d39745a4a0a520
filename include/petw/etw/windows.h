/* windows.h - the Windows base types ETW code needs, for non-Windows hosts.
 *
 * Part of petw's ETW-compatible surface (pkg-config petw-etw). On Windows
 * this forwards to the system header. Sizes are Windows' own: ULONG and
 * LONG are 32-bit everywhere; WCHAR is wchar_t so L"..." literals work
 * (32-bit on Linux: petw converts to UTF-16LE where ETW stores text).
 */
#ifndef PETW_ETW_WINDOWS_H
#define PETW_ETW_WINDOWS_H

#if defined(_WIN32)
#include_next <windows.h>
#if !defined(PETW_USE_NATIVE_ETW)
/* The same DEFINE_GUID as on other hosts: one static copy per translation
 * unit, with or without INITGUID. */
#undef DEFINE_GUID
#if defined(__GNUC__) || defined(__clang__)
#define PETW__MAYBE_UNUSED __attribute__((unused))
#else
#define PETW__MAYBE_UNUSED
#endif
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    static const GUID name PETW__MAYBE_UNUSED = {l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#endif
#else

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#ifdef __cplusplus
#define EXTERN_C extern "C"
extern "C" {
#else
#define EXTERN_C extern
#endif

#define WINAPI
#define NTAPI
#define EVNTAPI
#define WMIAPI
#define CALLBACK
#define APIENTRY
#define FORCEINLINE static inline
#define DECLSPEC_NOINITALL
#define VOID void
#define CONST const
#define UNREFERENCED_PARAMETER(p) ((void)(p))

/* SAL annotations used by Microsoft's samples: no meaning here. */
#define _In_
#define _In_opt_
#define _In_z_
#define _In_reads_(n)
#define _In_reads_opt_(n)
#define _In_reads_bytes_(n)
#define _In_reads_bytes_opt_(n)
#define _Out_
#define _Out_opt_
#define _Out_writes_(n)
#define _Out_writes_bytes_(n)
#define _Out_writes_bytes_opt_(n)
#define _Inout_
#define _Inout_opt_
#define _Inout_updates_bytes_(n)
#define _Outptr_
#define _Ret_maybenull_
#define _Success_(e)
#define _Must_inspect_result_
#define _When_(a, b)
#define _Field_size_bytes_(n)
#define _Field_size_(n)
#define __in
#define __out
#define __inout
#define __in_opt
#define __out_opt

typedef uint8_t UCHAR, BYTE, BOOLEAN, *PUCHAR, *PBYTE, *PBOOLEAN;
typedef int8_t CHAR;
typedef uint16_t USHORT, WORD, *PUSHORT, *PWORD;
typedef int16_t SHORT;
typedef uint32_t ULONG, DWORD, UINT, *PULONG, *PDWORD, *LPDWORD;
typedef int32_t LONG, INT, *PLONG;
typedef int BOOL, *PBOOL;
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
typedef intptr_t LONG_PTR, INT_PTR;
typedef void *PVOID, *LPVOID, *HANDLE, **PHANDLE;
typedef const void *LPCVOID, *PCVOID;
typedef wchar_t WCHAR, *PWCHAR, *LPWSTR, *PWSTR;
typedef const wchar_t *LPCWSTR, *PCWSTR;
typedef char *LPSTR, *PSTR;
typedef const char *LPCSTR, *PCSTR;
typedef HANDLE HMODULE, HINSTANCE;

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

/* One static copy per translation unit, with or without INITGUID, so both
 * the INITGUID and the plain idiom link. */
#if defined(__GNUC__) || defined(__clang__)
#define PETW__MAYBE_UNUSED __attribute__((unused))
#else
#define PETW__MAYBE_UNUSED
#endif
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                               \
    static const GUID name PETW__MAYBE_UNUSED = {l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}

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

/* The calling thread's last error, set by petw's ETW functions that return
 * a handle (OpenTrace). */
DWORD GetLastError(void);
void SetLastError(DWORD code);

/* Win32 error codes ETW functions return. */
#define ERROR_SUCCESS 0L
#define NO_ERROR 0L
#define ERROR_FILE_NOT_FOUND 2L
#define ERROR_PATH_NOT_FOUND 3L
#define ERROR_ACCESS_DENIED 5L
#define ERROR_INVALID_HANDLE 6L
#define ERROR_NOT_ENOUGH_MEMORY 8L
#define ERROR_OUTOFMEMORY 14L
#define ERROR_BAD_LENGTH 24L
#define ERROR_WRITE_FAULT 29L
#define ERROR_NOT_SUPPORTED 50L
#define ERROR_INVALID_PARAMETER 87L
#define ERROR_DISK_FULL 112L
#define ERROR_INSUFFICIENT_BUFFER 122L
#define ERROR_BAD_PATHNAME 161L
#define ERROR_BAD_FILE_TYPE 222L
#define ERROR_BUSY 170L
#define ERROR_ALREADY_EXISTS 183L
#define ERROR_MORE_DATA 234L
#define ERROR_NO_MORE_ITEMS 259L
#define ERROR_ARITHMETIC_OVERFLOW 534L
#define ERROR_CANCELLED 1223L
#define ERROR_NOT_FOUND 1168L
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
#define HRESULT_FROM_WIN32(x)                                                                      \
    ((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((x)&0x0000FFFF) | (7 << 16) | 0x80000000))

#ifdef __cplusplus
}
#endif

#endif /* !_WIN32 */
#endif /* PETW_ETW_WINDOWS_H */
