/* SPDX-License-Identifier: MIT */
/* platform_fileio_bpf.h - the records platform_fileio.bpf.c writes into its
 * ring buffer and platform_fileio_linux.c reads: one per file system call of
 * a process in scope, written at the call's return. Fixed-width fields
 * only: the BPF program and the library see the same layout. */
#ifndef PETW_PLATFORM_FILEIO_BPF_H
#define PETW_PLATFORM_FILEIO_BPF_H

#define PETW__FILE_BPF_PATH 512 /* bytes of each path kept (the rest is cut) */

/* The scope map's key 0 in `config`: 1 records every process (but petw). */
#define PETW__FILE_BPF_ALL 0
#define PETW__FILE_BPF_SELF 1    /* petw's own process id: never recorded */
#define PETW__FILE_BPF_STOPPED 2 /* 1: the session stops, nothing new is recorded */

/* The calls, as platform.h's PETW__SYSFILE_* (platform_fileio_linux.c checks). */
#define PETW__FILE_BPF_CREATE 1   /* open, openat, openat2, creat */
#define PETW__FILE_BPF_READ 2     /* read, pread64, readv, preadv, preadv2 */
#define PETW__FILE_BPF_WRITE 3    /* write, pwrite64, writev, pwritev, pwritev2 */
#define PETW__FILE_BPF_CLOSE 4    /* close */
#define PETW__FILE_BPF_FLUSH 5    /* fsync, fdatasync */
#define PETW__FILE_BPF_TRUNCATE 6 /* ftruncate, truncate (a path) */
#define PETW__FILE_BPF_DELETE 7   /* unlink, unlinkat, rmdir */
#define PETW__FILE_BPF_RENAME 8   /* rename, renameat, renameat2 */
#define PETW__FILE_BPF_CHDIR 9    /* chdir (path), fchdir (fd) */
#define PETW__FILE_BPF_FORK 10    /* process pid forked process fd */

/* config[] indexes; counters[] indexes. */
#define PETW__FILE_BPF_LOST 0 /* records the ring buffer had no room for */

typedef struct petw__file_bpf_record {
    __u32 op; /* PETW__SYSFILE_* (platform.h) */
    __u32 pid, tid, cpu;
    __s32 fd;                    /* the descriptor; path calls: the directory's (AT_FDCWD: -100) */
    __u32 flags;                 /* open: O_* flags; rename: RENAME_*; unlink: AT_REMOVEDIR */
    __u64 start_ns, end_ns;      /* CLOCK_MONOTONIC */
    __s64 ret;                   /* the call's result: bytes, a descriptor, or -errno */
    __u64 offset;                /* the file position the transfer began at */
    __u64 size;                  /* bytes asked (read, write), the new length (truncate) */
    __u64 file;                  /* the kernel's struct file (0: unknown) */
    __u64 inode;                 /* its inode (0: unknown) */
    __u32 path_size, path2_size; /* bytes of path and path2 (NUL included), 0: none */
} petw__file_bpf_record;

/* A call naming paths: the record, then the two paths' buffers. */
typedef struct petw__file_bpf_path_record {
    petw__file_bpf_record r;
    char path[PETW__FILE_BPF_PATH];
    char path2[PETW__FILE_BPF_PATH];
} petw__file_bpf_path_record;

#endif
