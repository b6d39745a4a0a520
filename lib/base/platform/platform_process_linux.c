/* SPDX-License-Identifier: MIT */
/* platform_process_linux.c - Linux implementation of platform.h's
 * processes: starting a detached process (a session host) and a detached
 * thread, what /proc says of another process, fork's hooks, and whether an
 * address is in the program itself. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#include "petw/error.h"
#include "platform.h"
#include "platform_linux_internal.h"

extern char **environ;

/* ---- Starting a detached process ---- */

/* This program's argv[0] as it was started (the first string of
 * /proc/self/cmdline), in a new allocation; NULL when unreadable. */
static char *own_program_name(void)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf) - 1)) < 0 && errno == EINTR) {
    }
    close(fd);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return buf[0] ? strdup(buf) : NULL;
}

/* fork() without the atfork handlers (glibc 2.34+): the children below run
 * nothing but system calls, not even this program's fork handlers. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define spawn_fork _Fork
#else
#define spawn_fork fork
#endif

/* The grandchild: between fork and exec only async-signal-safe calls (the
 * parent may have other threads, whose locks are frozen here). */
static void exec_child(const char *path, char *const argv[], char *const envp[], int keep,
                       int max_fd)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &dfl, NULL); /* an ignored signal would stay ignored across exec */
    int null = open("/dev/null", O_RDWR);
    if (null < 0)
        _exit(127);
    for (int i = 0; i < 3; i++)
        if (null != i && dup2(null, i) < 0)
            _exit(127);
    if (null > 2 && null != keep)
        close(null);
    /* Only stdin/stdout/stderr and `keep` go on: a descriptor the program
     * left inheritable (a test harness's pipe, a terminal) must not live
     * as long as the host does. */
    if (keep >= 0 && fcntl(keep, F_SETFD, 0) != 0)
        _exit(127);
    int closed = 0;
#ifdef SYS_close_range
    if (keep < 0)
        closed = syscall(SYS_close_range, 3u, ~0u, 0u) == 0;
    else
        closed = (keep == 3 || syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u) == 0) &&
                 syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0;
#endif
    if (!closed)
        for (int f = 3; f < max_fd; f++)
            if (f != keep)
                close(f);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    _exit(127);
}

void petw__process_set_name(const char *name)
{
    (void)prctl(PR_SET_NAME, name, 0, 0, 0); /* only fails for a bad pointer */
}

int petw__spawn_detached(const char *exe, const char *env, intptr_t keep)
{
    /* Descriptors 0-2 become /dev/null in the new program. */
    if (keep >= 0 && keep <= 2)
        return PETW_EINVAL;
    if (keep > INT_MAX)
        return PETW_EBADHANDLE;
    /* Everything the children need is built here: after fork, no malloc. */
    const char *path = exe ? exe : "/proc/self/exe";
    char *name = NULL;
    if (!exe)
        name = own_program_name();
    char *argv[2] = {exe ? (char *)exe : name ? name : (char *)"petw-host", NULL};
    size_t n_env = 0;
    while (environ && environ[n_env])
        n_env++;
    char **envp = malloc(sizeof(char *) * (n_env + 2));
    if (!envp) {
        free(name);
        return PETW_ENOHOST;
    }
    size_t k = 0;
    size_t env_name = 0; /* length of "NAME=" in env, 0 when none */
    if (env) {
        const char *eq = strchr(env, '=');
        env_name = eq ? (size_t)(eq - env) + 1 : 0;
        envp[k++] = (char *)env;
    }
    for (size_t i = 0; i < n_env; i++)
        if (!env_name || strncmp(environ[i], env, env_name) != 0) /* env replaces NAME */
            envp[k++] = environ[i];
    envp[k] = NULL;
    struct rlimit rl;
    int max_fd =
        getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536
            ? (int)rl.rlim_cur
            : 65536;

    /* No signal handler of this program may run in the children. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = spawn_fork();
    if (pid == 0) {
        /* A session of its own, then a child that is not its leader (so
         * it never reacquires a controlling terminal) and whose parent
         * exits now: the program is reparented away from us. */
        setsid();
        pid_t g = spawn_fork();
        if (g == 0)
            exec_child(path, argv, envp, (int)keep, max_fd);
        _exit(g > 0 ? 0 : 1);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(envp);
    free(name);
    if (pid < 0)
        return PETW_ENOHOST;
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    /* ECHILD: SIGCHLD is ignored (the kernel reaped it) or another thread
     * waited for it; whether the program started is then known only by
     * the caller (through `keep`). */
    if (w < 0)
        return errno == ECHILD ? 0 : PETW_ENOHOST;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : PETW_ENOHOST;
}

/* ---- Processes ---- */

int petw__process_alive(uint32_t pid)
{
    /* 0 and negative numbers mean process groups to kill(). */
    if (pid == 0 || pid > (uint32_t)INT_MAX)
        return 0;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int petw__process_start_time(uint32_t pid, uint64_t *out)
{
    char path[64], buf[1024];
    *out = 0;
    snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return PETW_ENOTFOUND;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return PETW_ENOTFOUND;
    buf[n] = 0;
    /* Field 22 (starttime); the name (field 2) may hold spaces and ')',
     * so count from its last ')'. */
    char *p = strrchr(buf, ')');
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p)
        return PETW_ENOTFOUND;
    *out = strtoull(p + 1, NULL, 10);
    return 0;
}

void petw__process_name(uint32_t pid, char *out, size_t size)
{
    char path[64];
    if (!size)
        return;
    out[0] = 0;
    snprintf(path, sizeof(path), "/proc/%" PRIu32 "/comm", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    n = n < 0 ? 0 : n;
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == 0))
        n--;
    out[n] = 0;
}

/* ---- After fork ---- */

#define MAX_FORK_CHILD 8
static void (*fork_child_fns[MAX_FORK_CHILD])(void);
static int fork_child_count;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
/* Held across fork() (prepare to parent/child), so the child sees the list
 * whole even when another thread was registering. */
static pthread_mutex_t fork_mu = PTHREAD_MUTEX_INITIALIZER;

static void fork_prepare(void)
{
    pthread_mutex_lock(&fork_mu);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&fork_mu);
}

static void fork_child(void)
{
    for (int i = 0; i < fork_child_count; i++)
        fork_child_fns[i]();
    pthread_mutex_unlock(&fork_mu);
}

static void fork_register(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Up to MAX_FORK_CHILD distinct callbacks (petw's own modules); more are
 * a programming error and ignored. A callback must not register another. */
void petw__on_fork_child(void (*child)(void))
{
    pthread_once(&fork_once, fork_register);
    pthread_mutex_lock(&fork_mu);
    int present = 0;
    for (int i = 0; i < fork_child_count; i++)
        present |= fork_child_fns[i] == child;
    if (!present && fork_child_count < MAX_FORK_CHILD)
        fork_child_fns[fork_child_count++] = child;
    pthread_mutex_unlock(&fork_mu);
}

/* ---- Detached threads ---- */

typedef struct detached_start {
    void (*fn)(void *);
    void *arg;
} detached_start;

static void *detached_main(void *p)
{
    detached_start s = *(detached_start *)p;
    free(p);
    s.fn(s.arg);
    return NULL;
}

int petw__thread_start_detached(void (*fn)(void *), void *arg)
{
    detached_start *s = malloc(sizeof(*s));
    if (!s)
        return PETW_ENOMEM;
    s->fn = fn;
    s->arg = arg;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int rc = pthread_create(&t, &attr, detached_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc) {
        free(s);
        return PETW_ENOMEM;
    }
    return 0;
}

void petw__on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    pthread_atfork(prepare, parent, child);
}

/* ---- The program ---- */

/* dl_iterate_phdr lists the program first: is `addr` in one of its
 * loaded segments? */
static int in_first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    uintptr_t *addr = ctx;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && *addr >= start && *addr - start < ph->p_memsz)
            return 1;
    }
    return 2; /* not there: stop after the first object */
}

int petw__addr_in_program(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    return dl_iterate_phdr(in_first_object, &a) == 1;
}
