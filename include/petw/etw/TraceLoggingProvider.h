/* SPDX-License-Identifier: MIT */
/* TraceLoggingProvider.h - TraceLogging for C and C++, for non-Windows hosts
 * (and for Windows builds that use petw's engine).
 *
 * Part of petw's ETW-compatible surface (pkg-config petw-etw). Code written
 * as Microsoft documents TraceLogging compiles unchanged:
 *
 *     TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "Contoso.Sample",
 *         (0x1b2c3d4e, 0x1111, 0x5222, 0x83, 0x33, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66));
 *     TraceLoggingRegister(g_hProvider);
 *     TraceLoggingWrite(g_hProvider, "Started",
 *         TraceLoggingLevel(WINEVENT_LEVEL_INFO), TraceLoggingKeyword(0x1),
 *         TraceLoggingInt32(argc), TraceLoggingString(argv[0], "program"));
 *     TraceLoggingUnregister(g_hProvider);
 *
 * Wire format: each event carries the provider traits (u16 size, UTF-8
 * name, optional group trait) and the event metadata (u16 size, tags, event
 * name, then per field its name, in-type, optional out-type and array count)
 * as Windows TraceLogging encodes them, so a Windows-written and a
 * petw-written event of the same definition have byte-identical
 * PROV_TRAITS / EVENT_SCHEMA_TL items. The event metadata is a static const
 * object built by the compiler: the write path only copies.
 *
 * C (C11) and C++ (C++11 and later), both with the `, ##__VA_ARGS__`
 * extension gcc, clang and MSVC share. C and C++ translation units write
 * byte-identical metadata and payloads for the same TraceLoggingWrite, and
 * share providers (the handles have C linkage).
 *
 * Limits, compared with Windows' header:
 * - up to 64 arguments per TraceLoggingWrite (Windows: 99);
 * - field tags (the optional fourth argument of a field macro) and field
 *   descriptions are accepted and ignored (Windows puts tags in the
 *   metadata); event tags (TraceLoggingEventTag) are encoded;
 * - TraceLoggingValue picks the encoding from the type: in C++ by overloads,
 *   as Windows does (bool, char, wchar_t, char16_t, signed/unsigned char,
 *   short, int, long, long long, float, double, const char *, const
 *   wchar_t *, const char16_t *, in C++20 const char8_t * (UTF-8), GUID,
 *   FILETIME, SYSTEMTIME, other pointers as TraceLoggingPointer); in C with
 *   _Generic (Windows offers it in C++ only), where wchar_t and char16_t are
 *   the integers they are typedefs of, and pointers other than strings are
 *   refused.
 * wchar_t text is stored as UTF-16LE, as Windows stores it (converted from
 * 32-bit wchar_t on Linux, in a per-thread 64 KB scratch area: an event
 * whose text does not fit is refused like any event over 64 KB).
 */
#ifndef PETW_ETW_TRACELOGGINGPROVIDER_H
#define PETW_ETW_TRACELOGGINGPROVIDER_H

#if defined(_WIN32) && defined(PETW_USE_NATIVE_ETW)
#include_next <TraceLoggingProvider.h>
#else

#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "evntprov.h"
#include "winmeta.h"

/* ---- Providers ---------------------------------------------------------- */

typedef struct petw__tlg_provider {
    const char *name;
    GUID id;
    GUID group; /* TraceLoggingOptionGroup */
    int has_group;
    REGHANDLE handle; /* 0 until registered */
} petw__tlg_provider;

typedef petw__tlg_provider *TraceLoggingHProvider;
typedef PENABLECALLBACK TLG_PENABLECALLBACK;
typedef HRESULT TLG_STATUS; /* what the provider functions return (user mode) */

#define PETW__TLG_GUID(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                                  \
    {                                                                                              \
        l, w1, w2,                                                                                 \
        {                                                                                          \
            b1, b2, b3, b4, b5, b6, b7, b8                                                         \
        }                                                                                          \
    }

#ifndef __cplusplus
/* Declares a provider handle defined in another translation unit. */
#define TRACELOGGING_DECLARE_PROVIDER(handle) extern TraceLoggingHProvider const handle

/* Defines `handle` for the provider `name` with the GUID given as a
 * parenthesized list, optionally followed by TraceLoggingOptionGroup(...). */
#define TRACELOGGING_DEFINE_PROVIDER(handle, provider_name, provider_id, ...)                      \
    static petw__tlg_provider petw__tlg_storage_##handle = {                                       \
        .name = provider_name, .id = PETW__TLG_GUID provider_id, __VA_ARGS__};                     \
    TraceLoggingHProvider const handle = &petw__tlg_storage_##handle

/* Defines only the provider's storage, `storage`; a handle is its address
 * (TraceLoggingHProvider const h = &storage;). */
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, provider_name, provider_id, ...)             \
    static petw__tlg_provider storage = {                                                          \
        .name = provider_name, .id = PETW__TLG_GUID provider_id, __VA_ARGS__}

/* The provider belongs to a provider group (a group trait in the traits). */
#define TraceLoggingOptionGroup(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                         \
    .group = PETW__TLG_GUID(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8), .has_group = 1
#else
/* C++: the same, with C linkage (a C and a C++ file share a handle), the
 * storage built by constexpr functions (constant-initialized). */
#define TRACELOGGING_DECLARE_PROVIDER(handle) extern "C" TraceLoggingHProvider const handle
#define TRACELOGGING_DEFINE_PROVIDER(handle, provider_name, provider_id, ...)                      \
    static petw__tlg_provider petw__tlg_storage_##handle =                                         \
        petw__tlg_provider_init(provider_name, petw__tlg_guid provider_id, ##__VA_ARGS__);         \
    extern "C" TraceLoggingHProvider const handle = &petw__tlg_storage_##handle
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, provider_name, provider_id, ...)             \
    static petw__tlg_provider storage =                                                            \
        petw__tlg_provider_init(provider_name, petw__tlg_guid provider_id, ##__VA_ARGS__)
#define TraceLoggingOptionGroup(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                         \
    petw__tlg_group_option                                                                         \
    {                                                                                              \
        petw__tlg_guid(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                                  \
    }

extern "C++" {
struct petw__tlg_group_option {
    GUID group;
};
constexpr GUID petw__tlg_guid(uint32_t l, uint16_t w1, uint16_t w2, uint8_t b1, uint8_t b2,
                              uint8_t b3, uint8_t b4, uint8_t b5, uint8_t b6, uint8_t b7,
                              uint8_t b8)
{
    return GUID{l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}};
}
constexpr petw__tlg_provider petw__tlg_provider_init(const char *name, GUID id)
{
    return petw__tlg_provider{name, id, GUID{0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}}, 0, 0};
}
constexpr petw__tlg_provider petw__tlg_provider_init(const char *name, GUID id,
                                                     petw__tlg_group_option option)
{
    return petw__tlg_provider{name, id, option.group, 1, 0};
}
}
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* Registers the provider. Returns S_OK, or HRESULT_FROM_WIN32 of
 * EventRegister's error (E_INVALIDARG when already registered). */
HRESULT petw__tlg_register(petw__tlg_provider *provider, PENABLECALLBACK callback, void *context);
void petw__tlg_unregister(petw__tlg_provider *provider);
/* Describes `text` (NUL-terminated when `count` < 0, else `count` wchar_t)
 * as UTF-16LE, converted into the calling thread's scratch area from offset
 * *used (advanced): one descriptor, or two (u16 byte count, then the text)
 * when counted. Returns the number of descriptors. Text that does not fit
 * gets a size over 64 KB, so the write fails like any oversized event. */
int petw__tlg_wide(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *text, long count);
/* TraceLoggingValue's data: `kind` 0 the value's bytes, 1 a char string,
 * 2 a wchar_t string (as petw__tlg_wide). Returns 1. */
int petw__tlg_value(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *value, size_t size,
                    int kind);
/* As petw__tlg_wide, for text already in UTF-16 (char16_t, host order). */
int petw__tlg_wide16(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const void *text, long count);
/* `n` wchar_t as UTF-16 code units in the scratch area (as petw__tlg_wide):
 * `counted` 1, a variable array (u16 count of code units, then the units;
 * two descriptors), 0 a fixed array of exactly `n` units (one). */
int petw__tlg_wchars(uint32_t *used, PEVENT_DATA_DESCRIPTOR d, const wchar_t *p, size_t n,
                     int counted);
#ifdef __cplusplus
}
#endif

#define TraceLoggingRegister(h) petw__tlg_register((h), NULL, NULL)
#define TraceLoggingRegisterEx(h, callback, context) petw__tlg_register((h), (callback), (context))
#define TraceLoggingUnregister(h) petw__tlg_unregister(h)
/* Whether the sessions enabling the provider together accept the level and
 * keyword (inline: as Windows, from their combined level and keywords; an
 * event it passes may still match no one session). TraceLoggingWrite's
 * own check. */
#define TraceLoggingProviderEnabled(h, level, keyword)                                             \
    ((BOOLEAN)petw__provider_accepts_load((h)->handle, (UCHAR)(level), (ULONGLONG)(keyword)))
#define TraceLoggingProviderId(h) ((const GUID *)&(h)->id)
/* EventSetInformation on the registered provider, as an HRESULT
 * (HRESULT_FROM_WIN32 of its error; of ERROR_INVALID_HANDLE before
 * TraceLoggingRegister). */
PETW__ETW_INLINE TLG_STATUS TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
                                                       EVENT_INFO_CLASS InformationClass,
                                                       PVOID pvInformation, ULONG cbInformation)
{
    ULONG r = hProvider->handle ? EventSetInformation(hProvider->handle, InformationClass,
                                                      pvInformation, cbInformation)
                                : (ULONG)ERROR_INVALID_HANDLE;
    return HRESULT_FROM_WIN32(r);
}

/* ---- Event attributes ------------------------------------------------------ */

#define TraceLoggingLevel(level) (petw__tlgk_level, level)
#define TraceLoggingKeyword(keyword) (petw__tlgk_keyword, keyword)
#define TraceLoggingOpcode(opcode) (petw__tlgk_opcode, opcode)
#define TraceLoggingChannel(channel) (petw__tlgk_channel, channel)
#define TraceLoggingEventTag(tags) (petw__tlgk_tag, tags)
#define TraceLoggingDescription(text) (petw__tlgk_none, text)

/* ---- Fields ------------------------------------------------------------------
 * Each takes the value(s), then optionally "name" (default: the value's
 * text), "description" and tags. In-types and out-types as Windows'. */

#define PETW__TLG_NAME(text, ...) PETW__TLG_NAME_(text, ##__VA_ARGS__, text)
#define PETW__TLG_NAME_(text, name, ...) name

#define PETW__TLG_IN_INTPTR (sizeof(void *) == 8 ? 9 : 7)
#define PETW__TLG_IN_UINTPTR (sizeof(void *) == 8 ? 10 : 8)
#define PETW__TLG_IN_POINTER (sizeof(void *) == 8 ? 21 : 20)

#define PETW__TLG_SCALAR(type, value, in, out, ...)                                                \
    (petw__tlgk_scalar, type, value, in, out, PETW__TLG_NAME(#value, ##__VA_ARGS__))
#define TraceLoggingInt8(v, ...) PETW__TLG_SCALAR(int8_t, v, 3, 0, ##__VA_ARGS__)
#define TraceLoggingUInt8(v, ...) PETW__TLG_SCALAR(uint8_t, v, 4, 0, ##__VA_ARGS__)
#define TraceLoggingInt16(v, ...) PETW__TLG_SCALAR(int16_t, v, 5, 0, ##__VA_ARGS__)
#define TraceLoggingUInt16(v, ...) PETW__TLG_SCALAR(uint16_t, v, 6, 0, ##__VA_ARGS__)
#define TraceLoggingInt32(v, ...) PETW__TLG_SCALAR(int32_t, v, 7, 0, ##__VA_ARGS__)
#define TraceLoggingUInt32(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 0, ##__VA_ARGS__)
#define TraceLoggingInt64(v, ...) PETW__TLG_SCALAR(int64_t, v, 9, 0, ##__VA_ARGS__)
#define TraceLoggingUInt64(v, ...) PETW__TLG_SCALAR(uint64_t, v, 10, 0, ##__VA_ARGS__)
#define TraceLoggingIntPtr(v, ...)                                                                 \
    PETW__TLG_SCALAR(intptr_t, v, PETW__TLG_IN_INTPTR, 0, ##__VA_ARGS__)
#define TraceLoggingUIntPtr(v, ...)                                                                \
    PETW__TLG_SCALAR(uintptr_t, v, PETW__TLG_IN_UINTPTR, 0, ##__VA_ARGS__)
#define TraceLoggingLong(v, ...) PETW__TLG_SCALAR(int32_t, v, 7, 0, ##__VA_ARGS__)
#define TraceLoggingULong(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 0, ##__VA_ARGS__)
#define TraceLoggingHexInt8(v, ...) PETW__TLG_SCALAR(int8_t, v, 4, 4, ##__VA_ARGS__)
#define TraceLoggingHexUInt8(v, ...) PETW__TLG_SCALAR(uint8_t, v, 4, 4, ##__VA_ARGS__)
#define TraceLoggingHexInt16(v, ...) PETW__TLG_SCALAR(int16_t, v, 6, 4, ##__VA_ARGS__)
#define TraceLoggingHexUInt16(v, ...) PETW__TLG_SCALAR(uint16_t, v, 6, 4, ##__VA_ARGS__)
#define TraceLoggingHexInt32(v, ...) PETW__TLG_SCALAR(int32_t, v, 20, 0, ##__VA_ARGS__)
#define TraceLoggingHexUInt32(v, ...) PETW__TLG_SCALAR(uint32_t, v, 20, 0, ##__VA_ARGS__)
#define TraceLoggingHexInt64(v, ...) PETW__TLG_SCALAR(int64_t, v, 21, 0, ##__VA_ARGS__)
#define TraceLoggingHexUInt64(v, ...) PETW__TLG_SCALAR(uint64_t, v, 21, 0, ##__VA_ARGS__)
#define TraceLoggingHexIntPtr(v, ...)                                                              \
    PETW__TLG_SCALAR(intptr_t, v, PETW__TLG_IN_POINTER, 0, ##__VA_ARGS__)
#define TraceLoggingHexUIntPtr(v, ...)                                                             \
    PETW__TLG_SCALAR(uintptr_t, v, PETW__TLG_IN_POINTER, 0, ##__VA_ARGS__)
#define TraceLoggingHexLong(v, ...) PETW__TLG_SCALAR(int32_t, v, 20, 0, ##__VA_ARGS__)
#define TraceLoggingHexULong(v, ...) PETW__TLG_SCALAR(uint32_t, v, 20, 0, ##__VA_ARGS__)
#define TraceLoggingFloat32(v, ...) PETW__TLG_SCALAR(float, v, 11, 0, ##__VA_ARGS__)
#define TraceLoggingFloat64(v, ...) PETW__TLG_SCALAR(double, v, 12, 0, ##__VA_ARGS__)
#define TraceLoggingBoolean(v, ...) PETW__TLG_SCALAR(uint8_t, v, 4, 3, ##__VA_ARGS__)
#define TraceLoggingBool(v, ...) PETW__TLG_SCALAR(int32_t, v, 13, 0, ##__VA_ARGS__)
#define TraceLoggingChar(v, ...) PETW__TLG_SCALAR(char, v, 4, 2, ##__VA_ARGS__)
#define TraceLoggingChar16(v, ...) PETW__TLG_SCALAR(uint16_t, v, 6, 2, ##__VA_ARGS__)
#define TraceLoggingWChar(v, ...) PETW__TLG_SCALAR(uint16_t, v, 6, 2, ##__VA_ARGS__)
#define TraceLoggingPointer(v, ...)                                                                \
    (petw__tlgk_scalar, uintptr_t, (uintptr_t)(v), PETW__TLG_IN_POINTER, 0,                        \
     PETW__TLG_NAME(#v, ##__VA_ARGS__))
#define TraceLoggingCodePointer(v, ...)                                                            \
    (petw__tlgk_scalar, uintptr_t, (uintptr_t)(v), PETW__TLG_IN_POINTER, 37,                       \
     PETW__TLG_NAME(#v, ##__VA_ARGS__))
#define TraceLoggingPid(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 5, ##__VA_ARGS__)
#define TraceLoggingTid(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 6, ##__VA_ARGS__)
#define TraceLoggingPort(v, ...) PETW__TLG_SCALAR(uint16_t, v, 6, 7, ##__VA_ARGS__)
#define TraceLoggingIPv4Address(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 8, ##__VA_ARGS__)
#define TraceLoggingWinError(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 13, ##__VA_ARGS__)
#define TraceLoggingNTStatus(v, ...) PETW__TLG_SCALAR(uint32_t, v, 8, 14, ##__VA_ARGS__)
#define TraceLoggingHResult(v, ...) PETW__TLG_SCALAR(int32_t, v, 7, 15, ##__VA_ARGS__)
#define TraceLoggingFileTime(v, ...) PETW__TLG_SCALAR(FILETIME, v, 17, 0, ##__VA_ARGS__)
#define TraceLoggingFileTimeUtc(v, ...) PETW__TLG_SCALAR(FILETIME, v, 17, 38, ##__VA_ARGS__)
#define TraceLoggingSystemTime(v, ...) PETW__TLG_SCALAR(SYSTEMTIME, v, 18, 0, ##__VA_ARGS__)
#define TraceLoggingSystemTimeUtc(v, ...) PETW__TLG_SCALAR(SYSTEMTIME, v, 18, 38, ##__VA_ARGS__)
#define TraceLoggingGuid(v, ...) PETW__TLG_SCALAR(GUID, v, 15, 0, ##__VA_ARGS__)

/* Strings: NUL-terminated (NULL is ""), and counted (length in characters). */
#define TraceLoggingString(s, ...) (petw__tlgk_sz, s, 2, 0, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingUtf8String(s, ...) (petw__tlgk_sz, s, 2, 35, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingWideString(s, ...) (petw__tlgk_wsz, s, 1, 0, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingCountedString(s, n, ...)                                                       \
    (petw__tlgk_counted, s, n, 23, 0, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingCountedUtf8String(s, n, ...)                                                   \
    (petw__tlgk_counted, s, n, 23, 35, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingCountedWideString(s, n, ...)                                                   \
    (petw__tlgk_wcounted, s, n, 22, 0, PETW__TLG_NAME(#s, ##__VA_ARGS__))

/* Binary: u16 size, then the bytes. */
#define TraceLoggingBinary(p, n, ...)                                                              \
    (petw__tlgk_counted, p, n, 14, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingBinaryEx(p, n, out, ...)                                                       \
    (petw__tlgk_counted, p, n, 14, out, PETW__TLG_NAME(#p, ##__VA_ARGS__))

/* A struct: the next `count` fields are its members (structs nest). */
#define TraceLoggingStruct(count, name, ...) (petw__tlgk_struct, count, name)

/* Arrays of numbers: variable (u16 count in the payload) and fixed (count a
 * compile-time constant, in the metadata). */
#define TraceLoggingInt8Array(p, n, ...)                                                           \
    (petw__tlgk_varr, int8_t, p, n, 3, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt8FixedArray(p, n, ...)                                                      \
    (petw__tlgk_farr, int8_t, p, n, 3, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt8Array(p, n, ...)                                                          \
    (petw__tlgk_varr, uint8_t, p, n, 4, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt8FixedArray(p, n, ...)                                                     \
    (petw__tlgk_farr, uint8_t, p, n, 4, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt16Array(p, n, ...)                                                          \
    (petw__tlgk_varr, int16_t, p, n, 5, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt16FixedArray(p, n, ...)                                                     \
    (petw__tlgk_farr, int16_t, p, n, 5, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt16Array(p, n, ...)                                                         \
    (petw__tlgk_varr, uint16_t, p, n, 6, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt16FixedArray(p, n, ...)                                                    \
    (petw__tlgk_farr, uint16_t, p, n, 6, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt32Array(p, n, ...)                                                          \
    (petw__tlgk_varr, int32_t, p, n, 7, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt32FixedArray(p, n, ...)                                                     \
    (petw__tlgk_farr, int32_t, p, n, 7, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt32Array(p, n, ...)                                                         \
    (petw__tlgk_varr, uint32_t, p, n, 8, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt32FixedArray(p, n, ...)                                                    \
    (petw__tlgk_farr, uint32_t, p, n, 8, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt64Array(p, n, ...)                                                          \
    (petw__tlgk_varr, int64_t, p, n, 9, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingInt64FixedArray(p, n, ...)                                                     \
    (petw__tlgk_farr, int64_t, p, n, 9, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt64Array(p, n, ...)                                                         \
    (petw__tlgk_varr, uint64_t, p, n, 10, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUInt64FixedArray(p, n, ...)                                                    \
    (petw__tlgk_farr, uint64_t, p, n, 10, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingIntPtrArray(p, n, ...)                                                         \
    (petw__tlgk_varr, intptr_t, p, n, PETW__TLG_IN_INTPTR, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingIntPtrFixedArray(p, n, ...)                                                    \
    (petw__tlgk_farr, intptr_t, p, n, PETW__TLG_IN_INTPTR, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUIntPtrArray(p, n, ...)                                                        \
    (petw__tlgk_varr, uintptr_t, p, n, PETW__TLG_IN_UINTPTR, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingUIntPtrFixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, uintptr_t, p, n, PETW__TLG_IN_UINTPTR, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt32Array(p, n, ...)                                                       \
    (petw__tlgk_varr, int32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt32FixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, int32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt32Array(p, n, ...)                                                      \
    (petw__tlgk_varr, uint32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt32FixedArray(p, n, ...)                                                 \
    (petw__tlgk_farr, uint32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt64Array(p, n, ...)                                                       \
    (petw__tlgk_varr, int64_t, p, n, 21, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt64FixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, int64_t, p, n, 21, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt64Array(p, n, ...)                                                      \
    (petw__tlgk_varr, uint64_t, p, n, 21, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt64FixedArray(p, n, ...)                                                 \
    (petw__tlgk_farr, uint64_t, p, n, 21, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFloat32Array(p, n, ...)                                                        \
    (petw__tlgk_varr, float, p, n, 11, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFloat32FixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, float, p, n, 11, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFloat64Array(p, n, ...)                                                        \
    (petw__tlgk_varr, double, p, n, 12, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFloat64FixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, double, p, n, 12, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingBoolArray(p, n, ...)                                                           \
    (petw__tlgk_varr, int32_t, p, n, 13, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingBoolFixedArray(p, n, ...)                                                      \
    (petw__tlgk_farr, int32_t, p, n, 13, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingBooleanArray(p, n, ...)                                                        \
    (petw__tlgk_varr, uint8_t, p, n, 4, 3, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingBooleanFixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, uint8_t, p, n, 4, 3, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingCharArray(p, n, ...)                                                           \
    (petw__tlgk_varr, char, p, n, 4, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingCharFixedArray(p, n, ...)                                                      \
    (petw__tlgk_farr, char, p, n, 4, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingGuidArray(p, n, ...)                                                           \
    (petw__tlgk_varr, GUID, p, n, 15, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingGuidFixedArray(p, n, ...)                                                      \
    (petw__tlgk_farr, GUID, p, n, 15, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFileTimeArray(p, n, ...)                                                       \
    (petw__tlgk_varr, FILETIME, p, n, 17, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFileTimeFixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, FILETIME, p, n, 17, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSystemTimeArray(p, n, ...)                                                     \
    (petw__tlgk_varr, SYSTEMTIME, p, n, 18, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSystemTimeFixedArray(p, n, ...)                                                \
    (petw__tlgk_farr, SYSTEMTIME, p, n, 18, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPointerArray(p, n, ...)                                                        \
    (petw__tlgk_varr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPointerFixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
/* Long arrays hold LONG/ULONG (32-bit, as on Windows), not C long. */
#define TraceLoggingLongArray(p, n, ...)                                                           \
    (petw__tlgk_varr, int32_t, p, n, 7, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingLongFixedArray(p, n, ...)                                                      \
    (petw__tlgk_farr, int32_t, p, n, 7, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingULongArray(p, n, ...)                                                          \
    (petw__tlgk_varr, uint32_t, p, n, 8, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingULongFixedArray(p, n, ...)                                                     \
    (petw__tlgk_farr, uint32_t, p, n, 8, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexLongArray(p, n, ...)                                                        \
    (petw__tlgk_varr, int32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexLongFixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, int32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexULongArray(p, n, ...)                                                       \
    (petw__tlgk_varr, uint32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexULongFixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, uint32_t, p, n, 20, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt8Array(p, n, ...)                                                        \
    (petw__tlgk_varr, int8_t, p, n, 4, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt8FixedArray(p, n, ...)                                                   \
    (petw__tlgk_farr, int8_t, p, n, 4, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt8Array(p, n, ...)                                                       \
    (petw__tlgk_varr, uint8_t, p, n, 4, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt8FixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, uint8_t, p, n, 4, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt16Array(p, n, ...)                                                       \
    (petw__tlgk_varr, int16_t, p, n, 6, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexInt16FixedArray(p, n, ...)                                                  \
    (petw__tlgk_farr, int16_t, p, n, 6, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt16Array(p, n, ...)                                                      \
    (petw__tlgk_varr, uint16_t, p, n, 6, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUInt16FixedArray(p, n, ...)                                                 \
    (petw__tlgk_farr, uint16_t, p, n, 6, 4, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexIntPtrArray(p, n, ...)                                                      \
    (petw__tlgk_varr, intptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexIntPtrFixedArray(p, n, ...)                                                 \
    (petw__tlgk_farr, intptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUIntPtrArray(p, n, ...)                                                     \
    (petw__tlgk_varr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingHexUIntPtrFixedArray(p, n, ...)                                                \
    (petw__tlgk_farr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 0, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingCodePointerArray(p, n, ...)                                                    \
    (petw__tlgk_varr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 37, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingCodePointerFixedArray(p, n, ...)                                               \
    (petw__tlgk_farr, uintptr_t, p, n, PETW__TLG_IN_POINTER, 37, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFileTimeUtcArray(p, n, ...)                                                    \
    (petw__tlgk_varr, FILETIME, p, n, 17, 38, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingFileTimeUtcFixedArray(p, n, ...)                                               \
    (petw__tlgk_farr, FILETIME, p, n, 17, 38, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSystemTimeUtcArray(p, n, ...)                                                  \
    (petw__tlgk_varr, SYSTEMTIME, p, n, 18, 38, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSystemTimeUtcFixedArray(p, n, ...)                                             \
    (petw__tlgk_farr, SYSTEMTIME, p, n, 18, 38, PETW__TLG_NAME(#p, ##__VA_ARGS__))
/* UTF-16 code units (char16_t, or uint16_t in C), as they are. */
#define TraceLoggingChar16Array(p, n, ...)                                                         \
    (petw__tlgk_varr, uint16_t, p, n, 6, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingChar16FixedArray(p, n, ...)                                                    \
    (petw__tlgk_farr, uint16_t, p, n, 6, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
/* wchar_t elements, stored as UTF-16 code units. Where wchar_t is 32 bits, a
 * variable array writes a character above U+FFFF as its surrogate pair (the
 * count is then of code units, as Windows counts them); a fixed array, whose
 * count is in the metadata, writes U+FFFD in its place. */
#define TraceLoggingWCharArray(p, n, ...)                                                          \
    (petw__tlgk_wvarr, p, n, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingWCharFixedArray(p, n, ...)                                                     \
    (petw__tlgk_wfarr, p, n, PETW__TLG_NAME(#p, ##__VA_ARGS__))

/* NUL-terminated and counted UTF-16 text (char16_t, host order). */
#define TraceLoggingString16(s, ...) (petw__tlgk_sz16, s, PETW__TLG_NAME(#s, ##__VA_ARGS__))
#define TraceLoggingCountedString16(s, n, ...)                                                     \
    (petw__tlgk_counted16, s, n, PETW__TLG_NAME(#s, ##__VA_ARGS__))
/* Structures with Length (bytes) and Buffer members: ANSI_STRING-like text,
 * UNICODE_STRING-like wchar_t text, and binary buffers. The pointer is
 * evaluated twice. */
#define TraceLoggingAnsiString(ps, ...)                                                            \
    (petw__tlgk_counted, (ps)->Buffer, (ps)->Length, 23, 0, PETW__TLG_NAME(#ps, ##__VA_ARGS__))
#define TraceLoggingUnicodeString(ps, ...)                                                         \
    (petw__tlgk_wcounted, (ps)->Buffer, (ps)->Length / sizeof(wchar_t), 22, 0,                     \
     PETW__TLG_NAME(#ps, ##__VA_ARGS__))
#define TraceLoggingBinaryBuffer(ps, type, ...)                                                    \
    (petw__tlgk_counted, ((const type *)(ps))->Buffer, ((const type *)(ps))->Length, 14, 0,        \
     PETW__TLG_NAME(#ps, ##__VA_ARGS__))
#define TraceLoggingBinaryBufferEx(ps, type, out, ...)                                             \
    (petw__tlgk_counted, ((const type *)(ps))->Buffer, ((const type *)(ps))->Length, 14, out,      \
     PETW__TLG_NAME(#ps, ##__VA_ARGS__))

/* Addresses: an IPv6 address (16 bytes) and a sockaddr of `n` bytes, both as
 * binary (u16 size, then the bytes) with the IPv6 and socket address
 * out-types; a SID (8 + 4 bytes per sub-authority, as its second byte
 * counts them). */
#define TraceLoggingIPv6Address(p, ...)                                                            \
    (petw__tlgk_counted, p, 16, 14, 9, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSocketAddress(p, n, ...)                                                       \
    (petw__tlgk_counted, p, n, 14, 10, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingSid(p, ...) (petw__tlgk_sid, p, PETW__TLG_NAME(#p, ##__VA_ARGS__))

/* A field serialized by another system (protocol 5 to 31; 0 to 4 are
 * Microsoft's): the schema, `cb` bytes given as a parenthesized list of
 * constants, is in the metadata after the protocol; the data is a u16 size
 * and the bytes. */
#define TraceLoggingCustom(p, n, protocol, schema, cb, ...)                                        \
    (petw__tlgk_custom, p, n, protocol, schema, cb, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED0 0
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED1 1
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED2 2
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED3 3
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED4 4
/* Key/value annotations live in Windows' debug symbols: accepted, ignored. */
#define TraceLoggingCustomAttribute(key, value) (petw__tlgk_none, key)

/* ---- Packed fields: metadata and data written separately ------------------
 * The caller keeps them consistent, as Windows documents: PackedField adds a
 * field and its data, PackedMetadata a field without data, PackedStruct(Array)
 * a struct (or an array of structs, whose u16 count is data) of the next
 * `count` fields, PackedData bytes without a field. The Ex forms give an
 * out-type (always written, even 0), or the data descriptor's Type. */
#define TraceLoggingPackedField(p, n, in, ...)                                                     \
    (petw__tlgk_pfield, p, n, in, 0, 1, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPackedFieldEx(p, n, in, out, ...)                                              \
    (petw__tlgk_pfield, p, n, in, out, 2, PETW__TLG_NAME(#p, ##__VA_ARGS__))
#define TraceLoggingPackedMetadata(in, name, ...) (petw__tlgk_pmeta, in, 0, 1, name)
#define TraceLoggingPackedMetadataEx(in, out, name, ...) (petw__tlgk_pmeta, in, out, 2, name)
#define TraceLoggingPackedStruct(count, name, ...) (petw__tlgk_pstruct, count, 24, name)
#define TraceLoggingPackedStructArray(count, name, ...) (petw__tlgk_pstruct, count, 24 | 0x40, name)
#define TraceLoggingPackedData(p, n) (petw__tlgk_pdata, p, n, EVENT_DATA_DESCRIPTOR_TYPE_NONE)
#define TraceLoggingPackedDataEx(p, n, type) (petw__tlgk_pdata, p, n, type)

/* Macros petw does not provide (LTTng's 32-bit character forms) fail to
 * compile with a message that names them. */
#define PETW__TLG_UNSUPPORTED(name) (petw__tlgk_unsupported, "petw: " #name " is not supported")
#define TraceLoggingChar32(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32)
#define TraceLoggingChar32Array(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32Array)
#define TraceLoggingChar32FixedArray(...) PETW__TLG_UNSUPPORTED(TraceLoggingChar32FixedArray)
#define TraceLoggingString32(...) PETW__TLG_UNSUPPORTED(TraceLoggingString32)
#define TraceLoggingCountedString32(...) PETW__TLG_UNSUPPORTED(TraceLoggingCountedString32)

/* The in-types and out-types of Windows' header, for the packed macros. */
enum TlgIn_t {
    TlgInNULL,
    TlgInUNICODESTRING,
    TlgInANSISTRING,
    TlgInINT8,
    TlgInUINT8,
    TlgInINT16,
    TlgInUINT16,
    TlgInINT32,
    TlgInUINT32,
    TlgInINT64,
    TlgInUINT64,
    TlgInFLOAT,
    TlgInDOUBLE,
    TlgInBOOL32,
    TlgInBINARY,
    TlgInGUID,
    _TlgInPOINTER_unsupported,
    TlgInFILETIME,
    TlgInSYSTEMTIME,
    TlgInSID,
    TlgInHEXINT32,
    TlgInHEXINT64,
    TlgInCOUNTEDSTRING,
    TlgInCOUNTEDANSISTRING,
    _TlgInSTRUCT,
    TlgInCOUNTEDBINARY,
    _TlgInMax,
    TlgInINTPTR = sizeof(void *) == 8 ? TlgInINT64 : TlgInINT32,
    TlgInUINTPTR = sizeof(void *) == 8 ? TlgInUINT64 : TlgInUINT32,
    TlgInPOINTER = sizeof(void *) == 8 ? TlgInHEXINT64 : TlgInHEXINT32,
    TlgInLONG = TlgInINT32, /* LONG is 32 bits, as on Windows */
    TlgInULONG = TlgInUINT32,
    TlgInHEXLONG = TlgInHEXINT32,
    _TlgInCcount = 32,
    TlgInVcount = 64,
    _TlgInChain = 128,
    _TlgInCustom = 96,
    _TlgInTypeMask = 31,
    _TlgInCountMask = 96,
    _TlgInFlagMask = 224
};
enum TlgOut_t {
    TlgOutNULL,
    TlgOutNOPRINT,
    TlgOutSTRING,
    TlgOutBOOLEAN,
    TlgOutHEX,
    TlgOutPID,
    TlgOutTID,
    TlgOutPORT,
    TlgOutIPV4,
    TlgOutIPV6,
    TlgOutSOCKETADDRESS,
    TlgOutXML,
    TlgOutJSON,
    TlgOutWIN32ERROR,
    TlgOutNTSTATUS,
    TlgOutHRESULT,
    TlgOutFILETIME,
    TlgOutSIGNED,
    TlgOutUNSIGNED,
    TlgOutUTF8 = 35,
    TlgOutPKCS7_WITH_TYPE_INFO = 36,
    TlgOutCODE_POINTER = 37,
    TlgOutDATETIME_UTC = 38,
    _TlgOutMax,
    _TlgOutChain = 128,
    _TlgOutTypeMask = 127
};

#ifndef __cplusplus
/* TraceLoggingValue: the encoding follows the C type (Windows' C++
 * overloads: char is a character, _Bool a boolean, char * a string). */
#define PETW__TLG_VIN(v)                                                                           \
    _Generic((v), _Bool : 4, char : 4, signed char : 3, unsigned char : 4, short : 5,              \
             unsigned short : 6, int : 7, unsigned : 8, long                                       \
             : (sizeof(long) == 8 ? 9 : 7), unsigned long                                          \
             : (sizeof(long) == 8 ? 10 : 8), long long : 9, unsigned long long : 10, float : 11,   \
               double : 12, char * : 2, const char * : 2, PETW__TLG_VIN_WIDE GUID : 15,            \
               FILETIME : 17, SYSTEMTIME : 18)
#define PETW__TLG_VOUT(v) _Generic((v), _Bool : 3, char : 2, default : 0)
#define PETW__TLG_VKIND(v)                                                                         \
    _Generic((v), char * : 1, const char * : 1, PETW__TLG_VKIND_WIDE default : 0)
#define PETW__TLG_VIN_WIDE wchar_t * : 1, const wchar_t * : 1,
#define PETW__TLG_VKIND_WIDE wchar_t * : 2, const wchar_t * : 2,
#else
/* TraceLoggingValue in C++: petw__tlgv(v) picks, by overload, a holder of
 * the value as stored, with its in-type and out-type; desc() describes it. */
extern "C++" {
template <int In, int Out, class T> struct petw__tlgv_t {
    enum { tlg_in = In, tlg_out = Out };
    T v;
    int desc(uint32_t *, PEVENT_DATA_DESCRIPTOR d) const
    {
        EventDataDescCreate(d, &v, (ULONG)sizeof(v));
        return 1;
    }
};
template <int Out, class C> struct petw__tlgv_sz { /* NUL-terminated char text */
    enum { tlg_in = 2, tlg_out = Out };
    const C *v;
    int desc(uint32_t *, PEVENT_DATA_DESCRIPTOR d) const
    {
        const char *s = v ? reinterpret_cast<const char *>(v) : "";
        EventDataDescCreate(d, s, (ULONG)strlen(s) + 1);
        return 1;
    }
};
template <class C> struct petw__tlgv_wsz { /* NUL-terminated wide text, stored UTF-16LE */
    enum { tlg_in = 1, tlg_out = 0 };
    const C *v;
    int desc(uint32_t *used, PEVENT_DATA_DESCRIPTOR d) const
    {
        return sizeof(C) == 2 ? petw__tlg_wide16(used, d, v, -1)
                              : petw__tlg_wide(used, d, reinterpret_cast<const wchar_t *>(v), -1);
    }
};
#define PETW__TLGV(type, in, out, stored)                                                          \
    inline petw__tlgv_t<in, out, stored> petw__tlgv(type x)                                        \
    {                                                                                              \
        return petw__tlgv_t<in, out, stored>{static_cast<stored>(x)};                              \
    }
PETW__TLGV(bool, 4, 3, uint8_t)
PETW__TLGV(char, 4, 2, char)
PETW__TLGV(wchar_t, 6, 2, uint16_t)
PETW__TLGV(char16_t, 6, 2, uint16_t)
PETW__TLGV(signed char, 3, 0, int8_t)
PETW__TLGV(unsigned char, 4, 0, uint8_t)
PETW__TLGV(short, 5, 0, int16_t)
PETW__TLGV(unsigned short, 6, 0, uint16_t)
PETW__TLGV(int, 7, 0, int32_t)
PETW__TLGV(unsigned int, 8, 0, uint32_t)
PETW__TLGV(long, sizeof(long) == 8 ? 9 : 7, 0, long)
PETW__TLGV(unsigned long, sizeof(long) == 8 ? 10 : 8, 0, unsigned long)
PETW__TLGV(long long, 9, 0, int64_t)
PETW__TLGV(unsigned long long, 10, 0, uint64_t)
PETW__TLGV(float, 11, 0, float)
PETW__TLGV(double, 12, 0, double)
PETW__TLGV(const GUID &, 15, 0, GUID)
PETW__TLGV(const FILETIME &, 17, 0, FILETIME)
PETW__TLGV(const SYSTEMTIME &, 18, 0, SYSTEMTIME)
#undef PETW__TLGV
inline petw__tlgv_t<PETW__TLG_IN_POINTER, 0, uintptr_t> petw__tlgv(const void *p)
{
    return petw__tlgv_t<PETW__TLG_IN_POINTER, 0, uintptr_t>{reinterpret_cast<uintptr_t>(p)};
}
inline petw__tlgv_sz<0, char> petw__tlgv(const char *s)
{
    return petw__tlgv_sz<0, char>{s};
}
inline petw__tlgv_wsz<wchar_t> petw__tlgv(const wchar_t *s)
{
    return petw__tlgv_wsz<wchar_t>{s};
}
inline petw__tlgv_wsz<char16_t> petw__tlgv(const char16_t *s)
{
    return petw__tlgv_wsz<char16_t>{s};
}
#if defined(__cpp_char8_t)
inline petw__tlgv_sz<35, char8_t> petw__tlgv(const char8_t *s) /* UTF-8 */
{
    return petw__tlgv_sz<35, char8_t>{s};
}
#endif
}
#endif
#define TraceLoggingValue(v, ...) (petw__tlgk_value, v, PETW__TLG_NAME(#v, ##__VA_ARGS__))

/* ---- Writing ------------------------------------------------------------------ */

/* Writes an event named `name` (a string literal) with the fields and
 * attributes that follow, when a session enables the provider for its level
 * (default WINEVENT_LEVEL_VERBOSE) and keywords (default 0). Arguments are
 * not evaluated when it is disabled. */
#define TraceLoggingWrite(...)                                                                     \
    PETW__TLG_WRITE(PETW__TLG_EMIT_PLAIN(), __VA_ARGS__, (petw__tlgk_none, 0))
/* As TraceLoggingWrite, with explicit activity and related activity IDs
 * (either may be NULL: the thread's current activity, and none). */
#define TraceLoggingWriteActivity(handle, name, activity, related, ...)                            \
    PETW__TLG_WRITE(PETW__TLG_EMIT(0, (activity), (related)), handle, name, ##__VA_ARGS__,         \
                    (petw__tlgk_none, 0))
/* As TraceLoggingWriteActivity, with EventWriteEx's session filter and
 * flags (EVENT_WRITE_FLAG_*: evaluated, no effect here). */
#define TraceLoggingWriteEx(handle, name, filter, flags, activity, related, ...)                   \
    PETW__TLG_WRITE(                                                                               \
        PETW__TLG_EMIT(((void)(ULONG)(flags), (ULONG64)(filter)), (activity), (related)), handle,  \
        name, ##__VA_ARGS__, (petw__tlgk_none, 0))

/* ---- Implementation: each argument is (kind, ...); one pass per purpose. */

#define PETW__TLG_CAT(a, b) PETW__TLG_CAT_(a, b)
#define PETW__TLG_CAT_(a, b) a##b
#define PETW__TLG_KIND(k, ...) k
#define PETW__TLG_STRIP(...) __VA_ARGS__
#define PETW__TLG_CALL(m, args) m args
#define PETW__TLG_DISPATCH(pass, i, arg)                                                           \
    PETW__TLG_CALL(PETW__TLG_CAT(pass, PETW__TLG_KIND arg), (i, PETW__TLG_STRIP arg))
#define PETW__TLG_NARGS(...)                                                                       \
    PETW__TLG_NARGS_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49,  \
                     48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30,   \
                     29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,   \
                     10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define PETW__TLG_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,    \
                         _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30,     \
                         _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44,     \
                         _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58,     \
                         _59, _60, _61, _62, _63, _64, n, ...)                                     \
    n
#define PETW__TLG_FOREACH(m, ...)                                                                  \
    PETW__TLG_CAT(PETW__TLG_FE_, PETW__TLG_NARGS(__VA_ARGS__))(m, __VA_ARGS__)
#define PETW__TLG_FE_1(m, a) m(1, a)
#define PETW__TLG_FE_2(m, a, ...) m(2, a) PETW__TLG_FE_1(m, __VA_ARGS__)
#define PETW__TLG_FE_3(m, a, ...) m(3, a) PETW__TLG_FE_2(m, __VA_ARGS__)
#define PETW__TLG_FE_4(m, a, ...) m(4, a) PETW__TLG_FE_3(m, __VA_ARGS__)
#define PETW__TLG_FE_5(m, a, ...) m(5, a) PETW__TLG_FE_4(m, __VA_ARGS__)
#define PETW__TLG_FE_6(m, a, ...) m(6, a) PETW__TLG_FE_5(m, __VA_ARGS__)
#define PETW__TLG_FE_7(m, a, ...) m(7, a) PETW__TLG_FE_6(m, __VA_ARGS__)
#define PETW__TLG_FE_8(m, a, ...) m(8, a) PETW__TLG_FE_7(m, __VA_ARGS__)
#define PETW__TLG_FE_9(m, a, ...) m(9, a) PETW__TLG_FE_8(m, __VA_ARGS__)
#define PETW__TLG_FE_10(m, a, ...) m(10, a) PETW__TLG_FE_9(m, __VA_ARGS__)
#define PETW__TLG_FE_11(m, a, ...) m(11, a) PETW__TLG_FE_10(m, __VA_ARGS__)
#define PETW__TLG_FE_12(m, a, ...) m(12, a) PETW__TLG_FE_11(m, __VA_ARGS__)
#define PETW__TLG_FE_13(m, a, ...) m(13, a) PETW__TLG_FE_12(m, __VA_ARGS__)
#define PETW__TLG_FE_14(m, a, ...) m(14, a) PETW__TLG_FE_13(m, __VA_ARGS__)
#define PETW__TLG_FE_15(m, a, ...) m(15, a) PETW__TLG_FE_14(m, __VA_ARGS__)
#define PETW__TLG_FE_16(m, a, ...) m(16, a) PETW__TLG_FE_15(m, __VA_ARGS__)
#define PETW__TLG_FE_17(m, a, ...) m(17, a) PETW__TLG_FE_16(m, __VA_ARGS__)
#define PETW__TLG_FE_18(m, a, ...) m(18, a) PETW__TLG_FE_17(m, __VA_ARGS__)
#define PETW__TLG_FE_19(m, a, ...) m(19, a) PETW__TLG_FE_18(m, __VA_ARGS__)
#define PETW__TLG_FE_20(m, a, ...) m(20, a) PETW__TLG_FE_19(m, __VA_ARGS__)
#define PETW__TLG_FE_21(m, a, ...) m(21, a) PETW__TLG_FE_20(m, __VA_ARGS__)
#define PETW__TLG_FE_22(m, a, ...) m(22, a) PETW__TLG_FE_21(m, __VA_ARGS__)
#define PETW__TLG_FE_23(m, a, ...) m(23, a) PETW__TLG_FE_22(m, __VA_ARGS__)
#define PETW__TLG_FE_24(m, a, ...) m(24, a) PETW__TLG_FE_23(m, __VA_ARGS__)
#define PETW__TLG_FE_25(m, a, ...) m(25, a) PETW__TLG_FE_24(m, __VA_ARGS__)
#define PETW__TLG_FE_26(m, a, ...) m(26, a) PETW__TLG_FE_25(m, __VA_ARGS__)
#define PETW__TLG_FE_27(m, a, ...) m(27, a) PETW__TLG_FE_26(m, __VA_ARGS__)
#define PETW__TLG_FE_28(m, a, ...) m(28, a) PETW__TLG_FE_27(m, __VA_ARGS__)
#define PETW__TLG_FE_29(m, a, ...) m(29, a) PETW__TLG_FE_28(m, __VA_ARGS__)
#define PETW__TLG_FE_30(m, a, ...) m(30, a) PETW__TLG_FE_29(m, __VA_ARGS__)
#define PETW__TLG_FE_31(m, a, ...) m(31, a) PETW__TLG_FE_30(m, __VA_ARGS__)
#define PETW__TLG_FE_32(m, a, ...) m(32, a) PETW__TLG_FE_31(m, __VA_ARGS__)
#define PETW__TLG_FE_33(m, a, ...) m(33, a) PETW__TLG_FE_32(m, __VA_ARGS__)
#define PETW__TLG_FE_34(m, a, ...) m(34, a) PETW__TLG_FE_33(m, __VA_ARGS__)
#define PETW__TLG_FE_35(m, a, ...) m(35, a) PETW__TLG_FE_34(m, __VA_ARGS__)
#define PETW__TLG_FE_36(m, a, ...) m(36, a) PETW__TLG_FE_35(m, __VA_ARGS__)
#define PETW__TLG_FE_37(m, a, ...) m(37, a) PETW__TLG_FE_36(m, __VA_ARGS__)
#define PETW__TLG_FE_38(m, a, ...) m(38, a) PETW__TLG_FE_37(m, __VA_ARGS__)
#define PETW__TLG_FE_39(m, a, ...) m(39, a) PETW__TLG_FE_38(m, __VA_ARGS__)
#define PETW__TLG_FE_40(m, a, ...) m(40, a) PETW__TLG_FE_39(m, __VA_ARGS__)
#define PETW__TLG_FE_41(m, a, ...) m(41, a) PETW__TLG_FE_40(m, __VA_ARGS__)
#define PETW__TLG_FE_42(m, a, ...) m(42, a) PETW__TLG_FE_41(m, __VA_ARGS__)
#define PETW__TLG_FE_43(m, a, ...) m(43, a) PETW__TLG_FE_42(m, __VA_ARGS__)
#define PETW__TLG_FE_44(m, a, ...) m(44, a) PETW__TLG_FE_43(m, __VA_ARGS__)
#define PETW__TLG_FE_45(m, a, ...) m(45, a) PETW__TLG_FE_44(m, __VA_ARGS__)
#define PETW__TLG_FE_46(m, a, ...) m(46, a) PETW__TLG_FE_45(m, __VA_ARGS__)
#define PETW__TLG_FE_47(m, a, ...) m(47, a) PETW__TLG_FE_46(m, __VA_ARGS__)
#define PETW__TLG_FE_48(m, a, ...) m(48, a) PETW__TLG_FE_47(m, __VA_ARGS__)
#define PETW__TLG_FE_49(m, a, ...) m(49, a) PETW__TLG_FE_48(m, __VA_ARGS__)
#define PETW__TLG_FE_50(m, a, ...) m(50, a) PETW__TLG_FE_49(m, __VA_ARGS__)
#define PETW__TLG_FE_51(m, a, ...) m(51, a) PETW__TLG_FE_50(m, __VA_ARGS__)
#define PETW__TLG_FE_52(m, a, ...) m(52, a) PETW__TLG_FE_51(m, __VA_ARGS__)
#define PETW__TLG_FE_53(m, a, ...) m(53, a) PETW__TLG_FE_52(m, __VA_ARGS__)
#define PETW__TLG_FE_54(m, a, ...) m(54, a) PETW__TLG_FE_53(m, __VA_ARGS__)
#define PETW__TLG_FE_55(m, a, ...) m(55, a) PETW__TLG_FE_54(m, __VA_ARGS__)
#define PETW__TLG_FE_56(m, a, ...) m(56, a) PETW__TLG_FE_55(m, __VA_ARGS__)
#define PETW__TLG_FE_57(m, a, ...) m(57, a) PETW__TLG_FE_56(m, __VA_ARGS__)
#define PETW__TLG_FE_58(m, a, ...) m(58, a) PETW__TLG_FE_57(m, __VA_ARGS__)
#define PETW__TLG_FE_59(m, a, ...) m(59, a) PETW__TLG_FE_58(m, __VA_ARGS__)
#define PETW__TLG_FE_60(m, a, ...) m(60, a) PETW__TLG_FE_59(m, __VA_ARGS__)
#define PETW__TLG_FE_61(m, a, ...) m(61, a) PETW__TLG_FE_60(m, __VA_ARGS__)
#define PETW__TLG_FE_62(m, a, ...) m(62, a) PETW__TLG_FE_61(m, __VA_ARGS__)
#define PETW__TLG_FE_63(m, a, ...) m(63, a) PETW__TLG_FE_62(m, __VA_ARGS__)
#define PETW__TLG_FE_64(m, a, ...) m(64, a) PETW__TLG_FE_63(m, __VA_ARGS__)

/* Level, keyword, opcode, channel, tags: "*0 + (x)" replaces the default,
 * "| (x)" accumulates. */
#define PETW__TLG_M_LEVEL(i, a) PETW__TLG_DISPATCH(PETW__TLG_LEVEL_, i, a)
#define PETW__TLG_M_KEYWORD(i, a) PETW__TLG_DISPATCH(PETW__TLG_KEYWORD_, i, a)
#define PETW__TLG_M_OPCODE(i, a) PETW__TLG_DISPATCH(PETW__TLG_OPCODE_, i, a)
#define PETW__TLG_M_CHANNEL(i, a) PETW__TLG_DISPATCH(PETW__TLG_CHANNEL_, i, a)
#define PETW__TLG_M_TAG(i, a) PETW__TLG_DISPATCH(PETW__TLG_TAG_, i, a)
#define PETW__TLG_M_NDESC(i, a) PETW__TLG_DISPATCH(PETW__TLG_NDESC_, i, a)
#define PETW__TLG_M_MEMBER(i, a) PETW__TLG_DISPATCH(PETW__TLG_MEMBER_, i, a)
#define PETW__TLG_M_INIT(i, a) PETW__TLG_DISPATCH(PETW__TLG_INIT_, i, a)
#define PETW__TLG_M_DATA(i, a) PETW__TLG_DISPATCH(PETW__TLG_DATA_, i, a)
#define PETW__TLG_M_TYPE(i, a) PETW__TLG_DISPATCH(PETW__TLG_TYPE_, i, a)

#define PETW__TLG_LEVEL_petw__tlgk_level(i, k, x) *0 + (x)
#define PETW__TLG_KEYWORD_petw__tlgk_level(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_level(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_level(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_level(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_keyword(i, k, x) | (x)
#define PETW__TLG_OPCODE_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_opcode(i, k, x) *0 + (x)
#define PETW__TLG_CHANNEL_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_channel(i, k, x) *0 + (x)
#define PETW__TLG_TAG_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_tag(i, k, x) | (x)
#define PETW__TLG_LEVEL_petw__tlgk_none(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_none(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_none(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_none(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_none(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_value(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_value(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_value(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_value(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_value(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_LEVEL_petw__tlgk_unsupported(i, k, ...)
#define PETW__TLG_KEYWORD_petw__tlgk_unsupported(i, k, ...)
#define PETW__TLG_OPCODE_petw__tlgk_unsupported(i, k, ...)
#define PETW__TLG_CHANNEL_petw__tlgk_unsupported(i, k, ...)
#define PETW__TLG_TAG_petw__tlgk_unsupported(i, k, ...)

/* C++ only: the holder type of TraceLoggingValue fields. */
#define PETW__TLG_TYPE_petw__tlgk_level(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_none(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_scalar(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_sz(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_wsz(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_counted(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_wcounted(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_varr(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_farr(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_wvarr(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_wfarr(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_sz16(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_counted16(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_sid(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_custom(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_pfield(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_pdata(i, k, ...)
#define PETW__TLG_TYPE_petw__tlgk_unsupported(i, k, ...)

/* Data descriptors each field needs. */
#define PETW__TLG_NDESC_petw__tlgk_level(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_none(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_scalar(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_value(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_sz(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_wsz(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_counted(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_wcounted(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_varr(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_farr(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_struct(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_wvarr(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_wfarr(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_sz16(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_counted16(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_sid(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_custom(i, k, ...) +2
#define PETW__TLG_NDESC_petw__tlgk_pfield(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_pmeta(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_pstruct(i, k, ...)
#define PETW__TLG_NDESC_petw__tlgk_pdata(i, k, ...) +1
#define PETW__TLG_NDESC_petw__tlgk_unsupported(i, k, ...)

/* Metadata: per field its name, in-type (| 0x80 when an out-type follows),
 * out-type, and for fixed arrays the count. Arrays are sized 1 or 2 from the
 * out-type; the reversed designators leave the in-type at [0]. */
#define PETW__TLG_IOLEN(out) ((out) != 0 ? 2 : 1)
#ifndef __cplusplus
#define PETW__TLG_IO(in, out)                                                                      \
    {                                                                                              \
        [PETW__TLG_IOLEN(out) - 1] = (uint8_t)(out), [0] = (uint8_t)((in) | ((out) ? 0x80 : 0))    \
    }
#define PETW__TLG_IO_MEMBER(out) uint8_t io[PETW__TLG_IOLEN(out)]
#else
/* C++ has no array designators: 1 or 2 bytes by specialization. */
extern "C++" {
template <int N> struct petw__tlg_io;
template <> struct petw__tlg_io<1> {
    uint8_t b[1];
    constexpr petw__tlg_io(unsigned in, unsigned) : b{static_cast<uint8_t>(in)} {}
};
template <> struct petw__tlg_io<2> {
    uint8_t b[2];
    constexpr petw__tlg_io(unsigned in, unsigned out)
        : b{static_cast<uint8_t>(in | 0x80), static_cast<uint8_t>(out)}
    {
    }
};
}
#define PETW__TLG_IO(in, out)                                                                      \
    {                                                                                              \
        (in), (out)                                                                                \
    }
#define PETW__TLG_IO_MEMBER(out) petw__tlg_io<PETW__TLG_IOLEN(out)> io
#endif
#define PETW__TLG_FIELD_MEMBER(i, name, out)                                                       \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        PETW__TLG_IO_MEMBER(out);                                                                  \
    } f##i;
#define PETW__TLG_MEMBER_petw__tlgk_level(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_level(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_level(i, k, ...)
#define PETW__TLG_MEMBER_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_keyword(i, k, ...)
#define PETW__TLG_MEMBER_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_opcode(i, k, ...)
#define PETW__TLG_MEMBER_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_channel(i, k, ...)
#define PETW__TLG_MEMBER_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_tag(i, k, ...)
#define PETW__TLG_MEMBER_petw__tlgk_none(i, k, ...)
#define PETW__TLG_INIT_petw__tlgk_none(i, k, ...)
#define PETW__TLG_DATA_petw__tlgk_none(i, k, ...)

#define PETW__TLG_MEMBER_petw__tlgk_scalar(i, k, type, v, in, out, name)                           \
    PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_scalar(i, k, type, v, in, out, name)                             \
    {name, PETW__TLG_IO(in, out)},
#ifndef __cplusplus
#define PETW__TLG_CONVERT(type, v) (v)
#else
#define PETW__TLG_CONVERT(type, v) static_cast<type>(v)
#endif
#define PETW__TLG_DATA_petw__tlgk_scalar(i, k, type, v, in, out, name)                             \
    type petw__v##i = PETW__TLG_CONVERT(type, v);                                                  \
    EventDataDescCreate(&petw__d[petw__n++], &petw__v##i, (ULONG)sizeof(petw__v##i));

#ifndef __cplusplus
#define PETW__TLG_MEMBER_petw__tlgk_value(i, k, v, name)                                           \
    PETW__TLG_FIELD_MEMBER(i, name, PETW__TLG_VOUT(v))
#define PETW__TLG_INIT_petw__tlgk_value(i, k, v, name)                                             \
    {name, PETW__TLG_IO(PETW__TLG_VIN(v), PETW__TLG_VOUT(v))},
#define PETW__TLG_DATA_petw__tlgk_value(i, k, v, name)                                             \
    __auto_type petw__v##i = (v);                                                                  \
    petw__n += (ULONG)petw__tlg_value(&petw__ws, &petw__d[petw__n], &petw__v##i,                   \
                                      sizeof(petw__v##i), PETW__TLG_VKIND(petw__v##i));
#else
/* The holder's type is named before the metadata (a local class may not
 * use `this`), and v is evaluated only in the data pass. */
#define PETW__TLG_TYPE_petw__tlgk_value(i, k, v, name) typedef decltype(petw__tlgv(v)) petw__vt##i;
#define PETW__TLG_MEMBER_petw__tlgk_value(i, k, v, name)                                           \
    PETW__TLG_FIELD_MEMBER(i, name, petw__vt##i::tlg_out)
#define PETW__TLG_INIT_petw__tlgk_value(i, k, v, name)                                             \
    {name, PETW__TLG_IO(petw__vt##i::tlg_in, petw__vt##i::tlg_out)},
#define PETW__TLG_DATA_petw__tlgk_value(i, k, v, name)                                             \
    const petw__vt##i petw__v##i = petw__tlgv(v);                                                  \
    petw__n += (ULONG)petw__v##i.desc(&petw__ws, &petw__d[petw__n]);
#endif

#define PETW__TLG_MEMBER_petw__tlgk_sz(i, k, s, in, out, name) PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_sz(i, k, s, in, out, name) {name, PETW__TLG_IO(in, out)},
#define PETW__TLG_DATA_petw__tlgk_sz(i, k, s, in, out, name)                                       \
    const char *petw__v##i = (s);                                                                  \
    if (!petw__v##i)                                                                               \
        petw__v##i = "";                                                                           \
    EventDataDescCreate(&petw__d[petw__n++], petw__v##i, (ULONG)strlen(petw__v##i) + 1);

#define PETW__TLG_MEMBER_petw__tlgk_wsz(i, k, s, in, out, name) PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_wsz(i, k, s, in, out, name) {name, PETW__TLG_IO(in, out)},
#define PETW__TLG_DATA_petw__tlgk_wsz(i, k, s, in, out, name)                                      \
    petw__n += (ULONG)petw__tlg_wide(&petw__ws, &petw__d[petw__n], (s), -1);

#define PETW__TLG_MEMBER_petw__tlgk_counted(i, k, p, n, in, out, name)                             \
    PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_counted(i, k, p, n, in, out, name) {name, PETW__TLG_IO(in, out)},
#define PETW__TLG_DATA_petw__tlgk_counted(i, k, p, n, in, out, name)                               \
    size_t petw__s##i = (size_t)(n);                                                               \
    uint16_t petw__c##i = (uint16_t)petw__s##i;                                                    \
    EventDataDescCreate(&petw__d[petw__n++], &petw__c##i, 2);                                      \
    EventDataDescCreate(&petw__d[petw__n++], (p),                                                  \
                        petw__s##i > 0xFFFF ? 0x10000u : (ULONG)petw__s##i);

#define PETW__TLG_MEMBER_petw__tlgk_wcounted(i, k, p, n, in, out, name)                            \
    PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_wcounted(i, k, p, n, in, out, name) {name, PETW__TLG_IO(in, out)},
#define PETW__TLG_DATA_petw__tlgk_wcounted(i, k, p, n, in, out, name)                              \
    petw__n += (ULONG)petw__tlg_wide(&petw__ws, &petw__d[petw__n], (p), (long)(n));

#define PETW__TLG_MEMBER_petw__tlgk_varr(i, k, type, p, n, in, out, name)                          \
    PETW__TLG_FIELD_MEMBER(i, name, out)
#define PETW__TLG_INIT_petw__tlgk_varr(i, k, type, p, n, in, out, name)                            \
    {name, PETW__TLG_IO((in) | 0x40, out)},
#define PETW__TLG_DATA_petw__tlgk_varr(i, k, type, p, n, in, out, name)                            \
    size_t petw__s##i = (size_t)(n);                                                               \
    uint16_t petw__c##i = (uint16_t)petw__s##i;                                                    \
    EventDataDescCreate(&petw__d[petw__n++], &petw__c##i, 2);                                      \
    EventDataDescCreate(&petw__d[petw__n++], (p),                                                  \
                        petw__s##i > 0xFFFF ? 0x10000u : (ULONG)(petw__s##i * sizeof(type)));

#define PETW__TLG_MEMBER_petw__tlgk_farr(i, k, type, p, n, in, out, name)                          \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        PETW__TLG_IO_MEMBER(out);                                                                  \
        uint8_t cnt[2];                                                                            \
    } f##i;
#define PETW__TLG_INIT_petw__tlgk_farr(i, k, type, p, n, in, out, name)                            \
    {name, PETW__TLG_IO((in) | 0x20, out), {(uint8_t)((n)&0xFF), (uint8_t)((n) >> 8)}},
#define PETW__TLG_DATA_petw__tlgk_farr(i, k, type, p, n, in, out, name)                            \
    EventDataDescCreate(&petw__d[petw__n++], (p), (ULONG)((n) * sizeof(type)));

#define PETW__TLG_MEMBER_petw__tlgk_struct(i, k, count, name)                                      \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        uint8_t io[2];                                                                             \
    } f##i;
#define PETW__TLG_INIT_petw__tlgk_struct(i, k, count, name) {name, {0x80 | 24, (uint8_t)(count)}},
#define PETW__TLG_DATA_petw__tlgk_struct(i, k, count, name)

#define PETW__TLG_MEMBER_petw__tlgk_wvarr(i, k, p, n, name) PETW__TLG_FIELD_MEMBER(i, name, 2)
#define PETW__TLG_INIT_petw__tlgk_wvarr(i, k, p, n, name) {name, PETW__TLG_IO(6 | 0x40, 2)},
#define PETW__TLG_DATA_petw__tlgk_wvarr(i, k, p, n, name)                                          \
    petw__n += (ULONG)petw__tlg_wchars(&petw__ws, &petw__d[petw__n], (p), (size_t)(n), 1);

#define PETW__TLG_MEMBER_petw__tlgk_wfarr(i, k, p, n, name)                                        \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        PETW__TLG_IO_MEMBER(2);                                                                    \
        uint8_t cnt[2];                                                                            \
    } f##i;
#define PETW__TLG_INIT_petw__tlgk_wfarr(i, k, p, n, name)                                          \
    {name, PETW__TLG_IO(6 | 0x20, 2), {(uint8_t)((n)&0xFF), (uint8_t)((n) >> 8)}},
#define PETW__TLG_DATA_petw__tlgk_wfarr(i, k, p, n, name)                                          \
    petw__n += (ULONG)petw__tlg_wchars(&petw__ws, &petw__d[petw__n], (p), (size_t)(n), 0);

#define PETW__TLG_MEMBER_petw__tlgk_sz16(i, k, s, name) PETW__TLG_FIELD_MEMBER(i, name, 0)
#define PETW__TLG_INIT_petw__tlgk_sz16(i, k, s, name) {name, PETW__TLG_IO(1, 0)},
#define PETW__TLG_DATA_petw__tlgk_sz16(i, k, s, name)                                              \
    petw__n += (ULONG)petw__tlg_wide16(&petw__ws, &petw__d[petw__n], (s), -1);

#define PETW__TLG_MEMBER_petw__tlgk_counted16(i, k, s, n, name) PETW__TLG_FIELD_MEMBER(i, name, 0)
#define PETW__TLG_INIT_petw__tlgk_counted16(i, k, s, n, name) {name, PETW__TLG_IO(22, 0)},
#define PETW__TLG_DATA_petw__tlgk_counted16(i, k, s, n, name)                                      \
    petw__n += (ULONG)petw__tlg_wide16(&petw__ws, &petw__d[petw__n], (s), (long)(n));

#define PETW__TLG_MEMBER_petw__tlgk_sid(i, k, p, name) PETW__TLG_FIELD_MEMBER(i, name, 0)
#define PETW__TLG_INIT_petw__tlgk_sid(i, k, p, name) {name, PETW__TLG_IO(19, 0)},
#define PETW__TLG_DATA_petw__tlgk_sid(i, k, p, name)                                               \
    const uint8_t *petw__v##i = (const uint8_t *)(p);                                              \
    EventDataDescCreate(&petw__d[petw__n++], petw__v##i, 8u + 4u * petw__v##i[1]);

/* Custom: in-type binary | 0x60 (custom) | 0x80 (protocol follows), the
 * protocol, the u16 schema size and the schema. */
#define PETW__TLG_EXPAND(...) __VA_ARGS__
#define PETW__TLG_MEMBER_petw__tlgk_custom(i, k, p, n, protocol, schema, cb, name)                 \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        uint8_t io[2];                                                                             \
        uint8_t cb_schema[2];                                                                      \
        uint8_t schema_bytes[cb];                                                                  \
    } f##i;
#define PETW__TLG_INIT_petw__tlgk_custom(i, k, p, n, protocol, schema, cb, name)                   \
    {name,                                                                                         \
     {(uint8_t)(14 | 0x60 | 0x80), (uint8_t)(protocol)},                                           \
     {(uint8_t)((cb)&0xFF), (uint8_t)((cb) >> 8)},                                                 \
     {PETW__TLG_EXPAND schema}},
#define PETW__TLG_DATA_petw__tlgk_custom(i, k, p, n, protocol, schema, cb, name)                   \
    PETW__TLG_DATA_petw__tlgk_counted(i, k, p, n, 14, 0, name)

/* Packed: `len` 1 is the in-type alone, 2 the in-type (| 0x80) and out-type. */
#ifndef __cplusplus
#define PETW__TLG_PIO_MEMBER(len) uint8_t io[len]
#define PETW__TLG_PIO(in, out, len)                                                                \
    {                                                                                              \
        [(len)-1] = (uint8_t)(out), [0] = (uint8_t)((in) | ((len) == 2 ? 0x80 : 0))                \
    }
#else
#define PETW__TLG_PIO_MEMBER(len) petw__tlg_io<len> io
#define PETW__TLG_PIO(in, out, len)                                                                \
    {                                                                                              \
        static_cast<unsigned>(in), static_cast<unsigned>(out)                                      \
    }
#endif
#define PETW__TLG_MEMBER_petw__tlgk_pfield(i, k, p, n, in, out, len, name)                         \
    struct {                                                                                       \
        char fname[sizeof(name)];                                                                  \
        PETW__TLG_PIO_MEMBER(len);                                                                 \
    } f##i;
#define PETW__TLG_INIT_petw__tlgk_pfield(i, k, p, n, in, out, len, name)                           \
    {name, PETW__TLG_PIO(in, out, len)},
#define PETW__TLG_DATA_petw__tlgk_pfield(i, k, p, n, in, out, len, name)                           \
    EventDataDescCreate(&petw__d[petw__n++], (p), (ULONG)(n));

#define PETW__TLG_MEMBER_petw__tlgk_pmeta(i, k, in, out, len, name)                                \
    PETW__TLG_MEMBER_petw__tlgk_pfield(i, k, 0, 0, in, out, len, name)
#define PETW__TLG_INIT_petw__tlgk_pmeta(i, k, in, out, len, name)                                  \
    {name, PETW__TLG_PIO(in, out, len)},
#define PETW__TLG_DATA_petw__tlgk_pmeta(i, k, in, out, len, name)

#define PETW__TLG_MEMBER_petw__tlgk_pstruct(i, k, count, in, name)                                 \
    PETW__TLG_MEMBER_petw__tlgk_struct(i, k, count, name)
#define PETW__TLG_INIT_petw__tlgk_pstruct(i, k, count, in, name)                                   \
    {name, {(uint8_t)(0x80 | (in)), (uint8_t)(count)}},
#define PETW__TLG_DATA_petw__tlgk_pstruct(i, k, count, in, name)

#define PETW__TLG_MEMBER_petw__tlgk_pdata(i, k, p, n, type)
#define PETW__TLG_INIT_petw__tlgk_pdata(i, k, p, n, type)
#define PETW__TLG_DATA_petw__tlgk_pdata(i, k, p, n, type)                                          \
    EventDataDescCreate(&petw__d[petw__n], (p), (ULONG)(n));                                       \
    petw__d[petw__n++].Type = (type);

/* A macro petw lacks: the metadata struct holds a static assertion naming
 * it. */
#ifndef __cplusplus
#define PETW__TLG_MEMBER_petw__tlgk_unsupported(i, k, message) _Static_assert(0, message);
#else
#define PETW__TLG_MEMBER_petw__tlgk_unsupported(i, k, message) static_assert(false, message);
#endif
#define PETW__TLG_INIT_petw__tlgk_unsupported(i, k, message)
#define PETW__TLG_DATA_petw__tlgk_unsupported(i, k, message)

/* Event tags: the low 28 bits, 7 at a time from the top, 0x80 = more. */
#define PETW__TLG_TAGLEN(t)                                                                        \
    (((t)&0x1FFFFF) == 0 ? 1 : ((t)&0x3FFF) == 0 ? 2 : ((t)&0x7F) == 0 ? 3 : 4)
#define PETW__TLG_TAGB(t, shift, rest)                                                             \
    (uint8_t)((((t) >> (shift)) & 0x7F) | (((t) & (rest)) ? 0x80 : 0))
#ifndef __cplusplus
#define PETW__TLG_TAGMIN(a, b) ((a) < (b) ? (a) : (b))
#define PETW__TLG_TAGS_MEMBER(t) uint8_t tags[PETW__TLG_TAGLEN(t)]
#define PETW__TLG_TAGS(t)                                                                          \
    {                                                                                              \
        [PETW__TLG_TAGMIN(3,                                                                       \
                          PETW__TLG_TAGLEN(t) - 1)] = PETW__TLG_TAGB(t, 0, 0),                     \
                                                [PETW__TLG_TAGMIN(2, PETW__TLG_TAGLEN(t) - 1)] =   \
                                                    PETW__TLG_TAGB(t, 7, 0x7F),                    \
                                                [PETW__TLG_TAGMIN(1, PETW__TLG_TAGLEN(t) - 1)] =   \
                                                    PETW__TLG_TAGB(t, 14, 0x3FFF),                 \
                                                [0] = PETW__TLG_TAGB(t, 21, 0x1FFFFF)              \
    }
#else
/* C++: 1 to 4 bytes by specialization, the same bytes. */
extern "C++" {
template <int N> struct petw__tlg_tags;
template <> struct petw__tlg_tags<1> {
    uint8_t b[1];
    constexpr petw__tlg_tags(uint32_t t) : b{PETW__TLG_TAGB(t, 21, 0x1FFFFF)} {}
};
template <> struct petw__tlg_tags<2> {
    uint8_t b[2];
    constexpr petw__tlg_tags(uint32_t t)
        : b{PETW__TLG_TAGB(t, 21, 0x1FFFFF), PETW__TLG_TAGB(t, 14, 0x3FFF)}
    {
    }
};
template <> struct petw__tlg_tags<3> {
    uint8_t b[3];
    constexpr petw__tlg_tags(uint32_t t)
        : b{PETW__TLG_TAGB(t, 21, 0x1FFFFF), PETW__TLG_TAGB(t, 14, 0x3FFF),
            PETW__TLG_TAGB(t, 7, 0x7F)}
    {
    }
};
template <> struct petw__tlg_tags<4> {
    uint8_t b[4];
    constexpr petw__tlg_tags(uint32_t t)
        : b{PETW__TLG_TAGB(t, 21, 0x1FFFFF), PETW__TLG_TAGB(t, 14, 0x3FFF),
            PETW__TLG_TAGB(t, 7, 0x7F), PETW__TLG_TAGB(t, 0, 0)}
    {
    }
};
}
#define PETW__TLG_TAGS_MEMBER(t) petw__tlg_tags<PETW__TLG_TAGLEN(t)> tags
#define PETW__TLG_TAGS(t)                                                                          \
    {                                                                                              \
        (t)                                                                                        \
    }
#endif

#if defined(__cplusplus)
/* Value fields name their holder type first (PETW__TLG_TYPE_...). */
#define PETW__TLG_TYPES(...) PETW__TLG_FOREACH(PETW__TLG_M_TYPE, __VA_ARGS__)
#define PETW__TLG_PUSH
#define PETW__TLG_POP
#elif defined(__GNUC__) || defined(__clang__)
#define PETW__TLG_TYPES(...)
#define PETW__TLG_PUSH                                                                             \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#define PETW__TLG_POP _Pragma("GCC diagnostic pop")
#else
#define PETW__TLG_TYPES(...)
#define PETW__TLG_PUSH
#define PETW__TLG_POP
#endif

/* `emit` is the call: PETW__TLG_EMIT(session filter, activity, related
 * activity), or PETW__TLG_EMIT_PLAIN() without them (TraceLoggingWrite's:
 * three arguments fewer). The metadata goes as one block, already the
 * record's EVENT_SCHEMA_TL extended item: the static struct `petw__item`,
 * whose first 8 bytes are the item's header (petw__event_write_tl_item),
 * its tail padded with zeros to 8 by the struct's alignment. The
 * descriptors are payload. */
#define PETW__TLG_ITEM_HEAD(total, size)                                                           \
    ((uint64_t)(total) | ((uint64_t)PETW_EXT_TYPE_EVENT_SCHEMA_TL << 16) | ((uint64_t)(size) << 48))
#define PETW__TLG_EMIT(filter, activity, related)                                                  \
    (void)petw__event_write_tl_item(                                                               \
        petw__p->handle, (const petw_event_descriptor *)&petw__ed, &petw__item,                    \
        (uint32_t)sizeof(petw__item), (const petw_guid *)(activity), (const petw_guid *)(related), \
        (filter), petw__n, petw__n ? (const petw_data_descriptor *)petw__d : NULL)
#define PETW__TLG_EMIT_PLAIN()                                                                     \
    (void)petw__event_write_tl_plain(petw__p->handle, (const petw_event_descriptor *)&petw__ed,    \
                                     &petw__item, (uint32_t)sizeof(petw__item), petw__n,           \
                                     petw__n ? (const petw_data_descriptor *)petw__d : NULL)
#define PETW__TLG_WRITE(emit, hprov, evname, ...)                                                  \
    do {                                                                                           \
        TraceLoggingHProvider const petw__p = (hprov);                                             \
        enum {                                                                                     \
            petw__level = 5 PETW__TLG_FOREACH(PETW__TLG_M_LEVEL, __VA_ARGS__),                     \
            petw__opcode = 0 PETW__TLG_FOREACH(PETW__TLG_M_OPCODE, __VA_ARGS__),                   \
            petw__channel = 11 PETW__TLG_FOREACH(PETW__TLG_M_CHANNEL, __VA_ARGS__),                \
            petw__tags = (0 PETW__TLG_FOREACH(PETW__TLG_M_TAG, __VA_ARGS__)) & 0x0FFFFFFF,         \
            petw__ndesc = 1 PETW__TLG_FOREACH(PETW__TLG_M_NDESC, __VA_ARGS__) /* 1: never 0 */     \
        };                                                                                         \
        const ULONGLONG petw__keyword =                                                            \
            (ULONGLONG)(0 PETW__TLG_FOREACH(PETW__TLG_M_KEYWORD, __VA_ARGS__));                    \
        PETW__TLG_TYPES(__VA_ARGS__)                                                               \
        PETW__TLG_PUSH                                                                             \
        static const struct petw__tlg_item {                                                       \
            uint64_t head;                                                                         \
            struct petw__tlg_meta {                                                                \
                uint8_t size[2];                                                                   \
                PETW__TLG_TAGS_MEMBER(petw__tags);                                                 \
                char ename[sizeof(evname)];                                                        \
                PETW__TLG_FOREACH(PETW__TLG_M_MEMBER, __VA_ARGS__)                                 \
            } meta;                                                                                \
        } petw__item = {PETW__TLG_ITEM_HEAD(sizeof(petw__item), sizeof(petw__item.meta)),          \
                        {{sizeof(petw__item.meta) & 0xFF, sizeof(petw__item.meta) >> 8},           \
                         PETW__TLG_TAGS(petw__tags),                                               \
                         evname,                                                                   \
                         PETW__TLG_FOREACH(PETW__TLG_M_INIT, __VA_ARGS__)}};                       \
        PETW__TLG_POP                                                                              \
        /* (handle 0, unregistered: slot ~0, which the check refuses) */                           \
        if (petw__provider_accepts_load(petw__p->handle, petw__level, petw__keyword)) {            \
            EVENT_DATA_DESCRIPTOR petw__d[petw__ndesc];                                            \
            ULONG petw__n = 0;                                                                     \
            EVENT_DESCRIPTOR petw__ed = {                                                          \
                0, 0, petw__channel, petw__level, petw__opcode, 0, petw__keyword};                 \
            uint32_t petw__ws = 0; /* wide-text scratch used so far */                             \
            (void)petw__ws;                                                                        \
            PETW__TLG_FOREACH(PETW__TLG_M_DATA, __VA_ARGS__)                                       \
            emit;                                                                                  \
        }                                                                                          \
    } while (0)

#endif /* !(_WIN32 && PETW_USE_NATIVE_ETW) */
#endif /* PETW_ETW_TRACELOGGINGPROVIDER_H */
