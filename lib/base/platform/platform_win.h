/* SPDX-License-Identifier: MIT */
/* platform_win.h - inline hot-path pieces for Windows. */
#ifndef PETW_PLATFORM_WIN_H
#define PETW_PLATFORM_WIN_H

#include <windows.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Set by petw__platform_init(). */
extern uint32_t petw__pid;

static inline uint32_t petw__process_id(void)
{
    return petw__pid;
}

/* Read from the thread's TEB: no system call. */
static inline uint32_t petw__thread_id(void)
{
    return (uint32_t)GetCurrentThreadId();
}

static inline uint32_t petw__thread_id_cached(void)
{
    return petw__thread_id();
}

static inline uint32_t petw__cpu_current(void)
{
    PROCESSOR_NUMBER pn;
    GetCurrentProcessorNumberEx(&pn);
    return (uint32_t)pn.Group * 64u + pn.Number;
}

/* As on Linux (platform_linux.h); here always the call. */
static inline int petw__cpu_current_fast(uint32_t *cpu)
{
    *cpu = petw__cpu_current();
    return 1;
}

extern int64_t petw__qpc_frequency;

static inline int64_t petw__monotonic_ns(void)
{
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    int64_t f = petw__qpc_frequency;
    return (c.QuadPart / f) * 1000000000LL + (c.QuadPart % f) * 1000000000LL / f;
}

/* Clock 1 is QueryPerformanceCounter itself, as on Windows' ETW. */
static inline int64_t petw__clock_read(uint32_t clock)
{
    if (clock == PETW_CLOCK_SYSTEM) {
        FILETIME ft;
        GetSystemTimePreciseAsFileTime(&ft);
        return (int64_t)(((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime);
    }
#if defined(__x86_64__) || defined(__i386__)
    if (clock == PETW_CLOCK_CYCLES)
        return (int64_t)__rdtsc();
#endif
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    return c.QuadPart;
}

#endif
