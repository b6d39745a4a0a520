/* SPDX-License-Identifier: MIT */
/* bench_perfetto - how fast `petw convert --to perfetto` turns a system
 * trace into Perfetto's format, and in how much memory.
 * usage: bench_perfetto --petw PATH [--events N] [--file F] [--keep]
 * Writes N events of a kernel trace's mix (uncompressed, as records of the
 * kernel classes' GUIDs and layouts, 64-bit): per 10 events 4 CSwitch, 1
 * ReadyThread, 2 SampledProfile each with its StackWalk (16 frames, 64
 * distinct stacks over 64 threads), and a provider Start/Stop pair; then
 * runs PETW convert FILE --to perfetto once and prints one JSON object:
 * events, seconds, events per second, the file's size and the converter's
 * peak RSS. Linux only (wait4's rusage). */
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <petw/petw.h>

#include "bench_common.h"

extern char **environ;

static const petw_guid thread_class = {
    0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const petw_guid perfinfo_class = {
    0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}};
static const petw_guid stackwalk_class = {
    0xdef2fe46, 0x7bd6, 0x4b80, {0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}};
static const petw_guid app_provider = {0xbe0cbe0c, 0x1111, 0x2222, {0x33, 0x33, 0, 0, 0, 0, 0, 5}};

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void put_event(petw_provider_handle h, uint8_t opcode, uint16_t task, const void *data,
                      uint32_t size)
{
    petw_data_descriptor d = {(uint64_t)(uintptr_t)data, size, 0, 0, 0};
    petw_event_descriptor e = {1, 2, 0, 4, opcode, task, 0};
    petw_event_write(h, &e, NULL, NULL, 1, &d);
}

/* One round of 10 events; `i` picks the threads and the stack. */
static void round_of_ten(petw_provider_handle *h, uint64_t i)
{
    uint32_t a = 1000 + (uint32_t)(i % 64), b = 1000 + (uint32_t)((i + 1) % 64);
    uint8_t cs[24] = {0}, ready[8] = {0}, sample[16] = {0}, stack[16 + 16 * 8];
    for (int k = 0; k < 4; k++) {
        put32(cs, k & 1 ? a : b);
        put32(cs + 4, k & 1 ? b : a);
        cs[12] = (uint8_t)(k & 1 ? 32 : 6); /* WrPreempted, UserRequest */
        cs[14] = (uint8_t)(k & 1 ? 1 : 5);  /* Ready, Waiting */
        put_event(h[0], 36, 0, cs, sizeof(cs));
    }
    put32(ready, a);
    put_event(h[0], 50, 0, ready, sizeof(ready));
    for (int k = 0; k < 2; k++) {
        put64(sample, 0x401000 + (i % 64) * 0x10);
        put32(sample + 8, a);
        put_event(h[1], 46, 0, sample, sizeof(sample));
        put64(stack, 0);
        put32(stack + 8, 4242);
        put32(stack + 12, a);
        for (int f = 0; f < 16; f++)
            put64(stack + 16 + 8 * f, 0x401000 + (i % 64) * 0x10 + (uint64_t)f * 0x1000);
        put_event(h[2], 32, 0, stack, sizeof(stack));
    }
    uint32_t value = (uint32_t)i;
    put_event(h[3], 1, 7, &value, 4);
    put_event(h[3], 2, 7, &value, 4);
}

static int write_trace(const char *path, uint64_t n)
{
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = "petw-bench-perfetto";
    c.file_path = path;
    c.buffer_size_kb = 64;
    c.minimum_buffers = c.maximum_buffers = 256;
    c.loss_policy = PETW_LOSS_BLOCK; /* the file must hold all N */
    c.block_timeout_ms = 10000;
    const petw_guid *g[4] = {&thread_class, &perfinfo_class, &stackwalk_class, &app_provider};
    petw_session_handle s;
    petw_provider_handle h[4];
    if (petw_session_start(&c, &s))
        return 1;
    for (int k = 0; k < 4; k++)
        if (petw_provider_register(g[k], NULL, NULL, &h[k]) ||
            petw_session_enable_provider(s, g[k], 0, 0, 0))
            return 1;
    for (uint64_t i = 0; i < n / 10; i++)
        round_of_ten(h, i);
    petw_session_stats st;
    petw_session_stop(s, &st);
    for (int k = 0; k < 4; k++)
        petw_provider_unregister(h[k]);
    return st.events_lost ? 1 : 0;
}

int main(int argc, char **argv)
{
    uint64_t n = strtoull(bench_arg(argc, argv, "--events", "2000000"), NULL, 10);
    const char *petw = bench_arg(argc, argv, "--petw", NULL);
    char dflt[256], out[300];
    snprintf(dflt, sizeof(dflt), "%s/petw-perfetto-%d.etl",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    const char *path = bench_arg(argc, argv, "--file", dflt);
    snprintf(out, sizeof(out), "%s.pftrace", path);
    if (!petw || write_trace(path, n) != 0) {
        fprintf(stderr, "usage: bench_perfetto --petw PATH [--events N]; or the write failed\n");
        return 1;
    }
    char *args[] = {(char *)petw, "convert", (char *)path, "--to", "perfetto",
                    "-o",         out,       "--force",    NULL};
    double t0 = bench_now_ns();
    pid_t pid;
    int status = 1;
    struct rusage ru = {0};
    if (posix_spawn(&pid, petw, NULL, NULL, args, environ) != 0 || wait4(pid, &status, 0, &ru) < 0)
        return 1;
    double dt = (bench_now_ns() - t0) / 1e9;
    struct stat sb;
    long long bytes = stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
    long long out_bytes = stat(out, &sb) == 0 ? (long long)sb.st_size : 0;
    printf("{\"contender\":\"petw-convert-perfetto\",\"events\":%llu,\"seconds\":%.4f,"
           "\"events_per_s\":%.0f,\"file_bytes\":%lld,\"out_bytes\":%lld,\"peak_rss_kb\":%ld}\n",
           (unsigned long long)(n / 10 * 10), dt, (double)(n / 10 * 10) / dt, bytes, out_bytes,
           ru.ru_maxrss);
    remove(out);
    if (!bench_flag(argc, argv, "--keep"))
        remove(path);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
