/* SPDX-License-Identifier: MIT */
/* bench_forward_writer - a provider process writing at a paced rate into
 * whatever session enables it (bench_clickhouse.py's `petw forward` run):
 * it registers its provider, waits until a session enables it, writes
 * RATE events per second for SECONDS (the pace kept by sleeping when ahead,
 * so the process does not spin), and prints one JSON object: events asked,
 * written, write failures and the rate achieved.
 * usage: bench_forward_writer --rate EVENTS_PER_S --seconds S */
#include <time.h>

#include <petw/petw.h>

#include "bench_common.h"

/* petw guid Petw.Bench.Forward is not needed: the bench enables this GUID. */
static const petw_guid forward_provider = {
    0xbe0cbe0c, 0x4444, 0x5555, {0x66, 0x66, 0, 0, 0, 0, 0, 4}};

static void sleep_ns(double ns)
{
    struct timespec ts = {(time_t)(ns / 1e9), (long)((uint64_t)ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    double rate = atof(bench_arg(argc, argv, "--rate", "1000000"));
    double seconds = atof(bench_arg(argc, argv, "--seconds", "5"));
    petw_provider_handle p;
    if (petw_provider_register(&forward_provider, NULL, NULL, &p)) {
        fprintf(stderr, "bench_forward_writer: cannot register\n");
        return 1;
    }
    petw_event_descriptor e = {1, 0, 0, 4, 0, 0, 1};
    double waited = bench_now_ns();
    while (!petw_event_enabled(p, &e)) {
        if (bench_now_ns() - waited > 30e9) {
            fprintf(stderr, "bench_forward_writer: not enabled within 30 s\n");
            return 1;
        }
        sleep_ns(1e6);
    }
    bench_payload pl = {1, 2, 3, 4, {0}};
    for (int i = 0; i < 32; i++)
        pl.arr[i] = (uint8_t)i;
    petw_data_descriptor d[5] = {{(uint64_t)(uintptr_t)&pl.a, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.b, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.c, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)&pl.d, 8, 0, 0, 0},
                                 {(uint64_t)(uintptr_t)pl.arr, 32, 0, 0, 0}};
    uint64_t total = (uint64_t)(rate * seconds), written = 0, failed = 0;
    double t0 = bench_now_ns(), ns_per = 1e9 / rate;
    while (written < total) {
        /* Batches of 256 paced against the schedule: a steady rate. */
        for (int k = 0; k < 256 && written < total; k++, written++) {
            pl.a = written;
            failed += petw_event_write(p, &e, NULL, NULL, 5, d) != 0;
        }
        double ahead = t0 + (double)written * ns_per - bench_now_ns();
        if (ahead > 200e3)
            sleep_ns(ahead);
    }
    double elapsed = (bench_now_ns() - t0) / 1e9;
    printf("{\"rate\":%.0f,\"achieved\":%.0f,\"written\":%llu,\"write_failures\":%llu}\n", rate,
           (double)written / elapsed, (unsigned long long)written, (unsigned long long)failed);
    petw_provider_unregister(p);
    return 0;
}
