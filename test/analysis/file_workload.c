/* SPDX-License-Identifier: MIT */
/* file_workload.c - file I/O of a known shape for `petw report file`
 * (test/analysis_file.py). In DIR (argv[1]), which it makes its working
 * directory:
 *   a.dat  created (relative path), 10 writes of 4096 bytes, fsync, closed;
 *          opened again, read by 1000 bytes to its end (40 reads of 1000,
 *          one of 960, one of 0), one pread of 100 at 5000; closed;
 *          renamed to b.dat (absolute paths);
 *   b.dat  opened read-write, one read of 8192, ftruncate to 1000, closed,
 *          deleted (absolute path);
 *   c.dat  by a second thread: 3 writes of 3000 bytes, closed;
 *   d.dat  by a child process: 2 writes of 500 bytes, closed;
 *   descriptor 3, opened by the caller before the recording began: one
 *          read of 123 bytes, closed;
 *   f.fifo a FIFO: a second thread opens it for writing, sleeps 200 ms and
 *          writes 10 bytes; the main thread's read of them blocks that long
 *          (it prints "fifo_read_ms N", the read's time as it measured it).
 * Exit status 0 when every call did what it should. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[8192];

static int write_n(const char *name, int count, size_t size)
{
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    for (int k = 0; k < count; k++)
        if (write(fd, buf, size) != (ssize_t)size)
            return -1;
    return close(fd);
}

static void *thread_main(void *arg)
{
    (void)arg;
    return write_n("c.dat", 3, 3000) == 0 ? NULL : (void *)1;
}

static void *fifo_writer(void *arg)
{
    (void)arg;
    int fd = open("f.fifo", O_WRONLY);
    if (fd < 0)
        return (void *)1;
    usleep(200 * 1000);
    return write(fd, "0123456789", 10) == 10 && close(fd) == 0 ? NULL : (void *)1;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2 || chdir(argv[1]) != 0)
        return 2;
    char a[4096], b[4096];
    snprintf(a, sizeof(a), "%s/a.dat", argv[1]);
    snprintf(b, sizeof(b), "%s/b.dat", argv[1]);
    memset(buf, 'x', sizeof(buf));
    int fd = open("a.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return 3;
    for (int k = 0; k < 10; k++)
        if (write(fd, buf, 4096) != 4096)
            return 4;
    if (fsync(fd) != 0 || close(fd) != 0)
        return 5;
    if ((fd = open("a.dat", O_RDONLY)) < 0)
        return 6;
    ssize_t n;
    while ((n = read(fd, buf, 1000)) > 0)
        ;
    if (n != 0 || pread(fd, buf, 100, 5000) != 100 || close(fd) != 0)
        return 7;
    if (rename(a, b) != 0)
        return 8;
    if ((fd = open(b, O_RDWR)) < 0 || read(fd, buf, 8192) != 8192 || ftruncate(fd, 1000) != 0 ||
        close(fd) != 0 || unlink(b) != 0)
        return 9;
    pthread_t t;
    void *r;
    if (pthread_create(&t, NULL, thread_main, NULL) != 0 || pthread_join(t, &r) != 0 || r)
        return 10;
    pid_t child = fork();
    if (child == 0)
        _exit(write_n("d.dat", 2, 500) == 0 ? 0 : 1);
    int status;
    if (child < 0 || waitpid(child, &status, 0) != child || status != 0)
        return 11;
    if (read(3, buf, 123) != 123 || close(3) != 0)
        return 12;
    if (mkfifo("f.fifo", 0600) != 0 || pthread_create(&t, NULL, fifo_writer, NULL) != 0 ||
        (fd = open("f.fifo", O_RDONLY)) < 0)
        return 13;
    double before = now_ms();
    n = read(fd, buf, 10);
    double took = now_ms() - before;
    if (n != 10 || close(fd) != 0 || pthread_join(t, &r) != 0 || r || unlink("f.fifo") != 0)
        return 14;
    printf("fifo_read_ms %.3f\n", took);
    return 0;
}
