/* SPDX-License-Identifier: MIT */
/* platform_proc_linux.c - what the system provider reads of a process and
 * its files on Linux: a process's command line and owner (/proc), an ELF
 * file's build-id, and a process's JIT map (/tmp/perf-PID.map, opened with
 * care: /tmp is everyone's). The rundown and the kernel's symbols are read
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

uint32_t petw__sys_build_id(const char *path, uint8_t *out)
{
    /* An ELF's GNU build-id note (NT_GNU_BUILD_ID in a PT_NOTE segment),
     * as the kernel and perf read it: 64-bit and 32-bit, little-endian. */
    if (!path || path[0] != '/')
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    uint32_t got = 0;
    uint8_t eh[64], ph[56], note[1024];
    if (pread(fd, eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh, "\177ELF", 4) != 0 ||
        eh[5] != 1 /* ELFDATA2LSB */) {
        close(fd);
        return 0;
    }
    int is64 = eh[4] == 2;
    uint64_t phoff = is64 ? petw__rd64(eh + 32) : petw__rd32(eh + 28);
    uint32_t phentsize = is64 ? petw__rd16(eh + 54) : petw__rd16(eh + 42);
    uint32_t phnum = is64 ? petw__rd16(eh + 56) : petw__rd16(eh + 44);
    for (uint32_t k = 0; k < phnum && k < 64 && !got; k++) {
        if (phentsize > sizeof(ph) ||
            pread(fd, ph, phentsize, (off_t)(phoff + (uint64_t)k * phentsize)) !=
                (ssize_t)phentsize)
            break;
        if (petw__rd32(ph) != 4 /* PT_NOTE */)
            continue;
        uint64_t off = is64 ? petw__rd64(ph + 8) : petw__rd32(ph + 4);
        uint64_t size = is64 ? petw__rd64(ph + 32) : petw__rd32(ph + 16);
        if (size > sizeof(note))
            size = sizeof(note);
        ssize_t n = pread(fd, note, (size_t)size, (off_t)off);
        for (ssize_t at = 0; n > 0 && at + 12 <= n;) {
            uint32_t namesz = petw__rd32(note + at), descsz = petw__rd32(note + at + 4);
            uint32_t type = petw__rd32(note + at + 8);
            ssize_t name_at = at + 12, desc_at = name_at + (ssize_t)((namesz + 3) & ~3u);
            if (namesz > 64 || descsz > 256 || desc_at + (ssize_t)descsz > n)
                break;
            if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
                memcmp(note + name_at, "GNU", 4) == 0 && descsz &&
                descsz <= PETW__SYS_BUILD_ID_MAX) {
                memcpy(out, note + desc_at, descsz);
                got = descsz;
                break;
            }
            at = desc_at + (ssize_t)((descsz + 3) & ~3u);
        }
    }
    close(fd);
    return got;
}

int petw__sys_jit_map(uint32_t pid, uint32_t owner, petw__sys_jit_fn fn, void *ctx)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
    /* /tmp is everyone's: no link followed, and only the process's user's
     * (or root's) file is believed. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != owner && st.st_uid != 0) ||
        !(f = fdopen(fd, "r"))) {
        close(fd);
        return 0;
    }
    char line[4096];
    while (fgets(line, sizeof(line), f)) {
        unsigned long long start, size;
        int at = 0;
        if (sscanf(line, "%llx %llx %n", &start, &size, &at) < 2 || !at)
            continue;
        char *name = line + at;
        name[strcspn(name, "\r\n")] = 0;
        if (name[0])
            fn(ctx, start, size, name);
    }
    fclose(f);
    return 0;
}
