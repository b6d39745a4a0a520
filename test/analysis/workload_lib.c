/* SPDX-License-Identifier: MIT */
/* workload_lib.c - the shared-library part of the analysis tests' workload:
 * one function that spins for `units` units of work. */
#include <stdint.h>

__attribute__((noinline, visibility("default"))) uint64_t lib_spin(uint64_t units);

uint64_t lib_spin(uint64_t units)
{
    volatile uint64_t x = 1;
    for (uint64_t k = 0; k < units * 1000000u; k++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}
