/* SPDX-License-Identifier: MIT */
// test_sdk_names.cpp - test_sdk_names.c compiled as C++: the same names,
// values and layouts through the C++ side of petw's ETW headers.
#include "test_sdk_names.c"
