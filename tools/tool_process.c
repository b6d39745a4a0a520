/* SPDX-License-Identifier: MIT */
/* tool_process.c - the process calls of `petw record`: run a command as a
 * child (at once, or held before its program until a session traces its
 * process), forward the signals meant for this process to it, and wait. The
 * one file of the tool that uses processes and signals (POSIX; elsewhere
 * `petw record` reports that it is not supported). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_session.h"

#if defined(_WIN32)

#include <direct.h>
#include <process.h>

uint32_t tool_getpid(void)
{
    return (uint32_t)_getpid();
}

int tool_getcwd(char *out, size_t size)
{
    return _getcwd(out, (int)size) ? 0 : -1;
}

int run_command(char **argv, const char *env, void (*tick)(void *), void *ctx, int *not_found)
{
    (void)argv, (void)env, (void)tick, (void)ctx;
    *not_found = 0;
    fputs("petw: record: running a command is not supported on this system\n", stderr);
    return -1;
}

int command_hold(char **argv, const char *env, held_command *c, int *not_found)
{
    (void)c;
    return run_command(argv, env, NULL, NULL, not_found); /* says it is not supported */
}

int command_release(held_command *c, int *not_found)
{
    (void)c, (void)not_found;
    return -1;
}

void command_cancel(held_command *c)
{
    (void)c;
}

int command_wait(held_command *c, void (*tick)(void *), void *ctx)
{
    (void)c, (void)tick, (void)ctx;
    return -1;
}

int catch_interrupts(void (*fn)(void))
{
    (void)fn;
    return -1;
}

#else

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static volatile sig_atomic_t child_pid; /* 0: no child runs */

/* Forwards a signal sent to this process (kill, sigqueue) to the child. One
 * the kernel sent, as a terminal's Ctrl-C, reached the child's process
 * group, the child included, already. */
static void forward(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
#ifdef SI_KERNEL
    if (si && si->si_code == SI_KERNEL)
        return;
#endif
    pid_t pid = (pid_t)child_pid;
    if (pid > 0) {
        int saved = errno;
        kill(pid, sig);
        errno = saved;
    }
}

uint32_t tool_getpid(void)
{
    return (uint32_t)getpid();
}

int tool_getcwd(char *out, size_t size)
{
    return getcwd(out, size) ? 0 : -1;
}

static void (*interrupt_fn)(void);

static void on_interrupt(int sig)
{
    (void)sig;
    int saved = errno;
    interrupt_fn();
    errno = saved;
}

int catch_interrupts(void (*fn)(void))
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    interrupt_fn = fn;
    for (int i = 0; i < 3; i++) {
        struct sigaction cur;
        /* One ignored when petw started (a background job's SIGINT) stays so. */
        if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
            continue;
        if (sigaction(sigs[i], &sa, NULL) != 0)
            return -1;
    }
    return 0;
}

/* The environment plus `add` ("NAME=value", replacing a NAME there), or
 * environ itself when `add` is NULL; NULL when memory ran out. */
static char **environment_with(const char *add)
{
    if (!add)
        return environ;
    size_t n = 0, len = strcspn(add, "=") + 1;
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], add, len))
            env[k++] = environ[i];
    env[k++] = (char *)add;
    env[k] = NULL;
    return env;
}

int run_command(char **argv, const char *add_env, void (*tick)(void *), void *ctx, int *not_found)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);

    /* The child starts with the signals blocked here and their default
     * actions; this process catches them (once the child's ID is known). */
    sigset_t block, prev;
    sigemptyset(&block);
    for (int i = 0; i < 3; i++)
        sigaddset(&block, sigs[i]);
    sigprocmask(SIG_BLOCK, &block, &prev);

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    /* A signal ignored here (a shell's background job ignores SIGINT)
     * stays ignored, here and in the child, as a shell does it. */
    sigset_t defaults;
    sigemptyset(&defaults);
    int caught[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        struct sigaction cur;
        if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN) {
            sigaddset(&defaults, sigs[i]);
            caught[i] = 1;
        }
    }
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &prev);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    pid_t pid;
    char **env = environment_with(add_env);
    int err = env ? posix_spawnp(&pid, argv[0], NULL, &attr, argv, env) : ENOMEM;
    if (env && env != environ)
        free(env);
    posix_spawnattr_destroy(&attr);
    if (err != 0) {
        sigprocmask(SIG_SETMASK, &prev, NULL);
        *not_found = err == ENOENT;
        fprintf(stderr, "petw: record: cannot run '%s': %s\n", argv[0], strerror(err));
        return -1;
    }
    child_pid = (sig_atomic_t)pid;
    for (int i = 0; i < 3; i++)
        if (caught[i])
            sigaction(sigs[i], &sa, NULL);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    held_command c = {argv, (long)pid, -1, -1};
    return command_wait(&c, tick, ctx);
}

int command_wait(held_command *c, void (*tick)(void *), void *ctx)
{
    pid_t pid = (pid_t)c->pid;
    char **argv = c->argv;
    int status = 0;
    pid_t r;
    for (;;) {
        r = waitpid(pid, &status, tick ? WNOHANG : 0);
        if (r == 0) {
            tick(ctx);
            struct timespec quarter = {0, 250 * 1000 * 1000};
            nanosleep(&quarter, NULL); /* a signal ends it early: fine */
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        break;
    }

    /* The handlers stay: a Ctrl-C now does not interrupt stopping the
     * session. */
    child_pid = 0;

    if (r < 0) {
        fprintf(stderr, "petw: record: waiting for '%s': %s\n", argv[0], strerror(errno));
        return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/* The program argv0 names, searched in PATH as posix_spawnp does, in
 * `out`. Returns 0, or an errno value (ENOENT: none). */
static int find_program(const char *argv0, char *out, size_t size)
{
    if (strchr(argv0, '/')) {
        if (snprintf(out, size, "%s", argv0) >= (int)size)
            return ENAMETOOLONG;
        struct stat st;
        if (stat(out, &st) != 0)
            return errno;
        return !S_ISREG(st.st_mode) ? EACCES : access(out, X_OK) == 0 ? 0 : errno;
    }
    const char *path = getenv("PATH");
    int found_other = 0;
    if (!path)
        path = "/bin:/usr/bin";
    for (const char *p = path;; p++) {
        size_t n = strcspn(p, ":");
        /* An empty entry is the current directory. */
        if (snprintf(out, size, "%.*s%s%s", (int)n, n ? p : ".", "/", argv0) < (int)size) {
            struct stat st;
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
                if (access(out, X_OK) == 0)
                    return 0;
                found_other = 1;
            }
        }
        p += n;
        if (!*p)
            break;
    }
    return found_other ? EACCES : ENOENT;
}

static int pipe_cloexec(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

/* The held child: waits for the go byte on go[0], then restores the
 * signals (their default actions, where caught[i]) and the mask, and runs
 * path; an exec failure's errno goes back through error[1]. Async-signal-safe
 * calls only (it runs between fork and exec). */
static void held_child(const int go[2], const int error[2], const int caught[3], const int sigs[3],
                       const sigset_t *prev, const char *path, char **argv, char **env)
{
    close(go[1]);
    close(error[0]);
    for (int i = 0; i < 3; i++)
        if (caught[i])
            signal(sigs[i], SIG_DFL);
    char b;
    ssize_t n;
    while ((n = read(go[0], &b, 1)) < 0 && errno == EINTR) {
    }
    if (n != 1)
        _exit(127); /* cancelled, or petw is gone */
    sigprocmask(SIG_SETMASK, prev, NULL);
    execve(path, argv, env);
    int e = errno;
    while (write(error[1], &e, sizeof(e)) < 0 && errno == EINTR) {
    }
    _exit(127);
}

int command_hold(char **argv, const char *add_env, held_command *c, int *not_found)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    static char path[4096];
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    memset(c, 0, sizeof(*c));
    c->argv = argv;
    c->go = c->error = -1;
    *not_found = 0;

    /* Found before the child exists: a typo costs no session. */
    int err = find_program(argv[0], path, sizeof(path));
    if (err != 0) {
        *not_found = err == ENOENT;
        fprintf(stderr, "petw: record: cannot run '%s': %s\n", argv[0], strerror(err));
        return -1;
    }
    int go[2], error[2];
    if (pipe_cloexec(go) != 0) {
        fprintf(stderr, "petw: record: %s\n", strerror(errno));
        return -1;
    }
    if (pipe_cloexec(error) != 0) {
        fprintf(stderr, "petw: record: %s\n", strerror(errno));
        close(go[0]);
        close(go[1]);
        return -1;
    }
    char **env = environment_with(add_env);

    /* As run_command: the child starts with the signals blocked, and takes
     * their default actions (those ignored here stay ignored) and this
     * process's mask only once released, so a Ctrl-C while it is held
     * ends it as soon as it runs. */
    sigset_t block, prev;
    sigemptyset(&block);
    for (int i = 0; i < 3; i++)
        sigaddset(&block, sigs[i]);
    sigprocmask(SIG_BLOCK, &block, &prev);
    int caught[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        struct sigaction cur;
        if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
            caught[i] = 1;
    }
    pid_t pid = env ? fork() : -1;
    if (pid == 0)
        held_child(go, error, caught, sigs, &prev, path, argv, env);
    err = pid < 0 ? (env ? errno : ENOMEM) : 0;
    if (env && env != environ)
        free(env);
    close(go[0]);
    close(error[1]);
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &prev, NULL);
        close(go[1]);
        close(error[0]);
        fprintf(stderr, "petw: record: cannot run '%s': %s\n", argv[0], strerror(err));
        return -1;
    }
    c->pid = (long)pid;
    c->go = go[1];
    c->error = error[0];
    child_pid = (sig_atomic_t)pid;
    for (int i = 0; i < 3; i++)
        if (caught[i])
            sigaction(sigs[i], &sa, NULL);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    return 0;
}

/* Reaps the child (it is ending or ended). */
static void reap(held_command *c)
{
    int status;
    while (waitpid((pid_t)c->pid, &status, 0) < 0 && errno == EINTR) {
    }
    child_pid = 0;
}

int command_release(held_command *c, int *not_found)
{
    char b = 1;
    int e = 0;
    ssize_t n;
    *not_found = 0;
    while ((n = write(c->go, &b, 1)) < 0 && errno == EINTR) {
    }
    close(c->go);
    c->go = -1;
    /* Nothing comes (end of file) once the program runs: the pipe closes
     * at exec. */
    ssize_t got;
    while ((got = read(c->error, &e, sizeof(e))) < 0 && errno == EINTR) {
    }
    close(c->error);
    c->error = -1;
    if (n == 1 && got == 0)
        return 0;
    reap(c);
    if (got != (ssize_t)sizeof(e))
        e = n == 1 ? EIO : errno;
    *not_found = e == ENOENT;
    fprintf(stderr, "petw: record: cannot run '%s': %s\n", c->argv[0], strerror(e));
    return -1;
}

void command_cancel(held_command *c)
{
    if (c->go >= 0)
        close(c->go); /* end of file: the child exits without running anything */
    if (c->error >= 0)
        close(c->error);
    c->go = c->error = -1;
    reap(c);
}

#endif
