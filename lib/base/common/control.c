/* SPDX-License-Identifier: MIT */
/* control.c - library init and the control lock. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#include "../platform/platform.h"
#include "common.h"

static uv_once_t init_once = UV_ONCE_INIT;
static uv_mutex_t control_mutex;

/* fork() while another thread holds the control lock would leave the
 * child a lock nobody can release: the forking thread takes it first, and
 * the child starts with a fresh one (it has no other thread). */
static void fork_prepare(void)
{
    uv_mutex_lock(&control_mutex);
}

static void fork_parent(void)
{
    uv_mutex_unlock(&control_mutex);
}

static void fork_child(void)
{
    if (uv_mutex_init_recursive(&control_mutex) != 0)
        abort();
}

static void init_once_fn(void)
{
    petw__platform_init();
    if (uv_mutex_init_recursive(&control_mutex) != 0)
        abort();
#if defined(__SANITIZE_THREAD__)
#define PETW__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PETW__TSAN 1
#endif
#endif
#ifndef PETW__TSAN
    /* Not under TSan: it cannot follow a mutex re-created in a child (it
     * reports the child's next lock as a double lock). */
    petw__on_fork(fork_prepare, fork_parent, fork_child);
#else
    (void)fork_prepare;
    (void)fork_parent;
    (void)fork_child;
#endif
}

void petw__library_init(void)
{
    uv_once(&init_once, init_once_fn);
}

void petw__control_lock(void)
{
    petw__library_init();
    uv_mutex_lock(&control_mutex);
}

void petw__control_unlock(void)
{
    uv_mutex_unlock(&control_mutex);
}

void petw__warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("petw: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
