/* SPDX-License-Identifier: MIT */
/* platform_shared.h - the OS calls of sessions shared between processes: the runtime
 * directory, shared memory, counters and futex words, sockets, processes.
 * Part of platform.h, which includes it (include either).
 */
#ifndef PETW_PLATFORM_SHARED_H
#define PETW_PLATFORM_SHARED_H

#include "platform.h"

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
 * the path leaves less than 32 bytes of a socket address's path. `out`
 * receives the path whenever it fits, also when the directory is refused
 * (so that the caller can name it); a trailing slash may remain there then. */
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

#endif /* PETW_PLATFORM_SHARED_H */
