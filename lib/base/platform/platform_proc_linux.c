/* SPDX-License-Identifier: MIT */
/* platform_proc_linux.c - what the system provider reads of a process and
 * its files on Linux: a process's command line and owner (/proc), and a
 * process's JIT map (/tmp/perf-PID.map, opened with care: /tmp is
 * everyone's; system_ident.c reads its lines). The rundown and the kernel's symbols are read
 * from /proc by lib/write/system/system_proc.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"

void petw__sys_cmdline(uint32_t pid, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
    size_t n = petw__file_read_small(path, buf, size);
    while (n > 0 && buf[n - 1] == 0)
        n--;
    for (size_t k = 0; k < n; k++)
        if (buf[k] == 0)
            buf[k] = ' ';
    buf[n] = 0;
}

uint32_t petw__sys_owner(uint32_t pid)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%u", pid);
    return stat(path, &st) == 0 ? (uint32_t)st.st_uid : UINT32_MAX;
}

void *petw__sys_jit_map_open(uint32_t pid, uint32_t owner)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
    /* /tmp is everyone's: no link followed, and only the process's user's
     * (or root's) file is believed. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != owner && st.st_uid != 0) ||
        !(f = fdopen(fd, "r"))) {
        close(fd);
        return NULL;
    }
    return f;
}
