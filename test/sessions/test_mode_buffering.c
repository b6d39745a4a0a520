/* SPDX-License-Identifier: MIT */
/* EVENT_TRACE_BUFFERING_MODE: a memory-only flight recorder. Writers never
 * lose the newest event (the oldest buffers are overwritten); a snapshot
 * (ControlTrace FLUSH with a log file name in the properties, or
 * petw_session_snapshot) writes one contiguous run of the newest events
 * without stopping or draining the session; and overwritten + lost ==
 * written at the end. With two writers each thread's events in a snapshot
 * are contiguous too, on both transports (in process and through a session
 * host), also when a writer stalls inside EventWrite, between reserving its
 * record and committing it, while a snapshot is taken. */
#include <uv.h>
#ifndef _WIN32
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#endif

#include "test_util.h"

DEFINE_GUID(BufProvider, 0xb0ffb0ff, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);

static REGHANDLE reg;
static int stop_writers;
static uint64_t written_by[2], failed_by[2];

static void writer(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    uint64_t seq = 0;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    while (!__atomic_load_n(&stop_writers, __ATOMIC_ACQUIRE)) {
        uint64_t p[2] = {t, seq++};
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, p, sizeof(p));
        if (EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS)
            __atomic_fetch_add(&failed_by[t], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&written_by[t], seq, __ATOMIC_RELAXED);
    }
}

#ifndef _WIN32
/* A writer stalled inside EventWrite, as a preemption could stall it: its
 * payload is on a page it cannot read, so EventWrite faults while copying
 * it into the record it reserved; the fault handler sleeps, then makes the
 * page readable and the copy resumes. The other writer paces itself (a
 * record every 20 us) so that buffers completed after the stalled one reach
 * the snapshot while the buffer before it is still kept. */
static uint8_t *stall_page;
static size_t stall_page_size;
static int stalled;

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)ctx;
    uint8_t *at = si->si_addr;
    if (at < stall_page || at >= stall_page + stall_page_size)
        abort();
    __atomic_store_n(&stalled, 1, __ATOMIC_RELEASE);
    struct timespec ts = {0, 60 * 1000 * 1000};
    nanosleep(&ts, NULL);
    mprotect(stall_page, stall_page_size, PROT_READ | PROT_WRITE);
    __atomic_store_n(&stalled, 2, __ATOMIC_RELEASE);
}

static void paced_writer(void *arg)
{
    (void)arg;
    uint64_t seq = 0;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    while (!__atomic_load_n(&stop_writers, __ATOMIC_ACQUIRE)) {
        uint64_t p[2] = {1, seq++};
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, p, sizeof(p));
        if (EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS)
            __atomic_fetch_add(&failed_by[1], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&written_by[1], seq, __ATOMIC_RELAXED);
        for (uint64_t t0 = uv_hrtime(); uv_hrtime() - t0 < 20000;) {
        }
    }
}

static void stalling_writer(void *arg)
{
    (void)arg;
    uint64_t seq = 0;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    for (int i = 0; i < 2000 && !__atomic_load_n(&stop_writers, __ATOMIC_ACQUIRE); i++) {
        uint64_t p[2] = {0, seq++};
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, p, sizeof(p));
        if (i == 1000) { /* this one stalls */
            memcpy(stall_page, p, sizeof(p));
            mprotect(stall_page, stall_page_size, PROT_NONE);
            EventDataDescCreate(&dd, stall_page, sizeof(p));
        }
        if (EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS)
            __atomic_fetch_add(&failed_by[0], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&written_by[0], seq, __ATOMIC_RELAXED);
        for (uint64_t t0 = uv_hrtime(); uv_hrtime() - t0 < 20000;) {
        }
    }
}
#endif

/* Reads a snapshot of the two-writer sections: each thread's events are
 * one run, in order, without a hole. Returns how many events it holds. */
static size_t check_two_writers(const char *snap)
{
    test_events l;
    petw_trace_stats st;
    CHECK_EQ(test_read(snap, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 0);
    int64_t last[2] = {-1, -1};
    for (size_t i = 1; i < l.count; i++) {
        uint64_t p[2];
        memcpy(p, l.ev[i].data, 16);
        CHECK(p[0] < 2);
        if (last[p[0]] >= 0 && p[1] != (uint64_t)last[p[0]] + 1)
            fprintf(stderr, "thread %d: event %lld, then %llu\n", (int)p[0], (long long)last[p[0]],
                    (unsigned long long)p[1]);
        if (last[p[0]] >= 0)
            CHECK_EQ(p[1], (uint64_t)last[p[0]] + 1); /* no hole in either thread */
        last[p[0]] = (int64_t)p[1];
    }
    size_t n = l.count - 1;
    test_events_free(&l);
    return n;
}

static void snapshot_props(test_props *tp, const char *path)
{
    test_props_init(tp, NULL);
    tp->p.LogFileNameOffset = offsetof(test_props, file);
    snprintf(tp->file, sizeof(tp->file), "%s", path);
}

int main(void)
{
    char snap[512];
    test_path(snap, sizeof(snap), "snapshot.etl");
    CHECK_EQ(EventRegister(&BufProvider, NULL, NULL, &reg), ERROR_SUCCESS);

    /* 1. One pinned writer: exact checks. */
    test_pin_to_one_cpu();
    test_props tp;
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 8;
    TRACEHANDLE s;
    CHECK_EQ(test_start_trace(&s, "petw-test-buffering", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &BufProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    /* A file mode with buffering is a contradiction. */
    test_props bad;
    test_props_init(&bad, snap);
    bad.p.LogFileMode |= EVENT_TRACE_BUFFERING_MODE;
    TRACEHANDLE sb;
    CHECK_EQ(test_start_trace(&sb, "petw-test-buffering-bad", &bad.p), ERROR_INVALID_PARAMETER);

    const uint32_t total = 5000;                     /* ~240 buffers through an 8-buffer pool */
    CHECK_EQ(test_write_seq(reg, 0, total, 100), 0); /* never a lost event */
    test_props sp;
    snapshot_props(&sp, snap);
    CHECK_EQ(ControlTraceA(s, NULL, &sp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    test_events l;
    petw_trace_stats st;
    CHECK_EQ(test_read(snap, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 0);
    CHECK(l.count > 1 + 80); /* several buffers' worth survive */
    uint32_t first = test_seq(&l.ev[1]);
    for (size_t i = 1; i < l.count; i++)
        CHECK_EQ(test_seq(&l.ev[i]), first + (i - 1)); /* one contiguous run */
    CHECK_EQ(test_seq(&l.ev[l.count - 1]), total - 1); /* ...ending with the newest */
    size_t kept = l.count - 1;
    test_events_free(&l);

    /* The session goes on; a second snapshot has the newer events. */
    CHECK_EQ(test_write_seq(reg, total, 300, 100), 0);
    CHECK_EQ(petw_session_snapshot(s, snap), 0);
    CHECK_EQ(test_read(snap, 0, &l, NULL, NULL), 0);
    CHECK_EQ(test_seq(&l.ev[l.count - 1]), total + 300 - 1);
    for (size_t i = 2; i < l.count; i++)
        CHECK_EQ(test_seq(&l.ev[i]), test_seq(&l.ev[i - 1]) + 1);
    test_events_free(&l);

    petw_session_stats ps;
    CHECK_EQ(petw_session_stop(s, &ps), 0);
    CHECK_EQ(ps.events_lost, 0);
    CHECK_EQ(ps.events_overwritten, total + 300); /* dropped at stop count too */

    /* 2. Two free-running writers, snapshots while they write. */
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 12;
    CHECK_EQ(test_start_trace(&s, "petw-test-buffering-2", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &BufProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    uv_thread_t th[2];
    for (uintptr_t t = 0; t < 2; t++)
        uv_thread_create(&th[t], writer, (void *)t);
    for (int k = 0; k < 20; k++) {
        uv_sleep(2);
        CHECK_EQ(ControlTraceA(s, NULL, &sp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
        check_two_writers(snap);
    }
    __atomic_store_n(&stop_writers, 1, __ATOMIC_RELEASE);
    uv_thread_join(&th[0]);
    uv_thread_join(&th[1]);
    CHECK_EQ(petw_session_stop(s, &ps), 0);
    CHECK_EQ(failed_by[0] + failed_by[1], 0);
    CHECK_EQ(ps.events_lost, 0);
    CHECK_EQ(ps.events_overwritten, written_by[0] + written_by[1]);
    printf("mode_buffering: snapshot kept %zu newest of %u; 2 writers: %llu events, 0 lost\n", kept,
           total, (unsigned long long)(written_by[0] + written_by[1]));

#ifndef _WIN32
    /* 3. A snapshot while a writer stalls between reserving a record and
     * committing it (its buffer completed by the other writer, not yet
     * delivered): the snapshot waits for that buffer rather than leave a
     * hole where it belongs. */
    stall_page_size = (size_t)sysconf(_SC_PAGESIZE);
    stall_page =
        mmap(NULL, stall_page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(stall_page != MAP_FAILED);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    CHECK_EQ(sigaction(SIGSEGV, &sa, NULL), 0);
    test_props_init(&tp, NULL);
    tp.p.LogFileMode = EVENT_TRACE_BUFFERING_MODE;
    tp.p.BufferSize = 4;
    tp.p.MinimumBuffers = tp.p.MaximumBuffers = 64;
    CHECK_EQ(test_start_trace(&s, "petw-test-buffering-3", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &BufProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    stop_writers = 0;
    memset(written_by, 0, sizeof(written_by));
    uv_thread_create(&th[0], stalling_writer, NULL);
    uv_thread_create(&th[1], paced_writer, NULL);
    while (__atomic_load_n(&stalled, __ATOMIC_ACQUIRE) == 0)
        uv_sleep(1);
    uv_sleep(10); /* the other writer completes its buffer and a few more */
    CHECK_EQ(__atomic_load_n(&stalled, __ATOMIC_ACQUIRE), 1);
    CHECK_EQ(petw_session_snapshot(s, snap), 0);
    size_t held = check_two_writers(snap);
    __atomic_store_n(&stop_writers, 1, __ATOMIC_RELEASE);
    uv_thread_join(&th[0]);
    uv_thread_join(&th[1]);
    CHECK_EQ(petw_session_stop(s, &ps), 0);
    CHECK_EQ(failed_by[0] + failed_by[1], 0);
    CHECK_EQ(ps.events_lost, 0);
    munmap(stall_page, stall_page_size);
    printf("mode_buffering: a snapshot during a writer's stall holds %zu events, no hole\n", held);
#endif
    EventUnregister(reg);
    unlink(snap);
    return 0;
}
