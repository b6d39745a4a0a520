/* SPDX-License-Identifier: MIT */
/* The trace header as a strict reader sees it: a file petw writes through
 * StartTrace, with each clock, passes the consistency checks an independent
 * ETL parser applies to TRACE_LOGFILE_HEADER before it trusts (and divides
 * by) its fields, and carries true values where the machine can be asked.
 * Windows' own sample files pass the same checks, so they ask nothing that
 * Windows does not give. Offsets are the published layout's
 * (docs/format.md), not the writer's constants. */
#include <time.h>
#if !defined(_WIN32)
#include <sys/utsname.h>
#endif

#include "test_util.h"

DEFINE_GUID(HeaderProvider, 0x4eade12f, 0x1e1d, 0x4c5e, 0x9a, 0x17, 0x0b, 0x1d, 0x5e, 0x7a, 0x31,
            0x01);

#define BH_SIZE 0x48
#define SYSTEM_HEADER_SIZE 0x20
/* TRACE_LOGFILE_HEADER, from its start (0x20 into the header record). */
#define LH_BUFFER_SIZE 0x00
#define LH_VERSION 0x04
#define LH_PROVIDER_VERSION 0x08
#define LH_NUMBER_OF_PROCESSORS 0x0C
#define LH_END_TIME 0x10
#define LH_TIMER_RESOLUTION 0x18
#define LH_MAXIMUM_FILE_SIZE 0x1C
#define LH_LOG_FILE_MODE 0x20
#define LH_BUFFERS_WRITTEN 0x24
#define LH_POINTER_SIZE 0x2C
#define LH_EVENTS_LOST 0x30
#define LH_CPU_SPEED 0x34
#define LH_POINTERS 0x38 /* LoggerName, LogFileName: PointerSize bytes each */
#define TZI_SIZE 0xAC
/* After the two pointers: TimeZone, 4 bytes of padding, then these. */
#define LH_AFTER_TZ_BOOT_TIME 0x00
#define LH_AFTER_TZ_PERF_FREQ 0x08
#define LH_AFTER_TZ_START_TIME 0x10
#define LH_AFTER_TZ_RESERVED_FLAGS 0x18
#define LH_AFTER_TZ_BUFFERS_LOST 0x1C
#define LH_AFTER_TZ_SIZE 0x20

#define MODE_SEQUENTIAL 0x1u
#define MODE_CIRCULAR 0x2u
#define MODE_APPEND 0x4u
#define MODE_NEWFILE 0x8u
#define MODE_COMPRESSED 0x04000000u

#define FILETIME_UNIX_EPOCH 116444736000000000LL

static const char *current; /* the file under check, for messages */

#define NEED(cond, ...)                                                                            \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: %s: %s: ", __FILE__, __LINE__, current, #cond);                \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16;
}

static int64_t rd64(const uint8_t *p)
{
    return (int64_t)((uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32);
}

/* What the checks found, for the expectations of a file petw wrote. */
typedef struct header {
    uint32_t buffer_size, version, provider_version, cpus, timer_resolution, max_file_size;
    uint32_t mode, buffers_written, pointer_size, events_lost, cpu_mhz, clock, buffers_lost;
    int64_t end_time, boot_time, perf_freq, start_time;
    int32_t bias;
    char logger_name[64];
} header;

/* A UTF-16LE string of at most `units` units holds its NUL; returns its
 * length, copying its ASCII into `out` (others as '?'). */
static uint32_t utf16_string(const uint8_t *p, uint32_t units, char *out, size_t size)
{
    uint32_t n = 0;
    while (n < units && rd16(p + 2 * n) != 0)
        n++;
    NEED(n < units, "string of %u units has no NUL", units);
    if (out) {
        size_t i = 0;
        for (; i < n && i + 1 < size; i++)
            out[i] = rd16(p + 2 * i) < 0x80 ? (char)rd16(p + 2 * i) : '?';
        out[i] = 0;
    }
    return n;
}

/* A TIME_ZONE_INFORMATION SYSTEMTIME: all zero, or a valid change date
 * (wYear 0: a yearly rule, wDay the week of the month, 5 the last). */
static int tz_date_valid(const uint8_t *d)
{
    uint16_t year = rd16(d), month = rd16(d + 2), wday = rd16(d + 4), day = rd16(d + 6);
    uint16_t hour = rd16(d + 8), minute = rd16(d + 10), second = rd16(d + 12);
    if (month == 0)
        return year == 0 && wday == 0 && day == 0 && hour == 0 && minute == 0 && second == 0;
    return month <= 12 && wday <= 6 && (year ? day >= 1 && day <= 31 : day >= 1 && day <= 5) &&
           hour <= 23 && minute <= 59 && second <= 59;
}

static void check_time_zone(const uint8_t *tz)
{
    int32_t bias = (int32_t)rd32(tz);
    int32_t std_bias = (int32_t)rd32(tz + 0x54), dst_bias = (int32_t)rd32(tz + 0xA8);
    /* Every offset from UTC on Earth is within 14 hours. */
    NEED(bias >= -14 * 60 && bias <= 14 * 60, "Bias %d minutes", bias);
    NEED(bias + std_bias >= -14 * 60 && bias + std_bias <= 14 * 60, "StandardBias %d", std_bias);
    NEED(bias + dst_bias >= -14 * 60 && bias + dst_bias <= 14 * 60, "DaylightBias %d", dst_bias);
    NEED(utf16_string(tz + 0x04, 32, NULL, 0) > 0, "StandardName empty");
    utf16_string(tz + 0x58, 32, NULL, 0);
    const uint8_t *std_date = tz + 0x44, *dst_date = tz + 0x98;
    NEED(tz_date_valid(std_date), "StandardDate month %u day %u", rd16(std_date + 2),
         rd16(std_date + 6));
    NEED(tz_date_valid(dst_date), "DaylightDate month %u day %u", rd16(dst_date + 2),
         rd16(dst_date + 6));
    /* Daylight time has both changes, or neither. */
    NEED((rd16(std_date + 2) == 0) == (rd16(dst_date + 2) == 0), "one DST date without the other");
    if (rd16(dst_date + 2))
        NEED(dst_bias != 0, "daylight time that changes nothing");
}

/* The checks a strict reader makes before it trusts the header of the
 * whole file `f` (`len` bytes). */
static void strict_checks(const uint8_t *f, size_t len, header *h)
{
    memset(h, 0, sizeof(*h));
    NEED(len >= BH_SIZE + SYSTEM_HEADER_SIZE + 0x110, "file of %zu bytes", len);
    uint32_t first_size = rd32(f), saved = rd32(f + 4);
    /* The first record: EventTrace/Header (group 0, type 0) in a SYSTEM
     * header, whose type says the pointer size of the whole layout. */
    const uint8_t *rec = f + BH_SIZE;
    uint8_t type = rec[2];
    NEED(type == 1 || type == 2, "first record's header type %u", type);
    NEED((rec[3] & 0xC0) == 0xC0, "first record without marker");
    NEED(rd16(rec + 6) == 0, "first record's hook %#x", rd16(rec + 6));
    uint32_t ptr = type == 2 ? 8 : 4;
    uint32_t tz_off = LH_POINTERS + 2 * ptr;
    uint32_t after_tz = tz_off + TZI_SIZE + 4;
    uint32_t lh_size = after_tz + LH_AFTER_TZ_SIZE;
    uint32_t rsize = rd16(rec + 4);
    NEED(saved >= BH_SIZE && saved <= first_size && saved <= len, "SavedOffset %u", saved);
    NEED(rsize >= SYSTEM_HEADER_SIZE + lh_size && BH_SIZE + rsize <= saved, "record size %u",
         rsize);
    const uint8_t *lh = rec + SYSTEM_HEADER_SIZE;

    h->buffer_size = rd32(lh + LH_BUFFER_SIZE);
    h->version = rd32(lh + LH_VERSION);
    h->provider_version = rd32(lh + LH_PROVIDER_VERSION);
    h->cpus = rd32(lh + LH_NUMBER_OF_PROCESSORS);
    h->end_time = rd64(lh + LH_END_TIME);
    h->timer_resolution = rd32(lh + LH_TIMER_RESOLUTION);
    h->max_file_size = rd32(lh + LH_MAXIMUM_FILE_SIZE);
    h->mode = rd32(lh + LH_LOG_FILE_MODE);
    h->buffers_written = rd32(lh + LH_BUFFERS_WRITTEN);
    h->pointer_size = rd32(lh + LH_POINTER_SIZE);
    h->events_lost = rd32(lh + LH_EVENTS_LOST);
    h->cpu_mhz = rd32(lh + LH_CPU_SPEED);
    h->bias = (int32_t)rd32(lh + tz_off);
    h->boot_time = rd64(lh + after_tz + LH_AFTER_TZ_BOOT_TIME);
    h->perf_freq = rd64(lh + after_tz + LH_AFTER_TZ_PERF_FREQ);
    h->start_time = rd64(lh + after_tz + LH_AFTER_TZ_START_TIME);
    h->clock = rd32(lh + after_tz + LH_AFTER_TZ_RESERVED_FLAGS);
    h->buffers_lost = rd32(lh + after_tz + LH_AFTER_TZ_BUFFERS_LOST);

    NEED(h->pointer_size == ptr, "PointerSize %u in a %u-byte-pointer header", h->pointer_size,
         ptr);
    NEED(h->buffer_size >= 1024 && h->buffer_size % 1024 == 0, "BufferSize %u", h->buffer_size);
    /* Readers pick record layouts by the OS version in bytes 0-1. */
    NEED((h->version & 0xFF) >= 5, "Version major %u", h->version & 0xFF);
    NEED(h->provider_version != 0, "ProviderVersion 0");
    NEED(h->cpus >= 1, "NumberOfProcessors 0");
    /* Divisors: a reader turns cycles into time with them. */
    NEED(h->cpu_mhz > 0, "CpuSpeedInMHz 0");
    NEED(h->timer_resolution > 0 && h->timer_resolution <= 10000000, "TimerResolution %u",
         h->timer_resolution);
    NEED(h->perf_freq > 0 && h->perf_freq <= 1000000000000LL, "PerfFreq %lld",
         (long long)h->perf_freq);
    /* The clock: 1 QPC, 2 system time (then 100 ns ticks, whatever
     * PerfFreq says to other readers), 3 CPU cycles. */
    NEED(h->clock >= 1 && h->clock <= 3, "ReservedFlags (clock) %u", h->clock);
    if (h->clock == 2)
        NEED(h->perf_freq == 10000000, "system-time clock at %lld Hz", (long long)h->perf_freq);
    NEED(h->start_time > 0, "StartTime %lld", (long long)h->start_time);
    NEED(h->boot_time > 0 && h->boot_time <= h->start_time, "BootTime %lld, StartTime %lld",
         (long long)h->boot_time, (long long)h->start_time);
    NEED(h->start_time <= h->end_time, "StartTime %lld after EndTime %lld",
         (long long)h->start_time, (long long)h->end_time);
    /* A circular file neither grows nor continues; APPEND continues one
     * sequential file. */
    if (h->mode & MODE_CIRCULAR)
        NEED(!(h->mode & (MODE_SEQUENTIAL | MODE_NEWFILE | MODE_APPEND)), "LogFileMode %#x",
             h->mode);
    if (h->mode & MODE_APPEND)
        NEED(!(h->mode & MODE_NEWFILE), "LogFileMode %#x", h->mode);
    check_time_zone(lh + tz_off);
    /* The two names, NUL-terminated within the record. */
    const uint8_t *names = lh + lh_size;
    uint32_t units = (rsize - SYSTEM_HEADER_SIZE - lh_size) / 2;
    uint32_t n = utf16_string(names, units, h->logger_name, sizeof(h->logger_name));
    utf16_string(names + 2 * (n + 1), units - n - 1, NULL, 0);

    /* Every buffer: its size is the header's (a compressed file's are
     * shorter on disk, their contents at most BufferSize), its records
     * inside it; BuffersWritten counts them all. */
    uint32_t buffers = 0;
    size_t at = 0;
    while (at < len) {
        NEED(len - at >= BH_SIZE, "a %zu-byte tail at %zu", len - at, at);
        uint32_t size = rd32(f + at), used = rd32(f + at + 4);
        if (h->mode & MODE_COMPRESSED)
            NEED(size >= BH_SIZE && used >= BH_SIZE && used <= h->buffer_size,
                 "buffer %u: BufferSize %u, SavedOffset %u", buffers, size, used);
        else
            NEED(size == h->buffer_size && used >= BH_SIZE && used <= size,
                 "buffer %u: BufferSize %u, SavedOffset %u (header: %u)", buffers, size, used,
                 h->buffer_size);
        NEED(size <= len - at, "buffer %u runs past the end", buffers);
        at += size;
        buffers++;
    }
    NEED(h->buffers_written == buffers, "BuffersWritten %u, file holds %u", h->buffers_written,
         buffers);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = n > 0 ? malloc((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *len = data ? (size_t)n : 0;
    return data;
}

/* The wall clock to the 100 ns, the one the writer stamps with: time()
 * reads the coarse clock, which lags it by up to a tick, so a header
 * written within that tick would seem to come from the future. */
static int64_t filetime_now(void)
{
#if defined(_WIN32)
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    return (int64_t)((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime);
#else
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 10000000LL + ts.tv_nsec / 100 + FILETIME_UNIX_EPOCH;
#endif
}

/* What this machine says itself, where it can be asked without petw. */
static void check_true_values(const header *h)
{
#if !defined(_WIN32)
    struct utsname u;
    unsigned a = 0, b = 0, c = 0;
    if (uname(&u) == 0 && sscanf(u.release, "%u.%u.%u", &a, &b, &c) >= 2)
        NEED(h->provider_version == (a << 24 | b << 16 | c), "ProviderVersion %#x for %s",
             h->provider_version, u.release);
    /* The kernel's boot time, in whole seconds. */
    FILE *f = fopen("/proc/stat", "r");
    char line[256];
    long long btime = 0;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "btime %lld", &btime) == 1)
            break;
    if (f)
        fclose(f);
    if (btime > 0) {
        long long boot_s = (h->boot_time - FILETIME_UNIX_EPOCH) / 10000000;
        NEED(boot_s >= btime - 2 && boot_s <= btime + 2, "BootTime %lld s, kernel: %lld s", boot_s,
             btime);
    }
#else
    (void)h;
#endif
}

/* Records a short session with `clock` and a cap of `cap_kb` (0: none) and
 * checks its file. */
static void check_petw_file(uint32_t clock, uint32_t cap_kb)
{
    char path[512], name[64];
    snprintf(name, sizeof(name), "petw-test-header-%u", clock);
    test_path(path, sizeof(path), "header.etl");
    current = path;
    test_props tp;
    test_props_init(&tp, path);
    tp.p.Wnode.ClientContext = clock;
    tp.p.BufferSize = 4;
    if (cap_kb) {
        tp.p.LogFileMode |= EVENT_TRACE_USE_KBYTES_FOR_SIZE;
        tp.p.MaximumFileSize = cap_kb;
    }
    int64_t before = filetime_now();
    TRACEHANDLE s;
    REGHANDLE reg;
    CHECK_EQ(StartTraceA(&s, name, &tp.p), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&HeaderProvider, NULL, NULL, &reg), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(s, &HeaderProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    /* ~20 buffers of 4 KB, flushed as they fill so none is lost however
     * slow the flusher runs. */
    for (uint32_t i = 0; i < 400; i += 100) {
        CHECK_EQ(test_write_seq(reg, i, 100, 100), 0);
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    }
    CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    EventUnregister(reg);
    int64_t after = filetime_now();

    size_t len;
    uint8_t *f = read_all(path, &len);
    CHECK(f != NULL);
    header h;
    strict_checks(f, len, &h);
    /* What this session asked for and did. */
    NEED(h.pointer_size == 8 && f[BH_SIZE + 2] == 2, "not the 64-bit layout");
    NEED(h.clock == clock, "ReservedFlags %u for clock %u", h.clock, clock);
    NEED(h.mode == MODE_SEQUENTIAL, "LogFileMode %#x", h.mode);
    NEED(h.max_file_size == (cap_kb + 1023) / 1024, "MaximumFileSize %u MB for a %u KB cap",
         h.max_file_size, cap_kb);
    NEED(h.buffer_size == 4096, "BufferSize %u", h.buffer_size);
    NEED(h.buffers_written >= 3, "BuffersWritten %u", h.buffers_written);
    NEED(h.events_lost == 0 && h.buffers_lost == 0, "lost %u events, %u buffers", h.events_lost,
         h.buffers_lost);
    NEED(strcmp(h.logger_name, name) == 0, "LoggerName %s", h.logger_name);
    /* Wall-clock times of this very run. */
    NEED(h.start_time >= before && h.start_time <= h.end_time && h.end_time <= after,
         "StartTime %lld, EndTime %lld, run %lld..%lld", (long long)h.start_time,
         (long long)h.end_time, (long long)before, (long long)after);
    check_true_values(&h);
    printf("header_fields: clock %u: %u buffers, CpuSpeedInMHz %u, TimerResolution %u, "
           "ProviderVersion %#x, Bias %d, MaximumFileSize %u, PerfFreq %lld\n",
           clock, h.buffers_written, h.cpu_mhz, h.timer_resolution, h.provider_version, h.bias,
           h.max_file_size, (long long)h.perf_freq);
    free(f);
    unlink(path);
}

/* Windows' own files, when the samples are here: the checks are a real
 * reader's, not petw's idea of one. */
static void check_windows_samples(void)
{
    static const char *files[] = {"primitive-types.etl", "powershell.etl",
                                  "SelfDescribingSingleEvent.etl"};
    const char *dir = getenv("PETW_ETL_SAMPLES");
    for (size_t i = 0; dir && i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        size_t len;
        uint8_t *f = read_all(path, &len);
        if (!f)
            continue;
        current = path;
        header h;
        strict_checks(f, len, &h);
        printf("header_fields: Windows sample %s passes (%u buffers)\n", files[i],
               h.buffers_written);
        free(f);
    }
}

int main(void)
{
    check_windows_samples();
    check_petw_file(1, 512);  /* QPC, a cap under a MB: 1 MB, never "none" */
    check_petw_file(2, 0);    /* system time, no cap */
    check_petw_file(3, 3000); /* CPU cycles, 2.9 MB: 3 */
    return 0;
}
