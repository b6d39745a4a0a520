/* SPDX-License-Identifier: MIT */
/* What the tests of a zstd file's buffer order share: writer threads that
 * tag each event with their id and its number, and the check of the file
 * they wrote (its stored buffers in the order the flusher took them, every
 * event back once). Each test defines THREADS, PER_THREAD, `provider` and
 * the session before including this. */
#ifndef PETW_TEST_COMPRESSED_ORDER_H
#define PETW_TEST_COMPRESSED_ORDER_H

/* Writes PER_THREAD events tagged (arg << 24 | number), 48 bytes each. */
static void writer(void *arg)
{
    uint32_t id = (uint32_t)(uintptr_t)arg;
    uint8_t buf[48];
    for (uint32_t i = 0; i < PER_THREAD; i++) {
        uint32_t tag = id << 24 | i;
        memcpy(buf, &tag, 4);
        for (uint32_t k = 4; k < sizeof(buf); k++)
            buf[k] = (uint8_t)(k % 5 + i % 3);
        petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, sizeof(buf), 0, 0, 0};
        petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
        CHECK_EQ(petw_event_write(provider, &desc, NULL, NULL, 1, &d), 0);
    }
}

/* The file at `path`, whose header buffer is `header_bytes` long: its
 * stored buffers' SequenceNumbers run 1, 2, 3... with non-decreasing
 * TimeStamps, each compressed; it holds as many buffers as the session
 * says it wrote (`buffers_written`, with the header, as ETW counts), and
 * every writer's event comes back exactly once. */
static void check_compressed_order(const char *path, long header_bytes, uint64_t buffers_written)
{
    FILE *f = fopen(path, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long off = header_bytes;
    int64_t want = 1, last_ts = INT64_MIN;
    while (off < size) {
        unsigned char bh[0x48];
        fseek(f, off, SEEK_SET);
        CHECK_EQ(fread(bh, 1, sizeof(bh), f), sizeof(bh));
        uint32_t stored;
        uint16_t pflags;
        int64_t ts, seq;
        memcpy(&stored, bh, 4);
        memcpy(&ts, bh + 0x10, 8);
        memcpy(&seq, bh + 0x18, 8);
        memcpy(&pflags, bh + 0x44, 2);
        CHECK(pflags & 0x2); /* compressed */
        CHECK_EQ(seq, want);
        CHECK(ts >= last_ts);
        last_ts = ts;
        want++;
        off += stored;
    }
    fclose(f);
    CHECK_EQ(off, size);
    CHECK(want > 100); /* the writers filled many buffers */
    CHECK_EQ((uint64_t)want, buffers_written);

    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), 0);
    CHECK_EQ(ev.count, THREADS * PER_THREAD + 1);
    CHECK_EQ(ev.corrupt, 0);
    uint8_t *seen = calloc(THREADS * PER_THREAD, 1);
    CHECK(seen);
    for (size_t i = 1; i < ev.count; i++) {
        uint32_t tag = test_seq(&ev.ev[i]);
        uint32_t id = tag >> 24, n = tag & 0xffffff;
        CHECK(id < THREADS && n < PER_THREAD);
        CHECK(!seen[id * PER_THREAD + n]);
        seen[id * PER_THREAD + n] = 1;
    }
    free(seen);
    test_events_free(&ev);
}

#endif
