/* SPDX-License-Identifier: MIT */
/* platform_machine_linux.c - the machine's configuration on Linux (a system
 * session's SystemConfig): CPUs, memory, host and domain names from sysconf
 * and /sys, and the disks and mounted volumes from /sys/block and
 * /proc/self/mountinfo.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "petw/error.h"
#include "platform.h"

static uint64_t read_u64(const char *path, uint64_t fallback)
{
    char buf[64], *end;
    if (!petw__file_read_small(path, buf, sizeof(buf)))
        return fallback;
    unsigned long long v = strtoull(buf, &end, 10);
    return end == buf ? fallback : (uint64_t)v;
}

/* A /sys attribute's text without its trailing newline and spaces. */
static void read_attr(const char *path, char *buf, size_t size)
{
    buf[0] = 0; /* when there is no such file */
    size_t n = petw__file_read_small(path, buf, size);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = 0;
}

int petw__sys_machine_info(petw__sys_machine *m)
{
    memset(m, 0, sizeof(*m));
    long cpus = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
    long pages = sysconf(_SC_PHYS_PAGES);
    if (cpus <= 0 || page <= 0 || pages <= 0)
        return PETW_ENOTSUP;
    m->cpus = (uint32_t)cpus;
    m->page_size = (uint32_t)page;
    m->mem_mb = (uint32_t)((uint64_t)pages * (uint64_t)page >> 20);
    /* The maximum speed (kHz) where a frequency driver says it, else the
     * first "cpu MHz" of /proc/cpuinfo (the speed now, all a VM shows). */
    uint64_t khz = read_u64("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", 0);
    if (khz) {
        m->mhz = (uint32_t)(khz / 1000);
    } else {
        char info[8192];
        read_attr("/proc/cpuinfo", info, sizeof(info));
        const char *at = strstr(info, "cpu MHz");
        if (at && (at = strchr(at, ':')) != NULL)
            m->mhz = (uint32_t)strtoul(at + 1, NULL, 10);
    }
    for (long k = 0; k < cpus && k < 64; k++) {
        char path[96], list[64];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/thread_siblings_list",
                 k);
        read_attr(path, list, sizeof(list));
        if (strpbrk(list, ",-"))
            m->smt_mask |= 1ull << k;
    }
    if (gethostname(m->host, sizeof(m->host) - 1) != 0)
        m->host[0] = 0;
    if (getdomainname(m->domain, sizeof(m->domain) - 1) != 0 || !strcmp(m->domain, "(none)"))
        m->domain[0] = 0;
    return 0;
}

/* "MAJ:MIN" as the kernel's own dev_t (MAJ << 20 | MIN): the device
 * number block tracepoints carry. */
static uint32_t kernel_dev(const char *text)
{
    unsigned maj, min;
    return sscanf(text, "%u:%u", &maj, &min) == 2 ? maj << 20 | (min & 0xFFFFFu) : 0;
}

static int is_physical(const char *name)
{
    char path[300];
    struct stat st;
    snprintf(path, sizeof(path), "/sys/block/%s/device", name);
    return name[0] != '.' && stat(path, &st) == 0;
}

/* A mounted device, found under /sys/class/block: its disk and partition. */
static int volume_of(uint32_t dev, const char *maj_min, petw__sys_volume *v)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (!is_physical(e->d_name))
            continue;
        char path[600], text[32];
        snprintf(path, sizeof(path), "/sys/block/%s/dev", e->d_name);
        read_attr(path, text, sizeof(text));
        uint32_t disk = kernel_dev(text);
        snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size", e->d_name);
        v->sector_size = (uint32_t)read_u64(path, 512);
        if (disk == dev) { /* a file system on the whole disk */
            snprintf(path, sizeof(path), "/sys/block/%s/size", e->d_name);
            v->disk = disk;
            v->partition = 0;
            v->start = 0;
            v->size = read_u64(path, 0) * 512;
            found = 1;
            break;
        }
        snprintf(path, sizeof(path), "/sys/block/%s", e->d_name);
        DIR *p = opendir(path);
        struct dirent *pe;
        while (p && (pe = readdir(p)) != NULL) {
            snprintf(path, sizeof(path), "/sys/block/%s/%s/dev", e->d_name, pe->d_name);
            read_attr(path, text, sizeof(text));
            if (!text[0] || strcmp(text, maj_min) != 0)
                continue;
            char base[560];
            snprintf(base, sizeof(base), "/sys/block/%s/%s", e->d_name, pe->d_name);
            snprintf(path, sizeof(path), "%s/partition", base);
            v->disk = disk;
            v->partition = (uint32_t)read_u64(path, 0);
            snprintf(path, sizeof(path), "%s/start", base);
            v->start = read_u64(path, 0) * 512; /* /sys counts 512-byte sectors */
            snprintf(path, sizeof(path), "%s/size", base);
            v->size = read_u64(path, 0) * 512;
            found = 1;
            break;
        }
        if (p)
            closedir(p);
    }
    closedir(d);
    return found;
}

/* mountinfo writes a space, tab, newline or backslash in a path as \ooo. */
static void unescape_octal(char *s)
{
    char *w = s;
    for (const char *r = s; *r; w++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
            *w = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0'));
            r += 4;
        } else {
            *w = *r++;
        }
    }
    *w = 0;
}

/* The disk /sys/block/NAME: its number, size, sector size, cache, SCSI
 * address, model and partition count, into k. */
static void describe_disk(const char *name, petw__sys_disk *k)
{
    memset(k, 0, sizeof(*k));
    char path[600], text[300], link[300];
    snprintf(path, sizeof(path), "/sys/block/%s/dev", name);
    read_attr(path, text, sizeof(text));
    k->number = kernel_dev(text);
    snprintf(path, sizeof(path), "/sys/block/%s/queue/logical_block_size", name);
    k->sector_size = (uint32_t)read_u64(path, 512);
    snprintf(path, sizeof(path), "/sys/block/%s/size", name);
    k->bytes = read_u64(path, 0) * 512;
    snprintf(path, sizeof(path), "/sys/block/%s/queue/write_cache", name);
    read_attr(path, text, sizeof(text));
    k->write_cache = !strcmp(text, "write back");
    /* SCSI devices link to "H:C:T:L". */
    snprintf(path, sizeof(path), "/sys/block/%s/device", name);
    ssize_t n = readlink(path, link, sizeof(link) - 1);
    if (n > 0) {
        link[n] = 0;
        const char *leaf = strrchr(link, '/');
        unsigned h, c, t, l;
        if (sscanf(leaf ? leaf + 1 : link, "%u:%u:%u:%u", &h, &c, &t, &l) == 4) {
            k->scsi[0] = h;
            k->scsi[1] = c;
            k->scsi[2] = t;
            k->scsi[3] = l;
        }
    }
    char vendor[128], model[128];
    snprintf(path, sizeof(path), "/sys/block/%s/device/vendor", name);
    read_attr(path, vendor, sizeof(vendor));
    snprintf(path, sizeof(path), "/sys/block/%s/device/model", name);
    read_attr(path, model, sizeof(model));
    if (model[0])
        snprintf(k->model, sizeof(k->model), "%s%s%s", vendor, vendor[0] ? " " : "", model);
    else
        snprintf(k->model, sizeof(k->model), "%s", name);
    /* Partitions: the entries below the disk that have a partition number. */
    snprintf(path, sizeof(path), "/sys/block/%s", name);
    DIR *p = opendir(path);
    struct dirent *pe;
    while (p && (pe = readdir(p)) != NULL) {
        struct stat st;
        snprintf(path, sizeof(path), "/sys/block/%s/%s/partition", name, pe->d_name);
        if (pe->d_name[0] != '.' && stat(path, &st) == 0)
            k->partitions++;
    }
    if (p)
        closedir(p);
}

/* Volumes: each mounted block device once (mountinfo's third field is its
 * MAJ:MIN, the ninth the file system's type), with its partition and file
 * system's clusters. */
static void list_volumes(petw__sys_volume_fn volume, void *ctx)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return;
    char line[4096];
    uint32_t seen[64];
    size_t nseen = 0;
    while (fgets(line, sizeof(line), f)) {
        char maj_min[32], mount[2048], fs[16];
        if (sscanf(line, "%*s %*s %31s %*s %2047s", maj_min, mount) != 2)
            continue;
        const char *sep = strstr(line, " - ");
        if (!sep || sscanf(sep + 3, "%15s", fs) != 1)
            continue;
        uint32_t dev = kernel_dev(maj_min);
        if (dev >> 20 == 0)
            continue; /* major 0: no block device (proc, tmpfs, overlay...) */
        int dup = 0;
        for (size_t k = 0; k < nseen; k++)
            dup |= seen[k] == dev;
        petw__sys_volume v;
        memset(&v, 0, sizeof(v));
        if (dup || nseen == sizeof(seen) / sizeof(seen[0]) || !volume_of(dev, maj_min, &v))
            continue;
        seen[nseen++] = dev;
        unescape_octal(mount);
        struct statvfs sv;
        if (statvfs(mount, &sv) == 0 && sv.f_frsize) {
            v.cluster_size = (uint32_t)sv.f_frsize;
            v.free_clusters = sv.f_bfree;
            v.total_clusters = sv.f_blocks;
        }
        memcpy(v.fs, fs, sizeof(v.fs));
        volume(ctx, &v);
    }
    fclose(f);
}

int petw__sys_disks(petw__sys_disk_fn disk, petw__sys_volume_fn volume, void *ctx)
{
    DIR *d = opendir("/sys/block");
    if (!d)
        return PETW_ENOTSUP;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_physical(e->d_name))
            continue; /* loop, zram, device-mapper: no hardware behind them */
        petw__sys_disk k;
        describe_disk(e->d_name, &k);
        disk(ctx, &k);
    }
    closedir(d);
    list_volumes(volume, ctx);
    return 0;
}
