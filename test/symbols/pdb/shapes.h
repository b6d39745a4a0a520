/* SPDX-License-Identifier: MIT */
/* shapes.h - a fixture of the PDB symbolizer test: classes with virtual
 * methods, a class template and forced-inline helpers, compiled for
 * Windows (x86_64-pc-windows-msvc) without any system header. */
#ifndef PDB_FIXTURE_SHAPES_H
#define PDB_FIXTURE_SHAPES_H

extern "C" int mix(int a, int b);
extern "C" int checksum(const int *v, int n);

namespace geo
{

__forceinline int square(int v)
{
    return v * v;
}

__forceinline int clamp(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

struct Shape {
    virtual int area() const = 0;
    virtual int perimeter() const = 0;
    int scaled(int k) const;
};

struct Rect : Shape {
    int w, h;
    Rect(int w_, int h_) : w(w_), h(h_) {}
    int area() const override;
    int perimeter() const override;
};

struct Square : Rect {
    explicit Square(int s) : Rect(s, s) {}
    int area() const override;
};

template <typename T, int N> struct Ring {
    T items[N];
    int head;
    __forceinline void push(T v)
    {
        items[head] = v;
        head = (head + 1) % N;
    }
    T total() const
    {
        T sum = 0;
        for (int i = 0; i < N; i++)
            sum += clamp(items[i], -1000, 1000);
        return sum;
    }
};

int measure(const Shape &s, int k);

} // namespace geo

namespace util
{
namespace detail
{
int hash_step(int h, int v);
}
template <typename F> __declspec(noinline) int apply_all(const int *v, int n, F f)
{
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc = f(acc, v[i]);
    return acc;
}
int run_util(const int *v, int n);
} // namespace util

#endif
