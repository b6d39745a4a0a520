/* SPDX-License-Identifier: MIT */
/* platform_bpf.h - BPF programs embedded in the library (Linux with libbpf) and
 * the file I/O of processes they follow.
 * Part of platform.h, which includes it (include either).
 */
#ifndef PETW_PLATFORM_BPF_H
#define PETW_PLATFORM_BPF_H

#include "platform.h"

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
/* Stops the programs that follow processes (platform_task.bpf.h) at once:
 * sets their `config` map's entry `key` (their STOPPED index) to 1, after
 * which they record no new call, then waits 2 ms, so that a program run
 * under way has submitted its record before the ring is read. Detaching
 * takes far longer (below). 0 or a PETW_E* code. */
int petw__bpf_stop(petw__bpf *b, uint32_t key);
/* Detaches, unloads and frees (NULL is fine). */
void petw__bpf_close(petw__bpf *b);
/* The same, returning at once: each link is released on a thread of its
 * own (in this one when none starts), since each tracepoint program's
 * detaching waits for the kernel's grace periods, seconds for the file
 * I/O program's 50 one after another. */
void petw__bpf_close_async(petw__bpf *b);

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
 * kernel had no room for (lost). No call begun after it starts is
 * recorded or counted, however long the kernel takes to detach the
 * programs. Call once, before petw__sys_files_close. */
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

#endif /* PETW_PLATFORM_BPF_H */
