/* SPDX-License-Identifier: MIT */
/* platform_common.c - the parts of platform.h built only on its own
 * primitives, shared by Linux and Windows. */
#include "petw/error.h"
#include "platform.h" /* with the system's header: __rdtsc */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int petw__cpu_prefetchw;

/* The CPU features the hot path asks for (both systems' init calls it). */
void petw__cpu_features_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000001u &&
        __get_cpuid(0x80000001u, &a, &b, &c, &d))
        petw__cpu_prefetchw = (c >> 8) & 1u;
#endif
}

/* A try's window is tight enough below this: the two reference reads
 * and the clock's take about 50 ns when nothing comes between them. */
#define PAIR_TIGHT_NS 500
#define PAIR_TRIES 8

int64_t petw__clock_pair(uint32_t clock, int64_t *ticks, int64_t *ns)
{
    int64_t best = -1;
    for (int k = 0; k < PAIR_TRIES; k++) {
        int64_t a = petw__clock_reference();
        int64_t t = petw__clock_read(clock);
        int64_t b = petw__clock_reference();
        if (best < 0 || b - a < best) {
            best = b - a;
            *ticks = t;
            *ns = a + (b - a) / 2;
        }
        if (best <= PAIR_TIGHT_NS)
            break;
    }
    return best;
}

int64_t petw__tsc_frequency(void)
{
    static int64_t freq;
    /* relaxed: a racing first call measures twice and stores a valid value;
     * nothing else is published with it. */
    int64_t f = __atomic_load_n(&freq, __ATOMIC_RELAXED);
    if (f)
        return f;
#if defined(__x86_64__) || defined(__i386__)
    int64_t c0, t0, c1, t1;
    petw__clock_pair(PETW_CLOCK_CYCLES, &c0, &t0);
    petw__sleep_ms(10);
    petw__clock_pair(PETW_CLOCK_CYCLES, &c1, &t1);
    f = t1 > t0 ? (int64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0)) : 0;
#endif
    if (f <= 0)
        f = 1000000000;
    __atomic_store_n(&freq, f, __ATOMIC_RELAXED);
    return f;
}
