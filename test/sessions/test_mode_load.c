/* SPDX-License-Identifier: MIT */
/* Every logging mode keeps its promise under load, whichever transport
 * the session has (run once in-process and once through a session host,
 * with and without every CPU busy; test/meson.build registers each):
 *   - buffering: a burst of 100,000 events into 16 x 64 KB buffers loses
 *     none for lack of space (the oldest buffers are overwritten, and
 *     counted), and a snapshot is one contiguous run ending with the last;
 *   - real time + file, MaximumBuffers 64: 20 back-to-back bursts of 1,000
 *     events (they fit the session's buffers) reach the file and a
 *     consumer attached before the writes, with nothing lost;
 *   - two sessions of MaximumBuffers 64 enabling one provider: each keeps
 *     the whole of a 10,000-event burst.
 * Everything written is in the file or counted lost, in every case.
 * Usage: test_mode_load [--busy] */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(LoadProvider, 0x10ad10ad, 0x28, 0x4a4a, 1, 2, 3, 4, 5, 6, 7, 8);

#define PAYLOAD 100 /* bytes: about 180 a record, ~360 records a 64 KB buffer */

static REGHANDLE reg;
static char tag[16]; /* session names differ per transport and load */

/* ---- load: a spinning thread per CPU while a scenario runs ---- */

static int stop_spin;
static uv_thread_t spinners[64];
static unsigned nspin;

static void spin(void *arg)
{
    (void)arg;
    volatile uint64_t x = 0;
    while (!__atomic_load_n(&stop_spin, __ATOMIC_ACQUIRE))
        x++;
}

static void load_start(int busy)
{
    nspin = 0;
    if (!busy)
        return;
    __atomic_store_n(&stop_spin, 0, __ATOMIC_RELEASE);
    unsigned n = uv_available_parallelism();
    for (; nspin < n && nspin < 64; nspin++)
        CHECK_EQ(uv_thread_create(&spinners[nspin], spin, NULL), 0);
}

static void load_stop(void)
{
    __atomic_store_n(&stop_spin, 1, __ATOMIC_RELEASE);
    for (unsigned i = 0; i < nspin; i++)
        uv_thread_join(&spinners[i]);
    nspin = 0;
}

/* ---- helpers ---- */

static TRACEHANDLE start(const char *what, const char *file, ULONG mode, ULONG max_buffers,
                         test_props *tp)
{
    char name[128];
    snprintf(name, sizeof(name), "petw-load-%s-%s", what, tag);
    test_props_init(tp, file);
    tp->p.LogFileMode |= mode;
    tp->p.BufferSize = 64;
    tp->p.MinimumBuffers = tp->p.MaximumBuffers = max_buffers;
    TRACEHANDLE s = 0;
    CHECK_EQ(test_start_trace(&s, name, &tp->p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(s, &LoadProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    return s;
}

static void stop(TRACEHANDLE s, test_props *tp)
{
    CHECK_EQ(ControlTraceA(s, NULL, &tp->p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
}

/* Events of the file, in order: their count, and whether their sequence
 * numbers run first, first + 1, ... without a hole. */
static size_t read_run(const char *path, uint32_t *first, uint32_t *last, int *contiguous)
{
    test_events l;
    petw_trace_stats st;
    CHECK_EQ(test_read(path, 0, &l, NULL, &st), 0);
    CHECK_EQ(st.buffers_corrupt, 0);
    size_t n = 0;
    *contiguous = 1;
    for (size_t i = 0; i < l.count; i++) {
        if (memcmp(&l.ev[i].header.provider_id, &LoadProvider, sizeof(GUID)) != 0)
            continue;
        uint32_t v = test_seq(&l.ev[i]);
        if (n == 0)
            *first = v;
        else if (v != *last + 1)
            *contiguous = 0;
        *last = v;
        n++;
    }
    test_events_free(&l);
    return n;
}

/* ---- 1. buffering: 100,000 events in one burst ---- */

static void buffering(int busy)
{
    char snap[512];
    test_path(snap, sizeof(snap), "load-snapshot.etl");
    test_props tp;
    TRACEHANDLE s = start("buffering", NULL, EVENT_TRACE_BUFFERING_MODE, 16, &tp);
    const uint32_t total = 100000;
    load_start(busy);
    uint32_t failed = test_write_seq(reg, 0, total, PAYLOAD);
    load_stop();
    CHECK_EQ(failed, 0); /* never dropped for lack of space */

    test_props sp;
    test_props_init(&sp, NULL);
    sp.p.LogFileNameOffset = offsetof(test_props, file);
    snprintf(sp.file, sizeof(sp.file), "%s", snap);
    CHECK_EQ(ControlTraceA(s, NULL, &sp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    uint32_t first = 0, last = 0;
    int contiguous;
    size_t kept = read_run(snap, &first, &last, &contiguous);
    CHECK(kept > 16 * 300); /* close to 16 buffers' worth */
    CHECK(contiguous);
    CHECK_EQ(last, total - 1);
    CHECK_EQ(sp.p.EventsLost, 0);

    /* Exact accounting through either transport (the native stop takes
     * both kinds of handle): a buffering session's events all end
     * overwritten, in a recycled buffer or dropped at the stop. */
    petw_session_stats ps;
    CHECK_EQ(petw_session_stop(s, &ps), 0);
    CHECK_EQ(ps.events_lost, 0);
    CHECK_EQ(ps.events_overwritten, total);
    printf("buffering%s: %u written, 0 dropped; snapshot %zu newest (%u..%u), contiguous\n",
           busy ? " (busy)" : "", total, kept, first, last);
    unlink(snap);
}

/* ---- 2. real time + file, bursts that fit MaximumBuffers 64 ---- */

typedef struct consumer {
    EVENT_TRACE_LOGFILEA lf;
    TRACEHANDLE h;
    ULONG status;
    uint32_t seen;
} consumer;

static void WINAPI on_event(PEVENT_RECORD r)
{
    consumer *c = r->UserContext;
    if (memcmp(&r->EventHeader.ProviderId, &LoadProvider, sizeof(GUID)) == 0)
        __atomic_fetch_add(&c->seen, 1, __ATOMIC_RELEASE);
}

static void run_consumer(void *arg)
{
    consumer *c = arg;
    c->status = ProcessTrace(&c->h, 1, NULL, NULL);
}

static void realtime_file(int busy)
{
    char file[512], name[128];
    test_path(file, sizeof(file), "load-rt.etl");
    test_props tp;
    TRACEHANDLE s = start("rt", file, EVENT_TRACE_REAL_TIME_MODE, 64, &tp);
    snprintf(name, sizeof(name), "petw-load-rt-%s", tag);
    consumer c;
    memset(&c, 0, sizeof(c));
    c.lf.LoggerName = name;
    c.lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
    c.lf.EventRecordCallback = on_event;
    c.lf.Context = &c;
    c.h = OpenTraceA(&c.lf);
    CHECK(c.h != INVALID_PROCESSTRACE_HANDLE);
    uv_thread_t th;
    CHECK_EQ(uv_thread_create(&th, run_consumer, &c), 0);

    const uint32_t bursts = 20, each = 1000;
    load_start(busy);
    uint32_t failed = 0;
    for (uint32_t b = 0; b < bursts; b++)
        failed += test_write_seq(reg, b * each, each, PAYLOAD);
    load_stop();
    stop(s, &tp);
    uv_thread_join(&th);
    CloseTrace(c.h);
    CHECK_EQ(c.status, ERROR_SUCCESS);
    CHECK_EQ(failed, 0);
    CHECK_EQ(tp.p.EventsLost, 0);
    CHECK_EQ(tp.p.RealTimeBuffersLost, 0);
    uint32_t first = 0, last = 0;
    int contiguous;
    size_t in_file = read_run(file, &first, &last, &contiguous);
    CHECK_EQ(in_file, bursts * each);
    CHECK_EQ(__atomic_load_n(&c.seen, __ATOMIC_ACQUIRE), bursts * each);
    printf("real time + file%s: %u written, %zu in the file, %u to the consumer, 0 lost\n",
           busy ? " (busy)" : "", bursts * each, in_file, c.seen);
    unlink(file);
}

/* ---- 3. two sessions, one burst ---- */

static void two_sessions(int busy)
{
    char file[2][512];
    test_path(file[0], sizeof(file[0]), "load-two-0.etl");
    test_path(file[1], sizeof(file[1]), "load-two-1.etl");
    test_props tp[2];
    TRACEHANDLE s0 = start("two-0", file[0], 0, 64, &tp[0]);
    TRACEHANDLE s1 = start("two-1", file[1], 0, 64, &tp[1]);
    const uint32_t total = 10000;
    load_start(busy);
    uint32_t failed = test_write_seq(reg, 0, total, PAYLOAD);
    load_stop();
    stop(s0, &tp[0]);
    stop(s1, &tp[1]);
    CHECK_EQ(failed, 0);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(tp[i].p.EventsLost, 0);
        uint32_t first = 0, last = 0;
        int contiguous;
        CHECK_EQ(read_run(file[i], &first, &last, &contiguous), total);
        CHECK(contiguous);
        unlink(file[i]);
    }
    printf("two sessions%s: %u written, each file holds all %u\n", busy ? " (busy)" : "", total,
           total);
}

int main(int argc, char **argv)
{
    int busy = argc > 1 && strcmp(argv[1], "--busy") == 0;
    const char *inproc = getenv("PETW_INPROC_SESSIONS");
    int host = !(inproc && inproc[0] && inproc[0] != '0');
    snprintf(tag, sizeof(tag), "%s%s-%d", host ? "host" : "inproc", busy ? "-busy" : "",
             (int)getpid());
    CHECK_EQ(EventRegister(&LoadProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    buffering(busy);
    realtime_file(busy);
    two_sessions(busy);
    EventUnregister(reg);
    printf("mode_load: every mode kept its promise (%s transport%s)\n",
           host ? "session host" : "in-process", busy ? ", every CPU busy" : "");
    return 0;
}
