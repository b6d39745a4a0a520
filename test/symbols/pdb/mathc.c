/* SPDX-License-Identifier: MIT */
/* mathc.c - a fixture of the PDB symbolizer test: C code with static and
 * forced-inline helpers, nested inlining. */

extern volatile int sink;

static __forceinline int rotl(int v, int k)
{
    return (int)(((unsigned)v << k) | ((unsigned)v >> (32 - k)));
}

static __forceinline int scramble(int v)
{
    int r = rotl(v, 5);
    return r ^ (v * 31);
}

static __declspec(noinline) int fold(int a, int b)
{
    if (a > b)
        return scramble(a - b);
    return scramble(b - a) + 1;
}

int mix(int a, int b)
{
    int x = fold(a, b);
    for (int i = 0; i < (b & 3); i++)
        x = scramble(x + i);
    return x;
}

int checksum(const int *v, int n)
{
    int h = 0;
    for (int i = 0; i < n; i++) {
        h = mix(h, v[i]);
        if (h & 1)
            sink = h;
    }
    return h;
}
