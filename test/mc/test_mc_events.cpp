/* SPDX-License-Identifier: MIT */
/* test_mc_events.cpp - test_mc_events.c built as C++: the generated
 * headers used from C++ code. */
#include "test_mc_events.c"
