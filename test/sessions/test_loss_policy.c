/* SPDX-License-Identifier: MIT */
/* petw's blocking loss policy: with every buffer in use, a writer waits
 * (up to its timeout) for the flusher to return one instead of dropping the
 * event; past the timeout the event is dropped and counted. The flusher is
 * held deterministically by a second session's sink, as in test_loss. */
#include <uv.h>

#include "test_util.h"

static const petw_guid blocking_provider = {0xb10cb10c, 1, 2, {3, 4, 0, 0, 0, 0, 0, 1}};
static const petw_guid holder_provider = {0xb10cb10c, 1, 2, {3, 4, 0, 0, 0, 0, 0, 2}};

static uv_sem_t entered, release;
static int hold_next;

static void holding_sink(void *ctx, const void *buf, uint32_t size)
{
    (void)ctx;
    (void)buf;
    (void)size;
    if (__atomic_exchange_n(&hold_next, 0, __ATOMIC_ACQ_REL)) {
        uv_sem_post(&entered);
        uv_sem_wait(&release);
    }
}

static void releaser(void *arg)
{
    (void)arg;
    uv_sleep(100);
    uv_sem_post(&release);
}

static uint32_t run(uint32_t timeout_ms, int release_later, petw_session_stats *st)
{
    petw_session_config hc, bc;
    petw_session_config_init(&hc);
    hc.name = "petw-test-policy-holder";
    hc.buffer_size_kb = 4;
    hc.flush_timer_ms = 1;
    hc.log_file_mode = 0;
    hc.sink = holding_sink;
    petw_session_config_init(&bc);
    bc.name = "petw-test-policy";
    bc.buffer_size_kb = 4;
    bc.minimum_buffers = bc.maximum_buffers = 4;
    bc.log_file_mode = 0;
    bc.loss_policy = PETW_LOSS_BLOCK;
    bc.block_timeout_ms = timeout_ms;
    petw_session_handle hs, bs;
    petw_provider_handle hp, bp;
    CHECK_EQ(petw_session_start(&hc, &hs), 0);
    CHECK_EQ(petw_session_start(&bc, &bs), 0);
    CHECK_EQ(petw_provider_register(&holder_provider, NULL, NULL, &hp), 0);
    CHECK_EQ(petw_provider_register(&blocking_provider, NULL, NULL, &bp), 0);
    CHECK_EQ(petw_session_enable_provider(hs, &holder_provider, 0, 0, 0), 0);
    CHECK_EQ(petw_session_enable_provider(bs, &blocking_provider, 0, 0, 0), 0);
    petw_event_descriptor d = {1, 0, 0, 4, 0, 0, 0};
    __atomic_store_n(&hold_next, 1, __ATOMIC_RELEASE);
    CHECK_EQ(petw_event_write(hp, &d, NULL, NULL, 0, NULL), 0);
    uv_sem_wait(&entered); /* the flusher is held now */
    uv_thread_t th;
    if (release_later)
        uv_thread_create(&th, releaser, NULL);
    uint8_t payload[200] = {0};
    petw_data_descriptor dd = {(uint64_t)(uintptr_t)payload, sizeof(payload), 0, 0, 0};
    uint32_t failures = 0;
    for (int i = 0; i < 200; i++) /* ~10 buffers' worth through a 4-buffer pool */
        failures += petw_event_write(bp, &d, NULL, NULL, 1, &dd) != 0;
    if (release_later)
        uv_thread_join(&th);
    else
        uv_sem_post(&release);
    CHECK_EQ(petw_session_stop(bs, st), 0);
    CHECK_EQ(petw_session_stop(hs, NULL), 0);
    petw_provider_unregister(hp);
    petw_provider_unregister(bp);
    return failures;
}

int main(void)
{
    CHECK_EQ(uv_sem_init(&entered, 0), 0);
    CHECK_EQ(uv_sem_init(&release, 0), 0);
    petw_session_stats st;
    /* The flusher comes back after 100 ms; writers wait up to 5 s: nothing lost. */
    uint32_t f1 = run(5000, 1, &st);
    CHECK_EQ(f1, 0);
    CHECK_EQ(st.events_lost, 0);
    /* It never comes back while writing; 5 ms timeout: drops, counted. */
    uint32_t f2 = run(5, 0, &st);
    CHECK(f2 > 0);
    CHECK_EQ(st.events_lost, f2);
    printf("loss_policy: block with a returning flusher lost 0; with a 5 ms timeout lost %u\n", f2);
    return 0;
}
