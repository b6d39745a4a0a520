/* SPDX-License-Identifier: MIT */
/* While writers keep delivering buffers, the flusher polls the ready stacks
 * every millisecond instead of being woken for each one: a writer that fills
 * a buffer every 200 us for 200 buffers sends a few wakes (a system call
 * each), not one per buffer as when the flusher went back to sleep after
 * each; every event still reaches the file, and once the writer stops the
 * flusher sleeps again and the next buffer wakes it. */
#include <uv.h>

#include "test_util.h"

/* flusher.c: wakes writers sent the flusher since the process started. */
uint64_t petw__flusher_writer_wakes(void);

DEFINE_GUID(PollProvider, 0x9011f0e1, 0x1, 0x2, 0x3, 0x4, 0, 0, 0, 0, 0, 0x9);

#define BUFFERS 200u
#define PER_BUFFER 48u /* 48 x 80 bytes: a 4 KB buffer each */

static petw_provider_handle provider;

static void write_one(uint32_t tag)
{
    uint8_t buf[8];
    memcpy(buf, &tag, 4);
    memset(buf + 4, 0x5A, 4);
    petw_data_descriptor d = {(uint64_t)(uintptr_t)buf, sizeof(buf), 0, 0, 0};
    petw_event_descriptor desc = {1, 0, 0, 4, 0, 0, 0};
    CHECK_EQ(petw_event_write(provider, &desc, NULL, NULL, 1, &d), 0);
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "poll.etl");
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-test-flusher-poll";
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 64;
    c.flush_timer_ms = 1000;
    c.loss_policy = PETW_LOSS_BLOCK;
    c.block_timeout_ms = 10000;
    petw_session_handle session;
    CHECK_EQ(petw_session_start(&c, &session), 0);
    CHECK_EQ(petw_provider_register((const petw_guid *)&PollProvider, NULL, NULL, &provider), 0);
    CHECK_EQ(petw_session_enable_provider(session, (const petw_guid *)&PollProvider, 0, 0, 0), 0);
    uint64_t before = petw__flusher_writer_wakes();
    uint32_t tag = 0;
    for (uint32_t b = 0; b < BUFFERS; b++) {
        for (uint32_t i = 0; i < PER_BUFFER; i++)
            write_one(tag++);
        /* 200 us, spun: a sleep that short lasts a millisecond or more
         * where timers are coarse (Windows), which the polling takes for
         * an idle writer. */
        uint64_t until = uv_hrtime() + 200000;
        while (uv_hrtime() < until) {
        }
    }
    uint64_t wakes = petw__flusher_writer_wakes() - before;
    fprintf(stderr, "%llu wakes for about %u buffers\n", (unsigned long long)wakes, BUFFERS);
    /* One per buffer without polling; a few with it (one per idle gap). */
    CHECK(wakes < BUFFERS / 4);

    /* Idle: the flusher stops polling, and the next buffer wakes it. */
    uv_sleep(50);
    before = petw__flusher_writer_wakes();
    for (uint32_t i = 0; i < 2 * PER_BUFFER; i++)
        write_one(tag++);
    uv_sleep(50);
    CHECK(petw__flusher_writer_wakes() - before >= 1);

    petw_session_stats st;
    CHECK_EQ(petw_session_stop(session, &st), 0);
    CHECK_EQ(petw_provider_unregister(provider), 0);
    CHECK_EQ(st.events_lost, 0);
    test_events ev;
    CHECK_EQ(test_read(path, 0, &ev, NULL, NULL), 0);
    CHECK_EQ(ev.count, (size_t)tag + 1);
    for (size_t i = 1; i < ev.count; i++)
        CHECK_EQ(test_seq(&ev.ev[i]), (uint32_t)(i - 1));
    test_events_free(&ev);
    remove(path);
    return 0;
}
