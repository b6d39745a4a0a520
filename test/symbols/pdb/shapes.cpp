/* SPDX-License-Identifier: MIT */
/* shapes.cpp - a fixture of the PDB symbolizer test (see shapes.h). */
#include "shapes.h"

namespace geo {

int Shape::scaled(int k) const
{
    return clamp(area() * k, 0, 1 << 20) + perimeter();
}

int Rect::area() const
{
    return w * h;
}

int Rect::perimeter() const
{
    return 2 * (w + h);
}

int Square::area() const
{
    return square(w);
}

static __declspec(noinline) int weigh(const Shape &s)
{
    return s.area() + mix(s.perimeter(), 3);
}

int measure(const Shape &s, int k)
{
    Ring<int, 4> ring = {{0, 0, 0, 0}, 0};
    for (int i = 0; i < k; i++)
        ring.push(s.scaled(i) - weigh(s));
    return ring.total();
}

} // namespace geo
