/* SPDX-License-Identifier: MIT */
/* A zstd file session whose flusher keeps up compresses its buffers on the
 * flusher thread, without waking a compression worker (a hand-off per
 * buffer costs more CPU than the compression it moves): a few buffers at a
 * time, each batch flushed, none reaches a worker; every event is in the
 * file. The workers still take buffers when the flusher falls behind
 * (test_compression_order checks their order). */
#include "test_util.h"

/* flush_compress.c: buffers the workers compressed since the process started. */
uint64_t petw__flush_worker_jobs(void);

DEFINE_GUID(InlineProvider, 0x1a11e1a1, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x8);

#define ROUNDS 30
#define PER_ROUND 600u /* 600 x 80 bytes: a 64 KB buffer or so per round */

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "inline.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-compression-inline";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 64; /* the workers wake at 16 waiting */
    c.flush_timer_ms = 1000;
    c.flags = PETW_SESSION_ZSTD;
    c.loss_policy = PETW_LOSS_BLOCK;
    c.block_timeout_ms = 10000;
    petw_session_handle session;
    petw_provider_handle provider;
    CHECK_EQ(petw_session_start(&c, &session), 0);
    CHECK_EQ(petw_provider_register((const petw_guid *)&InlineProvider, NULL, NULL, &provider), 0);
    CHECK_EQ(petw_session_enable_provider(session, (const petw_guid *)&InlineProvider, 0, 0, 0), 0);
    uint64_t before = petw__flush_worker_jobs();
    uint8_t buf[48];
    for (uint32_t r = 0; r < ROUNDS; r++) {
        for (uint32_t i = 0; i < PER_ROUND; i++) {
            uint32_t tag = r * PER_ROUND + i;
            memcpy(buf, &tag, 4);
            for (uint32_t k = 4; k < sizeof(buf); k++)
                buf[k] = (uint8_t)(k % 7 + i % 3);
            petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, sizeof(buf), 0, 0, 0};
            petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
            CHECK_EQ(petw_event_write(provider, &desc, NULL, NULL, 1, &d), 0);
        }
        CHECK_EQ(petw_session_flush(session, NULL), 0); /* one or two buffers behind */
    }
    petw_session_stats st;
    CHECK_EQ(petw_session_stop(session, &st), 0);
    CHECK_EQ(petw_provider_unregister(provider), 0);
    CHECK_EQ(st.events_lost, 0);
    CHECK(st.buffers_written > ROUNDS);
    /* No buffer went to a worker: the flusher was never 16 buffers behind. */
    CHECK_EQ(petw__flush_worker_jobs() - before, 0);

    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), 0);
    CHECK_EQ(ev.count, ROUNDS * PER_ROUND + 1);
    CHECK_EQ(ev.corrupt, 0);
    for (size_t i = 1; i < ev.count; i++)
        CHECK_EQ(test_seq(&ev.ev[i]), (uint32_t)(i - 1));
    test_events_free(&ev);
    remove(path);
    return 0;
}
