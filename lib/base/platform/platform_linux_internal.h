/* SPDX-License-Identifier: MIT */
/* platform_linux_internal.h - what platform_linux.c shares with the other
 * Linux files of platform/ (nothing outside lib/base/platform/ sees it). */
#ifndef PETW_PLATFORM_LINUX_INTERNAL_H
#define PETW_PLATFORM_LINUX_INTERNAL_H

/* An errno value as a PETW_E* code: a missing file or folder PETW_ENOENT;
 * a refusal (permissions, a read-only file system, a symbolic link met
 * with O_NOFOLLOW, a directory, a socket or a FIFO without a reader)
 * PETW_EACCES; a full disk or quota PETW_ENOSPC; PETW_ENOMEM,
 * PETW_ENAMETOOLONG, PETW_EBADHANDLE (EBADF); anything else PETW_EIO. */
int petw__linux_error(int e);

/* platform_sys_linux.c: whether the kernel has tracepoint `name`
 * ("group/event") in tracefs, and PETW_NO_TRACEPOINTS does not name it. */
int petw__tracepoint_exists(const char *name);

/* platform_net_linux.c (platform_net_none.c without BPF): the network BPF
 * program (UDP datagrams with their endpoints) loaded and attached,
 * following `target_pid` and its descendants (0: every process but this
 * one); its ring's records (platform_net_bpf.h) go to `fn` at each
 * petw__bpf_poll. 0, or a PETW_E* code with one line in `why`. */
int petw__net_bpf_open(uint32_t target_pid, petw__bpf_fn fn, void *ctx, petw__bpf **out, char *why,
                       size_t why_size);

#endif
