/* SPDX-License-Identifier: MIT */
/* output_proto.h - the protobuf wire format, written into an sbuf: varints,
 * fixed 64-bit and length-delimited fields, and nested messages whose
 * length is patched in when they end. What the binary exports (pprof's
 * profile.proto, Perfetto's trace) write with; field numbers stay in each
 * exporter, next to the message they belong to. */
#ifndef OUTPUT_PROTO_H
#define OUTPUT_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "output_buf.h"

static inline void proto_varint(sbuf *b, uint64_t v)
{
    char *at = sbuf_room(b, 10);
    if (!at)
        return;
    size_t n = 0;
    while (v >= 0x80) {
        at[n++] = (char)(uint8_t)(v | 0x80);
        v >>= 7;
    }
    at[n++] = (char)(uint8_t)v;
    b->len += n;
}

/* Wire types: 0 varint, 1 fixed 64-bit, 2 length-delimited. */
static inline void proto_field_varint(sbuf *b, uint32_t field, uint64_t v)
{
    proto_varint(b, (uint64_t)field << 3);
    proto_varint(b, v);
}

/* int32/int64 fields: a negative value is its 64-bit two's complement. */
static inline void proto_field_int(sbuf *b, uint32_t field, int64_t v)
{
    proto_field_varint(b, field, (uint64_t)v);
}

/* sint32/sint64 fields: zigzag. */
static inline void proto_field_sint(sbuf *b, uint32_t field, int64_t v)
{
    proto_field_varint(b, field, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void proto_field_fixed64(sbuf *b, uint32_t field, uint64_t v)
{
    proto_varint(b, (uint64_t)field << 3 | 1);
    uint8_t le[8];
    for (int k = 0; k < 8; k++)
        le[k] = (uint8_t)(v >> (8 * k));
    sbuf_put(b, le, 8);
}

static inline void proto_field_double(sbuf *b, uint32_t field, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    proto_field_fixed64(b, field, bits);
}

static inline void proto_field_bytes(sbuf *b, uint32_t field, const void *data, size_t n)
{
    proto_varint(b, (uint64_t)field << 3 | 2);
    proto_varint(b, n);
    sbuf_put(b, data, n);
}

static inline void proto_field_string(sbuf *b, uint32_t field, const char *s)
{
    proto_field_bytes(b, field, s, strlen(s));
}

/* A nested message: proto_begin writes the tag and 4 bytes of length (a
 * varint padded with continuation bits, which every parser accepts, so the
 * length is patched in place without moving the body); proto_end fills it
 * in. Messages nest to any depth; each is under 256 MB. */
static inline size_t proto_begin(sbuf *b, uint32_t field)
{
    proto_varint(b, (uint64_t)field << 3 | 2);
    static const char pad[4] = {(char)0x80, (char)0x80, (char)0x80, 0};
    sbuf_put(b, pad, 4);
    return b->len;
}

static inline void proto_end(sbuf *b, size_t at)
{
    if (b->failed || at < 4)
        return;
    size_t n = b->len - at;
    uint8_t *len = (uint8_t *)b->data + at - 4;
    len[0] = (uint8_t)(n | 0x80);
    len[1] = (uint8_t)(n >> 7 | 0x80);
    len[2] = (uint8_t)(n >> 14 | 0x80);
    len[3] = (uint8_t)(n >> 21 & 0x7F);
}

#endif
