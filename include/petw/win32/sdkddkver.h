/* SPDX-License-Identifier: MIT */
/* sdkddkver.h - the Windows version constants (_WIN32_WINNT_*, NTDDI_*) that
 * a program's targetver.h includes, for non-Windows hosts.
 *
 * Part of petw's Win32 layer. On Windows this is the system's.
 * Defaults, as the Windows 10 SDK's: _WIN32_WINNT, WINVER and NTDDI_VERSION
 * name Windows 10 unless the program set them first. They select nothing in
 * petw (every declaration is there whatever they say).
 */
#ifndef PETW_ETW_SDKDDKVER_H
#define PETW_ETW_SDKDDKVER_H

#if defined(_WIN32)
#include_next <sdkddkver.h>
#else
#define _WIN32_WINNT_NT4 0x0400
#define _WIN32_WINNT_WIN2K 0x0500
#define _WIN32_WINNT_WINXP 0x0501
#define _WIN32_WINNT_WS03 0x0502
#define _WIN32_WINNT_VISTA 0x0600
#define _WIN32_WINNT_WS08 0x0600
#define _WIN32_WINNT_LONGHORN 0x0600
#define _WIN32_WINNT_WIN7 0x0601
#define _WIN32_WINNT_WIN8 0x0602
#define _WIN32_WINNT_WINBLUE 0x0603
#define _WIN32_WINNT_WINTHRESHOLD 0x0A00
#define _WIN32_WINNT_WIN10 0x0A00

#define NTDDI_WINXP 0x05010000
#define NTDDI_VISTA 0x06000000
#define NTDDI_WIN7 0x06010000
#define NTDDI_WIN8 0x06020000
#define NTDDI_WINBLUE 0x06030000
#define NTDDI_WIN10 0x0A000000
#define NTDDI_WIN10_RS1 0x0A000002
#define NTDDI_WIN10_RS5 0x0A000006
#define NTDDI_WIN10_VB 0x0A000008
#define NTDDI_WIN10_FE 0x0A00000A
#define NTDDI_WIN10_CO 0x0A00000B
#define NTDDI_WIN10_NI 0x0A00000C
#define OSVERSION_MASK 0xFFFF0000U
#define SPVERSION_MASK 0x0000FF00
#define SUBVERSION_MASK 0x000000FF
#define OSVER(v) ((v)&OSVERSION_MASK)
#define SPVER(v) (((v)&SPVERSION_MASK) >> 8)
#define SUBVER(v) ((v)&SUBVERSION_MASK)
#define NTDDI_VERSION_FROM_WIN32_WINNT2(v) v##0000
#define NTDDI_VERSION_FROM_WIN32_WINNT(v) NTDDI_VERSION_FROM_WIN32_WINNT2(v)

#ifndef _WIN32_WINNT
#define _WIN32_WINNT _WIN32_WINNT_WIN10
#endif
#ifndef WINVER
#define WINVER _WIN32_WINNT
#endif
#ifndef NTDDI_VERSION
#define NTDDI_VERSION NTDDI_WIN10_NI
#endif
#ifndef _WIN32_IE
#define _WIN32_IE 0x0A00
#endif
#endif /* !_WIN32 */
#endif /* PETW_ETW_SDKDDKVER_H */
