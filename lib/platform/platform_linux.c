/* platform_linux.c - Linux (POSIX) implementation of platform.h. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <string.h>
#include <unistd.h>

#include "petw/error.h"
#include "platform.h"

_Thread_local uint32_t petw__tls_tid;

uint32_t petw__thread_id_slow(void)
{
    petw__tls_tid = (uint32_t)syscall(SYS_gettid);
    return petw__tls_tid;
}

uint32_t petw__cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    /* CPU numbers can exceed the configured count on hotplug-capable
     * machines; round up generously and let callers wrap with modulo. */
    if (n < 1)
        n = 1;
    return (uint32_t)n;
}

int petw__qpc_is_tsc;

int64_t petw__clock_frequency(uint32_t clock)
{
    if (clock == PETW_CLOCK_SYSTEM)
        return 10000000;
#if defined(__x86_64__) || defined(__i386__)
    if (clock == PETW_CLOCK_CYCLES || petw__qpc_is_tsc)
        return petw__tsc_frequency();
#endif
    return 1000000000;
}

int64_t petw__clock_reference(void)
{
    return petw__monotonic_ns();
}

int petw__clock_is_measured(uint32_t clock)
{
#if defined(__x86_64__) || defined(__i386__)
    return clock == PETW_CLOCK_CYCLES || (clock == PETW_CLOCK_QPC && petw__qpc_is_tsc);
#else
    (void)clock;
    return 0;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
/* 1 when /proc/cpuinfo lists `flag` for the first CPU. */
static int cpu_has_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    size_t n = strlen(flag);
    while (!found && fgets(line, sizeof(line), f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        for (char *p = strstr(line, flag); p && !found; p = strstr(p + 1, flag))
            found = (p[-1] == ' ' || p[-1] == ':') && (p[n] == ' ' || p[n] == '\n');
        break;
    }
    fclose(f);
    return found;
}

/* The kernel's own check (its TSC watchdog) passed when `tsc` is the
 * current clocksource. */
static int kernel_clocksource_is_tsc(void)
{
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f)
        return 0;
    char name[32] = {0};
    int ok = fgets(name, sizeof(name), f) != NULL && strncmp(name, "tsc", 3) == 0;
    fclose(f);
    return ok;
}

/* Readings taken on each CPU in turn, causally ordered by the migrations
 * between them, must increase: a TSC whose CPUs disagree by more than a
 * migration's latency fails (the kernel's warp check in miniature). */
static void *tsc_sync_walk(void *arg)
{
    int *ok = arg;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t last = 0;
    *ok = 1;
    for (int round = 0; round < 3 && *ok; round++) {
        for (long c = 0; c < cpus && c < CPU_SETSIZE && *ok; c++) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET((int)c, &set);
            if (sched_setaffinity(0, sizeof(set), &set) != 0)
                continue; /* not allowed there: not ours to check */
            sched_yield();
            uint64_t t = __rdtsc();
            *ok = t > last;
            last = t;
        }
    }
    return NULL;
}

static int tsc_synchronized(void)
{
    pthread_t th;
    int ok = 0;
    if (pthread_create(&th, NULL, tsc_sync_walk, &ok) != 0)
        return 0;
    pthread_join(th, NULL);
    return ok;
}
#endif

/* Whether the QPC clock reads the TSC (as Windows' QPC does on invariant-
 * TSC machines). Yes when the CPU says its TSC is invariant (CPUID
 * 0x80000007 EDX bit 8) and either the kernel's clocksource is `tsc` (its
 * watchdog vouches for it) or, under another clocksource such as
 * kvm-clock, the kernel reports constant_tsc and nonstop_tsc and the
 * cross-CPU check passes. PETW_NO_TSC=1 opts out (then CLOCK_MONOTONIC). */
static int detect_invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (getenv("PETW_NO_TSC") != NULL)
        return 0;
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    if (!(d & (1u << 8)))
        return 0;
    if (kernel_clocksource_is_tsc())
        return 1;
    return cpu_has_flag("constant_tsc") && cpu_has_flag("nonstop_tsc") && tsc_synchronized();
#else
    return 0;
#endif
}

int64_t petw__filetime_now(void)
{
    return petw__clock_read(PETW_CLOCK_SYSTEM);
}

int64_t petw__boot_time(void)
{
    struct sysinfo si;
    if (sysinfo(&si) != 0)
        return 0;
    return petw__filetime_now() - (int64_t)si.uptime * 10000000LL;
}

uint32_t petw__pid;

static void refresh_pid(void)
{
    __atomic_store_n(&petw__pid, (uint32_t)getpid(), __ATOMIC_RELAXED);
}

void petw__platform_init(void)
{
    petw__qpc_is_tsc = detect_invariant_tsc();
    refresh_pid();
    pthread_atfork(NULL, NULL, refresh_pid);
}

/* The first "cpu MHz" of /proc/cpuinfo; else the measured TSC rate. */
static uint32_t cpu_speed_mhz(void)
{
    double mhz = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (mhz <= 0 && fgets(line, sizeof(line), f))
            if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':'))
                mhz = strtod(strchr(line, ':') + 1, NULL);
        fclose(f);
    }
#if defined(__x86_64__) || defined(__i386__)
    if (mhz <= 0)
        mhz = (double)petw__tsc_frequency() / 1e6;
#endif
    return mhz >= 1 ? (uint32_t)(mhz + 0.5) : 1;
}

void petw__machine_info_get(petw__machine_info *out)
{
    memset(out, 0, sizeof(*out));
    out->cpu_speed_mhz = cpu_speed_mhz();
    /* The scheduler tick, as the coarse clock's resolution shows it. */
    struct timespec res;
    int64_t ns = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0
                     ? (int64_t)res.tv_sec * 1000000000LL + res.tv_nsec
                     : 0;
    out->timer_resolution = ns >= 100 ? (uint32_t)(ns / 100) : 1;
    tzset();
    out->tz_bias = (int32_t)(timezone / 60);
    snprintf(out->tz_standard, sizeof(out->tz_standard), "%s", tzname[0] ? tzname[0] : "UTC");
    snprintf(out->tz_daylight, sizeof(out->tz_daylight), "%s", tzname[1] ? tzname[1] : "UTC");
}

uint32_t petw__os_build(void)
{
    struct utsname u;
    unsigned a = 0, b = 0, c = 0;
    if (uname(&u) == 0)
        sscanf(u.release, "%u.%u.%u", &a, &b, &c);
    return (a << 24) | ((b & 0xFF) << 16) | (c & 0xFFFF);
}

void petw__sleep_ms(uint32_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void petw__yield(void)
{
    sched_yield();
}

void petw__sleep_us(uint32_t us)
{
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
    nanosleep(&ts, NULL);
}

size_t petw__page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

void *petw__vm_reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int petw__vm_commit(void *addr, size_t bytes)
{
    return mprotect(addr, bytes, PROT_READ | PROT_WRITE) == 0 ? 0 : PETW_ENOMEM;
}

void petw__vm_release(void *addr, size_t bytes)
{
    if (addr)
        munmap(addr, bytes);
}

static int map_errno(int e)
{
    switch (e) {
    case ENOENT:
    case ENOTDIR:
        return PETW_ENOENT;
    case EACCES:
    case EPERM:
    case EROFS:
        return PETW_EACCES;
    case ENOSPC:
    case EDQUOT:
        return PETW_ENOSPC;
    case ENOMEM:
        return PETW_ENOMEM;
    default:
        return PETW_EIO;
    }
}

int petw__file_create_private(const char *path, petw__file *out)
{
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return PETW_EACCES;
        if (unlink(path) != 0)
            return map_errno(errno);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return map_errno(errno);
    out->fd = fd;
    return 0;
}

int petw__file_pwrite(petw__file *f, const void *data, size_t size, uint64_t offset)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = pwrite((int)f->fd, p, size, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return map_errno(errno);
        }
        p += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

int petw__file_open_existing(const char *path, petw__file *out, uint64_t *size)
{
    /* Non-blocking: a FIFO at the path must not stall the open (it is then
     * refused); the flag changes nothing for a regular file. */
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? PETW_EACCES : map_errno(errno);
    /* Checked on the open file, not the path: what was opened is what is
     * judged. Only the caller's own private regular file is continued: a
     * file another user owns, or one others can read or write, would let
     * them read (or plant) this session's events. */
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077) != 0) {
        close(fd);
        return PETW_EACCES;
    }
    out->fd = fd;
    *size = (uint64_t)st.st_size;
    return 0;
}

int petw__file_pread(petw__file *f, void *data, size_t size, uint64_t offset)
{
    char *p = data;
    while (size > 0) {
        ssize_t n = pread((int)f->fd, p, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return PETW_EIO;
        p += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

int petw__file_allocate(petw__file *f, uint64_t size)
{
    int rc = posix_fallocate((int)f->fd, 0, (off_t)size);
    return rc == 0 ? 0 : map_errno(rc);
}

int petw__file_truncate(petw__file *f, uint64_t size)
{
    return ftruncate((int)f->fd, (off_t)size) == 0 ? 0 : map_errno(errno);
}

int petw__file_sync(petw__file *f)
{
    return fdatasync((int)f->fd) == 0 ? 0 : map_errno(errno);
}

int petw__path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int petw__file_close(petw__file *f)
{
    int rc = 0;
    if (f->fd >= 0 && close((int)f->fd) != 0)
        rc = PETW_EIO;
    f->fd = -1;
    return rc;
}

int petw__file_open_read(const char *path, petw__file *out, uint64_t *size)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENXIO ? PETW_ENOTREG : map_errno(errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return PETW_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return PETW_ENOTREG;
    }
    out->fd = fd;
    *size = (uint64_t)st.st_size;
    return 0;
}
