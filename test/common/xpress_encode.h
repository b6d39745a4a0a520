/* SPDX-License-Identifier: MIT */
/* xpress_encode.h - a small MS-XCA plain LZ77 compressor for tests ([MS-XCA]
 * 2.3): greedy matching with a 3-byte hash. Independent of the library's
 * decompressor, so a round trip checks both against the spec. */
#ifndef PETW_TEST_XPRESS_ENCODE_H
#define PETW_TEST_XPRESS_ENCODE_H

#include <stdint.h>
#include <string.h>

/* Returns the compressed size (out must hold in_size * 9 / 8 + 64). */
static size_t test_xpress_encode(const uint8_t *in, size_t n, uint8_t *out)
{
    static int32_t head[1 << 12];
    memset(head, 0xff, sizeof(head));
    size_t ip = 0, op = 4, flag_pos = 0, nibble = 0;
    uint32_t flags = 0;
    int count = 0;
#define PUT_FLAG(bit)                                                                              \
    do {                                                                                           \
        flags = (flags << 1) | (bit);                                                              \
        if (++count == 32) {                                                                       \
            memcpy(out + flag_pos, &flags, 4);                                                     \
            flag_pos = op;                                                                         \
            op += 4;                                                                               \
            count = 0;                                                                             \
            flags = 0;                                                                             \
        }                                                                                          \
    } while (0)
    while (ip < n) {
        size_t best = 0, best_off = 0;
        if (ip + 3 <= n) {
            uint32_t h =
                ((uint32_t)in[ip] * 2654435761u ^ (uint32_t)in[ip + 1] * 40503u ^ in[ip + 2]) &
                ((1 << 12) - 1);
            int32_t cand = head[h];
            head[h] = (int32_t)ip;
            if (cand >= 0 && ip - (size_t)cand <= 8192) {
                size_t len = 0;
                while (ip + len < n && in[(size_t)cand + len] == in[ip + len] && len < 70000)
                    len++;
                if (len >= 3) {
                    best = len;
                    best_off = ip - (size_t)cand;
                }
            }
        }
        if (best == 0) {
            out[op++] = in[ip++];
            PUT_FLAG(0u);
            continue;
        }
        size_t m = best - 3;
        uint16_t word = (uint16_t)((best_off - 1) << 3);
        if (m < 7) {
            word |= (uint16_t)m;
            memcpy(out + op, &word, 2);
            op += 2;
        } else {
            word |= 7;
            memcpy(out + op, &word, 2);
            op += 2;
            m -= 7;
            uint8_t nib = (uint8_t)(m < 15 ? m : 15);
            if (nibble == 0) {
                out[op] = nib;
                nibble = op + 1;
                op++;
            } else {
                out[nibble - 1] |= (uint8_t)(nib << 4);
                nibble = 0;
            }
            if (m >= 15) {
                m -= 15;
                if (m < 255) {
                    out[op++] = (uint8_t)m;
                } else {
                    out[op++] = 255;
                    m += 7 + 15;
                    if (m < 65536) {
                        uint16_t w = (uint16_t)m;
                        memcpy(out + op, &w, 2);
                        op += 2;
                    } else {
                        uint16_t z = 0;
                        uint32_t w = (uint32_t)m;
                        memcpy(out + op, &z, 2);
                        memcpy(out + op + 2, &w, 4);
                        op += 6;
                    }
                }
            }
        }
        ip += best;
        PUT_FLAG(1u);
    }
    /* Pad the last flag word with 1s (the decoder stops at end of input). */
    if (count == 0)
        flags = 0xFFFFFFFFu;
    else
        flags = (flags << (32 - count)) | ((1u << (32 - count)) - 1);
    memcpy(out + flag_pos, &flags, 4);
    return op;
#undef PUT_FLAG
}

#endif
