/* SPDX-License-Identifier: MIT */
/* conio.h - the console input functions ETW samples call (_getch,
 * _getwch: "press any key"), for non-Windows hosts. Part of petw's
 * ETW-compatible surface; on Windows this is the system's.
 *
 * They are <windows.h>'s (which petw's Windows programs get them from
 * anyway): one character from stdin, which a terminal in its usual line
 * mode delivers after Enter. No other console function is here. */
#if defined(_WIN32)
#include_next <conio.h>
#else
#ifndef PETW_ETW_CONIO_H
#define PETW_ETW_CONIO_H

#include <windows.h>

#endif
#endif
