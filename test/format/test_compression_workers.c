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

#include "compressed_order.h"

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

    check_compressed_order(path, 65536, st.buffers_written);
    remove(path);
    return 0;
}
