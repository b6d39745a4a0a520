/* SPDX-License-Identifier: MIT */
/* test_mc_arrays.cpp - test_mc_arrays.c built as C++: structs and arrays of
 * strings through the generated header from C++ code. */
#include "test_mc_arrays.c"
