/* SPDX-License-Identifier: MIT */
/* tracelogging/fields.h - TraceLogging's event attributes (level, keyword,
 * opcode, ...) and fields (scalars, strings, binary, structs, arrays, custom).
 *
 * A chapter of <TraceLoggingProvider.h>, which includes it; not a header of its own. */
#ifndef PETW_ETW_TRACELOGGING_FIELDS_H
#define PETW_ETW_TRACELOGGING_FIELDS_H

#ifndef PETW_ETW_TRACELOGGINGPROVIDER_H
#error "include <TraceLoggingProvider.h>, not its parts"
#endif

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

#endif /* PETW_ETW_TRACELOGGING_FIELDS_H */
