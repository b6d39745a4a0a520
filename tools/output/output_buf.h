/* SPDX-License-Identifier: MIT */
/* output_buf.h - the growable byte buffer every output format builds its
 * records in, and the primitives they write with (output_buf.c). */
#ifndef OUTPUT_BUF_H
#define OUTPUT_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <petw/types.h>

typedef struct sbuf {
    char *data;
    size_t len, cap;
    int failed; /* an allocation failed: the contents are incomplete */
} sbuf;

/* Room for `n` more bytes at data + len, growing the buffer; NULL (and
 * `failed` set) when memory runs out. The fast path is inline: every value
 * of every record goes through it. */
char *sbuf_grow(sbuf *b, size_t n);
static inline char *sbuf_room(sbuf *b, size_t n)
{
    return b->cap - b->len >= n ? b->data + b->len : sbuf_grow(b, n);
}

static inline void sbuf_put(sbuf *b, const void *p, size_t n)
{
    char *at = n ? sbuf_room(b, n) : NULL;
    if (at) {
        memcpy(at, p, n);
        b->len += n;
    }
}

static inline void sbuf_putc(sbuf *b, char c)
{
    char *at = sbuf_room(b, 1);
    if (at) {
        *at = c;
        b->len++;
    }
}

void sbuf_puts(sbuf *b, const char *s);
void sbuf_u64(sbuf *b, uint64_t v);              /* decimal */
void sbuf_i64(sbuf *b, int64_t v);               /* decimal */
void sbuf_hex64(sbuf *b, uint64_t v);            /* "0x" and lowercase hex digits */
void sbuf_hex(sbuf *b, const void *p, size_t n); /* each byte as two hex digits */
void sbuf_guid(sbuf *b, const petw_guid *g);     /* xxxxxxxx-xxxx-... */
void sbuf_time(sbuf *b, int64_t filetime);       /* ISO-8601 UTC */
void sbuf_free(sbuf *b);

#endif
