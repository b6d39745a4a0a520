/* SPDX-License-Identifier: MIT */
// The same mc.exe pattern, compiled as C++ (extern "C" selectany objects).
#include "mc_selectany.c"
