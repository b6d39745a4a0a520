/* SPDX-License-Identifier: MIT */
/* A session clock read together with the reference (petw__clock_pair),
 * as the system provider converts the OS's nanosecond times to the
 * session's ticks through it: the reference time it gives lies between
 * reference reads taken around the call and its ticks between clock
 * reads taken around it; the window it returns is most often tight; and
 * for a measured clock (the TSC) the frequency petw measured over 10 ms
 * agrees with one measured here over 200 ms from two pairs, to 300 ppm.
 * (Read apart, a preemption between the two reads of a pair moves every
 * time converted through it by milliseconds: a thread's file operations
 * then came out of order.) */
#include "test_util.h"

#include "../../lib/base/platform/platform.h"

#define PAIRS 2000

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    petw__platform_init(); /* as the library's first use does: is the QPC clock the TSC? */
    static int64_t windows[PAIRS];
    for (int k = 0; k < PAIRS; k++) {
        int64_t ns0 = petw__clock_reference(), t0 = petw__clock_read(PETW_CLOCK_QPC);
        int64_t ticks = -1, ns = -1;
        int64_t w = petw__clock_pair(PETW_CLOCK_QPC, &ticks, &ns);
        int64_t t1 = petw__clock_read(PETW_CLOCK_QPC), ns1 = petw__clock_reference();
        CHECK(w >= 0);
        CHECK(ns0 <= ns - w / 2 && ns + (w + 1) / 2 <= ns1);
        CHECK(t0 <= ticks && ticks <= t1);
        windows[k] = w;
    }
    qsort(windows, PAIRS, sizeof(windows[0]), cmp64);
    printf("clock_pair: windows %lld ns median, %lld ns at the 99th percentile\n",
           (long long)windows[PAIRS / 2], (long long)windows[PAIRS * 99 / 100]);
    CHECK(windows[PAIRS / 2] < 50000);

    if (!petw__clock_is_measured(PETW_CLOCK_QPC)) {
        printf("clock_pair: the QPC clock is not measured here (not the TSC): no frequency "
               "to compare\n");
        return 0;
    }
    int64_t f = petw__clock_frequency(PETW_CLOCK_QPC);
    int64_t c0, n0, c1, n1;
    int64_t w0 = petw__clock_pair(PETW_CLOCK_QPC, &c0, &n0);
    petw__sleep_ms(200);
    int64_t w1 = petw__clock_pair(PETW_CLOCK_QPC, &c1, &n1);
    double here = (double)(c1 - c0) * 1e9 / (double)(n1 - n0);
    double ppm = ((double)f / here - 1) * 1e6;
    printf("clock_pair: TSC %lld Hz measured over 10 ms, %.0f over %.0f ms (windows %lld and "
           "%lld ns): %.1f ppm apart\n",
           (long long)f, here, (double)(n1 - n0) / 1e6, (long long)w0, (long long)w1, ppm);
    CHECK(ppm < 300 && ppm > -300);
    return 0;
}
