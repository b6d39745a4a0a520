/* SPDX-License-Identifier: MIT */
/* platform.h - the one interface between petw and the operating system.
 *
 * Allowed dependencies: libbpf. Besides the OS (and libbpf, which loads
 * BPF programs where the build has it), it speaks only the shared
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

/* ---- Sessions shared between processes ----
 * A session host, its providers and its controllers are processes of one
 * user. They meet in a per-user runtime directory, share buffers through
 * sealed shared memory, wake each other with counters (eventfd) and a futex
 * word, and talk over Unix stream sockets that check the peer's uid. Every
 * function below returns 0 or a negative PETW_E* code; handles are
 * intptr_t (Linux: a file descriptor; -1 when none). Windows
 * (platform_*_win.c, docs/design.md "Windows transport"): a handle is an
 * object of the platform layer (never 0, -1 when none) wrapping a HANDLE;
 * the runtime directory is %LOCALAPPDATA%\petw, shared memory a pagefile
 * section, the counters events, the sockets named pipes named after the
 * path and restricted to the user's SID; where the contract below names a
 * Linux mechanism, Windows gives the same guarantee with its own. */

/* The per-user runtime directory: $PETW_RUNTIME_DIR, else
 * $XDG_RUNTIME_DIR/petw, else /tmp/petw-<uid>. Created 0700 when missing;
 * then checked on the opened directory: a directory (never through a
 * symbolic link), owned by the caller's uid, no group or other permission
 * bits. Anything else is refused with PETW_EACCES. PETW_ENAMETOOLONG when
 * the path leaves less than 32 bytes of a socket address's path. */
int petw__runtime_dir(char *out, size_t size);

/* Shared memory: one mapping and the handle that names it. */
typedef struct petw__shm {
    void *addr;
    size_t size;
    intptr_t fd;
} petw__shm;

/* A new anonymous shared object of `size` bytes mapped read-write, zero
 * filled, all its pages allocated now (so a shortage fails here, never as a
 * fault later), and sealed against shrinking, growing and further sealing.
 * PETW_ENOMEM when the memory is not there. */
int petw__shm_create(size_t size, petw__shm *out);
/* Maps a received object read-write after checking it: an anonymous object
 * sealed against shrinking and growing, of exactly `size` bytes. Takes the
 * handle (closed on failure too). PETW_EINVAL when the checks fail. */
int petw__shm_map(intptr_t fd, size_t size, petw__shm *out);
/* Replaces the mapping by private zero memory at the same address and
 * closes the handle: a thread still writing there never faults, and
 * nothing it writes reaches anyone. The address space stays reserved. */
void petw__shm_abandon(petw__shm *s);
/* Unmaps and closes. */
void petw__shm_close(petw__shm *s);

/* A file every process of the user maps (the session registry): opened or
 * created at `path` (0600, never through a symbolic link), checked like
 * petw__file_open_existing (regular, owned by the caller, mode & 077 == 0),
 * grown to `size` bytes when shorter, mapped shared; read-only when
 * `writable` is 0. *created is 1 when this call made it longer (the caller
 * initializes it under lock 0). */
int petw__shared_file_open(const char *path, size_t size, int writable, int *created,
                           petw__shm *out);

/* Byte-range locks on a shared file, owned by the open handle: released
 * when the handle closes, or when its process dies. */
/* Takes lock `index`; waits when `wait`, else PETW_EBUSY if held. */
int petw__lock_take(intptr_t fd, uint32_t index, int wait);
void petw__lock_drop(intptr_t fd, uint32_t index);
/* 1 when another handle (any process) holds lock `index`, else 0. */
int petw__lock_held(intptr_t fd, uint32_t index);

/* A futex word in shared memory: waits while *word == expect, at most
 * timeout_ms (-1: no limit). Returns 0 (woken, or the word differs) or
 * PETW_ETIMEDOUT. Spurious returns are allowed. */
int petw__futex_wait(const uint32_t *word, uint32_t expect, int timeout_ms);
void petw__futex_wake_all(const uint32_t *word);

/* Wake-up counters (eventfd: non-blocking, close-on-exec). */
int petw__wake_create(intptr_t *fd);
/* Adds 1; never blocks, never fails visibly. Async-signal-safe. */
void petw__wake_signal(intptr_t fd);
/* Resets the counter to 0 (reads it). */
void petw__wake_drain(intptr_t fd);
/* Closes any handle of this section (socket, counter, object). */
void petw__handle_close(intptr_t fd);
/* Makes `to` name what `from` names (an atomic replace, as dup2), closes
 * `from`. Used so a number other threads may still write to never names
 * an unrelated file. */
int petw__handle_replace(intptr_t from, intptr_t to);

/* Unix stream sockets (close-on-exec). */
/* Listens at `path` (a stale socket file there is removed first), mode
 * 0600. */
int petw__ipc_listen(const char *path, intptr_t *out);
/* Closes a listener and removes its socket file. */
void petw__ipc_unlisten(intptr_t listener, const char *path);
/* Accepts one connection (non-blocking: PETW_EBUSY when none waits). A
 * peer of another uid is closed and refused with PETW_EACCES. *pid gets
 * the peer's pid. */
int petw__ipc_accept(intptr_t listener, intptr_t *out, uint32_t *pid);
/* Connects to `path`; PETW_ENOTFOUND when nobody listens there (no file,
 * or refused), PETW_EACCES when the listener is another uid's. */
int petw__ipc_connect(const char *path, intptr_t *out, uint32_t *peer_pid);
/* A connected pair (for a parent and the child it starts). Windows: handles
 * sent on a pair go to the process that made it (an end inherited by a
 * child does not tell the other end who holds it now); petw sends none
 * there. */
int petw__ipc_pair(intptr_t out[2]);
/* Sends all `size` bytes; up to 4 handles ride with the first byte. Waits
 * at most timeout_ms for room (-1: no limit). 0, PETW_EPIPE (peer gone),
 * PETW_ETIMEDOUT or PETW_EIO. Never raises SIGPIPE. */
int petw__ipc_send(intptr_t fd, const void *data, size_t size, const intptr_t *handles,
                   uint32_t count, int timeout_ms);
/* Receives exactly `size` bytes, waiting at most timeout_ms in all.
 * Handles that arrive are stored in `handles` (room for *count, which
 * becomes how many came; extra ones are closed; NULL: all closed).
 * 0, PETW_EPIPE (closed before `size` bytes), PETW_ETIMEDOUT or PETW_EIO. */
int petw__ipc_recv(intptr_t fd, void *data, size_t size, intptr_t *handles, uint32_t *count,
                   int timeout_ms);
/* Waits until one of `count` handles is readable or hung up, at most
 * timeout_ms; ready[i] becomes 1 for those. Returns how many (0: timeout). */
int petw__ipc_poll(const intptr_t *fds, uint32_t count, uint8_t *ready, int timeout_ms);

/* What a program started by petw__spawn_detached with `keep` = h finds
 * its copy of h under (for the environment variable that tells it), and
 * the handle of this section that value names there. Linux: the
 * descriptor number both ways. */
intptr_t petw__handle_inherited_value(intptr_t h);
int petw__handle_adopt(intptr_t value, intptr_t *out);

/* Starts `exe` (NULL: this very program, as the kernel knows it) again as
 * a process of its own: a new session, stdin/stdout/stderr on /dev/null,
 * the environment plus `env` ("NAME=value"), and `keep` inherited (every
 * other handle petw opened is close-on-exec). It detaches: its parent
 * exits at once and is reaped here, so the program is never our child (no
 * zombie, nobody's process group). Returns 0 or PETW_ENOHOST. */
int petw__spawn_detached(const char *exe, const char *env, intptr_t keep);

/* Names the running process as tools list it: Linux's comm (its first 15
 * bytes; threads started afterwards inherit it), which a program started
 * again through /proc/self/exe would otherwise have as "exe". Windows
 * lists a process by its image: nothing to do. */
void petw__process_set_name(const char *name);

/* 1 when `addr` lies in the running program's own executable, 0 when in a
 * shared object loaded into it (petw linked into a plugin, whose host
 * program knows nothing of petw). */
int petw__addr_in_program(const void *addr);

/* Starts a detached thread (nobody joins it) with all signals blocked,
 * so it never runs the application's handlers. 0 or PETW_ENOMEM. */
int petw__thread_start_detached(void (*fn)(void *), void *arg);

/* 1 when process `pid` exists. */
int petw__process_alive(uint32_t pid);
/* When process `pid` started (an opaque number that differs between two
 * processes that had the same pid): 0 or PETW_ENOTFOUND. */
int petw__process_start_time(uint32_t pid, uint64_t *out);
/* The short name of process `pid` (what ps shows); "" when unknown. */
void petw__process_name(uint32_t pid, char *out, size_t size);

/* Replaces the file at `path` by one holding `size` bytes of `data`, as
 * one step: written to a private temporary file next to it (0600, never
 * through a symbolic link), then renamed over it. Readers see the old
 * contents or the new, never a mix. */
int petw__file_replace_private(const char *path, const void *data, size_t size);
/* Removes the file (or link) at `path`; a missing one is not an error. */
int petw__file_remove(const char *path);
/* Reads the whole file at `path` (regular, the caller's, not a link), at
 * most `max` bytes; PETW_ENOTFOUND when it is not there, PETW_ELIMIT when
 * longer. *out is malloc'ed; the caller frees it. */
int petw__file_read_private(const char *path, size_t max, uint8_t **out, size_t *size);
/* Linux (for the ETW surface's GetCommandLineW and _fullpath on other hosts
 * than Windows): the process's arguments, each NUL-terminated, one after
 * the other (*out malloc'ed, *size bytes; PETW_EIO, PETW_ENOMEM); the
 * current directory (PETW_ENAMETOOLONG when `size` is too small). */
int petw__command_line(char **out, size_t *size);
int petw__current_dir(char *out, size_t size);
/* Text in the process's ANSI code page (what the ETW functions with an A
 * suffix take and give) to UTF-8, and back. Linux: UTF-8 is the ANSI code
 * page, and the bytes are copied as they are; Windows: CP_ACP. 0, or
 * PETW_ENAMETOOLONG when the text and its NUL do not fit in `size` bytes,
 * PETW_EINVAL when it does not convert. */
int petw__ansi_to_utf8(const char *in, char *out, size_t size);
int petw__utf8_to_ansi(const char *in, char *out, size_t size);
/* Creates directory `path` and any missing parent (0755 on Linux); one
 * that exists already is not an error. 0, PETW_ENAMETOOLONG, or the OS's
 * error as a PETW_E* code. */
int petw__dir_create(const char *path);
/* Calls fn(name, ctx) for each entry of directory `dir` whose name starts
 * with `prefix`; stops early when fn returns non-zero. */
int petw__dir_each(const char *dir, const char *prefix, int (*fn)(const char *name, void *ctx),
                   void *ctx);

/* What enable properties record about the writing process (the control
 * path computes them; EventWrite copies cached values):
 * its executable's file name, no directory, UTF-8 ("" when unknown); */
void petw__process_image_name(char *out, size_t size);
/* its user as a binary SID (Windows: the token's; elsewhere the Unix user
 * as S-1-22-1-<uid>, the "Unix User" authority Samba and Windows' NFS
 * use), into `out` (68 bytes suffice); returns its size, 0 when unknown; */
uint32_t petw__user_sid(uint8_t *out, uint32_t size);
/* its terminal-services session (Windows: ProcessIdToSessionId; elsewhere
 * the process's session id, getsid(0)); */
uint32_t petw__terminal_session_id(void);
/* a key unique to this process start across the machine's uptime and its
 * boots (Windows: creation time and pid; elsewhere the boot id salted
 * with the start time and pid). */
uint64_t petw__process_start_key(void);
/* The calling thread's CPU time so far, in kernel and in user mode (100 ns
 * units). One system call (Linux: getrusage(RUSAGE_THREAD); Windows:
 * GetThreadTimes): only for sessions that ask for CPU times in their events
 * (PETW_EVENT_ENABLE_PROPERTY_CPU_TIME), never on the default write path.
 * Both 0 when unknown. */
void petw__thread_cpu_times(uint64_t *kernel, uint64_t *user);
/* Stores up to `max` return addresses of the calling thread's user stack,
 * innermost first, without allocating or locking; returns how many
 * (0: not supported here). */
uint32_t petw__stack_capture(uint64_t *frames, uint32_t max);

/* Fork handlers (pthread_atfork): `prepare` before fork() in the forking
 * thread, `parent` after it there, `child` in the child. No-op on Windows. */
void petw__on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

/* Runs `child` in the child after fork() (once registered, in order). */
void petw__on_fork_child(void (*child)(void));

/* A full memory barrier on every thread of this process that runs now, as
 * if each had executed one (Linux: membarrier(2)'s PRIVATE_EXPEDITED,
 * registered on first use; Windows: FlushProcessWriteBuffers). Returns 0,
 * or PETW_ENOTSUP where the system has none (Linux before 4.14, or a
 * sandbox that refuses the call). */
int petw__membarrier(void);

/* Thread-exit callbacks: a key whose `exit_fn` runs with the thread's
 * value when a thread that set one exits, before its thread-locals go
 * (pthread keys; Windows: fiber-local storage). 0 or PETW_ENOMEM. */
int petw__thread_key_create(uint32_t *key, void (*exit_fn)(void *));
int petw__thread_key_set(uint32_t key, void *value);

/* ---- The operating system's own events (the system provider) ----
 * Linux: perf_event_open, one ring per CPU (no kernel module, no daemon).
 * Windows builds have none (PETW_ENOTSUP): use PETW_USE_NATIVE_ETW's
 * NT Kernel Logger there. Records come out neutral (petw__sys_record);
 * lib/write/system/ turns them into the NT Kernel Logger's event classes. */
enum {
    PETW__SYSREC_FORK = 1,     /* a thread or process was created */
    PETW__SYSREC_EXIT,         /* a thread or process ended */
    PETW__SYSREC_EXEC,         /* a process ran a new program (name in `text`) */
    PETW__SYSREC_MMAP,         /* an executable file mapping */
    PETW__SYSREC_SWITCH,       /* a context switch (out of `tid`, or into it) */
    PETW__SYSREC_SAMPLE,       /* a CPU sample: ip and call chain */
    PETW__SYSREC_WAKEUP,       /* `tid` woke `other_tid` (sched_waking) */
    PETW__SYSREC_DISK_ISSUE,   /* a block request went to the device */
    PETW__SYSREC_DISK,         /* a block request completed */
    PETW__SYSREC_LOST,         /* the OS lost `count` records */
    PETW__SYSREC_SWITCH_STACK, /* `tid` is about to leave the CPU: its call chain (sched_switch) */
    PETW__SYSREC_FAULT,        /* a page fault of `tid` at `addr`, program counter `ip`
                                * (PETW__SYS_FAULT_*) */
    PETW__SYSREC_MAP,          /* a mapping that is not an executable file's (MMAP's fields;
                                * `text` "//anon", "[heap]"... for anonymous memory) */
    PETW__SYSREC_VM_ENTER,     /* `tid` called mmap, munmap, brk or mremap (`count`:
                                * PETW__SYS_VM_*): its arguments in `args` */
    PETW__SYSREC_VM_EXIT,      /* that call returned `addr` */
    PETW__SYSREC_NET,          /* a socket's state change, send, receive or retransmit (`net`) */
};

#define PETW__SYS_SWITCH_OUT 0x1u     /* SWITCH: the thread left the CPU */
#define PETW__SYS_SWITCH_PREEMPT 0x2u /* SWITCH out: it was still runnable */
#define PETW__SYS_MAX_FRAMES 192u
#define PETW__SYS_BUILD_ID_MAX 20u /* a GNU build-id: SHA-1's 20 bytes at most */
#define PETW__SYS_DISK_READ 0u
#define PETW__SYS_DISK_WRITE 1u
#define PETW__SYS_DISK_OTHER 2u    /* a flush or discard */
#define PETW__SYS_FAULT_MINOR 0x1u /* FAULT: resolved without reading (at its end) */
#define PETW__SYS_FAULT_MAJOR 0x2u /* FAULT: resolved by reading its page (at its end) */
#define PETW__SYS_FAULT_START 0x4u /* FAULT: a fault begins (asked with hard_faults) */
#define PETW__SYS_VM_MMAP 0u       /* args: addr, len, prot, flags, fd, offset */
#define PETW__SYS_VM_MUNMAP 1u     /* args: addr, len */
#define PETW__SYS_VM_BRK 2u        /* args: the new break (0: a query) */
#define PETW__SYS_VM_MREMAP 3u     /* args: addr, old_len, new_len, flags, new_addr */

/* NET records: what happened to an IPv4 or IPv6 TCP or UDP socket. */
enum {
    PETW__SYS_NET_STATE = 1,  /* a TCP state change (old_state to new_state, TCP_* of Linux) */
    PETW__SYS_NET_SEND,       /* bytes a send call queued */
    PETW__SYS_NET_RECV,       /* bytes a receive call returned */
    PETW__SYS_NET_RETRANSMIT, /* a TCP segment sent again (bytes unknown: 0) */
};
typedef struct petw__sys_net {
    uint32_t op;                  /* PETW__SYS_NET_* */
    uint64_t sk;                  /* the kernel's socket: its identity */
    uint16_t family, protocol;    /* AF_INET (2) or AF_INET6 (10); IPPROTO_TCP (6) or UDP (17) */
    int32_t old_state, new_state; /* STATE */
    uint64_t bytes;               /* SEND, RECV */
    int tuple;                    /* 1: the addresses and ports below are known */
    uint16_t sport, dport;        /* the local and remote ports (host order) */
    uint8_t saddr[16], daddr[16]; /* local and remote addresses (network order;
                                   * IPv4's in the first 4 bytes) */
} petw__sys_net;

typedef struct petw__sys_record {
    uint32_t kind; /* PETW__SYSREC_* */
    uint32_t cpu;
    int64_t time_ns; /* petw__monotonic_ns()'s clock */
    uint32_t pid, tid;
    uint32_t other_pid, other_tid; /* FORK: the parent; SWITCH: the thread
                                    * switched to (out) or from (in), 0 if unknown */
    uint32_t flags;                /* PETW__SYS_SWITCH_* */
    uint64_t addr, len, pgoff;     /* MMAP; SAMPLE: addr = ip. DISK*: addr =
                                    * byte offset, len = bytes, pgoff = device */
    uint64_t count;                /* LOST; DISK*: PETW__SYS_DISK_* */
    const uint64_t *frames;        /* SAMPLE, SWITCH_STACK, WAKEUP (asked): call chain,
                                    * innermost first */
    uint32_t frame_count;
    const char *text;        /* EXEC: the program's name; MMAP: the file's path */
    const uint8_t *build_id; /* MMAP: the file's GNU build-id (the kernel's, or read
                              * from the file), build_id_size bytes; 0 when none */
    uint32_t build_id_size;
    uint64_t ip;              /* FAULT: the program counter */
    uint64_t args[6];         /* VM_ENTER: the call's arguments */
    const petw__sys_net *net; /* NET */
} petw__sys_record;

typedef struct petw__sys_config {
    uint32_t target_pid;    /* 0: every process; else it and its descendants */
    int tasks;              /* FORK, EXIT, EXEC */
    int mmaps;              /* MMAP */
    int switches;           /* SWITCH */
    int wakeups;            /* WAKEUP */
    int wakeup_stacks;      /* WAKEUP with the waker's call chain */
    int switch_stacks;      /* SWITCH_STACK (the sched_switch tracepoint) */
    int disk;               /* DISK */
    int net;                /* NET */
    uint64_t sample_ns;     /* SAMPLE every this many ns of CPU time; 0: none */
    int sample_stacks;      /* SAMPLE with call chains */
    uint32_t pages_per_cpu; /* ring size; 0: a default that fits the OS's limit */
    int faults;             /* FAULT (MAJOR), and MAP for every mapping */
    int minor_faults;       /* FAULT (MINOR) too */
    int fault_starts;       /* FAULT (START) too: a hard fault's duration */
    int vm;                 /* VM_ENTER, VM_EXIT */
} petw__sys_config;

/* What was granted (the OS may give less than asked). */
typedef struct petw__sys_info {
    int kernel_excluded; /* kernel code neither sampled nor in call chains */
    int wakeups, disk;   /* granted (they need tracepoints) */
    int switch_stacks;
    int faults;       /* granted (perf's page-fault software events) */
    int fault_starts; /* granted: hard faults have their start */
    int vm;           /* granted (the syscalls' tracepoints) */
    /* NET, granted in parts (tracepoints of different kernels): TCP state
     * changes with their addresses (inet_sock_set_state), bytes sent and
     * received (sock_send_length, sock_recv_length: Linux 6.3+), TCP
     * retransmits (tcp_retransmit_skb). */
    int net_states, net_bytes, net_retransmits;
    /* UDP datagrams with their endpoints, from the BPF program
     * platform_net.bpf.c; net_bpf_why says why not. */
    int net_bpf;
    char net_bpf_why[160];
} petw__sys_info;

typedef struct petw__sys petw__sys;
/* The GNU build-id of the ELF file at `path` (an absolute path), into
 * `out` (PETW__SYS_BUILD_ID_MAX bytes); returns its size, 0 when the file
 * is not an ELF file with one. */
uint32_t petw__sys_build_id(const char *path, uint8_t *out);
/* The JIT map a process wrote for profilers (Linux: /tmp/perf-PID.map,
 * lines "START SIZE name", hex numbers, as perf reads them), when the file
 * is a regular file owned by `owner` (the process's user) or by root: `fn`
 * gets each entry. Returns 0 (also when there is none), PETW_ENOMEM. */
typedef void (*petw__sys_jit_fn)(void *ctx, uint64_t start, uint64_t size, const char *name);
int petw__sys_jit_map(uint32_t pid, uint32_t owner, petw__sys_jit_fn fn, void *ctx);
/* Opens the collection: PETW_ENOTSUP (no such facility: no perf events,
 * a Windows build, or a requested tracepoint missing), PETW_EACCES (the
 * OS refuses: system-wide needs root, CAP_PERFMON or perf_event_paranoid
 * <= 0), PETW_ENOMEM. Collection starts at once. */
int petw__sys_open(const petw__sys_config *c, petw__sys **out, petw__sys_info *info);
/* Waits up to `timeout_ms` for records to read (0 when some may be ready). */
void petw__sys_wait(petw__sys *s, uint32_t timeout_ms);
/* Reads every record ready on every CPU, calling `fn` for each in its CPU's
 * order; returns how many. Pointers in a record live until `fn` returns. */
typedef void (*petw__sys_fn)(void *ctx, const petw__sys_record *r);
uint64_t petw__sys_read(petw__sys *s, petw__sys_fn fn, void *ctx);
/* Stops collecting and reads what is left, as petw__sys_read; then a LOST
 * record counts what the OS recorded as happening but never delivered
 * (tracepoint samples it dropped). Call once, before petw__sys_close. */
void petw__sys_drain(petw__sys *s, petw__sys_fn fn, void *ctx);
/* Frees (records not read are lost and not counted: drain first). */
void petw__sys_close(petw__sys *s);

/* ---- BPF programs (Linux with libbpf; other builds have none) ----
 * An object compiled for the BPF target by the build (a `*.bpf.c` file
 * through meson's bpf_embed rule: clang -target bpf with BTF, so CO-RE
 * relocates the kernel structures it reads) and embedded in the library. */
typedef struct petw__bpf petw__bpf;
/* Opens and loads the object `obj` (`size` bytes; `name` names it in
 * messages). Its tracepoint programs (SEC("tracepoint/GROUP/NAME")) whose
 * tracepoint this kernel lacks, or PETW_NO_TRACEPOINTS names, are left
 * out (petw__bpf_attach lists them). PETW_NO_BPF=1 makes BPF unavailable.
 * Returns 0, PETW_ENOTSUP (no BPF in this build, PETW_NO_BPF, or the
 * kernel refuses the object: no BPF, BTF or ring buffer), PETW_EACCES
 * (neither root nor CAP_BPF with CAP_PERFMON), PETW_ENOMEM; `why` (may be
 * NULL) gets one line saying why not. */
int petw__bpf_load(const uint8_t *obj, size_t size, const char *name, petw__bpf **out, char *why,
                   size_t why_size);
/* Writes `key` -> `value` into the object's map `map` (sizes as the map
 * declares them). 0, PETW_EINVAL (no such map), PETW_EACCES, PETW_ENOMEM,
 * PETW_ENOTSUP. */
int petw__bpf_map_update(petw__bpf *b, const char *map, const void *key, const void *value);
/* Reads `key`'s value from map `map`: 0, PETW_ENOENT, PETW_EINVAL. */
int petw__bpf_map_lookup(petw__bpf *b, const char *map, const void *key, void *value);
/* Attaches every loaded program; *attached counts them. `why` lists the
 * tracepoints left out ("" when none). 0, or PETW_EACCES/PETW_ENOTSUP
 * (`why` names the program the kernel refused; those attached stay). */
int petw__bpf_attach(petw__bpf *b, uint32_t *attached, char *why, size_t why_size);
/* The object's ring buffer map `map` is read into `fn` (each record as
 * the program wrote it, valid until `fn` returns) by petw__bpf_poll.
 * 0, PETW_EINVAL (no such map, or a ring already set), PETW_ENOMEM. */
typedef void (*petw__bpf_fn)(void *ctx, const void *data, size_t size);
int petw__bpf_ring(petw__bpf *b, const char *map, petw__bpf_fn fn, void *ctx);
/* Waits up to `timeout_ms` for records (0: does not wait), reads every
 * record ready; returns how many, or a PETW_E* code. */
int petw__bpf_poll(petw__bpf *b, uint32_t timeout_ms);
/* Detaches the programs (the ring keeps what they wrote: poll it after). */
void petw__bpf_detach(petw__bpf *b);
/* Detaches, unloads and frees (NULL is fine). */
void petw__bpf_close(petw__bpf *b);

/* ---- File I/O of processes (Linux: the BPF program platform_fileio.bpf.c
 * on the syscall tracepoints; other systems and builds without libbpf have
 * none) ---- */
enum {
    PETW__SYSFILE_CREATE = 1, /* open, openat, openat2, creat: result the descriptor */
    PETW__SYSFILE_READ,       /* read, pread64, readv, preadv, preadv2: result the bytes */
    PETW__SYSFILE_WRITE,      /* write, pwrite64, writev, pwritev, pwritev2 */
    PETW__SYSFILE_CLOSE,      /* close */
    PETW__SYSFILE_FLUSH,      /* fsync, fdatasync */
    PETW__SYSFILE_TRUNCATE,   /* ftruncate, truncate (a path): size the new length */
    PETW__SYSFILE_DELETE,     /* unlink, unlinkat, rmdir */
    PETW__SYSFILE_RENAME,     /* rename, renameat, renameat2: path to path2 */
    PETW__SYSFILE_CHDIR,      /* chdir (path), fchdir (fd): the working directory */
    PETW__SYSFILE_FORK,       /* process pid forked process fd (which then has its
                               * working directory and descriptors) */
};
#define PETW__SYSFILE_AT_CWD (-100) /* fd of a path call relative to the working directory */

typedef struct petw__sys_file_op {
    uint32_t op; /* PETW__SYSFILE_* */
    uint32_t cpu, pid, tid;
    int32_t fd;     /* the descriptor; a path call: its directory's, or PETW__SYSFILE_AT_CWD */
    uint32_t flags; /* CREATE: the open flags (O_*, Linux's values) */
    int64_t start_ns, end_ns; /* petw__monotonic_ns()'s clock */
    int64_t result;           /* the call's result: >= 0, or -errno */
    uint64_t offset;          /* READ, WRITE: the file position the transfer began at */
    uint64_t size;            /* READ, WRITE: bytes asked (0: not known); TRUNCATE: length */
    uint64_t file;            /* the open file's identity (0: not known): the kernel's object */
    uint64_t inode;           /* the file's identity across opens (0: not known) */
    const char *path, *path2; /* CREATE, TRUNCATE, DELETE, RENAME: as the caller gave them
                               * (maybe relative to fd); NULL when none */
} petw__sys_file_op;

typedef struct petw__sys_files petw__sys_files;
typedef void (*petw__sys_file_fn)(void *ctx, const petw__sys_file_op *op);
/* Starts following the file calls of process `target_pid` and of every
 * process it forks from now on (0: every process but this one). Returns 0,
 * PETW_ENOTSUP, PETW_EACCES, PETW_ENOMEM; `why` gets one line saying what
 * is missing (no BPF in this build or kernel, no rights). */
int petw__sys_files_open(uint32_t target_pid, petw__sys_files **out, char *why, size_t why_size);
/* Reads every record ready into `fn`, without waiting; returns how many. */
uint64_t petw__sys_files_read(petw__sys_files *f, petw__sys_file_fn fn, void *ctx);
/* Stops following, reads what is left; returns how many records the
 * kernel had no room for (lost). Call once, before petw__sys_files_close. */
uint64_t petw__sys_files_drain(petw__sys_files *f, petw__sys_file_fn fn, void *ctx);
void petw__sys_files_close(petw__sys_files *f);
/* The files process `pid` has open now (Linux: /proc/PID/fd): `fn` gets
 * each descriptor and the file's path ("pipe:[N]" and such for others). */
typedef void (*petw__sys_fd_fn)(void *ctx, uint32_t pid, int32_t fd, const char *path);
void petw__sys_open_files(uint32_t pid, petw__sys_fd_fn fn, void *ctx);
/* The path of process `pid`'s descriptor `fd` (PETW__SYSFILE_AT_CWD: its
 * working directory) into `buf`; 0, or PETW_ENOENT (gone). */
int petw__sys_fd_path(uint32_t pid, int32_t fd, char *buf, size_t size);

/* A process's command line, arguments separated by spaces ("" when gone). */
void petw__sys_cmdline(uint32_t pid, char *buf, size_t size);
/* A process's owner (a uid on Linux; UINT32_MAX when gone). */
uint32_t petw__sys_owner(uint32_t pid);

/* ---- The machine's configuration (a system session's SystemConfig) ---- */
typedef struct petw__sys_machine {
    uint32_t mhz;       /* the processors' maximum speed, 0 when unknown */
    uint32_t cpus;      /* logical processors configured */
    uint32_t mem_mb;    /* physical memory, MiB */
    uint32_t page_size; /* bytes; also the mapping granularity */
    uint64_t smt_mask;  /* bit k: CPU k shares its core (k < 64) */
    char host[256];     /* the host name (UTF-8) */
    char domain[134];   /* the NIS domain name, "" when none */
} petw__sys_machine;
/* Fills `m`: PETW_ENOTSUP where the OS cannot say. */
int petw__sys_machine_info(petw__sys_machine *m);

/* A physical disk: a block device backed by hardware. */
typedef struct petw__sys_disk {
    uint32_t number;      /* its device number as DISK records carry it */
    uint32_t sector_size; /* logical block size, bytes */
    uint64_t bytes;       /* capacity */
    uint32_t partitions;
    uint32_t write_cache; /* 1: write-back cache on */
    uint32_t scsi[4];     /* host, channel, target, LUN; 0 when not SCSI */
    char model[256];      /* vendor and model, else the kernel's name */
} petw__sys_disk;
/* A mounted file system on one of those disks (or a partition of one). */
typedef struct petw__sys_volume {
    uint32_t disk;        /* its disk's `number` */
    uint32_t partition;   /* 0: the whole disk */
    uint64_t start, size; /* bytes from the disk's start; its length */
    uint32_t sector_size, cluster_size;
    uint64_t free_clusters, total_clusters;
    char fs[16]; /* the file system's type ("ext4") */
} petw__sys_volume;
typedef void (*petw__sys_disk_fn)(void *ctx, const petw__sys_disk *d);
typedef void (*petw__sys_volume_fn)(void *ctx, const petw__sys_volume *v);
/* Every physical disk, then every volume mounted from one (each device
 * once); PETW_ENOTSUP where the OS cannot list them. */
int petw__sys_disks(petw__sys_disk_fn disk, petw__sys_volume_fn volume, void *ctx);

/* ---- bytes and text, the same on every host ----
 * Little-endian fields (every petw format) read and written at any alignment,
 * the UTF conversions (platform_utf.c), and SIDs (platform_sid.c): the
 * Win32 base functions of platform_win32.c and platform_security.c are
 * built on them, and every module above uses them too. */

/* Little-endian loads and stores on byte buffers (the on-disk format), at
 * any alignment. On a little-endian host each is one move (memcpy of a
 * constant size): GCC does not always merge the byte-by-byte form (it did
 * not in the header of an extended item, which EventWrite fills per event). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PETW__LE_MOVE(type, bits)                                                                  \
    static inline type petw__rd##bits(const uint8_t *p)                                            \
    {                                                                                              \
        type v;                                                                                    \
        memcpy(&v, p, sizeof(v));                                                                  \
        return v;                                                                                  \
    }                                                                                              \
    static inline void petw__wr##bits(uint8_t *p, type v)                                          \
    {                                                                                              \
        memcpy(p, &v, sizeof(v));                                                                  \
    }
PETW__LE_MOVE(uint16_t, 16)
PETW__LE_MOVE(uint32_t, 32)
PETW__LE_MOVE(uint64_t, 64)
#undef PETW__LE_MOVE
#else
static inline uint16_t petw__rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t petw__rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t petw__rd64(const uint8_t *p)
{
    return (uint64_t)petw__rd32(p) | ((uint64_t)petw__rd32(p + 4) << 32);
}
static inline void petw__wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void petw__wr32(uint8_t *p, uint32_t v)
{
    petw__wr16(p, (uint16_t)v);
    petw__wr16(p + 2, (uint16_t)(v >> 16));
}
static inline void petw__wr64(uint8_t *p, uint64_t v)
{
    petw__wr32(p, (uint32_t)v);
    petw__wr32(p + 4, (uint32_t)(v >> 32));
}
#endif
static inline void petw__wr_guid(uint8_t *p, const petw_guid *g)
{
    petw__wr32(p, g->data1);
    petw__wr16(p + 4, g->data2);
    petw__wr16(p + 6, g->data3);
    memcpy(p + 8, g->data4, 8);
}
static inline void petw__rd_guid(const uint8_t *p, petw_guid *g)
{
    g->data1 = petw__rd32(p);
    g->data2 = petw__rd16(p + 4);
    g->data3 = petw__rd16(p + 6);
    memcpy(g->data4, p + 8, 8);
}

/* UTF-8 <-> UTF-16LE (on-disk names). Output is always NUL-terminated and
 * truncated to fit; return the number of code units written (no NUL). */
size_t petw__utf8_to_utf16le(const char *in, uint8_t *out, size_t out_units);
size_t petw__utf16le_to_utf8(const uint8_t *in, size_t in_units, char *out, size_t out_size);
/* wchar_t (UTF-32 on Linux, UTF-16 on Windows) <-> UTF-8. */
size_t petw__wcs_to_utf8(const wchar_t *in, char *out, size_t out_size);
/* As petw__wcs_to_utf8, for names and paths that must not be cut: returns
 * 0, or PETW_ENAMETOOLONG when the whole string did not fit. */
int petw__wcs_to_utf8_fit(const wchar_t *in, char *out, size_t out_size);
size_t petw__utf8_to_wcs(const char *in, wchar_t *out, size_t out_chars);
/* Counted conversions (MultiByteToWideChar, WideCharToMultiByte): `n`
 * units of input, NULs converted like any character, no NUL added. Each
 * character is one wchar_t (a surrogate pair where wchar_t is 16-bit).
 * What does not fit in out_chars / out_size is not written: *needed says
 * how much the whole conversion takes (out may be NULL with size 0, to
 * count). Input that is not UTF-8 (or not Unicode: a lone surrogate, a
 * value above U+10FFFF) becomes U+FFFD, or with `strict` fails with
 * PETW_EINVAL; *replaced (wcs_to_utf8_n) says whether one was made. 0 or
 * PETW_EINVAL. */
int petw__utf8_to_wcs_n(const char *in, size_t n, wchar_t *out, size_t out_chars, int strict,
                        size_t *needed);
int petw__wcs_to_utf8_n(const wchar_t *in, size_t n, char *out, size_t out_size, int strict,
                        size_t *needed, int *replaced);
/* Names and paths of the ETW functions with an A suffix, in the process's
 * ANSI code page, to UTF-8 and back (platform's conversions: a copy where
 * UTF-8 is that code page). 0, PETW_ENAMETOOLONG when the string and its
 * NUL do not fit in `out_size` bytes, PETW_EINVAL when it does not convert. */
int petw__ansi_to_utf8_fit(const char *in, char *out, size_t out_size);
int petw__utf8_to_ansi_fit(const char *in, char *out, size_t out_size);

/* SIDs (platform_sid.c): revision, sub-authority count, 48-bit big-endian
 * authority, then the 32-bit little-endian sub-authorities. The size of
 * the SID at `p` (n bytes readable): 8 + 4 per sub-authority, or
 * PETW_ECORRUPT when it does not fit in n. */
#define PETW__SID_MAX_SUB_AUTHORITIES 15
#define PETW__SID_MAX_SIZE (8 + 4 * PETW__SID_MAX_SUB_AUTHORITIES)
/* Room for any SID's text, 255 sub-authorities included. */
#define PETW__SID_TEXT_MAX (32 + 11 * 255)
int petw__sid_size(const uint8_t *p, size_t n);
/* The SID at `p` as text, S-R-I-S-S... (the authority in decimal below
 * 2^32, else 0x and 12 hex digits, as Windows writes it), cut to fit
 * `size`. Returns the SID's size, or PETW_ECORRUPT as petw__sid_size. */
int petw__sid_text(const uint8_t *p, size_t n, char *text, size_t size);

/* The 16 bytes of an IPv6 address (network order) at `p` as text, as
 * RtlIpv6AddressToString writes it (platform_ip.c), into `text` (`size`
 * >= 46 bytes, INET6_ADDRSTRLEN). */
void petw__ipv6_text(const uint8_t *p, char *text, size_t size);
/* S-R-I-S-S... (the authority decimal, or hex after 0x; at most 15
 * sub-authorities) into `out`: the SID's size, PETW_EINVAL when the text
 * is not a SID, PETW_EBADLENGTH when it does not fit in out_size. */
int petw__sid_parse(const char *text, uint8_t *out, size_t out_size);

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
