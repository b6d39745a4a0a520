/* SPDX-License-Identifier: MIT */
/* app.cpp - a fixture of the PDB symbolizer test: the entry point, lambdas,
 * templates instantiated for several types, anonymous-namespace and static
 * functions. */
#include "shapes.h"

extern "C" {
volatile int sink;
}
volatile int inputs[8] = {3, 1, 4, 1, 5, 9, 2, 6};

namespace {

template <typename T> __forceinline T twice(T v)
{
    return v + v;
}

template <typename T> __declspec(noinline) T sum_twice(const T *v, int n)
{
    T s = 0;
    for (int i = 0; i < n; i++)
        s += twice(v[i]);
    return s;
}

struct Counter {
    int count;
    __declspec(noinline) void bump(int by)
    {
        count += twice(by);
    }
};

} // namespace

static __declspec(noinline) int collect(int *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = inputs[i & 7];
    return n;
}

namespace util {
namespace detail {
int hash_step(int h, int v)
{
    return (h ^ v) * 16777619;
}
} // namespace detail

int run_util(const int *v, int n)
{
    int bias = inputs[0];
    auto step = [bias](int acc, int x) { return detail::hash_step(acc, x + bias); };
    auto sum = [](int acc, int x) { return acc + geo::square(x); };
    return apply_all(v, n, step) + apply_all(v, n, sum);
}
} // namespace util

/* generated.c, which the test writes: many more functions. */
extern "C" int gen_entry(int v);

extern "C" int pdb_fixture_entry(void)
{
    int values[8];
    int n = collect(values, 8);
    geo::Rect r(values[0], values[1]);
    geo::Square q(values[2]);
    Counter c = {0};
    c.bump(values[3]);
    long long wide[3] = {values[4], values[5], values[6]};
    int total = geo::measure(r, 3) + geo::measure(q, 2) + util::run_util(values, n);
    total += (int)sum_twice(wide, 3) + sum_twice(values, n) + c.count;
    total += checksum(values, n) + gen_entry(values[7]);
    sink = total;
    return total & 0xff;
}
