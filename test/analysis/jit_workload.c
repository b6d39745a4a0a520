/* SPDX-License-Identifier: MIT */
/* jit_workload.c - a process that runs code it generated at run time, as
 * a JIT compiler's does, and describes it in /tmp/perf-PID.map as Node's
 * --perf-basic-prof and .NET's PerfMapEnabled do ("START SIZE name"). The
 * code (x86-64: a counted loop) is called jit_spin_loop. The map stays
 * after exit, as a JIT's does, so the recorder reads it; the test removes
 * it. Exit 77 on other machines. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
#if defined(__x86_64__)
    /* mov rcx, imm64; 1: dec rcx; jnz 1b; ret */
    uint8_t code[] = {0x48, 0xB9, 0, 0, 0, 0, 0, 0, 0, 0, 0x48, 0xFF, 0xC9, 0x75, 0xFB, 0xC3};
    uint64_t n = 300000000ull;
    memcpy(code + 2, &n, 8);
    uint8_t *page =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return 77;
    memcpy(page, code, sizeof(code));
    char path[64];
    snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "%lx %zx jit_spin_loop\n", (unsigned long)(uintptr_t)page, sizeof(code));
    fclose(f);
    ((void (*)(void))(uintptr_t)page)();
    (void)argc;
    (void)argv;
    return 0;
#else
    (void)argc;
    (void)argv;
    return 77;
#endif
}
