/* SPDX-License-Identifier: MIT */
/* inline_workload.c - the workload of the inline rule's test: inl_outer
 * (never inlined) spends nearly all its time in inl_inner, which the
 * compiler always inlines into it, so a sample's address is one location
 * with two functions (built with -g: DWARF names the inlined one).
 * Usage: inline_workload [SCALE]: SCALE (default 10) units of work. */
#include <stdint.h>
#include <stdlib.h>

static volatile uint64_t sink;

static inline __attribute__((always_inline)) uint64_t inl_inner(uint64_t x)
{
    for (int k = 0; k < 1000; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

__attribute__((noinline)) uint64_t inl_outer(uint64_t units)
{
    uint64_t x = 1;
    for (uint64_t k = 0; k < units * 10000u; k++)
        x = inl_inner(x) ^ k;
    return x;
}

int main(int argc, char **argv)
{
    uint64_t scale = argc > 1 ? strtoull(argv[1], NULL, 10) : 10;
    sink = inl_outer(scale);
    return 0;
}
