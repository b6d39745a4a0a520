/* SPDX-License-Identifier: MIT */
/* io_workload.c - an I/O-heavy workload for bench_io_overhead.sh: ITERS
 * rounds (argv[1], default 200000) of one 64-byte pwrite and one 64-byte
 * pread on a file in DIR (argv[2], default the working directory), and
 * every eighth round one 64-byte send and receive over loopback TCP to a
 * thread that echoes them. Prints the wall time in seconds. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int listener;

static int full(int fd, char *buf, size_t n, int out)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = out ? write(fd, buf + done, n - done) : read(fd, buf + done, n - done);
        if (k <= 0)
            return -1;
        done += (size_t)k;
    }
    return 0;
}

static void *echo(void *arg)
{
    (void)arg;
    int c = accept(listener, NULL, NULL);
    char buf[64];
    while (c >= 0 && full(c, buf, sizeof(buf), 0) == 0 && full(c, buf, sizeof(buf), 1) == 0)
        ;
    if (c >= 0)
        close(c);
    return NULL;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 200000;
    char path[4096];
    snprintf(path, sizeof(path), "%s/io_workload.dat", argc > 2 ? argv[2] : ".");
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(a);
    if (fd < 0 || listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof(a)) != 0 ||
        listen(listener, 1) != 0 || getsockname(listener, (struct sockaddr *)&a, &len) != 0) {
        perror("io_workload");
        return 1;
    }
    pthread_t t;
    pthread_create(&t, NULL, echo, NULL);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
        perror("io_workload: connect");
        return 1;
    }
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    char buf[64] = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < iters; k++) {
        off_t at = (off_t)(k % 1024) * 64;
        if (pwrite(fd, buf, sizeof(buf), at) != sizeof(buf) ||
            pread(fd, buf, sizeof(buf), at) != sizeof(buf))
            return 2;
        if (k % 8 == 0 && (full(s, buf, sizeof(buf), 1) != 0 || full(s, buf, sizeof(buf), 0) != 0))
            return 3;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    close(s);
    pthread_join(t, NULL);
    close(fd);
    unlink(path);
    printf("%.6f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
