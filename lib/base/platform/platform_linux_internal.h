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

#endif
