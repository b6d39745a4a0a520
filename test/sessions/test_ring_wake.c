/* SPDX-License-Identifier: MIT */
/* A writer wakes the flusher only when it delivers a buffer onto an empty
 * ready stack: the flusher (or session host) takes the whole stack at once,
 * so the wake-up of the stack's bottom buffer covers the ones delivered on
 * top of it, and a writer faster than its flusher makes one wake-up (a
 * system call when the flusher sleeps) per batch, not per buffer. A ring of
 * its own, each buffer closed after one record: the first delivery wakes,
 * the next three (the stack not taken) do not; once the flusher's side has
 * taken the four, in their order, the next delivery wakes again. */
#include "../../lib/write/ring/ring.h"
#include "test_util.h"

static petw__ring ring;
static int wakes;

static void count_wake(petw__ring *r)
{
    (void)r;
    wakes++;
}

/* One 64-byte record on CPU 0, then its buffer closed (delivered). */
static void write_and_close(uint16_t gen)
{
    petw__reservation res;
    CHECK_EQ(petw__ring_reserve_on(&ring, gen, 0, 64, &res), 0);
    memset(res.record, 0xAB, 64);
    petw__ring_commit(&ring, &res);
    petw__ring_close_cpu(&ring, 0, 0);
}

int main(void)
{
    CHECK_EQ(petw__ring_init(&ring, 1), 0);
    uint16_t gen;
    CHECK_EQ(petw__ring_start(&ring, 4096, 8, 8, &gen), 0);
    ring.policy = PETW_LOSS_DROP_NEWEST;
    ring.on_ready = count_wake;
    petw__pool *pool = atomic_load(&ring.pool);

    write_and_close(gen);
    CHECK_EQ(wakes, 1);
    for (int i = 0; i < 3; i++)
        write_and_close(gen);
    CHECK_EQ(wakes, 1); /* delivered on top of a stack not taken yet */

    uint32_t out[8], first[4];
    uint32_t n = petw__ring_take_ready(&ring, out);
    CHECK_EQ(n, 4);
    for (uint32_t i = 0; i < n; i++) {
        first[i] = out[i];
        CHECK_EQ(petw__ring_buffer_records(pool, out[i]), 1);
        CHECK_EQ(petw__ring_buffer_used(pool, out[i]), PETW__BUFFER_HEADER_SIZE + 64);
        for (uint32_t k = 0; k < i; k++)
            CHECK(first[k] != out[i]);
        petw__ring_free_buffer(pool, out[i]);
    }

    write_and_close(gen); /* the stack is empty again */
    CHECK_EQ(wakes, 2);
    n = petw__ring_take_ready(&ring, out);
    CHECK_EQ(n, 1);
    petw__ring_free_buffer(pool, out[0]);

    petw__ring_kill(&ring);
    petw__ring_release(&ring);
    printf("ok\n");
    return 0;
}
