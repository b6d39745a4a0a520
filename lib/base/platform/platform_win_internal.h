/* SPDX-License-Identifier: MIT */
/* platform_win_internal.h - what platform_win.c shares with the other
 * Windows files of platform/ (platform_shared_win.h and the files that
 * include it; nothing outside lib/base/platform/ sees it). */
#ifndef PETW_PLATFORM_WIN_INTERNAL_H
#define PETW_PLATFORM_WIN_INTERNAL_H

#include <windows.h>

/* A Windows error as a PETW_E* code. */
int petw__win_error(DWORD e);
/* UTF-8 -> UTF-16 (malloc'ed); NULL when it does not convert. */
wchar_t *petw__win_wide(const char *path);
/* "D:P(A;;FA;;;<user SID>)(A;;FA;;;SY)": the calling user (and SYSTEM)
 * only. 0 or -1. */
int petw__win_private_sddl(wchar_t *out, size_t n);
/* 1 when the open object's owner is the token's user or its default
 * owner. */
int petw__win_owned(HANDLE h);

#endif
