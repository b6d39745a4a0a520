/* SPDX-License-Identifier: MIT */
// Decorated names of the kinds C++ code gives its functions, for
// pdb_undname.py: templates (with class, pointer, reference and integer
// arguments, nested), constructors, destructors, operators, conversion
// operators, virtual methods (their vftables), anonymous namespaces, a
// lambda and a local static, and a small std::vector. Freestanding: no
// headers, no runtime.
namespace std
{
template <class T> struct allocator {
    int unused;
};
template <class T, class A = allocator<T>> class vector
{
  public:
    __declspec(noinline) void push_back(const T &v)
    {
        data[size++ & 15] = v;
    }
    __declspec(noinline) T &operator[](unsigned long long i)
    {
        return data[i & 15];
    }
    T data[16];
    unsigned size = 0;
};
} // namespace std

// What the runtime defines: the deleting destructors of classes with virtual
// destructors call these.
void operator delete(void *) noexcept {}
void operator delete(void *, unsigned long long) noexcept {}

namespace ns
{
template <class T> class Widget
{
  public:
    __declspec(noinline) Widget() : value() {}
    __declspec(noinline) ~Widget()
    {
        value = T();
    }
    __declspec(noinline) Widget &operator+=(const T &v)
    {
        value = value + v;
        return *this;
    }
    __declspec(noinline) bool operator==(const Widget &o) const
    {
        return value == o.value;
    }
    __declspec(noinline) operator bool() const
    {
        return value != T();
    }
    template <int N> __declspec(noinline) T scaled() const
    {
        return value * N;
    }
    T value;
};

struct Base {
    virtual ~Base() {}
    virtual int get() const
    {
        return 1;
    }
};
struct Derived : Base {
    int get() const override
    {
        return 2;
    }
};

namespace
{
__declspec(noinline) int hidden(int v)
{
    return v * 3;
}
} // namespace

template <class T, class U> __declspec(noinline) T convert(U u)
{
    return (T)u;
}
template <class T> __declspec(noinline) int count(const T *p, T *const *q, T &&r)
{
    return (p != 0) + (q != 0) + (int)sizeof(r);
}
} // namespace ns

struct Point {
    int x, y;
    __declspec(noinline) Point operator-() const
    {
        return Point{-x, -y};
    }
    __declspec(noinline) Point &operator=(const Point &o)
    {
        x = o.x;
        y = o.y;
        return *this;
    }
    __declspec(noinline) int operator()(int k) const
    {
        return x * k + y;
    }
    __declspec(noinline) bool operator<(const Point &o) const
    {
        return x < o.x;
    }
};

__declspec(noinline) int call_get(const ns::Base &b)
{
    return b.get();
}

// A lambda and a local static of an inline function (external names in
// its local scope).
template <class F> __declspec(noinline) int apply(F f, int v)
{
    return f(v);
}
inline __declspec(noinline) int with_lambda(int k)
{
    static int calls;
    calls++;
    return apply(
        [k](int v) __attribute__((noinline)) { return v * k + calls; }, k);
}

enum class Color { red, green };
template <Color C, long long N> __declspec(noinline) int tag()
{
    return (int)C + (int)N;
}

extern "C" int _fltused = 0; // what the runtime defines when floating point is used
extern "C" volatile int names_sink;
volatile int names_sink;

extern "C" int names_entry()
{
    std::vector<int> vi;
    vi.push_back(1);
    std::vector<std::vector<int>> vv;
    vv.push_back(vi);
    ns::Widget<int> w;
    w += 3;
    ns::Widget<double> wd;
    wd += 1.5;
    ns::Widget<std::vector<char>> wv;
    ns::Derived d;
    ns::Base *b = &d;
    Point p{1, 2}, q{3, 4};
    q = -p;
    int zero = 0;
    int *pz = &zero;
    int r = vi[0] + w.scaled<4>() + (w == w) + (bool)w + b->get() + call_get(d) + with_lambda(p.y) +
            ns::hidden(p.x) + ns::convert<int>(2.5) + ns::convert<char>(7LL) + p(3) + (p < q) +
            ns::count<int>(&zero, &pz, 5) + tag<Color::green, -5>() + tag<Color::red, 1LL << 40>() +
            (int)wv.value.size + (int)wd.value;
    names_sink = r;
    return r;
}
