/* SPDX-License-Identifier: MIT */
/* platform.h - the one interface between petw and the operating system.
 *
 * Allowed dependencies: libbpf. Besides the OS (and libbpf, which loads
 * BPF programs where the build has it), it speaks only the shared
 * vocabulary (petw/types.h, petw/error.h).
 *
 * Clocks, CPU number, process/thread ids, files, and sleeping here; the
 * rest by concern in the headers it includes: sessions shared between
 * processes (platform_shared.h), the OS's own events and the machine's
 * configuration (platform_sys.h), BPF programs and the file I/O they follow
 * (platform_bpf.h), bytes and text the same on every host
 * (platform_bytes.h). Everything
 * else in lib/ is OS-independent and includes no OS header; threads, mutexes
 * and the flusher's event loop come from libuv, which is portable itself.
 * The hot-path pieces (clock read, CPU number, thread id) are inline and
 * live in platform_linux.h / platform_win.h.
 */
#ifndef PETW_PLATFORM_H
#define PETW_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "petw/types.h" /* PETW_CLOCK_*, petw_guid: the petw words the platform speaks */

/* The hot path's thread-locals: initial-exec on ELF, so each access is a
 * load at a fixed offset from the thread pointer. The default model for
 * position-independent code (the archive is built PIC) assumes a call to
 * __tls_get_addr, and GCC keeps registers spilled around it even after the
 * linker has rewritten the call away. As LTTng-UST's thread-locals: a
 * shared object holding them may still be dlopen'ed, as the few bytes come
 * from glibc's surplus of static TLS. */
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define PETW__TLS_HOT __attribute__((tls_model("initial-exec")))
#else
#define PETW__TLS_HOT
#endif

/* Number of CPU slots a session needs: every CPU number that
 * petw__cpu_current() can return is below it. */
uint32_t petw__cpu_count(void);

/* Ticks per second of a session clock (PETW_CLOCK_*): exact for the system
 * clock and the nanosecond fallback, a 10 ms measurement for the TSC. */
int64_t petw__clock_frequency(uint32_t clock);

/* TSC ticks per second, measured once against petw__clock_reference()
 * over 10 ms from two petw__clock_pair readings (sessions refine it over
 * their own lifetime); 1e9 when there is no TSC. Shared by both systems
 * (platform_common.c). */
int64_t petw__tsc_frequency(void);

/* A nanosecond monotonic reference, read together with a session clock at
 * start and stop to refine that clock's frequency over the whole session. */
int64_t petw__clock_reference(void);

/* 1 when petw__clock_frequency(clock) is a measurement (the TSC), which a
 * session should refine from its own start/stop readings. */
int petw__clock_is_measured(uint32_t clock);

/* A reading of `clock` (*ticks) and of petw__clock_reference() (*ns) taken
 * together: the reference is read before and after the clock, and *ns is
 * the middle of the tightest of a few tries (an interrupt or a preemption
 * between two reads would otherwise put milliseconds between them, and
 * every time converted from the pair would be off by that much). Returns
 * the width of that window in ns. */
int64_t petw__clock_pair(uint32_t clock, int64_t *ticks, int64_t *ns);

/* The current wall-clock time as a FILETIME (100 ns since 1601-01-01 UTC). */
int64_t petw__filetime_now(void);

/* The machine's boot time as a FILETIME: the wall clock less the time since
 * boot, suspended time included (0 when unknown). */
int64_t petw__boot_time(void);

/* Called once before anything else (from the library's one-time init). */
void petw__platform_init(void);
/* The CPU's features (petw__cpu_prefetchw): called by petw__platform_init
 * on both systems (platform_common.c). */
void petw__cpu_features_init(void);

/* The operating system's version for ETW's ProviderVersion. Windows: the
 * build number, as Windows' own files carry it. Linux: the kernel release
 * packed as major << 24 | minor << 16 | patch (6.8.12: 0x0608000C). */
uint32_t petw__os_build(void);

/* What a trace file's header says about the machine, as Windows fills it:
 * the CPU's nominal speed (MHz, never 0), the system timer's resolution
 * (100 ns units, never 0), and the local time zone as Windows'
 * TIME_ZONE_INFORMATION states it. Biases are in minutes: UTC = local +
 * tz_bias in standard time, + tz_bias + tz_daylight_bias in daylight time.
 * The dates are SYSTEMTIMEs (year, month, day of week, day, hour, minute,
 * second, ms) in Windows' yearly-rule form: year 0, `day` the week of the
 * month (1-5, 5 the last), at that local time as it reads before the
 * change; all 0 when the zone keeps no daylight time. */
typedef struct petw__machine_info {
    uint32_t cpu_speed_mhz;
    uint32_t timer_resolution;
    int32_t tz_bias;
    int32_t tz_standard_bias;
    int32_t tz_daylight_bias;
    uint16_t tz_standard_date[8]; /* the change back to standard time */
    uint16_t tz_daylight_date[8]; /* the change to daylight time */
    /* UTF-8 zone names; room for Windows' 32 UTF-16 units (3 bytes each). */
    char tz_standard[100];
    char tz_daylight[100];
} petw__machine_info;
void petw__machine_info_get(petw__machine_info *out);

/* The local time zone's offset from UTC now (local = UTC + offset), in
 * seconds, daylight time included when it is in effect. */
int32_t petw__local_offset_now(void);
/* The same at another moment (seconds since 1970, UTC): the offset the
 * zone's rules give for that date, 0 when the system cannot tell. */
int32_t petw__local_offset_at(int64_t unix_seconds);

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
/* Creates `path` for writing, readable and writable by the owner only, and
 * only when nothing is there: a file, a directory or a symbolic link (even
 * a dangling one) at `path` gives PETW_EEXIST, and no link is followed.
 * Returns 0, PETW_EEXIST, PETW_EACCES, PETW_ENOENT, PETW_ENOSPC or
 * PETW_EIO. */
int petw__file_create_new(const char *path, petw__file *out);
/* Removes what is at `path` when it may be replaced by the caller: a
 * symbolic link (the link itself, never its target) or a regular file the
 * caller owns (removed, not truncated: another hard link to it keeps its
 * data). Returns 0 (also when nothing is there), PETW_ENOTREG (a directory,
 * FIFO or device), PETW_EACCES (another user's file, or the folder refuses)
 * or PETW_EIO. */
int petw__file_remove_replaceable(const char *path);
/* Gives a file opened for writing (petw__file_create_new) to the C
 * library: `*out` writes it in text mode (as fopen's "w") and closes it at
 * fclose. On failure (PETW_ENOMEM) the caller still closes `f`. The stream
 * is a void * here (platform.h does not include <stdio.h>): a FILE *. */
int petw__file_stdio(petw__file *f, void **out);
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
/* Reads the file at `path` into `buf`, at most `size` - 1 bytes (what a
 * small text file such as /proc's holds), NUL-terminated; returns the bytes
 * read, 0 when it cannot be read. */
size_t petw__file_read_small(const char *path, char *buf, size_t size);
/* Calls fn(line, ctx) for each line of the text file at `path`, read into
 * `line` (`size` bytes; a longer line comes in pieces, as fgets reads it),
 * until fn returns non-zero. Returns 0, or the error that kept the file
 * from being opened as a PETW_E* code. */
int petw__file_each_line(const char *path, char *line, size_t size,
                         int (*fn)(char *line, void *ctx), void *ctx);

/* The OS's calls by concern, in headers of their own. */
#include "platform_shared.h"
#include "platform_sys.h"
#include "platform_bpf.h"
#include "platform_bytes.h"

/* 1 when the CPU has PREFETCHW (CPUID 0x80000001 ECX bit 8: every AMD64
 * CPU, Intel since Broadwell); set by petw__platform_init. */
extern int petw__cpu_prefetchw;

/* Asks for the cache line at p in a state the writer may store to, so a
 * store there later does not wait for the line (never faults, any
 * address). A read prefetch where PREFETCHW is missing: the line then
 * still needs its ownership on the store. Compilers emit only the read
 * form for x86-64 without -march, hence the instruction by hand. */
static inline void petw__prefetch_write(const void *p)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_expect(petw__cpu_prefetchw, 1))
        __asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
    else
        __builtin_prefetch(p, 1, 3);
#elif defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1, 3);
#else
    (void)p;
#endif
}

#if defined(_WIN32)
#include "platform_win.h"
#else
#include "platform_linux.h"
#endif

#endif /* PETW_PLATFORM_H */
