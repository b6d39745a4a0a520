/* SPDX-License-Identifier: MIT */
/* bench_floor_flush - the least a recorder's background can cost for each
 * event of bench_sustained's stream: 64 KB buffers of its 144-byte records,
 * filled on one CPU, compressed with zstd and written to a file by one
 * thread on another CPU, as fast as that thread can. No ring, no sealing,
 * no flusher loop: a producer copies the buffers (taken from a recording of
 * bench_sustained without compression) into an 8 MB ring of 128 slots, as
 * petw's session holds, and a consumer takes each full slot (an acquire
 * load of a counter, no system call, no wake), compresses it with one zstd
 * context reused from buffer to buffer and write()s the result.
 *
 * The consumer's CPU time per event is the background's floor: what one
 * CPU can keep up with is 1e9 / that. Against petw's background (the
 * flusher and the compression workers: bench_sustained's
 * background_cpu_ns_per_event) it says what petw adds; against the rate a
 * paced writer asks, it says when a recorder with zstd at that level
 * cannot keep up on the CPUs it has.
 *
 * usage: bench_floor_flush --input PLAIN.etl [--out FILE] [--events N]
 *        [--level L] [--reps R] [--pin] [--per-call]
 *   --input: a petw file of 64 KB buffers without compression (e.g.
 *            bench_sustained --rate 2000000 --seconds 1 --keep --file F)
 *   --level: zstd's level (default 1; negative: zstd's fast levels)
 *   --pin:   producer on CPU 0, consumer on CPU 1 (Linux)
 *   --per-call: ZSTD_compressCCtx with the level each call, instead of
 *            ZSTD_compress2 with the level set once on the context
 * Prints one JSON line: the median of R runs of N events each. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>
#include <zstd.h>

#include "bench_common.h"

#define BUF 65536u
#define SLOTS 128u
#define BH 0x48u /* petw's buffer header (ETW's WMI_BUFFER_HEADER + petw's fields) */

typedef struct source {
    uint8_t *data; /* the input's data buffers */
    uint32_t count;
    uint32_t *records; /* records in each */
} source;

typedef struct ring {
    uint8_t *slots;
    uint32_t used[SLOTS];
    uint32_t records[SLOTS];
    /* Buffers filled (producer) and consumed (consumer): each a release
     * store by its owner, read by the other with an acquire load, so a
     * slot's bytes are written before the consumer reads them and read
     * before the producer fills them again. */
    _Atomic uint64_t filled;
    _Atomic uint64_t consumed;
    uint64_t buffers; /* to produce */
    const source *src;
    int pin;
    int per_call; /* the level passed with each call (ZSTD_compressCCtx) */
} ring;

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void pin_to(int cpu)
{
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#else
    (void)cpu;
#endif
}

static int load(const char *path, source *s)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    s->data = malloc((size_t)SLOTS * BUF);
    s->records = calloc(SLOTS, sizeof(uint32_t));
    s->count = 0;
    uint8_t *b = malloc(BUF);
    int first = 1;
    while (s->data && s->records && b && s->count < SLOTS && fread(b, 1, BUF, f) == BUF) {
        uint32_t used = rd32(b + 4); /* SavedOffset */
        if (first || rd32(b) != BUF || used <= BH || used > BUF) {
            first = 0; /* the header buffer, or not a data buffer */
            continue;
        }
        uint32_t n = 0;
        for (uint32_t pos = BH; pos + 4 <= used;) {
            uint16_t size = (uint16_t)(b[pos] | b[pos + 1] << 8);
            if (size < 4)
                break;
            pos += (size + 7u) & ~7u;
            n++;
        }
        memcpy(s->data + (size_t)s->count * BUF, b, BUF);
        s->records[s->count++] = n;
    }
    free(b);
    fclose(f);
    return s->count ? 0 : -1;
}

static void *produce(void *arg)
{
    ring *r = arg;
    if (r->pin)
        pin_to(0);
    for (uint64_t i = 0; i < r->buffers; i++) {
        /* acquire: the consumer's reads of this slot come before our copy. */
        while (i - atomic_load_explicit(&r->consumed, memory_order_acquire) >= SLOTS)
            sched_yield();
        uint32_t k = (uint32_t)(i % r->src->count), slot = (uint32_t)(i % SLOTS);
        memcpy(r->slots + (size_t)slot * BUF, r->src->data + (size_t)k * BUF, BUF);
        r->used[slot] = rd32(r->src->data + (size_t)k * BUF + 4);
        r->records[slot] = r->src->records[k];
        /* release: the slot's bytes before the count that hands it over. */
        atomic_store_explicit(&r->filled, i + 1, memory_order_release);
    }
    return NULL;
}

/* One run: returns the consumer's CPU ns per event; bytes written in *bytes. */
static double run(ring *r, int level, int fd, uint64_t *events, uint64_t *bytes)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    size_t room = ZSTD_compressBound(BUF);
    uint8_t *out = malloc(room);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    atomic_store_explicit(&r->filled, 0, memory_order_relaxed);
    atomic_store_explicit(&r->consumed, 0, memory_order_relaxed);
    pthread_t th;
    pthread_create(&th, NULL, produce, r);
    *events = *bytes = 0;
    double cpu0 = bench_thread_cpu_ns();
    for (uint64_t i = 0; i < r->buffers; i++) {
        /* acquire: pairs with the producer's release store of `filled`. */
        while (atomic_load_explicit(&r->filled, memory_order_acquire) <= i)
            sched_yield(); /* the producer is behind: not the consumer's cost */
        uint32_t slot = (uint32_t)(i % SLOTS);
        const uint8_t *in = r->slots + (size_t)slot * BUF;
        size_t n = r->per_call
                       ? ZSTD_compressCCtx(cctx, out, room, in + BH, r->used[slot] - BH, level)
                       : ZSTD_compress2(cctx, out, room, in + BH, r->used[slot] - BH);
        if (ZSTD_isError(n) || write(fd, out, n) != (ssize_t)n) {
            fprintf(stderr, "compress or write failed\n");
            exit(1);
        }
        *events += r->records[slot];
        *bytes += n + BH;
        /* release: our reads of the slot before the producer may refill it. */
        atomic_store_explicit(&r->consumed, i + 1, memory_order_release);
    }
    double cpu = bench_thread_cpu_ns() - cpu0;
    pthread_join(th, NULL);
    ZSTD_freeCCtx(cctx);
    free(out);
    return cpu / (double)*events;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *input = bench_arg(argc, argv, "--input", NULL);
    char dflt[256];
    snprintf(dflt, sizeof(dflt), "%s/petw-floor-flush-%d.bin",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    const char *outp = bench_arg(argc, argv, "--out", dflt);
    double want = atof(bench_arg(argc, argv, "--events", "20000000"));
    int level = atoi(bench_arg(argc, argv, "--level", "1"));
    int reps = atoi(bench_arg(argc, argv, "--reps", "5"));
    source src;
    if (!input || load(input, &src) != 0) {
        fprintf(stderr, "usage: bench_floor_flush --input PLAIN.etl (a petw file, 64 KB "
                        "buffers, no compression)\n");
        return 2;
    }
    uint64_t per = 0;
    for (uint32_t i = 0; i < src.count; i++)
        per += src.records[i];
    ring r;
    memset(&r, 0, sizeof(r));
    r.slots = malloc((size_t)SLOTS * BUF);
    r.src = &src;
    r.pin = bench_flag(argc, argv, "--pin");
    r.per_call = bench_flag(argc, argv, "--per-call");
    r.buffers = (uint64_t)(want / ((double)per / src.count)) + 1;
    if (r.pin)
        pin_to(1);
    double ns[64];
    uint64_t events = 0, bytes = 0;
    if (reps < 1 || reps > 64)
        reps = 5;
    for (int k = 0; k < reps; k++) {
        int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) {
            fprintf(stderr, "cannot create %s\n", outp);
            return 1;
        }
        ns[k] = run(&r, level, fd, &events, &bytes);
        close(fd);
    }
    remove(outp);
    double sorted[64];
    memcpy(sorted, ns, sizeof(double) * (size_t)reps);
    qsort(sorted, (size_t)reps, sizeof(double), cmp_double);
    double med = sorted[reps / 2];
    double load1 = 0;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load1) != 1)
            load1 = 0;
        fclose(la);
    }
    printf("{\"contender\":\"floor-background%s\",\"zstd_level\":%d,\"events\":%llu,"
           "\"ns_per_event\":%.1f,\"min_ns_per_event\":%.1f,\"max_ns_per_event\":%.1f,"
           "\"events_per_s_one_cpu\":%.0f,\"bytes_per_event\":%.2f,\"load1\":%.2f}\n",
           r.per_call ? "-per-call" : "", level, (unsigned long long)events, med, sorted[0],
           sorted[reps - 1], 1e9 / med, (double)bytes / (double)events, load1);
    return 0;
}
