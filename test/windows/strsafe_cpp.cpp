/* SPDX-License-Identifier: MIT */
// test_strsafe.c compiled as C++.
#include "test_strsafe.c"
