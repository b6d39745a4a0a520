/* SPDX-License-Identifier: MIT */
/* heapapi.h - the process heap (heapapi.h), for non-Windows hosts.
 * Part of petw's Win32 layer (include/petw/win32, pkg-config petw-etw); <windows.h>
 * includes it. On Windows this is the system's. */
#if defined(_WIN32)
#include <windows.h> /* first: Windows' own API set headers do not stand alone */
#include_next <heapapi.h>
#else
#ifndef PETW_WIN32_HEAPAPI_H
#define PETW_WIN32_HEAPAPI_H

#include <minwindef.h>
#include <winerror.h> /* the errors its functions set */

#ifdef __cplusplus
extern "C" {
#endif

/* The process heap (heapapi.h): blocks from the C library's heap with
 * their size in front, 16-byte aligned. GetProcessHeap returns the one
 * heap (HeapCreate is not here); hHeap is not read otherwise. HeapAlloc:
 * NULL with ERROR_NOT_ENOUGH_MEMORY when out of memory (no exception:
 * HEAP_GENERATE_EXCEPTIONS is ignored, as HEAP_NO_SERIALIZE is; the heap is
 * always thread-safe). HEAP_ZERO_MEMORY zeroes the block, and in
 * HeapReAlloc the bytes added; HeapReAlloc with HEAP_REALLOC_IN_PLACE_ONLY
 * fails (NULL, ERROR_NOT_ENOUGH_MEMORY) unless the block shrinks or keeps
 * its size. HeapSize: the size asked for. HeapFree: TRUE (NULL included). */
#define HEAP_NO_SERIALIZE 0x00000001
#define HEAP_GENERATE_EXCEPTIONS 0x00000004
#define HEAP_ZERO_MEMORY 0x00000008
#define HEAP_REALLOC_IN_PLACE_ONLY 0x00000010
HANDLE GetProcessHeap(void);
LPVOID HeapAlloc(HANDLE hHeap, DWORD dwFlags, SIZE_T dwBytes);
LPVOID HeapReAlloc(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem, SIZE_T dwBytes);
BOOL HeapFree(HANDLE hHeap, DWORD dwFlags, LPVOID lpMem);
SIZE_T HeapSize(HANDLE hHeap, DWORD dwFlags, LPCVOID lpMem);

#ifdef __cplusplus
}
#endif

#endif /* PETW_WIN32_HEAPAPI_H */
#endif /* !_WIN32 */
