/* SPDX-License-Identifier: MIT */
// test_msvc_wprintf.cpp - test_msvc_wprintf.c compiled as C++, with
// standard headers before <windows.h> (the .c includes more after it).
#include <cstdio>
#include <cwchar>
#include <iostream>
#include <string>

#include "test_msvc_wprintf.c"
