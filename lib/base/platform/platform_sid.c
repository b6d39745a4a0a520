/* SPDX-License-Identifier: MIT */
/* platform_sid.c - security identifiers, binary and text. A SID is a revision
 * byte, a sub-authority count, a 48-bit big-endian identifier authority
 * and that many 32-bit little-endian sub-authorities; its text is
 * S-R-I-S-S..., as ConvertSidToStringSid writes it. TDH, the decoder and
 * the ETW surface's SID functions share these. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "petw/error.h"
#include "platform.h"

int petw__sid_size(const uint8_t *p, size_t n)
{
    if (n < 8 || n < 8 + 4 * (size_t)p[1])
        return PETW_ECORRUPT;
    return 8 + 4 * (int)p[1];
}

int petw__sid_text(const uint8_t *p, size_t n, char *text, size_t size)
{
    int bytes = petw__sid_size(p, n);
    if (bytes < 0)
        return bytes;
    uint64_t authority = 0;
    for (int k = 2; k < 8; k++)
        authority = authority << 8 | p[k];
    /* Windows: the authority in decimal below 2^32, else 0x and 12 hex
     * digits. */
    int len = authority >> 32 ? snprintf(text, size, "S-%u-0x%012" PRIX64, p[0], authority)
                              : snprintf(text, size, "S-%u-%" PRIu64, p[0], authority);
    for (size_t k = 0; k < p[1] && (size_t)len < size; k++)
        len += snprintf(text + len, size - (size_t)len, "-%" PRIu32, petw__rd32(p + 8 + 4 * k));
    return bytes;
}

/* A decimal number below `limit` (or 0x and hex digits when `hex_ok`) at
 * *s, which moves past it; -1 when there is none or it is too large. */
static int64_t read_number(const char **s, uint64_t limit, int hex_ok)
{
    const char *p = *s;
    unsigned base = 10;
    uint64_t v = 0;
    if (hex_ok && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    const char *digits = p;
    for (;; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9')
            d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            break;
        v = v * base + d;
        if (v >= limit)
            return -1;
    }
    if (p == digits)
        return -1;
    *s = p;
    return (int64_t)v;
}

int petw__sid_parse(const char *text, uint8_t *out, size_t out_size)
{
    const char *s = text;
    uint8_t sid[PETW__SID_MAX_SIZE];
    if (!text || (s[0] != 'S' && s[0] != 's') || s[1] != '-')
        return PETW_EINVAL;
    s += 2;
    int64_t revision = read_number(&s, 256, 0);
    if (revision < 0 || *s++ != '-')
        return PETW_EINVAL;
    int64_t authority = read_number(&s, (uint64_t)1 << 48, 1);
    if (authority < 0)
        return PETW_EINVAL;
    sid[0] = (uint8_t)revision;
    for (int k = 7; k >= 2; k--, authority >>= 8)
        sid[k] = (uint8_t)authority;
    size_t count = 0;
    while (*s == '-') {
        s++;
        int64_t sub = read_number(&s, (uint64_t)1 << 32, 0);
        if (sub < 0 || count == PETW__SID_MAX_SUB_AUTHORITIES)
            return PETW_EINVAL;
        petw__wr32(sid + 8 + 4 * count++, (uint32_t)sub);
    }
    if (*s != 0)
        return PETW_EINVAL;
    sid[1] = (uint8_t)count;
    if (out_size < 8 + 4 * count)
        return PETW_EBADLENGTH;
    memcpy(out, sid, 8 + 4 * count);
    return (int)(8 + 4 * count);
}
