/* SPDX-License-Identifier: MIT */
/* memory.c DIR: a workload of known memory shape for analysis_memory.py.
 *  - ANON_PAGES pages of an anonymous mapping (no huge pages) written once:
 *    that many soft (demand-zero) faults;
 *  - FILE_PAGES pages of a file written into DIR, synced and dropped from
 *    the page cache, mapped (random access: no read-ahead, no fault-around
 *    of cached neighbours) and read once each: that many hard faults in it;
 *  - mmap, munmap, brk and mremap of known sizes.
 * Each step prints one line the test reads: what it did, where, how much
 * (addresses in hex, sizes in bytes). No malloc (stdio's buffers would move
 * the break): output goes through write(). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define ANON_PAGES 64
#define FILE_PAGES 32

static void say(const char *fmt, unsigned long a, unsigned long b)
{
    char line[160];
    int n = snprintf(line, sizeof(line), fmt, a, b);
    if (n > 0)
        (void)!write(1, line, (size_t)n);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    long page = sysconf(_SC_PAGESIZE);
    static char buf[65536];

    /* Anonymous pages: one demand-zero fault each. */
    size_t anon_size = (size_t)ANON_PAGES * (size_t)page;
    uint8_t *anon =
        mmap(NULL, anon_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (anon == MAP_FAILED)
        return 1;
    (void)madvise(anon, anon_size, MADV_NOHUGEPAGE);
    say("mmap %lx %lu\n", (unsigned long)anon, anon_size);
    for (size_t k = 0; k < anon_size; k += (size_t)page)
        anon[k] = 1;
    say("anon %lx %lu\n", (unsigned long)anon, ANON_PAGES);

    /* A file's pages, out of the page cache, read through a mapping. */
    char path[4096];
    snprintf(path, sizeof(path), "%s/memory.dat", argv[1]);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return 1;
    memset(buf, 'x', sizeof(buf));
    size_t file_size = (size_t)FILE_PAGES * (size_t)page;
    for (size_t at = 0; at < file_size; at += sizeof(buf))
        if (write(fd, buf, sizeof(buf) < file_size - at ? sizeof(buf) : file_size - at) < 0)
            return 1;
    fsync(fd);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    uint8_t *file = mmap(NULL, file_size, PROT_READ, MAP_SHARED, fd, 0);
    if (file == MAP_FAILED)
        return 1;
    say("mmap %lx %lu\n", (unsigned long)file, file_size);
    (void)madvise(file, file_size, MADV_RANDOM);
    unsigned char resident[FILE_PAGES];
    unsigned long cached = 0;
    if (mincore(file, file_size, resident) == 0)
        for (int k = 0; k < FILE_PAGES; k++)
            cached += resident[k] & 1;
    say("cached %lx %lu\n", cached, 0);
    volatile unsigned long sum = 0;
    /* Each read timed alone (the clock's first call before: its page). */
    double reads = 0, t0 = now_ms();
    for (size_t k = 0; k < file_size; k += (size_t)page) {
        double a = now_ms();
        sum += file[k];
        reads += now_ms() - a;
    }
    (void)t0;
    say("file %lx %lu\n", (unsigned long)file, FILE_PAGES);
    say("file_ns %lx %lu\n", (unsigned long)(reads * 1e6), 0); /* hex, as addresses */
    munmap(file, file_size);
    say("munmap %lx %lu\n", (unsigned long)file, file_size);
    close(fd);

    /* A reservation mapped and unmapped. */
    size_t res_size = 100 * (size_t)page;
    void *res = mmap(NULL, res_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (res == MAP_FAILED)
        return 1;
    say("reserve %lx %lu\n", (unsigned long)res, res_size);
    munmap(res, res_size);
    say("munmap %lx %lu\n", (unsigned long)res, res_size);

    /* mremap: shrunk in place, then grown in place into a hole left free. */
    uint8_t *r = mmap(NULL, 32 * (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED)
        return 1;
    say("reserve %lx %lu\n", (unsigned long)r, 32 * (unsigned long)page);
    munmap(r + 16 * page, 16 * (size_t)page);
    say("munmap %lx %lu\n", (unsigned long)(r + 16 * page), 16 * (unsigned long)page);
    if (mremap(r, 16 * (size_t)page, 8 * (size_t)page, 0) != r)
        return 1;
    say("shrink %lx %lu\n", (unsigned long)(r + 8 * page), 8 * (unsigned long)page);
    if (mremap(r, 8 * (size_t)page, 24 * (size_t)page, 0) != r)
        return 1;
    say("grow %lx %lu\n", (unsigned long)(r + 8 * page), 16 * (unsigned long)page);
    munmap(r, 24 * (size_t)page);
    say("munmap %lx %lu\n", (unsigned long)r, 24 * (unsigned long)page);

    /* The break: to a page boundary (no page gained), 5 pages up, 2 down. */
    uintptr_t cur = (uintptr_t)sbrk(0);
    uintptr_t up = (cur + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    if (sbrk((intptr_t)(up - cur)) == (void *)-1 || sbrk(5 * page) == (void *)-1)
        return 1;
    say("brk+ %lx %lu\n", (unsigned long)up, 5 * (unsigned long)page);
    if (sbrk(-2 * page) == (void *)-1)
        return 1;
    say("brk- %lx %lu\n", (unsigned long)(up + 3 * page), 2 * (unsigned long)page);

    munmap(anon, anon_size);
    say("munmap %lx %lu\n", (unsigned long)anon, anon_size);
    unlink(path);
    return sum == 0 ? 3 : 0;
}
