/* platform.h - the one interface between petw and the operating system.
 *
 * Allowed dependencies: none. Besides the OS, it speaks only the shared
 * vocabulary (petw/types.h, petw/error.h).
 *
 * Clocks, CPU number, process/thread ids, files, and sleeping. Everything
 * else in lib/ is OS-independent and includes no OS header; threads, mutexes
 * and the flusher's event loop come from libuv, which is portable itself.
 * The hot-path pieces (clock read, CPU number, thread id) are inline and
 * live in platform_linux.h / platform_win.h.
 */
#ifndef PETW_PLATFORM_H
#define PETW_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "petw/types.h" /* PETW_CLOCK_*: the only petw words the platform speaks */

/* Number of CPU slots a session needs: every CPU number that
 * petw__cpu_current() can return is below it. */
uint32_t petw__cpu_count(void);

/* Ticks per second of a session clock (PETW_CLOCK_*): exact for the system
 * clock and the nanosecond fallback, a 10 ms measurement for the TSC. */
int64_t petw__clock_frequency(uint32_t clock);

/* TSC ticks per second, measured once against petw__monotonic_ns() over
 * 10 ms (sessions refine it over their own lifetime); 1e9 when there is no
 * TSC. Shared by both systems (platform_common.c). */
int64_t petw__tsc_frequency(void);

/* A nanosecond monotonic reference, read together with a session clock at
 * start and stop to refine that clock's frequency over the whole session. */
int64_t petw__clock_reference(void);

/* 1 when petw__clock_frequency(clock) is a measurement (the TSC), which a
 * session should refine from its own start/stop readings. */
int petw__clock_is_measured(uint32_t clock);

/* The current wall-clock time as a FILETIME (100 ns since 1601-01-01 UTC). */
int64_t petw__filetime_now(void);

/* The machine's boot time as a FILETIME (0 when unknown). */
int64_t petw__boot_time(void);

/* Called once before anything else (from the library's one-time init). */
void petw__platform_init(void);

/* Operating system version packed as ETW's ProviderVersion (a build number). */
uint32_t petw__os_build(void);

/* What a trace file's header says about the machine, as Windows fills it:
 * the CPU's nominal speed (MHz, never 0), the system timer's resolution
 * (100 ns units, never 0), and the local time zone (bias in minutes,
 * UTC = local + bias, and the zone names, UTF-8). */
typedef struct petw__machine_info {
    uint32_t cpu_speed_mhz;
    uint32_t timer_resolution;
    int32_t tz_bias;
    char tz_standard[32];
    char tz_daylight[32];
} petw__machine_info;
void petw__machine_info_get(petw__machine_info *out);

void petw__sleep_ms(uint32_t ms);
void petw__yield(void);

/* Virtual memory: reserve address space, then commit parts of it (so a
 * pool can grow in place and keep offset-based addressing). */
void *petw__vm_reserve(size_t bytes);
int petw__vm_commit(void *addr, size_t bytes); /* 0 or PETW_ENOMEM */
void petw__vm_release(void *addr, size_t bytes);
size_t petw__page_size(void);

/* Sleeps about `us` microseconds (the blocking loss policy's back-off). */
void petw__sleep_us(uint32_t us);

/* Files. */
typedef struct petw__file {
    intptr_t fd;
} petw__file;

/* Creates `path` for writing, readable and writable by the owner only. An
 * existing file or symbolic link at `path` is removed first (the link, never
 * its target); the file is then created exclusively, so no link is followed.
 * Returns 0, PETW_EACCES, PETW_ENOENT or PETW_EIO. */
int petw__file_create_private(const char *path, petw__file *out);
/* Writes all of `data` at `offset`. Returns 0, PETW_ENOSPC or PETW_EIO. */
int petw__file_pwrite(petw__file *f, const void *data, size_t size, uint64_t offset);
int petw__file_close(petw__file *f);
/* Opens an existing file for reading and writing (APPEND), never through a
 * symbolic link. Only the caller's own private regular file is accepted,
 * judged on the opened file (no race with the path): on Linux owned by the
 * effective uid with no group/other permission bits (mode & 077 == 0), on
 * Windows owned by the token's user (or its default owner). Anything else
 * (a link, another user's file, a shared one, a FIFO, a device) is closed
 * unchanged and refused with PETW_EACCES. Returns PETW_ENOENT when it does
 * not exist. */
int petw__file_open_existing(const char *path, petw__file *out, uint64_t *size);
/* Reads exactly `size` bytes at `offset`. */
int petw__file_pread(petw__file *f, void *data, size_t size, uint64_t offset);
/* Reserves disk space (PREALLOCATE) and cuts the file to `size`. */
int petw__file_allocate(petw__file *f, uint64_t size);
int petw__file_truncate(petw__file *f, uint64_t size);
/* Flushes written data to stable storage. */
int petw__file_sync(petw__file *f);
/* 1 when `path` exists (any kind of file). */
int petw__path_exists(const char *path);
/* Opens a trace file for reading (petw__file_pread) and gives its size.
 * Only regular files: a directory, FIFO or device is refused with
 * PETW_ENOTREG, without blocking (a FIFO is opened non-blocking). Links
 * are followed (reading is what the user asked for). Returns 0,
 * PETW_ENOENT, PETW_EACCES, PETW_ENOTREG or PETW_EIO. */
int petw__file_open_read(const char *path, petw__file *out, uint64_t *size);

#if defined(_WIN32)
#include "platform_win.h"
#else
#include "platform_linux.h"
#endif

#endif /* PETW_PLATFORM_H */
