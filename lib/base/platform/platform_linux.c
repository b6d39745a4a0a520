/* SPDX-License-Identifier: MIT */
/* platform_linux.c - Linux (POSIX) implementation of platform.h. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __linux__
#include <linux/membarrier.h>
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <string.h>
#include <unistd.h>
#include <unwind.h>

#include "petw/error.h"
#include "platform.h"
#include "platform_linux_internal.h"

_Thread_local uint32_t petw__tls_tid PETW__TLS_HOT;

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
    /* Both clocks to the nanosecond: sysinfo's uptime, rounded up to whole
     * seconds, puts boot up to a second early. CLOCK_BOOTTIME counts
     * suspended time, as the wall clock does. */
    struct timespec boot;
    if (clock_gettime(CLOCK_BOOTTIME, &boot) != 0) {
        struct sysinfo si;
        if (sysinfo(&si) != 0)
            return 0;
        boot.tv_sec = si.uptime;
        boot.tv_nsec = 0;
    }
    return petw__filetime_now() - ((int64_t)boot.tv_sec * 10000000LL + boot.tv_nsec / 100);
}

uint32_t petw__pid;

static void refresh_pid(void)
{
    __atomic_store_n(&petw__pid, (uint32_t)getpid(), __ATOMIC_RELAXED);
}

#ifdef PETW__HAVE_RSEQ
ptrdiff_t petw__rseq_cpu_offset;
#endif

void petw__platform_init(void)
{
#ifdef PETW__HAVE_RSEQ
    petw__rseq_cpu_offset = __rseq_size != 0 ? __rseq_offset + 4 : 0;
#endif
    petw__cpu_features_init();
    petw__qpc_is_tsc = detect_invariant_tsc();
    refresh_pid();
    pthread_atfork(NULL, NULL, refresh_pid);
}

/* A cpufreq figure of CPU 0 in kHz; 0 when the kernel gives none. */
static uint64_t cpufreq_khz(const char *name)
{
    char path[128];
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpufreq/%s", name);
    FILE *f = fopen(path, "r");
    unsigned long long khz = 0;
    if (f) {
        if (fscanf(f, "%llu", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    return khz;
}

/* Windows states the CPU's nominal speed, which does not move with the
 * load: cpufreq's base frequency, else its top one, else /proc/cpuinfo's
 * "cpu MHz" (a virtual machine's only figure, where it is the TSC rate),
 * else the measured TSC rate. */
static uint32_t cpu_speed_mhz(void)
{
    double mhz = (double)cpufreq_khz("base_frequency") / 1e3;
    if (mhz < 1)
        mhz = (double)cpufreq_khz("cpuinfo_max_freq") / 1e3;
    FILE *f = mhz < 1 ? fopen("/proc/cpuinfo", "r") : NULL;
    if (f) {
        char line[256];
        while (mhz < 1 && fgets(line, sizeof(line), f))
            if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':'))
                mhz = strtod(strchr(line, ':') + 1, NULL);
        fclose(f);
    }
#if defined(__x86_64__) || defined(__i386__)
    if (mhz < 1)
        mhz = (double)petw__tsc_frequency() / 1e6;
#endif
    return mhz >= 1 ? (uint32_t)(mhz + 0.5) : 1;
}

/* The first second in (lo, hi] whose daylight flag is `dst` (at lo it is
 * the other). */
static time_t zone_change(time_t lo, time_t hi, int dst)
{
    while (hi - lo > 1) {
        time_t mid = lo + (hi - lo) / 2;
        struct tm tm;
        if (localtime_r(&mid, &tm) && (tm.tm_isdst > 0) == dst)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* The change at `t` as a Windows yearly rule: the local time that the
 * clock reads, still in the offset `before`, on the n-th weekday of the
 * month (5 when it is the month's last such weekday). */
static void zone_rule(time_t t, long before, uint16_t date[8])
{
    static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    time_t local = t + before;
    struct tm tm;
    if (!gmtime_r(&local, &tm))
        return;
    int year = tm.tm_year + 1900;
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int days = month_days[tm.tm_mon] + (tm.tm_mon == 1 && leap);
    date[0] = 0; /* every year */
    date[1] = (uint16_t)(tm.tm_mon + 1);
    date[2] = (uint16_t)tm.tm_wday;
    date[3] = (uint16_t)(tm.tm_mday + 7 > days ? 5 : (tm.tm_mday - 1) / 7 + 1);
    date[4] = (uint16_t)tm.tm_hour;
    date[5] = (uint16_t)tm.tm_min;
    date[6] = (uint16_t)tm.tm_sec;
    date[7] = 0;
}

/* The local zone as TIME_ZONE_INFORMATION: read off localtime_r over the
 * coming year, a day apart, so that every source of zone rules (TZ, a
 * POSIX rule string, /etc/localtime) reads alike. Standard time is the
 * part without the daylight flag; each change of the flag is found to
 * the second and stated as Windows states its yearly rules. */
static void local_time_zone(petw__machine_info *out)
{
    tzset();
    time_t now = time(NULL), prev = now;
    struct tm tm, std = {0}, dst = {0};
    int have_std = 0, have_dst = 0, last = -1;
    time_t to_dst = 0, to_std = 0;
    for (int day = 0; day <= 366; day++) {
        time_t t = now + (time_t)day * 86400;
        if (!localtime_r(&t, &tm))
            break;
        int is_dst = tm.tm_isdst > 0;
        if (is_dst && !have_dst) {
            dst = tm;
            have_dst = 1;
        } else if (!is_dst && !have_std) {
            std = tm;
            have_std = 1;
        }
        if (last >= 0 && is_dst != last) {
            time_t at = zone_change(prev, t, is_dst);
            if (is_dst && !to_dst)
                to_dst = at;
            else if (!is_dst && !to_std)
                to_std = at;
        }
        last = is_dst;
        prev = t;
    }
    if (!have_std) {
        /* Daylight time all year (or no answer at all): that is the
         * zone's standard time. */
        if (!have_dst && !localtime_r(&now, &dst))
            memset(&dst, 0, sizeof(dst));
        std = dst;
        have_std = 1;
        have_dst = 0;
    }
    if (have_dst && dst.tm_gmtoff < std.tm_gmtoff) {
        /* A "negative" daylight time (Ireland: the winter flagged, the
         * summer standard): Windows calls the part ahead daylight time. */
        struct tm swap = std;
        std = dst;
        dst = swap;
        time_t at = to_dst;
        to_dst = to_std;
        to_std = at;
    }
    out->tz_bias = (int32_t)(-std.tm_gmtoff / 60);
    snprintf(out->tz_standard, sizeof(out->tz_standard), "%s",
             std.tm_zone && std.tm_zone[0] ? std.tm_zone : "UTC");
    if (have_dst && to_dst && to_std) {
        out->tz_daylight_bias = (int32_t)(-(dst.tm_gmtoff - std.tm_gmtoff) / 60);
        snprintf(out->tz_daylight, sizeof(out->tz_daylight), "%s",
                 dst.tm_zone && dst.tm_zone[0] ? dst.tm_zone : out->tz_standard);
        zone_rule(to_dst, std.tm_gmtoff, out->tz_daylight_date);
        zone_rule(to_std, dst.tm_gmtoff, out->tz_standard_date);
    } else {
        /* No daylight time: no dates, and the one name for both. */
        snprintf(out->tz_daylight, sizeof(out->tz_daylight), "%s", out->tz_standard);
    }
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
    local_time_zone(out);
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

int petw__linux_error(int e)
{
    switch (e) {
    case ENOENT:
    case ENOTDIR:
        return PETW_ENOENT;
    case EACCES:
    case EPERM:
    case EROFS:
    case ELOOP: /* O_NOFOLLOW met a symbolic link */
    case EISDIR:
    case ENXIO: /* a socket or a FIFO without a reader */
        return PETW_EACCES;
    case ENOSPC:
    case EDQUOT:
        return PETW_ENOSPC;
    case ENOMEM:
        return PETW_ENOMEM;
    case ENAMETOOLONG:
        return PETW_ENAMETOOLONG;
    case EBADF:
        return PETW_EBADHANDLE;
    default:
        return PETW_EIO;
    }
}

int32_t petw__local_offset_now(void)
{
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm))
        return 0;
    return (int32_t)tm.tm_gmtoff;
}

int32_t petw__local_offset_at(int64_t unix_seconds)
{
    time_t t = (time_t)unix_seconds;
    struct tm tm;
    if ((int64_t)t != unix_seconds || !localtime_r(&t, &tm))
        return 0;
    return (int32_t)tm.tm_gmtoff;
}

/* ---- what enable properties record ---- */

void petw__process_image_name(char *out, size_t size)
{
    char path[4096];
    if (!size)
        return;
    out[0] = 0;
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (n <= 0)
        return;
    path[n] = 0;
    /* An executable replaced since it started reads "<path> (deleted)". */
    static const char deleted[] = " (deleted)";
    size_t len = (size_t)n, dl = sizeof(deleted) - 1;
    if (len > dl && strcmp(path + len - dl, deleted) == 0)
        path[len - dl] = 0;
    const char *slash = strrchr(path, '/');
    snprintf(out, size, "%s", slash ? slash + 1 : path);
}

uint32_t petw__user_sid(uint8_t *out, uint32_t size)
{
    /* S-1-22-1-<uid>: revision 1, two sub-authorities, authority 22
     * (big-endian, 6 bytes), then the sub-authorities little-endian. */
    if (size < 16)
        return 0;
    uint32_t uid = (uint32_t)geteuid();
    static const uint8_t head[8] = {1, 2, 0, 0, 0, 0, 0, 22};
    memcpy(out, head, 8);
    const uint32_t sub[2] = {1, uid};
    memcpy(out + 8, sub, 8);
    return 16;
}

void petw__thread_cpu_times(uint64_t *kernel, uint64_t *user)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0) {
        *kernel = *user = 0;
        return;
    }
    *kernel = (uint64_t)ru.ru_stime.tv_sec * 10000000u + (uint64_t)ru.ru_stime.tv_usec * 10u;
    *user = (uint64_t)ru.ru_utime.tv_sec * 10000000u + (uint64_t)ru.ru_utime.tv_usec * 10u;
}

uint32_t petw__terminal_session_id(void)
{
    pid_t s = getsid(0);
    return s < 0 ? 0 : (uint32_t)s;
}

uint64_t petw__process_start_key(void)
{
    char boot[64] = {0};
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, boot, sizeof(boot) - 1);
        (void)n;
        close(fd);
    }
    uint64_t h = 0xcbf29ce484222325ull, start = 0;
    uint32_t pid = (uint32_t)getpid();
    petw__process_start_time(pid, &start);
    const uint8_t *parts[3] = {(const uint8_t *)boot, (const uint8_t *)&start,
                               (const uint8_t *)&pid};
    const size_t sizes[3] = {strlen(boot), sizeof(start), sizeof(pid)};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizes[k]; i++) {
            h ^= parts[k][i];
            h *= 0x100000001b3ull;
        }
    return h ? h : 1;
}

typedef struct stack_walk {
    uint64_t *frames;
    uint32_t max, n;
} stack_walk;

static _Unwind_Reason_Code stack_step(struct _Unwind_Context *ctx, void *arg)
{
    stack_walk *w = arg;
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (ip == 0)
        return _URC_END_OF_STACK;
    if (w->n == w->max)
        return _URC_END_OF_STACK;
    w->frames[w->n++] = (uint64_t)ip;
    return _URC_NO_REASON;
}

uint32_t petw__stack_capture(uint64_t *frames, uint32_t max)
{
    /* The unwinder reads the call frame information of the loaded objects
     * (glibc's _dl_find_object: no lock, no allocation); frames without
     * that information end the walk. */
    stack_walk w = {frames, max, 0};
    _Unwind_Backtrace(stack_step, &w);
    return w.n;
}

int petw__command_line(char **out, size_t *size)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int c;
    if (!f)
        return PETW_EIO;
    while ((c = fgetc(f)) != EOF) {
        if (n + 2 > cap) {
            char *p = realloc(buf, cap ? cap * 2 : 256);
            if (!p) {
                free(buf);
                fclose(f);
                return PETW_ENOMEM;
            }
            buf = p;
            cap = cap ? cap * 2 : 256;
        }
        buf[n++] = (char)c;
    }
    fclose(f);
    if (!buf && !(buf = malloc(1)))
        return PETW_ENOMEM;
    buf[n] = 0;
    *out = buf;
    *size = n;
    return 0;
}

static int copy_fit(const char *in, char *out, size_t size)
{
    size_t n = strlen(in);
    if (n >= size)
        return PETW_ENAMETOOLONG;
    memcpy(out, in, n + 1);
    return 0;
}

int petw__ansi_to_utf8(const char *in, char *out, size_t size)
{
    return copy_fit(in, out, size);
}

int petw__utf8_to_ansi(const char *in, char *out, size_t size)
{
    return copy_fit(in, out, size);
}

int petw__current_dir(char *out, size_t size)
{
    if (getcwd(out, size))
        return 0;
    return errno == ERANGE ? PETW_ENAMETOOLONG : PETW_EIO;
}

int petw__membarrier(void)
{
#if defined(__linux__) && defined(SYS_membarrier)
    /* Registered once (the control thread calls this); -1: none here. */
    static int state;
    if (state == 0)
        state =
            syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 ? 1 : -1;
    if (state > 0 && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return 0;
#endif
    return PETW_ENOTSUP;
}

int petw__thread_key_create(uint32_t *key, void (*exit_fn)(void *))
{
    pthread_key_t k;
    if (pthread_key_create(&k, exit_fn) != 0)
        return PETW_ENOMEM;
    *key = (uint32_t)k;
    return 0;
}

int petw__thread_key_set(uint32_t key, void *value)
{
    return pthread_setspecific((pthread_key_t)key, value) == 0 ? 0 : PETW_ENOMEM;
}
