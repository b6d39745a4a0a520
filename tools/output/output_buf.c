/* SPDX-License-Identifier: MIT */
/* output_buf.c - the growable buffer records are built in, and the
 * primitives every format writes with: numbers, hex, GUIDs, times. */
#include <stdlib.h>
#include <string.h>

#include "../tool.h"
#include "output_buf.h"

static const char hex_digits[] = "0123456789abcdef";

/* Room for `n` more bytes, or NULL (and b->failed) when memory runs out. */
char *sbuf_grow(sbuf *b, size_t n)
{
    if (b->cap - b->len >= n)
        return b->data + b->len;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2)
            goto fail;
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p)
        goto fail;
    b->data = p;
    b->cap = cap;
    return b->data + b->len;
fail:
    b->failed = 1;
    return NULL;
}

void sbuf_puts(sbuf *b, const char *s)
{
    sbuf_put(b, s, strlen(s));
}

void sbuf_u64(sbuf *b, uint64_t v)
{
    char tmp[20];
    int i = 20;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *at = sbuf_room(b, 20);
    if (at) {
        memcpy(at, tmp + i, (size_t)(20 - i));
        b->len += (size_t)(20 - i);
    }
}

void sbuf_i64(sbuf *b, int64_t v)
{
    if (v < 0) {
        sbuf_putc(b, '-');
        sbuf_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        sbuf_u64(b, (uint64_t)v);
    }
}

void sbuf_hex64(sbuf *b, uint64_t v)
{
    char tmp[18];
    int i = 18;
    do {
        tmp[--i] = hex_digits[v & 15];
        v >>= 4;
    } while (v);
    tmp[--i] = 'x';
    tmp[--i] = '0';
    sbuf_put(b, tmp + i, (size_t)(18 - i));
}

void sbuf_hex(sbuf *b, const void *p, size_t n)
{
    const uint8_t *in = p;
    char *at = n ? sbuf_room(b, 2 * n) : NULL;
    if (!at)
        return;
    for (size_t i = 0; i < n; i++) {
        at[2 * i] = hex_digits[in[i] >> 4];
        at[2 * i + 1] = hex_digits[in[i] & 15];
    }
    b->len += 2 * n;
}

void sbuf_guid(sbuf *b, const petw_guid *g)
{
    uint8_t be[16]; /* the text's byte order: data1..data3 big-endian */
    be[0] = (uint8_t)(g->data1 >> 24), be[1] = (uint8_t)(g->data1 >> 16);
    be[2] = (uint8_t)(g->data1 >> 8), be[3] = (uint8_t)g->data1;
    be[4] = (uint8_t)(g->data2 >> 8), be[5] = (uint8_t)g->data2;
    be[6] = (uint8_t)(g->data3 >> 8), be[7] = (uint8_t)g->data3;
    memcpy(be + 8, g->data4, 8);
    char *at = sbuf_room(b, 36);
    if (!at)
        return;
    for (int i = 0, o = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            at[o++] = '-';
        at[o++] = hex_digits[be[i] >> 4];
        at[o++] = hex_digits[be[i] & 15];
    }
    b->len += 36;
}

void sbuf_time(sbuf *b, int64_t filetime)
{
    char text[TIME_TEXT_SIZE];
    format_time(filetime, text);
    sbuf_put(b, text, TIME_TEXT_SIZE - 1);
}

void sbuf_free(sbuf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}
