/* SPDX-License-Identifier: MIT */
/* clickhouse_forward_writer - a provider process for clickhouse_export.py's
 * forwarder killed under load: waits until a session enables it, then
 * writes COUNT events at RATE events per second (paced in batches of 256),
 * each payload the event's index (8 bytes, little-endian) and 56 bytes
 * more, so that the events that landed in ClickHouse say which ones.
 * Prints the events written. usage: clickhouse_forward_writer RATE COUNT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <petw/petw.h>

static const petw_guid writer_provider = {
    0xbe0cbe0c, 0x4444, 0x5555, {0x66, 0x66, 0, 0, 0, 0, 0, 5}};

static double now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void sleep_ns(double ns)
{
    struct timespec ts = {(time_t)(ns / 1e9), (long)((unsigned long long)ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: clickhouse_forward_writer RATE COUNT\n");
        return 2;
    }
    double rate = atof(argv[1]);
    unsigned long long count = strtoull(argv[2], NULL, 10), written = 0;
    petw_provider_handle p;
    if (rate <= 0 || petw_provider_register(&writer_provider, NULL, NULL, &p)) {
        fprintf(stderr, "clickhouse_forward_writer: cannot register\n");
        return 1;
    }
    petw_event_descriptor e = {1, 0, 0, 4, 0, 0, 1};
    double waited = now_ns();
    while (!petw_event_enabled(p, &e)) {
        if (now_ns() - waited > 30e9) {
            fprintf(stderr, "clickhouse_forward_writer: not enabled within 30 s\n");
            return 1;
        }
        sleep_ns(1e6);
    }
    unsigned char payload[64];
    memset(payload, 0x5a, sizeof(payload));
    petw_data_descriptor d = {(uint64_t)(uintptr_t)payload, sizeof(payload), 0, 0, 0};
    double t0 = now_ns(), ns_per = 1e9 / rate;
    while (written < count) {
        for (int k = 0; k < 256 && written < count; k++, written++) {
            for (int b = 0; b < 8; b++)
                payload[b] = (unsigned char)(written >> (8 * b));
            petw_event_write(p, &e, NULL, NULL, 1, &d);
        }
        double ahead = t0 + (double)written * ns_per - now_ns();
        if (ahead > 200e3)
            sleep_ns(ahead);
    }
    printf("%llu\n", written);
    petw_provider_unregister(p);
    return 0;
}
