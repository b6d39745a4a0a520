/* SPDX-License-Identifier: MIT */
/* tracelogging/event_write.h - TraceLoggingWrite's expansion: the event's
 * metadata (field names, types, tags) and the write itself.
 *
 * A chapter of <TraceLoggingProvider.h>, which includes it; not a header of its own. */
#ifndef PETW_ETW_TRACELOGGING_EVENT_WRITE_H
#define PETW_ETW_TRACELOGGING_EVENT_WRITE_H

#ifndef PETW_ETW_TRACELOGGINGPROVIDER_H
#error "include <TraceLoggingProvider.h>, not its parts"
#endif

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

#endif /* PETW_ETW_TRACELOGGING_EVENT_WRITE_H */
