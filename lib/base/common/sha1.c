/* SPDX-License-Identifier: MIT */
/* sha1.c - SHA-1 (FIPS 180-4, section 6.1), straightforward and portable. */
#include "sha1.h"

#include <string.h>

static uint32_t rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void compress(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = ((uint32_t)p[4 * t] << 24) | ((uint32_t)p[4 * t + 1] << 16) |
               ((uint32_t)p[4 * t + 2] << 8) | p[4 * t + 3];
    for (int t = 16; t < 80; t++)
        w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20)
            f = (b & c) | (~b & d), k = 0x5a827999;
        else if (t < 40)
            f = b ^ c ^ d, k = 0x6ed9eba1;
        else if (t < 60)
            f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
        else
            f = b ^ c ^ d, k = 0xca62c1d6;
        uint32_t tmp = rol(a, 5) + f + e + k + w[t];
        e = d, d = c, c = rol(b, 30), b = a, a = tmp;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void petw__sha1_init(petw__sha1 *s)
{
    static const uint32_t iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    memcpy(s->h, iv, sizeof(iv));
    s->length = 0;
    s->used = 0;
}

void petw__sha1_update(petw__sha1 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->length += n;
    while (n > 0) {
        size_t k = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, k);
        s->used += k, p += k, n -= k;
        if (s->used == 64) {
            compress(s->h, s->block);
            s->used = 0;
        }
    }
}

void petw__sha1_final(petw__sha1 *s, uint8_t digest[20])
{
    uint64_t bits = s->length * 8;
    static const uint8_t pad[64] = {0x80};
    size_t padn = s->used < 56 ? 56 - s->used : 120 - s->used;
    petw__sha1_update(s, pad, padn);
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    petw__sha1_update(s, len, 8);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = (uint8_t)(s->h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)s->h[i];
    }
}
