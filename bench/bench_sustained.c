/* SPDX-License-Identifier: MIT */
/* bench_sustained - sustained recording to a file at a paced rate: does
 * petw keep every event, and how many bytes per event land on disk?
 * usage: bench_sustained --rate EVENTS_PER_S --seconds S [--zstd] [--file F]
 *        [--zstd-level L] [--block] [--keep] [--pace spin|sleep]
 * --pace: how the writer waits between its batches of 256 (bench_pace_until:
 * spinning, the default, or sleeping; LTTng's bench_lttng takes the same).
 * --block: the writer waits for a free buffer instead of dropping
 * (PETW_LOSS_BLOCK): with a rate above what the flusher sustains, "achieved"
 * is the flusher's and compressor's throughput.
 * prints one JSON object: rate asked/achieved, written, lost, loss %,
 * file bytes, bytes/event, compression ratio (record bytes / file bytes),
 * and where the CPU went: the writer thread's, and the rest of the
 * process's (the flusher and the compression workers), per event. */
#include <unistd.h>

#include <petw/petw.h>

#include "bench_common.h"

/* CPU time of the whole process, in ns (0 where unknown). */
static double process_cpu_ns(void)
{
#if defined(__linux__)
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
#else
    return 0;
#endif
}

static const petw_guid bench_provider = {
    0xbe0cbe0c, 0x1111, 0x2222, {0x33, 0x33, 0, 0, 0, 0, 0, 3}};

int main(int argc, char **argv)
{
    double rate = atof(bench_arg(argc, argv, "--rate", "1000000"));
    double seconds = atof(bench_arg(argc, argv, "--seconds", "1"));
    int zstd = bench_flag(argc, argv, "--zstd");
    char dflt[256];
    snprintf(dflt, sizeof(dflt), "%s/petw-sustained-%d.etl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    const char *path = bench_arg(argc, argv, "--file", dflt);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-bench-sustained";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 128; /* 8 MB, as LTTng's 1 MB x 8 */
    c.flush_timer_ms = 100;
    c.flags = zstd ? PETW_SESSION_ZSTD : 0;
    c.zstd_level = atoi(bench_arg(argc, argv, "--zstd-level", "0"));
    if (bench_flag(argc, argv, "--block")) {
        c.loss_policy = PETW_LOSS_BLOCK;
        c.block_timeout_ms = 10000;
    }
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) || petw_provider_register(&bench_provider, NULL, NULL, &p) ||
        petw_session_enable_provider(s, &bench_provider, 0, 0, 0)) {
        fprintf(stderr, "cannot start the session\n");
        return 1;
    }
    bench_payload pl = {1, 2, 3, 4, {0}};
    for (int i = 0; i < 32; i++)
        pl.arr[i] = (uint8_t)i;
    petw_data_descriptor d[5] = {{(uint64_t)(uintptr_t)&pl.a, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.b, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.c, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.d, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)pl.arr, 32, 0, 0, 0}};
    petw_event_descriptor e = {1, 0, 0, 4, 0, 0, 1};
    uint64_t total = (uint64_t)(rate * seconds), written = 0, failed = 0;
    double cpu0 = process_cpu_ns(), wcpu0 = bench_thread_cpu_ns();
    int sleep_pace = !strcmp(bench_arg(argc, argv, "--pace", "spin"), "sleep");
    double t0 = bench_now_ns(), ns_per = 1e9 / rate, max_late = 0;
    while (written < total) {
        /* Batches of 256 paced against the schedule: a steady rate. */
        for (int k = 0; k < 256 && written < total; k++, written++) {
            pl.a = written;
            pl.b = (uint64_t)(bench_now_ns() - t0) >> 10; /* a slowly moving field, as real data */
            failed += petw_event_write(p, &e, NULL, NULL, 5, d) != 0;
        }
        double due = t0 + (double)written * ns_per;
        double late = bench_pace_until(due, sleep_pace);
        max_late = late > max_late ? late : max_late;
    }
    double elapsed = (bench_now_ns() - t0) / 1e9;
    double wcpu = bench_thread_cpu_ns() - wcpu0;
    petw_session_stats st;
    petw_session_stop(s, &st); /* the background's work includes the last buffers */
    double bcpu = process_cpu_ns() - cpu0 - (bench_thread_cpu_ns() - wcpu0);
    FILE *f = fopen(path, "rb");
    long long bytes = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        bytes = ftell(f);
        fclose(f);
    }
    if (!bench_flag(argc, argv, "--keep"))
        remove(path);
    uint64_t kept = written - st.events_lost;
    double record = 0x50 + sizeof(bench_payload); /* EVENT_HEADER + payload, 8-aligned */
    printf("{\"contender\":\"petw%s%s\",\"rate\":%.0f,\"achieved\":%.0f,\"written\":%llu,"
           "\"lost\":%u,\"loss_pct\":%.4f,\"file_bytes\":%lld,\"bytes_per_event\":%.2f,"
           "\"compression\":%.2f,\"write_failures\":%llu,\"writer_cpu_ns_per_event\":%.1f,"
           "\"background_cpu_ns_per_event\":%.1f,\"max_behind_us\":%.0f%s}\n",
           zstd ? "-zstd" : "", c.loss_policy == PETW_LOSS_BLOCK ? "-block" : "", rate,
           (double)written / elapsed, (unsigned long long)written, st.events_lost,
           100.0 * st.events_lost / (double)written, bytes,
           kept ? (double)bytes / (double)kept : 0.0,
           bytes ? record * (double)kept / (double)bytes : 0.0, (unsigned long long)failed,
           wcpu / (double)written, bcpu / (double)written, max_late / 1e3,
           sleep_pace ? ",\"pace\":\"sleep\"" : "");
    petw_provider_unregister(p);
    return 0;
}
