/* SPDX-License-Identifier: MIT */
/* xpress.c - see xpress.h. The structure follows [MS-XCA] 2.4's pseudocode:
 * a 32-bit flag word says, bit by bit from the top, whether the next item
 * is a literal byte (0) or a match (1); a match is a 16-bit word of
 * (offset - 1) << 3 | length, with longer lengths continued in a shared
 * half byte, then a byte, a 16-bit word, or a 32-bit word. */
#include "xpress.h"

ptrdiff_t petw__xpress_decompress(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size)
{
    size_t ip = 0, op = 0, last_half = 0; /* last_half: 0 = none, else index + 1 */
    uint32_t flags = 0;
    int flag_count = 0;
    for (;;) {
        if (flag_count == 0) {
            if (ip + 4 > in_size)
                return (ptrdiff_t)op; /* the input ends between items */
            flags = (uint32_t)in[ip] | ((uint32_t)in[ip + 1] << 8) | ((uint32_t)in[ip + 2] << 16) |
                    ((uint32_t)in[ip + 3] << 24);
            ip += 4;
            flag_count = 32;
        }
        flag_count--;
        if (!(flags & (1u << flag_count))) {
            if (ip >= in_size || op >= out_size)
                return (ptrdiff_t)op; /* end of input (or of the output wanted) */
            out[op++] = in[ip++];
            continue;
        }
        if (ip == in_size)
            return (ptrdiff_t)op;
        if (ip + 2 > in_size)
            return -1;
        uint32_t word = (uint32_t)in[ip] | ((uint32_t)in[ip + 1] << 8);
        ip += 2;
        size_t length = word & 7, offset = (word >> 3) + 1;
        if (length == 7) {
            if (last_half == 0) {
                if (ip >= in_size)
                    return -1;
                length = in[ip] & 15;
                last_half = ip + 1;
                ip++;
            } else {
                length = in[last_half - 1] >> 4;
                last_half = 0;
            }
            if (length == 15) {
                if (ip >= in_size)
                    return -1;
                length = in[ip++];
                if (length == 255) {
                    if (ip + 2 > in_size)
                        return -1;
                    length = (size_t)in[ip] | ((size_t)in[ip + 1] << 8);
                    ip += 2;
                    if (length == 0) {
                        if (ip + 4 > in_size)
                            return -1;
                        length = (size_t)in[ip] | ((size_t)in[ip + 1] << 8) |
                                 ((size_t)in[ip + 2] << 16) | ((size_t)in[ip + 3] << 24);
                        ip += 4;
                    }
                    if (length < 15 + 7)
                        return -1;
                    length -= 15 + 7;
                }
                length += 15;
            }
            length += 7;
        }
        length += 3;
        if (offset > op || length > out_size - op)
            return -1;
        /* Byte by byte: a match may overlap its own output (runs). */
        for (size_t i = 0; i < length; i++, op++)
            out[op] = out[op - offset];
    }
}
