/* SPDX-License-Identifier: MIT */
/* winbase.h - local and global memory (winbase.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <winbase.h>
#else
#ifndef PETW_WIN32_WINBASE_H
#define PETW_WIN32_WINBASE_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* Local and global memory (winbase.h): fixed heap blocks, freed with
 * LocalFree/GlobalFree (which return NULL). A movable block (LMEM_MOVEABLE,
 * GMEM_MOVEABLE) cannot be honoured: NULL, with ERROR_NOT_SUPPORTED. */
typedef HANDLE HLOCAL, HGLOBAL;
#define LMEM_FIXED 0x0000
#define LMEM_MOVEABLE 0x0002
#define LMEM_ZEROINIT 0x0040
#define LPTR (LMEM_FIXED | LMEM_ZEROINIT)
#define GMEM_FIXED 0x0000
#define GMEM_MOVEABLE 0x0002
#define GMEM_ZEROINIT 0x0040
#define GPTR (GMEM_FIXED | GMEM_ZEROINIT)
HLOCAL LocalAlloc(UINT uFlags, SIZE_T uBytes);
HLOCAL LocalFree(HLOCAL hMem);
HGLOBAL GlobalAlloc(UINT uFlags, SIZE_T dwBytes);
HGLOBAL GlobalFree(HGLOBAL hMem);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_WINBASE_H */
#endif /* !_WIN32 */
