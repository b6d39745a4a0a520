/* SPDX-License-Identifier: MIT */
/* platform_utf.c - the UTF conversions the format and the ETW surface need.
 * Invalid input is replaced by U+FFFD; output is always NUL-terminated. */
#include <wchar.h>

#include "petw/error.h"
#include "platform.h"

/* Marks an invalid sequence in utf8_decode's output. */
#define UTF_INVALID 0xFFFFFFFFu

/* Decodes one UTF-8 sequence of at most `left` bytes (>= 1); returns bytes
 * consumed (>= 1), *cp UTF_INVALID for a sequence that is not UTF-8 (a
 * stray continuation byte, a cut or overlong sequence, a surrogate, above
 * U+10FFFF): then only its maximal valid prefix is consumed. */
static size_t utf8_decode(const unsigned char *s, size_t left, uint32_t *cp)
{
    static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (n < 0 || c >= 0xF8) {
        *cp = UTF_INVALID;
        return 1;
    }
    uint32_t v = c & (0x3Fu >> n);
    for (int i = 1; i <= n; i++) {
        if ((size_t)i >= left || (s[i] & 0xC0) != 0x80) {
            *cp = UTF_INVALID;
            return (size_t)i;
        }
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    *cp = v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || v < min[n] ? UTF_INVALID : v;
    return (size_t)n + 1;
}

/* Decodes one sequence of a NUL-terminated string; U+FFFD for one that
 * is not UTF-8. Returns bytes consumed (>= 1). */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
    size_t used = utf8_decode(s, (size_t)-1, cp);
    if (*cp == UTF_INVALID)
        *cp = 0xFFFD;
    return used;
}

static size_t utf8_put(uint32_t cp, char *out, size_t room)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | (cp >> 18));
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    if (n > room)
        return 0;
    memcpy(out, b, n);
    return n;
}

/* Decodes UTF-8 `in` and hands each code unit to `put` as UTF-16 (wide16)
 * or as code points; stops before `out_units - 1` units (room for the NUL).
 * Returns units written. */
typedef void (*unit_fn)(void *out, size_t index, uint32_t unit);

static size_t utf8_decode_into(const char *in, void *out, size_t out_units, int wide16, unit_fn put)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t n = 0;
    while (*s) {
        uint32_t cp;
        s += utf8_next(s, &cp);
        if (wide16 && cp >= 0x10000) {
            if (n + 2 >= out_units)
                break;
            cp -= 0x10000;
            put(out, n++, 0xD800 | (cp >> 10));
            put(out, n++, 0xDC00 | (cp & 0x3FF));
        } else {
            if (n + 1 >= out_units)
                break;
            put(out, n++, cp);
        }
    }
    put(out, n, 0);
    return n;
}

static void put_utf16le(void *out, size_t i, uint32_t unit)
{
    petw__wr16((uint8_t *)out + 2 * i, (uint16_t)unit);
}

static void put_wchar(void *out, size_t i, uint32_t unit)
{
    ((wchar_t *)out)[i] = (wchar_t)unit;
}

size_t petw__utf8_to_utf16le(const char *in, uint8_t *out, size_t out_units)
{
    return out_units ? utf8_decode_into(in, out, out_units, 1, put_utf16le) : 0;
}

/* utf8_put for a code point that may not be Unicode (a lone surrogate,
 * a value above U+10FFFF): U+FFFD in its place. */
static size_t put_unicode(uint32_t cp, char *out, size_t room)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    return utf8_put(cp, out, room);
}

size_t petw__utf16le_to_utf8(const uint8_t *in, size_t in_units, char *out, size_t out_size)
{
    size_t o = 0;
    if (out_size == 0)
        return 0;
    for (size_t i = 0; i < in_units; i++) {
        uint32_t cp = petw__rd16(in + 2 * i);
        if (cp == 0)
            break;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < in_units) {
            uint32_t lo = petw__rd16(in + 2 * (i + 1));
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            } else {
                cp = 0xFFFD;
            }
        }
        size_t w = put_unicode(cp, out + o, out_size - 1 - o);
        if (w == 0)
            break;
        o += w;
    }
    out[o] = 0;
    return o;
}

/* Converts until the input ends or the output is full; *complete says
 * which. */
static size_t wcs_to_utf8(const wchar_t *in, char *out, size_t out_size, int *complete)
{
    size_t o = 0;
    *complete = 0;
    if (out_size == 0)
        return 0;
    for (; *in; in++) {
        uint32_t cp = (uint32_t)*in;
        if (sizeof(wchar_t) == 2 && cp >= 0xD800 && cp <= 0xDBFF && in[1] >= 0xDC00 &&
            (uint32_t)in[1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)in[1] - 0xDC00);
            in++;
        }
        size_t w = put_unicode(cp, out + o, out_size - 1 - o);
        if (w == 0)
            break;
        o += w;
    }
    *complete = *in == 0;
    out[o] = 0;
    return o;
}

size_t petw__wcs_to_utf8(const wchar_t *in, char *out, size_t out_size)
{
    int complete;
    return wcs_to_utf8(in, out, out_size, &complete);
}

int petw__wcs_to_utf8_fit(const wchar_t *in, char *out, size_t out_size)
{
    int complete;
    wcs_to_utf8(in, out, out_size, &complete);
    return complete ? 0 : PETW_ENAMETOOLONG;
}

size_t petw__utf8_to_wcs(const char *in, wchar_t *out, size_t out_chars)
{
    return out_chars ? utf8_decode_into(in, out, out_chars, sizeof(wchar_t) == 2, put_wchar) : 0;
}

int petw__ansi_to_utf8_fit(const char *in, char *out, size_t out_size)
{
    return petw__ansi_to_utf8(in, out, out_size);
}

int petw__utf8_to_ansi_fit(const char *in, char *out, size_t out_size)
{
    return petw__utf8_to_ansi(in, out, out_size);
}

int petw__utf8_to_wcs_n(const char *in, size_t n, wchar_t *out, size_t out_chars, int strict,
                        size_t *needed)
{
    const unsigned char *s = (const unsigned char *)in, *end = s + n;
    size_t o = 0;
    while (s < end) {
        uint32_t cp;
        s += utf8_decode(s, (size_t)(end - s), &cp);
        if (cp == UTF_INVALID) {
            if (strict)
                return PETW_EINVAL;
            cp = 0xFFFD;
        }
        if (sizeof(wchar_t) == 2 && cp >= 0x10000) {
            cp -= 0x10000;
            if (o + 2 <= out_chars) {
                out[o] = (wchar_t)(0xD800 | (cp >> 10));
                out[o + 1] = (wchar_t)(0xDC00 | (cp & 0x3FF));
            }
            o += 2;
        } else {
            if (o < out_chars)
                out[o] = (wchar_t)cp;
            o++;
        }
    }
    *needed = o;
    return 0;
}

int petw__wcs_to_utf8_n(const wchar_t *in, size_t n, char *out, size_t out_size, int strict,
                        size_t *needed, int *replaced)
{
    size_t o = 0;
    *replaced = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = (uint32_t)in[i];
        if (sizeof(wchar_t) == 2 && cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n &&
            (uint32_t)in[i + 1] >= 0xDC00 && (uint32_t)in[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)in[i + 1] - 0xDC00);
            i++;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            if (strict)
                return PETW_EINVAL;
            cp = 0xFFFD;
            *replaced = 1;
        }
        char b[4];
        size_t w = utf8_put(cp, b, sizeof(b));
        if (o + w <= out_size)
            memcpy(out + o, b, w);
        o += w;
    }
    *needed = o;
    return 0;
}
