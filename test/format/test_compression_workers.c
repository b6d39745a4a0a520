/* SPDX-License-Identifier: MIT */
/* A zstd file session whose flusher falls behind hands buffers to the
 * compression workers (it wakes them once a quarter of the ring waits: 2 of
 * 8 buffers here), and the file still holds them in the order the flusher
 * took them: two threads write into a ring too small for them (writers
 * wait for a free buffer), some buffers are compressed by a worker, the
 * file's SequenceNumbers run 1, 2, 3... and every event comes back once. */
#include <uv.h>

#include "test_util.h"

/* flush_compress.c: buffers the workers compressed since the process started. */
uint64_t petw__flush_worker_jobs(void);

DEFINE_GUID(OrderProvider, 0x0de7de71, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0xa);

#define THREADS 2
#define PER_THREAD 60000u

static petw_provider_handle provider;
static petw_session_handle session;

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

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "workers.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-compression-workers";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 8; /* the workers wake at 2 waiting */
    c.flush_timer_ms = 1;
    c.flags = PETW_SESSION_ZSTD;
    c.loss_policy = PETW_LOSS_BLOCK; /* keep every event */
    c.block_timeout_ms = 10000;
    CHECK_EQ(petw_session_start(&c, &session), 0);
    CHECK_EQ(petw_provider_register((const petw_guid *)&OrderProvider, NULL, NULL, &provider), 0);
    CHECK_EQ(petw_session_enable_provider(session, (const petw_guid *)&OrderProvider, 0, 0, 0), 0);
    uint64_t before = petw__flush_worker_jobs();
    uv_thread_t th[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        CHECK_EQ(uv_thread_create(&th[i], writer, (void *)i), 0);
    for (int i = 0; i < THREADS; i++)
        uv_thread_join(&th[i]);
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(session, &st), 0);
    CHECK_EQ(petw_provider_unregister(provider), 0);
    CHECK_EQ(st.events_lost, 0);
    fprintf(stderr, "%llu buffers compressed by workers\n",
            (unsigned long long)(petw__flush_worker_jobs() - before));
    CHECK(petw__flush_worker_jobs() - before > 0);

    /* The stored buffers, in file order: header, then 1, 2, 3... */
    FILE *f = fopen(path, "rb");
    CHECK(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    long off = 65536; /* after the header buffer */
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
    CHECK(want > 100);                                      /* the writers filled many buffers */
    CHECK_EQ((uint64_t)want, (uint64_t)st.buffers_written); /* with the header, as ETW counts */

    /* Every event exactly once. */
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
    remove(path);
    return 0;
}
