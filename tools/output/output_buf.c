/* output_buf.c - the growable buffer records are built in, and the
 * primitives every format writes with: numbers, hex, GUIDs, times. */
#include <stdlib.h>
#include <string.h>

#include "../tool.h"
#include "output.h"

static const char hex_digits[] = "0123456789abcdef";

/* Room for `n` more bytes, or NULL (and b->failed) when memory runs out. */
static char *room(sbuf *b, size_t n)
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

void sbuf_put(sbuf *b, const void *p, size_t n)
{
    char *at = n ? room(b, n) : NULL;
    if (at) {
        memcpy(at, p, n);
        b->len += n;
    }
}

void sbuf_puts(sbuf *b, const char *s)
{
    sbuf_put(b, s, strlen(s));
}

void sbuf_putc(sbuf *b, char c)
{
    char *at = room(b, 1);
    if (at) {
        *at = c;
        b->len++;
    }
}

void sbuf_u64(sbuf *b, uint64_t v)
{
    char tmp[20];
    int i = 20;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sbuf_put(b, tmp + i, (size_t)(20 - i));
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
    char *at = n ? room(b, 2 * n) : NULL;
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
    sbuf_hex(b, be, 4);
    sbuf_putc(b, '-');
    sbuf_hex(b, be + 4, 2);
    sbuf_putc(b, '-');
    sbuf_hex(b, be + 6, 2);
    sbuf_putc(b, '-');
    sbuf_hex(b, be + 8, 2);
    sbuf_putc(b, '-');
    sbuf_hex(b, be + 10, 6);
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
