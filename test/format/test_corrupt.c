/* SPDX-License-Identifier: MIT */
/* Damaged files: a corrupt buffer is skipped and reported, the others are
 * delivered; a file truncated mid-buffer yields every complete buffer; a
 * missing, empty or garbage file is refused with an error; nothing crashes. */
#include "test_record_helpers.h"

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n);
    CHECK(b && fread(b, 1, *n, f) == *n);
    fclose(f);
    return b;
}

static void spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, n, f) == n);
    fclose(f);
}

int main(void)
{
    char path[512], bad[512];
    test_path(path, sizeof(path), "corrupt-src.etl");
    test_path(bad, sizeof(bad), "corrupt.etl");
    const uint32_t events = 400;
    uint32_t buffers = test_record_file(path, "petw-test-corrupt", events, 100, 0);
    CHECK(buffers >= 6);
    size_t n;
    uint8_t *orig = slurp(path, &n);
    CHECK_EQ(n, (size_t)buffers * 4096);

    test_events l;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &l, NULL, &st), 0);
    CHECK_EQ(l.count, events + 1);
    test_events_free(&l);

    /* 1. A record's size field in buffer 2 points past the buffer. */
    uint8_t *b = malloc(n);
    memcpy(b, orig, n);
    uint32_t victim = 2 * 4096;
    uint32_t used = b[victim + 4] | (b[victim + 5] << 8);
    uint32_t first = victim + 0x48;
    b[first] = 0xF0; /* Size = 0x??F0: far beyond SavedOffset */
    b[first + 1] = 0xFF;
    spit(bad, b, n);
    CHECK_EQ(test_read(bad, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 1);
    CHECK(l.corrupt == 1);
    /* Every other buffer's events are there. */
    (void)used;
    CHECK(l.count < events + 1 && l.count > events + 1 - 60);
    test_events_free(&l);

    /* 2. A buffer header with an impossible SavedOffset. */
    memcpy(b, orig, n);
    b[3 * 4096 + 4] = 0xFF;
    b[3 * 4096 + 5] = 0xFF;
    b[3 * 4096 + 6] = 0xFF;
    spit(bad, b, n);
    CHECK_EQ(test_read(bad, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 1);
    test_events_free(&l);

    /* 3. Truncated mid-buffer: every complete buffer. */
    spit(bad, orig, n - 1000);
    CHECK_EQ(test_read(bad, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.bytes_truncated, 4096 - 1000);
    CHECK_EQ(st.buffers_read, buffers - 1);
    CHECK(l.count > 1 && l.count < events + 1);
    /* What is delivered is a prefix of what was written (one writer). */
    for (size_t i = 1; i < l.count; i++) {
        uint32_t v;
        memcpy(&v, l.ev[i].data, 4);
        CHECK_EQ(v, i - 1);
    }
    test_events_free(&l);

    /* 4. Header-only, empty and garbage files. */
    spit(bad, orig, 4096);
    CHECK_EQ(test_read(bad, 0, &l, NULL, &st), 0);
    CHECK_EQ(l.count, 1);
    test_events_free(&l);
    spit(bad, orig, 0);
    CHECK_EQ(test_read(bad, 0, &l, NULL, NULL), PETW_ECORRUPT);
    memset(b, 0x5A, n);
    spit(bad, b, n);
    CHECK_EQ(test_read(bad, 0, &l, NULL, NULL), PETW_ECORRUPT);
    memcpy(b, orig, n);
    b[0x48 + 2] = 0x13; /* first record is not the session header */
    spit(bad, b, n);
    CHECK_EQ(test_read(bad, 0, &l, NULL, NULL), PETW_ECORRUPT);
    CHECK_EQ(test_read("/nonexistent/x.etl", 0, &l, NULL, NULL), PETW_ENOENT);

    /* 5. Every single-byte flip of the first data buffer's header and first
     * record: never a crash, at most that buffer is lost. */
    for (uint32_t off = 4096; off < 4096 + 0x48 + 0x60; off++) {
        memcpy(b, orig, n);
        b[off] ^= 0xA5;
        spit(bad, b, n);
        if (test_read(bad, 0, &l, NULL, &st) == 0) {
            CHECK(l.count + 60 >= events + 1);
            test_events_free(&l);
        }
    }

    free(b);
    free(orig);
    unlink(path);
    unlink(bad);
    printf("corrupt: ok\n");
    return 0;
}
