/* SPDX-License-Identifier: MIT */
/* The MS-XCA plain LZ77 decompressor: round trips through an independent
 * test encoder on text, runs, random bytes, long matches (every length
 * encoding: 3 bits, half byte, byte, 16 and 32 bits) and ETL-like records;
 * malformed input (a match before the output starts, truncated length
 * fields, output too small) is refused with -1, never a crash. */
#include <stdio.h>
#include <stdlib.h>

#include "../../lib/base/format/xpress.h"
#include "test_util.h"
#include "xpress_encode.h"

static void roundtrip(const uint8_t *data, size_t n, const char *what)
{
    uint8_t *comp = malloc(n * 9 / 8 + 64), *back = malloc(n + 1);
    CHECK(comp && back);
    size_t c = test_xpress_encode(data, n, comp);
    ptrdiff_t got = petw__xpress_decompress(comp, c, back, n);
    if (got != (ptrdiff_t)n || memcmp(back, data, n) != 0) {
        fprintf(stderr, "round trip failed for %s: %td of %zu\n", what, got, n);
        exit(1);
    }
    free(comp);
    free(back);
}

int main(void)
{
    static uint8_t buf[300000];
    /* Text-like. */
    const char *words[] = {"trace ", "event ", "provider ", "session ", "buffer ", "etw "};
    size_t n = 0;
    for (int i = 0; n + 16 < 20000; i++) {
        const char *w = words[(i * 7 + i / 3) % 6];
        memcpy(buf + n, w, strlen(w));
        n += strlen(w);
    }
    roundtrip(buf, n, "text");
    /* Long runs: lengths in every encoding. */
    static const size_t runs[] = {3, 9, 10, 24, 25, 100, 279, 280, 1000, 65000, 70000, 200000};
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        memset(buf, 'A' + (int)i, runs[i]);
        buf[runs[i]] = 'z';
        roundtrip(buf, runs[i] + 1, "run");
    }
    /* Random (incompressible) and mixed. */
    srand(1);
    for (size_t i = 0; i < 50000; i++)
        buf[i] = (uint8_t)rand();
    roundtrip(buf, 50000, "random");
    for (size_t i = 0; i < 60000; i++)
        buf[i] = (uint8_t)((i % 97) < 50 ? (int)(i % 13) : rand());
    roundtrip(buf, 60000, "mixed");
    roundtrip(buf, 0, "empty");
    roundtrip(buf, 1, "one byte");

    /* Malformed inputs. */
    uint8_t out[64];
    /* A match (flag bit 31 set) at output position 0. */
    const uint8_t before_start[] = {0x00, 0x00, 0x00, 0x80, 0x00, 0x00};
    CHECK_EQ(petw__xpress_decompress(before_start, sizeof(before_start), out, sizeof(out)), -1);
    /* Literal 'a', then a match of length 7+ whose half byte is missing. */
    const uint8_t no_half[] = {0x00, 0x00, 0x00, 0x40, 'a', 0x07, 0x00};
    CHECK_EQ(petw__xpress_decompress(no_half, sizeof(no_half), out, sizeof(out)), -1);
    /* A 1-byte match word. */
    const uint8_t short_word[] = {0x00, 0x00, 0x00, 0x40, 'a', 0x00};
    CHECK_EQ(petw__xpress_decompress(short_word, sizeof(short_word), out, sizeof(out)), -1);
    /* Output too small for a match. */
    memset(buf, 'x', 1000);
    size_t c = test_xpress_encode(buf, 1000, buf + 2000);
    CHECK_EQ(petw__xpress_decompress(buf + 2000, c, out, sizeof(out)), -1);
    /* Every prefix of a valid stream: a clean result or -1, never more
     * bytes than the input could describe. */
    for (size_t i = 0; i < 60000; i++)
        buf[i] = (uint8_t)((i % 97) < 50 ? (int)(i % 13) : rand());
    c = test_xpress_encode(buf, 4000, buf + 100000);
    static uint8_t back[8000];
    for (size_t k = 0; k <= c; k++) {
        ptrdiff_t r = petw__xpress_decompress(buf + 100000, k, back, sizeof(back));
        CHECK(r >= -1 && r <= 4000);
        if (r > 0)
            CHECK(memcmp(back, buf, (size_t)r) == 0);
    }
    printf("xpress: round trips and malformed inputs ok\n");
    return 0;
}
