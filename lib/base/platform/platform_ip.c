/* SPDX-License-Identifier: MIT */
/* platform_ip.c - an IPv6 address as text, as Windows writes it: the
 * decoder (petw_decode, petw dump) and TDH (TdhFormatProperty) print the
 * same. Pure code, the same everywhere. */
#include <stdio.h>

#include "platform.h"

/* An IPv6 address (network order) as RtlIpv6AddressToString writes it:
 * lower-case hex words without leading zeros, the longest run of two or
 * more zero words (the first, if tied) as "::", and the last 32 bits as a
 * dotted IPv4 address for the IPv4-compatible (::a.b.c.d, not :: or ::1),
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and
 * ISATAP (...:0:5efe:a.b.c.d or ...:200:5efe:a.b.c.d) forms. */
void petw__ipv6_text(const uint8_t *p, char *text, size_t size)
{
    unsigned w[8];
    for (int i = 0; i < 8; i++)
        w[i] = (unsigned)p[2 * i] << 8 | p[2 * i + 1];
    int zero64 = !w[0] && !w[1] && !w[2] && !w[3];
    int ipv4 = (w[5] == 0x5efe && (w[4] & ~0x200u) == 0) ||
               (zero64 && w[6] != 0 &&
                ((w[4] == 0 && (w[5] == 0 || w[5] == 0xffff)) || (w[4] == 0xffff && w[5] == 0)));
    int words = ipv4 ? 6 : 8, gap = -1, gap_len = 1;
    for (int i = 0; i < words;) {
        int len = 0;
        while (i + len < words && w[i + len] == 0)
            len++;
        if (len > gap_len)
            gap = i, gap_len = len;
        i += len ? len : 1;
    }
    size_t at = 0;
    for (int i = 0; i < words;) {
        if (i == gap) {
            i += gap_len;
            at += (size_t)snprintf(text + at, size - at, i == words ? "::" : ":");
            continue;
        }
        at += (size_t)snprintf(text + at, size - at, "%s%x", i > 0 ? ":" : "", w[i]);
        i++;
    }
    if (ipv4)
        snprintf(text + at, size - at, "%s%u.%u.%u.%u", text[at - 1] == ':' ? "" : ":", p[12],
                 p[13], p[14], p[15]);
}
