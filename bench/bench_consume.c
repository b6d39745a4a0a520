/* SPDX-License-Identifier: MIT */
/* bench_consume - how fast ProcessTrace delivers a compressed file's events.
 * usage: bench_consume --events N [--file F] [--keep] [--plain] [--reps R]
 * Records N events (zstd + checksums; --plain: uncompressed), then times
 * petw_trace_open + petw_trace_process over it (best of R, default 3).
 * Prints one JSON object, with the process's peak RSS (the writer's pool
 * included: an upper bound for the reader's). */
#include <unistd.h>
#if !defined(_WIN32)
#include <sys/resource.h>
#endif

#include <petw/petw.h>

#include "bench_common.h"

static const petw_guid bench_provider = {
    0xbe0cbe0c, 0x1111, 0x2222, {0x33, 0x33, 0, 0, 0, 0, 0, 4}};
static uint64_t delivered;

static void on_event(petw_event_record *r, void *ctx)
{
    (void)ctx;
    delivered += !(r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER);
}

int main(int argc, char **argv)
{
    uint64_t n = strtoull(bench_arg(argc, argv, "--events", "5000000"), NULL, 10);
    char dflt[256];
    snprintf(dflt, sizeof(dflt), "%s/petw-consume-%d.etl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    const char *path = bench_arg(argc, argv, "--file", dflt);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-bench-consume";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 256;
    c.flags = bench_flag(argc, argv, "--plain") ? 0 : PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM;
    int reps = atoi(bench_arg(argc, argv, "--reps", "3"));
    c.loss_policy = PETW_LOSS_BLOCK; /* the file must hold all N */
    c.block_timeout_ms = 10000;
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) || petw_provider_register(&bench_provider, NULL, NULL, &p) ||
        petw_session_enable_provider(s, &bench_provider, 0, 0, 0))
        return 1;
    bench_payload pl = {1, 2, 3, 4, {0}};
    petw_data_descriptor d = {(uint64_t)(uintptr_t)&pl, sizeof(pl), 0, 0, 0};
    petw_event_descriptor e = {1, 0, 0, 4, 0, 0, 1};
    for (uint64_t i = 0; i < n; i++) {
        pl.a = i;
        petw_event_write(p, &e, NULL, NULL, 1, &d);
    }
    petw_session_stats st;
    petw_session_stop(s, &st);
    double best = 1e30;
    for (int rep = 0; rep < reps; rep++) {
        petw_trace_config tc;
        petw_trace_config_init(&tc);
        tc.on_event = on_event;
        delivered = 0;
        double t0 = bench_now_ns();
        petw_trace *t;
        if (petw_trace_open(path, &tc, &t) != 0)
            return 1;
        petw_trace_process(&t, 1, 0, 0);
        petw_trace_close(t);
        double dt = bench_now_ns() - t0;
        if (dt < best)
            best = dt;
    }
    long peak_rss_kb = -1; /* unknown (Windows) */
#if !defined(_WIN32)
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    peak_rss_kb = ru.ru_maxrss;
#endif
    long long file_bytes = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        fseek(f, 0, SEEK_END);
        file_bytes = ftell(f);
        fclose(f);
    }
    printf("{\"contender\":\"petw-processtrace%s\",\"events\":%llu,\"lost\":%u,\"seconds\":%.4f,"
           "\"events_per_s\":%.0f,\"file_bytes\":%lld,\"peak_rss_kb\":%ld}\n",
           c.flags ? "" : "-plain", (unsigned long long)delivered, st.events_lost, best / 1e9,
           (double)delivered / (best / 1e9), file_bytes, peak_rss_kb);
    if (!bench_flag(argc, argv, "--keep"))
        remove(path);
    petw_provider_unregister(p);
    return delivered == n ? 0 : 1;
}
