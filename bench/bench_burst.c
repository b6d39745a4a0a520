/* SPDX-License-Identifier: MIT */
/* bench_burst.c - the largest burst each logging mode keeps without a loss,
 * on each transport: a session of MaximumBuffers 64 x 64 KB (what ETW's
 * users give a session that must take bursts), one writer writing the
 * burst back to back with 100-byte payloads, nothing else running. A
 * burst that fits the session's buffers should be kept whole wherever the
 * buffers live. Buffering never loses (it overwrites): it reports the
 * newest events a snapshot holds after a burst 20x its buffers.
 *
 * One JSON line per (mode, transport):
 *   {"contender":"petw-burst","mode":M,"transport":T,"buffers":64,
 *    "capacity_events":C,"loss_free_burst":N,"ratio":N/C}
 * Usage: bench_burst [--max EVENTS]
 */
#include <evntcons.h>
#include <evntrace.h>
#include <windows.h>

#include "bench_common.h"

#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

DEFINE_GUID(BurstProvider, 0xb0b5b0b5, 0x28, 0x4c4c, 1, 2, 3, 4, 5, 6, 7, 8);

#define BUFFERS 64
#define BUFFER_KB 64
#define PAYLOAD 100

typedef struct props {
    EVENT_TRACE_PROPERTIES p;
    char logger[256];
    char file[1024];
} props;

static REGHANDLE reg;
static char dir[512];
static unsigned trial;

static void props_init(props *tp, ULONG mode, const char *file)
{
    memset(tp, 0, sizeof(*tp));
    tp->p.Wnode.BufferSize = sizeof(*tp);
    tp->p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    tp->p.Wnode.ClientContext = 1;
    tp->p.LoggerNameOffset = offsetof(props, logger);
    tp->p.LogFileMode = mode;
    tp->p.BufferSize = BUFFER_KB;
    tp->p.MinimumBuffers = tp->p.MaximumBuffers = BUFFERS;
    if (file) {
        tp->p.LogFileNameOffset = offsetof(props, file);
        snprintf(tp->file, sizeof(tp->file), "%s", file);
    }
}

static uint64_t write_burst(uint64_t n)
{
    uint8_t buf[PAYLOAD] = {0};
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 0};
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, buf, sizeof(buf));
    uint64_t failed = 0;
    for (uint64_t i = 0; i < n; i++) {
        memcpy(buf, &i, sizeof(i));
        failed += EventWrite(reg, &d, 1, &dd) != ERROR_SUCCESS;
    }
    return failed;
}

/* One burst of `n` into a fresh session: events lost (written - kept). */
static uint64_t run(ULONG mode, uint64_t n, uint64_t *snapshot_events)
{
    char name[128], file[1024];
    snprintf(name, sizeof(name), "petw-burst-%d-%u", (int)getpid(), trial++);
    snprintf(file, sizeof(file), "%s/burst-%d.etl", dir, (int)getpid());
    int buffering = (mode & EVENT_TRACE_BUFFERING_MODE) != 0;
    props tp;
    props_init(&tp, mode, buffering ? NULL : file);
    TRACEHANDLE s;
    if (StartTraceA(&s, name, &tp.p) != ERROR_SUCCESS ||
        EnableTraceEx2(s, &BurstProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL) !=
            ERROR_SUCCESS) {
        fprintf(stderr, "bench_burst: cannot start a session\n");
        exit(1);
    }
    uint64_t failed = write_burst(n);
    if (buffering) {
        props sp;
        props_init(&sp, 0, file);
        sp.p.LogFileMode = 0;
        ControlTraceA(s, NULL, &sp.p, EVENT_TRACE_CONTROL_FLUSH);
        /* The snapshot's length, from its file size: a record is the
         * 80-byte header and the payload, 8-aligned. */
        FILE *f = fopen(file, "rb");
        long long bytes = 0;
        if (f) {
            fseek(f, 0, SEEK_END);
            bytes = ftell(f);
            fclose(f);
        }
        *snapshot_events = (uint64_t)(bytes / (BUFFER_KB * 1024)) * (BUFFER_KB * 1024 - 72) /
                           (80 + ((PAYLOAD + 7) & ~7u));
    }
    ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP);
    remove(file);
    return failed + tp.p.EventsLost;
}

/* The largest burst in [0, max] with no loss: doubling, then bisection. */
static uint64_t loss_free(ULONG mode, uint64_t max)
{
    uint64_t lo = 0, hi = 1000, ignored;
    while (hi <= max && run(mode, hi, &ignored) == 0) {
        lo = hi;
        hi *= 2;
    }
    if (hi > max)
        return lo;                   /* no loss up to max */
    while (hi - lo > lo / 100 + 1) { /* within 1% */
        uint64_t mid = lo + (hi - lo) / 2;
        if (run(mode, mid, &ignored) == 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int main(int argc, char **argv)
{
    uint64_t max = 400000;
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--max") == 0)
            max = strtoull(argv[i + 1], NULL, 10);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof(dir), "%s", tmp && tmp[0] ? tmp : "/tmp");
#ifndef _WIN32
    /* Its shared sessions meet in a runtime directory of its own. */
    if (!getenv("PETW_RUNTIME_DIR")) {
        char rt[600];
        snprintf(rt, sizeof(rt), "%s/petw-burst-rt-%d", dir, (int)getpid());
        setenv("PETW_RUNTIME_DIR", rt, 1);
    }
#endif
    if (EventRegister(&BurstProvider, NULL, NULL, &reg) != ERROR_SUCCESS)
        return 1;
    const uint64_t capacity =
        (uint64_t)BUFFERS * (BUFFER_KB * 1024 - 72) / (80 + ((PAYLOAD + 7) & ~7u));
    static const struct {
        const char *name;
        ULONG mode;
    } modes[] = {
        {"sequential", EVENT_TRACE_FILE_MODE_SEQUENTIAL},
        {"real-time+file", EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_REAL_TIME_MODE},
        {"buffering", EVENT_TRACE_BUFFERING_MODE},
    };
    for (int t = 0; t < 2; t++) {
        const char *transport = t ? "host" : "in-process";
#ifdef _WIN32
        _putenv_s("PETW_INPROC_SESSIONS", t ? "0" : "1");
#else
        setenv("PETW_INPROC_SESSIONS", t ? "0" : "1", 1);
#endif
        for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
            uint64_t kept = 0, n;
            if (modes[m].mode & EVENT_TRACE_BUFFERING_MODE) {
                /* Never a loss: the burst is 20x the buffers; the snapshot
                 * says how many of the newest it holds. */
                uint64_t lost = run(modes[m].mode, 20 * capacity, &kept);
                n = lost ? 0 : 20 * capacity;
            } else {
                n = loss_free(modes[m].mode, max);
            }
            printf("{\"contender\":\"petw-burst\",\"mode\":\"%s\",\"transport\":\"%s\","
                   "\"buffers\":%d,\"capacity_events\":%llu,\"loss_free_burst\":%llu,"
                   "\"ratio\":%.3f,\"snapshot_events\":%llu}\n",
                   modes[m].name, transport, BUFFERS, (unsigned long long)capacity,
                   (unsigned long long)n, (double)n / (double)capacity, (unsigned long long)kept);
            fflush(stdout);
        }
    }
    EventUnregister(reg);
    return 0;
}
