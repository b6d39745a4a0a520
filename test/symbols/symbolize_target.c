/* SPDX-License-Identifier: MIT */
/* symbolize_target.c - functions test_symbolize.c looks up in its own
 * executable: one plain, one with an inlined callee. Built with -g -O2.
 * The line numbers below are checked: keep them where they are. */
#include <stdint.h>

#define SYM_ALPHA_LINE 8
__attribute__((noinline)) uint64_t sym_alpha(uint64_t x)
{
    return x * 2654435761u + 7;
}

static inline __attribute__((always_inline)) uint64_t sym_inline_helper(uint64_t x)
{
    uint64_t y = x;
    for (int k = 0; k < 3; k++)
        y = y * 6364136223846793005ull + (uint64_t)k;
    return y;
}

#define SYM_BETA_CALL_LINE 26
__attribute__((noinline)) uint64_t sym_beta(uint64_t x)
{
    uint64_t a = x + 1;
    __asm__ volatile("" : "+r"(a));
    return sym_inline_helper(a) ^ 5;
}
