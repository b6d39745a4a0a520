/* SPDX-License-Identifier: MIT */
/* Raw timestamps convert to FILETIME exactly as
 * StartTime + (ts - SystemTime) * 10^7 / PerfFreq, truncated, saturating at
 * the int64 limits, for every clock a session can use (the reader divides
 * by PerfFreq with a multiply and shifts, petw__udiv, checked here against
 * `/` too; the result must not differ). */
#include "test_record_helpers.h"

#include "../../lib/base/common/common.h" /* petw__udiv: the reader's division by PerfFreq */

#ifdef __SIZEOF_INT128__
static void on_event(petw_event_record *r, void *ctx)
{
    (void)r;
    (void)ctx;
}

static int64_t expected(const petw_logfile_info *i, int64_t ts)
{
    __int128 v =
        (__int128)i->start_time + ((__int128)ts - i->start_timestamp) * 10000000 / i->perf_freq;
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static void check_clock(uint32_t clock, const char *file)
{
    char path[512];
    test_path(path, sizeof(path), file);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = file;
    c.file_path = path;
    c.clock = clock;
    petw_session_handle s;
    CHECK_EQ(petw_session_start(&c, &s), 0);
    CHECK_EQ(petw_session_stop(s, NULL), 0);
    petw_trace *t;
    petw_trace_config tc;
    petw_trace_config_init(&tc);
    tc.on_event = on_event;
    CHECK_EQ(petw_trace_open(path, &tc, &t), 0);
    const petw_logfile_info *i = petw_trace_info(t);
    CHECK(i->perf_freq > 0);
    const int64_t s0 = i->start_timestamp;
    const int64_t probes[] = {0,
                              1,
                              -1,
                              s0,
                              s0 - 1,
                              s0 + 1,
                              s0 + 99,
                              s0 - 99,
                              s0 + 101,
                              s0 - 101,
                              s0 + 1000000007,
                              s0 - 1000000007,
                              INT64_MAX,
                              INT64_MIN,
                              INT64_MAX - 1,
                              INT64_MIN + 1,
                              INT64_MAX / 2,
                              INT64_MIN / 2,
                              (int64_t)0x7000000000000000,
                              -(int64_t)0x7000000000000000};
    for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++)
        CHECK_EQ(petw_trace_timestamp_to_filetime(t, probes[k]), expected(i, probes[k]));
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int k = 0; k < 100000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t ts = k % 2 ? (int64_t)x : s0 + (int64_t)(x % 4000000000000000u) - 2000000000000000;
        CHECK_EQ(petw_trace_timestamp_to_filetime(t, ts), expected(i, ts));
    }
    printf("clock %u: PerfFreq %lld\n", clock, (long long)i->perf_freq);
    petw_trace_close(t);
    unlink(path);
}
#endif

#ifdef __SIZEOF_INT128__
/* The multiply-and-shift division equals `/` for divisors of every size,
 * at the numerators where rounding could go wrong (multiples of the
 * divisor and their neighbours, the extremes) and at random ones. */
static void check_udiv(void)
{
    const uint64_t divisors[] = {1,
                                 2,
                                 3,
                                 7,
                                 10,
                                 10000000,
                                 1000000000,
                                 2445406000u,
                                 3000000001u,
                                 14318180,
                                 (1ull << 32) + 1,
                                 (1ull << 63) - 1,
                                 1ull << 63,
                                 (1ull << 63) + 1,
                                 UINT64_MAX - 1,
                                 UINT64_MAX};
    uint64_t x = 0x243F6A8885A308D3u;
    for (size_t k = 0; k < sizeof(divisors) / sizeof(divisors[0]); k++) {
        const uint64_t d = divisors[k];
        petw__udiv u;
        CHECK_EQ(petw__udiv_init(&u, d), 0);
        const uint64_t edge[] = {0,
                                 1,
                                 d - 1,
                                 d,
                                 d + 1,
                                 2 * d - 1,
                                 2 * d,
                                 UINT64_MAX,
                                 UINT64_MAX - 1,
                                 UINT64_MAX / d * d,
                                 UINT64_MAX / d * d - 1};
        for (size_t j = 0; j < sizeof(edge) / sizeof(edge[0]); j++)
            CHECK_EQ(petw__udiv_div(&u, edge[j]), edge[j] / d);
        for (int j = 0; j < 200000; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t n = j % 3 == 0 ? x : j % 3 == 1 ? x >> (x & 63) : (x % 1000) * d + (x >> 60);
            CHECK_EQ(petw__udiv_div(&u, n), n / d);
        }
    }
    petw__udiv u;
    CHECK_EQ(petw__udiv_init(&u, 0), PETW_EINVAL);
}
#endif

int main(void)
{
#ifdef __SIZEOF_INT128__
    check_udiv();
    check_clock(PETW_CLOCK_QPC, "ft-qpc.etl");
    check_clock(PETW_CLOCK_SYSTEM, "ft-system.etl");
    check_clock(PETW_CLOCK_CYCLES, "ft-cycles.etl");
    return 0;
#else
    printf("no 128-bit integers to compute the reference with\n");
    return 77;
#endif
}
