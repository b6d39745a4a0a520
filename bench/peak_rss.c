/* SPDX-License-Identifier: MIT */
/* peak_rss.c - runs a command and prints its wall time and peak RSS:
 * "SECONDS PEAK_RSS_KB EXIT" on stderr, after the command's own output.
 * Usage: peak_rss CMD ARGS...
 * A child's peak RSS as wait4 reports it includes the memory of the process
 * it was forked from (the high-water mark survives exec), so a measurement
 * started from a large parent (Python's ~15 MB) would be that parent's; this
 * small program is the parent instead. Its own ~1 MB is the floor. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss CMD ARGS...\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(stderr, "%.6f %ld %d\n", s, ru.ru_maxrss, code);
    return code;
}
