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

/* The header's chapters, in include/petw/etw/tracelogging/: providers,
 * fields, packed fields, then (after the writing macros) how an event's
 * arguments are walked and its metadata and data written. */
#include "tracelogging/providers.h"
#include "tracelogging/fields.h"
#include "tracelogging/packed_fields.h"

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

#include "tracelogging/arguments.h"
#include "tracelogging/event_write.h"

#endif /* !(_WIN32 && PETW_USE_NATIVE_ETW) */
#endif /* PETW_ETW_TRACELOGGINGPROVIDER_H */
