/* SPDX-License-Identifier: MIT */
/* workload.c - the analysis tests' workload, of a known shape: work_a and
 * work_b spin in a 3:1 ratio, lib_spin (a shared library's) as long as
 * work_b, in a child process that exits before its parent, and
 * syscall_loop makes cheap system calls (its time is the kernel's).
 * Usage: workload [SCALE]: SCALE (default 10) units of work_b. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t lib_spin(uint64_t units);

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spin(uint64_t units)
{
    uint64_t x = 1;
    for (uint64_t k = 0; k < units * 1000000u; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

__attribute__((noinline)) uint64_t work_a(uint64_t units)
{
    uint64_t x = 1;
    for (uint64_t k = 0; k < 3 * units * 1000000u; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

__attribute__((noinline)) uint64_t work_b(uint64_t units)
{
    uint64_t x = 3;
    for (uint64_t k = 0; k < units * 1000000u; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

__attribute__((noinline)) void syscall_loop(uint64_t units)
{
    for (uint64_t k = 0; k < units * 20000u; k++)
        sink += (uint64_t)syscall(SYS_getppid);
}

int main(int argc, char **argv)
{
    uint64_t scale = argc > 1 ? strtoull(argv[1], NULL, 10) : 10;
    pid_t child = fork();
    if (child == 0) {
        sink = lib_spin(scale);
        _exit(0);
    }
    int status;
    waitpid(child, &status, 0); /* the child is gone before the parent works */
    for (uint64_t k = 0; k < scale; k++) {
        sink += work_a(1);
        sink += work_b(1);
        syscall_loop(1);
    }
    sink += spin(0);
    return 0;
}
