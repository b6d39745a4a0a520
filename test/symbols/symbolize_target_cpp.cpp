/* SPDX-License-Identifier: MIT */
// symbolize_target_cpp.cpp - a C++ function whose mangled name
// test_symbolize.c expects demangled: petw_test::Widget::spin(int).
namespace petw_test {
struct Widget {
    static int spin(int x);
};
__attribute__((noinline)) int Widget::spin(int x)
{
    return x * 3 + 1;
}
} // namespace petw_test

extern "C" const void *symbolize_target_cpp(void)
{
    return reinterpret_cast<const void *>(&petw_test::Widget::spin);
}
