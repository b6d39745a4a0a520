/* SPDX-License-Identifier: MIT */
/* A zstd file's buffers are compressed on worker threads but stored in the
 * order the flusher took them: two threads write many small buffers while
 * the main thread flushes, and the file's SequenceNumbers run 1, 2, 3...
 * with non-decreasing TimeStamps, every event comes back exactly once, and
 * the session's count of buffers written is the file's. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(OrderProvider, 0x0de7de70, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x7);

#define THREADS 2
#define PER_THREAD 60000u

static petw_provider_handle provider;
static petw_session_handle session;

#include "compressed_order.h"

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "order.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-compression-order";
    c.file_path = path;
    c.buffer_size_kb = 4; /* many buffers: many jobs in flight at once */
    c.minimum_buffers = c.maximum_buffers = 32;
    c.flush_timer_ms = 1;
    c.flags = PETW_SESSION_ZSTD;
    c.loss_policy = PETW_LOSS_BLOCK; /* keep every event */
    c.block_timeout_ms = 10000;
    CHECK_EQ(petw_session_start(&c, &session), 0);
    CHECK_EQ(petw_provider_register((const petw_guid *)&OrderProvider, NULL, NULL, &provider), 0);
    CHECK_EQ(petw_session_enable_provider(session, (const petw_guid *)&OrderProvider, 0, 0, 0), 0);
    uv_thread_t th[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        CHECK_EQ(uv_thread_create(&th[i], writer, (void *)i), 0);
    for (int i = 0; i < 20; i++) {
        CHECK_EQ(petw_session_flush(session, NULL), 0); /* waits for the workers */
        uv_sleep(2);
    }
    for (int i = 0; i < THREADS; i++)
        uv_thread_join(&th[i]);
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(session, &st), 0);
    CHECK_EQ(petw_provider_unregister(provider), 0);
    CHECK_EQ(st.events_lost, 0);

    check_compressed_order(path, 4096, st.buffers_written);
    remove(path);
    return 0;
}
