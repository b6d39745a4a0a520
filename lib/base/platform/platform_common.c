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

int64_t petw__tsc_frequency(void)
{
    static int64_t freq;
    /* relaxed: a racing first call measures twice and stores a valid value;
     * nothing else is published with it. */
    int64_t f = __atomic_load_n(&freq, __ATOMIC_RELAXED);
    if (f)
        return f;
#if defined(__x86_64__) || defined(__i386__)
    int64_t t0 = petw__monotonic_ns(), c0 = (int64_t)__rdtsc();
    petw__sleep_ms(10);
    int64_t t1 = petw__monotonic_ns(), c1 = (int64_t)__rdtsc();
    f = t1 > t0 ? (int64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0)) : 0;
#endif
    if (f <= 0)
        f = 1000000000;
    __atomic_store_n(&freq, f, __ATOMIC_RELAXED);
    return f;
}
