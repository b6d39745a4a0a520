/* SPDX-License-Identifier: MIT */
/* The platform's primitives for sessions shared between processes, used by
 * real processes (fork): the private runtime directory, sealed shared
 * memory passed over a socket, abandoning a mapping, futex waits across
 * processes, file locks that die with their process, wake-up counters,
 * sockets that carry handles and time out, and starting a detached copy
 * of this program. Windows runs the same checks with its own objects and
 * child processes (test_platform_ipc_win.h). */
#ifdef _WIN32
#include "test_platform_ipc_win.h"
#else
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "test_util.h"

#include "../../lib/base/platform/platform.h"

static char base[256]; /* this test's private temp directory */
static char rt[300];   /* the runtime directory inside it */

static int64_t ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Open descriptors of this process (to see handles are not leaked). */
static int fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL);
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static int fd_is_open(intptr_t fd)
{
    return fcntl((int)fd, F_GETFD) != -1;
}

static int fd_cloexec(intptr_t fd)
{
    int f = fcntl((int)fd, F_GETFD);
    return f != -1 && (f & FD_CLOEXEC);
}

/* Waits for `pid` and checks it exited with 0. */
static void reap_ok(pid_t pid)
{
    int st;
    CHECK_EQ(waitpid(pid, &st, 0), pid);
    CHECK(WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 0);
}

static void test_runtime_dir(void)
{
    char out[200], path[600];
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), 0);
    CHECK(strcmp(out, rt) == 0);
    struct stat st;
    CHECK_EQ(lstat(rt, &st), 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK_EQ(st.st_mode & 0777, 0700);
    /* Existing and right: accepted again. */
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), 0);
    CHECK_EQ(petw__runtime_dir(out, strlen(rt)), PETW_ENAMETOOLONG);

    /* Open to others: refused. */
    snprintf(path, sizeof(path), "%s/open", base);
    CHECK_EQ(mkdir(path, 0700), 0);
    CHECK_EQ(chmod(path, 0755), 0);
    setenv("PETW_RUNTIME_DIR", path, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    CHECK(strcmp(out, path) == 0); /* named, for the caller's message */
    /* A symbolic link to a good directory: refused (with or without a
     * trailing slash). */
    snprintf(path, sizeof(path), "%s/link", base);
    CHECK_EQ(symlink(rt, path), 0);
    setenv("PETW_RUNTIME_DIR", path, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    strcat(path, "/");
    setenv("PETW_RUNTIME_DIR", path, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    /* A regular file: refused. */
    snprintf(path, sizeof(path), "%s/file", base);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fclose(f);
    chmod(path, 0700);
    setenv("PETW_RUNTIME_DIR", path, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_EACCES);
    /* Too long for socket paths under it. */
    char lng[120];
    memset(lng, 'x', sizeof(lng) - 1);
    lng[0] = '/';
    lng[sizeof(lng) - 1] = '\0';
    setenv("PETW_RUNTIME_DIR", lng, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), PETW_ENAMETOOLONG);
    /* $XDG_RUNTIME_DIR/petw without PETW_RUNTIME_DIR. */
    unsetenv("PETW_RUNTIME_DIR");
    snprintf(path, sizeof(path), "%s/xdg", base);
    CHECK_EQ(mkdir(path, 0700), 0);
    setenv("XDG_RUNTIME_DIR", path, 1);
    CHECK_EQ(petw__runtime_dir(out, sizeof(out)), 0);
    strcat(path, "/petw");
    CHECK(strcmp(out, path) == 0);
    CHECK_EQ(lstat(path, &st), 0);
    CHECK_EQ(st.st_mode & 0777, 0700);
    setenv("PETW_RUNTIME_DIR", rt, 1);
}

#define SHM_SIZE (64 * 1024)

static void test_shm(void)
{
    petw__shm s;
    CHECK_EQ(petw__shm_create(SHM_SIZE, &s), 0);
    CHECK(s.addr != NULL && s.fd >= 0);
    CHECK_EQ(s.size, SHM_SIZE);
    CHECK(fd_cloexec(s.fd));
    for (size_t i = 0; i < SHM_SIZE; i++)
        CHECK_EQ(((uint8_t *)s.addr)[i], 0);
    int seals = fcntl((int)s.fd, F_GET_SEALS);
    CHECK_EQ(seals & (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL),
             F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
    CHECK(ftruncate((int)s.fd, SHM_SIZE / 2) != 0);

    /* To a child over a socket pair: it maps and writes, we see it. */
    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        petw__handle_close(pair[0]);
        char go[2];
        intptr_t h[4];
        uint32_t n = 4;
        CHECK_EQ(petw__ipc_recv(pair[1], go, 2, h, &n, 2000), 0);
        CHECK_EQ(n, 1);
        petw__shm m;
        CHECK_EQ(petw__shm_map(h[0], SHM_SIZE, &m), 0);
        for (size_t i = 0; i < SHM_SIZE; i++)
            ((uint8_t *)m.addr)[i] = (uint8_t)(i * 7 + 1);
        CHECK_EQ(petw__ipc_send(pair[1], "ok", 2, NULL, 0, 2000), 0);
        petw__shm_close(&m);
        _exit(0);
    }
    petw__handle_close(pair[1]);
    CHECK_EQ(petw__ipc_send(pair[0], "go", 2, &s.fd, 1, 2000), 0);
    char ok[2];
    CHECK_EQ(petw__ipc_recv(pair[0], ok, 2, NULL, NULL, 2000), 0);
    CHECK(memcmp(ok, "ok", 2) == 0);
    for (size_t i = 0; i < SHM_SIZE; i++)
        CHECK_EQ(((uint8_t *)s.addr)[i], (uint8_t)(i * 7 + 1));
    reap_ok(pid);
    petw__handle_close(pair[0]);

    /* Refused (and the handle closed): an unsealed memfd, a wrong size,
     * a regular file. */
    int raw = memfd_create("raw", MFD_CLOEXEC);
    CHECK(raw >= 0);
    CHECK_EQ(ftruncate(raw, SHM_SIZE), 0);
    petw__shm bad;
    CHECK_EQ(petw__shm_map(raw, SHM_SIZE, &bad), PETW_EINVAL);
    CHECK(!fd_is_open(raw));
    int d = dup((int)s.fd);
    CHECK(d >= 0);
    CHECK_EQ(petw__shm_map(d, SHM_SIZE + 4096, &bad), PETW_EINVAL);
    CHECK(!fd_is_open(d));
    d = dup((int)s.fd);
    CHECK_EQ(petw__shm_map(d, SHM_SIZE - 4096, &bad), PETW_EINVAL);
    CHECK(!fd_is_open(d));
    char path[600];
    snprintf(path, sizeof(path), "%s/plain", base);
    int pf = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    CHECK(pf >= 0);
    CHECK_EQ(ftruncate(pf, SHM_SIZE), 0);
    CHECK_EQ(petw__shm_map(pf, SHM_SIZE, &bad), PETW_EINVAL);
    CHECK(!fd_is_open(pf));

    /* Abandoned: the address stays writable, and what is written there
     * no longer reaches the object (seen through a second mapping). */
    petw__shm other;
    d = dup((int)s.fd);
    CHECK_EQ(petw__shm_map(d, SHM_SIZE, &other), 0);
    intptr_t old_fd = s.fd;
    petw__shm_abandon(&s);
    CHECK_EQ(s.fd, -1);
    CHECK(!fd_is_open(old_fd));
    CHECK(s.addr != NULL);
    CHECK_EQ(((volatile uint8_t *)s.addr)[5], 0); /* private zero memory */
    memset(s.addr, 0xEE, SHM_SIZE);
    CHECK_EQ(((uint8_t *)other.addr)[5], (uint8_t)(5 * 7 + 1));
    CHECK_EQ(((uint8_t *)other.addr)[SHM_SIZE - 1], (uint8_t)((SHM_SIZE - 1) * 7 + 1));
    petw__shm_close(&s);
    petw__shm_close(&other);
    CHECK_EQ(petw__shm_create(0, &bad), PETW_EINVAL);
}

static void test_futex(void)
{
    petw__shm s;
    CHECK_EQ(petw__shm_create(4096, &s), 0);
    uint32_t *word = s.addr;
    int64_t t0 = ms_now();
    CHECK_EQ(petw__futex_wait(word, 0, 60), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 50);
    /* The word differs: returns at once. */
    t0 = ms_now();
    CHECK_EQ(petw__futex_wait(word, 1, 5000), 0);
    CHECK(ms_now() - t0 < 1000);

    /* A child changes the word and wakes us. */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        petw__sleep_ms(100);
        __atomic_store_n(word, 1, __ATOMIC_RELAXED);
        petw__futex_wake_all(word);
        _exit(0);
    }
    t0 = ms_now();
    while (__atomic_load_n(word, __ATOMIC_RELAXED) == 0) {
        int rc = petw__futex_wait(word, 0, 5000);
        CHECK(rc == 0);
    }
    CHECK(ms_now() - t0 < 4000);
    reap_ok(pid);
    petw__shm_close(&s);
}

static void test_locks(void)
{
    char path[600], link[600];
    snprintf(path, sizeof(path), "%s/registry", rt);
    petw__shm a;
    int created = -1;
    CHECK_EQ(petw__shared_file_open(path, 8192, 1, &created, &a), 0);
    CHECK_EQ(created, 1);
    CHECK(fd_cloexec(a.fd));
    struct stat st;
    CHECK_EQ(stat(path, &st), 0);
    CHECK_EQ(st.st_mode & 0777, 0600);
    CHECK_EQ(st.st_size, 8192);
    memcpy(a.addr, "registry", 8);

    /* Opened again (read-only): not created, sees the contents. */
    petw__shm r;
    CHECK_EQ(petw__shared_file_open(path, 8192, 0, &created, &r), 0);
    CHECK_EQ(created, 0);
    CHECK(memcmp(r.addr, "registry", 8) == 0);
    petw__shm_close(&r);
    /* Longer: grown even for a reader. */
    CHECK_EQ(petw__shared_file_open(path, 16384, 0, &created, &r), 0);
    CHECK_EQ(created, 1);
    CHECK_EQ(stat(path, &st), 0);
    CHECK_EQ(st.st_size, 16384);
    petw__shm_close(&r);

    /* Refused: through a symbolic link, a file others may read. */
    snprintf(link, sizeof(link), "%s/registry-link", rt);
    CHECK_EQ(symlink(path, link), 0);
    CHECK_EQ(petw__shared_file_open(link, 8192, 1, &created, &r), PETW_EACCES);
    snprintf(link, sizeof(link), "%s/shared-file", rt);
    int f = open(link, O_RDWR | O_CREAT, 0600);
    CHECK(f >= 0);
    CHECK_EQ(fchmod(f, 0644), 0);
    close(f);
    CHECK_EQ(petw__shared_file_open(link, 8192, 1, &created, &r), PETW_EACCES);

    /* A child holds lock 3 through its own open; it dies with the child. */
    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        petw__handle_close(pair[0]);
        petw__shm c;
        int cr;
        CHECK_EQ(petw__shared_file_open(path, 8192, 1, &cr, &c), 0);
        CHECK_EQ(petw__lock_take(c.fd, 3, 0), 0);
        CHECK_EQ(petw__ipc_send(pair[1], "L", 1, NULL, 0, 2000), 0);
        for (;;)
            pause();
    }
    petw__handle_close(pair[1]);
    char b;
    CHECK_EQ(petw__ipc_recv(pair[0], &b, 1, NULL, NULL, 2000), 0);
    CHECK_EQ(petw__lock_held(a.fd, 3), 1);
    CHECK_EQ(petw__lock_held(a.fd, 4), 0);
    CHECK_EQ(petw__lock_take(a.fd, 3, 0), PETW_EBUSY);
    CHECK_EQ(petw__lock_take(a.fd, 4, 0), 0);
    CHECK_EQ(kill(pid, SIGKILL), 0);
    int stv;
    CHECK_EQ(waitpid(pid, &stv, 0), pid);
    CHECK_EQ(petw__lock_held(a.fd, 3), 0);
    petw__handle_close(pair[0]);

    /* Owned by the handle: our own never shows as held to us, another
     * open in this same process conflicts. */
    CHECK_EQ(petw__lock_take(a.fd, 3, 0), 0);
    CHECK_EQ(petw__lock_held(a.fd, 3), 0);
    petw__shm a2;
    CHECK_EQ(petw__shared_file_open(path, 8192, 1, &created, &a2), 0);
    CHECK_EQ(petw__lock_held(a2.fd, 3), 1);
    CHECK_EQ(petw__lock_take(a2.fd, 3, 0), PETW_EBUSY);
    petw__lock_drop(a.fd, 3);
    CHECK_EQ(petw__lock_held(a2.fd, 3), 0);

    /* A waiting take returns when the holder (a child) lets go, and not
     * before: the child marks the file's second page just before it lets
     * go (a time measured here instead would fail when a loaded machine
     * runs this process late, after most of the child's hold). */
    volatile uint32_t *let_go = (volatile uint32_t *)((uint8_t *)a2.addr + 4096);
    *let_go = 0;
    CHECK_EQ(petw__ipc_pair(pair), 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        petw__handle_close(pair[0]);
        petw__shm c;
        int cr;
        CHECK_EQ(petw__shared_file_open(path, 8192, 1, &cr, &c), 0);
        CHECK_EQ(petw__lock_take(c.fd, 7, 1), 0);
        CHECK_EQ(petw__ipc_send(pair[1], "L", 1, NULL, 0, 2000), 0);
        petw__sleep_ms(150);
        __atomic_store_n((uint32_t *)((uint8_t *)c.addr + 4096), 1, __ATOMIC_RELEASE);
        petw__lock_drop(c.fd, 7);
        _exit(0);
    }
    petw__handle_close(pair[1]);
    CHECK_EQ(petw__ipc_recv(pair[0], &b, 1, NULL, NULL, 2000), 0);
    CHECK_EQ(petw__lock_take(a2.fd, 7, 1), 0);
    CHECK_EQ(*let_go, 1); /* the take waited for the holder */
    reap_ok(pid);
    petw__handle_close(pair[0]);
    petw__shm_close(&a2);
    petw__shm_close(&a);
}

static void test_wake(void)
{
    intptr_t w;
    CHECK_EQ(petw__wake_create(&w), 0);
    CHECK(fd_cloexec(w));
    CHECK(fcntl((int)w, F_GETFL) & O_NONBLOCK);
    uint8_t ready[2] = {9, 9};
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 0), 0);
    CHECK_EQ(ready[0], 0);
    petw__wake_signal(w);
    petw__wake_signal(w);
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 1000), 1);
    CHECK_EQ(ready[0], 1);
    petw__wake_drain(w);
    CHECK_EQ(petw__ipc_poll(&w, 1, ready, 0), 0);
    petw__wake_drain(w); /* empty: does not block */

    /* From another process, while we wait. */
    intptr_t two[2] = {w, -1};
    CHECK_EQ(petw__wake_create(&two[1]), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        petw__sleep_ms(50);
        petw__wake_signal(two[1]);
        _exit(0);
    }
    CHECK_EQ(petw__ipc_poll(two, 2, ready, 3000), 1);
    CHECK_EQ(ready[0], 0);
    CHECK_EQ(ready[1], 1);
    reap_ok(pid);

    /* Replacing: the number now names the other object, which is closed
     * under its old number; still close-on-exec. */
    petw__shm s;
    CHECK_EQ(petw__shm_create(8192, &s), 0);
    intptr_t from = s.fd;
    CHECK_EQ(petw__handle_replace(from, two[1]), 0);
    CHECK(!fd_is_open(from));
    struct stat st;
    CHECK_EQ(fstat((int)two[1], &st), 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK_EQ(st.st_size, 8192);
    CHECK(fd_cloexec(two[1]));
    s.fd = two[1];
    petw__shm_close(&s);
    petw__handle_close(w);
}

static void test_sockets(void)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/host.sock", rt);
    intptr_t l, c, a;
    uint32_t pid = 0, peer = 0;
    CHECK_EQ(petw__ipc_connect(path, &c, &peer), PETW_ENOTFOUND);
    CHECK_EQ(petw__ipc_listen(path, &l), 0);
    petw__handle_close(l); /* the socket file stays, nobody listens */
    CHECK_EQ(petw__ipc_connect(path, &c, &peer), PETW_ENOTFOUND);
    CHECK_EQ(petw__ipc_listen(path, &l), 0); /* the stale file is replaced */
    CHECK(fd_cloexec(l));
    struct stat st;
    CHECK_EQ(lstat(path, &st), 0);
    CHECK(S_ISSOCK(st.st_mode));
    CHECK_EQ(st.st_mode & 077, 0);
    CHECK_EQ(petw__ipc_accept(l, &a, &pid), PETW_EBUSY);

    CHECK_EQ(petw__ipc_connect(path, &c, &peer), 0);
    CHECK_EQ(peer, (uint32_t)getpid());
    uint8_t ready;
    CHECK_EQ(petw__ipc_poll(&l, 1, &ready, 1000), 1);
    CHECK_EQ(petw__ipc_accept(l, &a, &pid), 0);
    CHECK_EQ(pid, (uint32_t)getpid());
    CHECK(fd_cloexec(a) && fd_cloexec(c));
    CHECK_EQ(fcntl((int)a, F_GETFL) & O_NONBLOCK, 0);

    /* Two handles ride with a message. */
    petw__shm s;
    CHECK_EQ(petw__shm_create(4096, &s), 0);
    memcpy(s.addr, "shared", 6);
    intptr_t w;
    CHECK_EQ(petw__wake_create(&w), 0);
    intptr_t send_h[2] = {s.fd, w};
    CHECK_EQ(petw__ipc_send(c, "hello", 5, send_h, 2, 1000), 0);
    char msg[5];
    intptr_t got[4] = {-1, -1, -1, -1};
    uint32_t n = 4;
    CHECK_EQ(petw__ipc_recv(a, msg, 5, got, &n, 1000), 0);
    CHECK(memcmp(msg, "hello", 5) == 0);
    CHECK_EQ(n, 2);
    CHECK(fd_cloexec(got[0]) && fd_cloexec(got[1]));
    petw__shm m;
    CHECK_EQ(petw__shm_map(got[0], 4096, &m), 0);
    CHECK(memcmp(m.addr, "shared", 6) == 0);
    petw__wake_signal(got[1]);
    CHECK_EQ(petw__ipc_poll(&w, 1, &ready, 1000), 1);
    petw__handle_close(got[1]);
    petw__shm_close(&m);

    /* Handles beyond the room given, or with no room at all, are closed. */
    int before = fd_count();
    intptr_t three[3] = {w, w, s.fd};
    CHECK_EQ(petw__ipc_send(c, "abc", 3, three, 3, 1000), 0);
    n = 1;
    CHECK_EQ(petw__ipc_recv(a, msg, 3, got, &n, 1000), 0);
    CHECK_EQ(n, 1);
    CHECK_EQ(fd_count(), before + 1);
    petw__handle_close(got[0]);
    CHECK_EQ(petw__ipc_send(c, "abc", 3, three, 2, 1000), 0);
    CHECK_EQ(petw__ipc_recv(a, msg, 3, NULL, NULL, 1000), 0);
    CHECK_EQ(fd_count(), before);
    CHECK_EQ(petw__ipc_send(c, "x", 1, three, 5, 1000), PETW_EINVAL);

    /* A large message from a child: many partial writes and reads. */
    size_t big = 4u << 20;
    uint8_t *buf = malloc(big);
    CHECK(buf != NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        for (size_t i = 0; i < big; i++)
            buf[i] = (uint8_t)(i % 251);
        CHECK_EQ(petw__ipc_send(c, buf, big, &s.fd, 1, 3000), 0);
        _exit(0);
    }
    memset(buf, 0, big);
    n = 4;
    CHECK_EQ(petw__ipc_recv(a, buf, big, got, &n, 3000), 0);
    CHECK_EQ(n, 1);
    petw__handle_close(got[0]);
    for (size_t i = 0; i < big; i++)
        CHECK_EQ(buf[i], (uint8_t)(i % 251));
    reap_ok(child);

    /* Nobody reads: a send runs out of time (no room), so does a recv. */
    int64_t t0 = ms_now();
    CHECK_EQ(petw__ipc_send(c, buf, big, NULL, 0, 100), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 90);
    CHECK(ms_now() - t0 < 2000);
    free(buf);
    petw__handle_close(c);
    petw__handle_close(a);

    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    t0 = ms_now();
    CHECK_EQ(petw__ipc_recv(pair[0], msg, 4, NULL, NULL, 100), PETW_ETIMEDOUT);
    CHECK(ms_now() - t0 >= 90);
    CHECK(ms_now() - t0 < 2000);
    /* The peer closes after part of a message (with a handle): EPIPE, and
     * the handle that came is closed. */
    before = fd_count();
    CHECK_EQ(petw__ipc_send(pair[1], "ab", 2, &w, 1, 1000), 0);
    petw__handle_close(pair[1]);
    n = 4;
    CHECK_EQ(petw__ipc_recv(pair[0], msg, 4, got, &n, 1000), PETW_EPIPE);
    CHECK_EQ(n, 0);
    CHECK_EQ(fd_count(), before - 1);                    /* pair[1] closed, nothing gained */
    CHECK_EQ(petw__ipc_poll(&pair[0], 1, &ready, 0), 1); /* hung up counts */
    /* Sending to a peer that is gone: EPIPE, no SIGPIPE. */
    CHECK_EQ(petw__ipc_send(pair[0], "x", 1, NULL, 0, 1000), PETW_EPIPE);
    petw__handle_close(pair[0]);

    petw__handle_close(w);
    petw__shm_close(&s);
    petw__handle_close(l);
}

static int fork_flag;
static void on_child(void)
{
    fork_flag = 1;
}

static void test_fork_child(void)
{
    petw__on_fork_child(on_child);
    petw__on_fork_child(on_child); /* once only */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        _exit(fork_flag == 1 ? 0 : 1);
    reap_ok(pid);
    CHECK_EQ(fork_flag, 0);
}

/* The spawned copy of this program: reports its parent and itself over
 * the inherited socket. */
static int spawned_main(const char *fd_text)
{
    int fd = atoi(fd_text);
    uint32_t ids[3] = {(uint32_t)getppid(), (uint32_t)getpid(), 0};
    /* Descriptors beyond 0-2 and `fd`: none inherited. */
    for (int f = 3; f < 1024; f++)
        if (f != fd && fcntl(f, F_GETFD) != -1)
            ids[2]++;
    ids[2] += (fcntl(0, F_GETFD) == -1) * 100;
    return petw__ipc_send(fd, ids, sizeof(ids), NULL, 0, 5000) == 0 ? 0 : 1;
}

static void test_spawn(const char *exe)
{
    intptr_t pair[2];
    CHECK_EQ(petw__ipc_pair(pair), 0);
    /* A descriptor left inheritable by the program must not leak into the
     * spawned one. */
    int leak = open("/dev/null", O_RDONLY);
    CHECK(leak >= 0);
    char env[64];
    snprintf(env, sizeof(env), "PETW_TEST_SPAWN_FD=%d", (int)pair[1]);
    CHECK_EQ(petw__spawn_detached(exe, env, pair[1]), 0);
    close(leak);
    petw__handle_close(pair[1]);
    CHECK_EQ(fcntl((int)pair[1], F_GETFD), -1);
    uint32_t ids[3];
    CHECK_EQ(petw__ipc_recv(pair[0], ids, sizeof(ids), NULL, NULL, 5000), 0);
    CHECK(ids[1] != (uint32_t)getpid());
    CHECK(ids[0] != (uint32_t)getpid()); /* never our child */
    CHECK_EQ(ids[2], 0);
    /* It exits: the last copy of its end closes. */
    char b;
    CHECK_EQ(petw__ipc_recv(pair[0], &b, 1, NULL, NULL, 5000), PETW_EPIPE);
    petw__handle_close(pair[0]);
    /* No child of ours is left behind (the intermediate was reaped). */
    CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *spawn_fd = getenv("PETW_TEST_SPAWN_FD");
    if (spawn_fd)
        return spawned_main(spawn_fd);

    snprintf(base, sizeof(base), "%s/petw-ipc-XXXXXX", test_tmpdir());
    CHECK(mkdtemp(base) != NULL);
    snprintf(rt, sizeof(rt), "%s/rt", base);
    setenv("PETW_RUNTIME_DIR", rt, 1);

    test_runtime_dir();
    test_shm();
    test_futex();
    test_locks();
    test_wake();
    test_sockets();
    test_fork_child();
    test_spawn(NULL);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    CHECK(n > 0);
    self[n] = '\0';
    test_spawn(self);
    CHECK_EQ(petw__spawn_detached("/nonexistent/petw-host", NULL, -1), 0); /* seen by `keep` */
    CHECK_EQ(petw__spawn_detached(NULL, NULL, 1), PETW_EINVAL);

    CHECK_EQ(petw__process_alive((uint32_t)getpid()), 1);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        _exit(0);
    reap_ok(pid);
    CHECK_EQ(petw__process_alive((uint32_t)pid), 0);
    CHECK_EQ(petw__process_alive(0), 0);

    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
    CHECK_EQ(system(cmd), 0);
    printf("platform_ipc: ok\n");
    return 0;
}
#endif
