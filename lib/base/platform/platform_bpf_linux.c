/* SPDX-License-Identifier: MIT */
/* platform_bpf_linux.c - BPF programs through libbpf: an object compiled
 * for the BPF target and embedded in the library (meson's bpf_embed rule:
 * clang -target bpf, BTF for CO-RE, no vmlinux.h), its tracepoint programs
 * attached where the kernel has their tracepoints, its maps written, and
 * its ring buffer read into a callback. Builds without libbpf compile
 * platform_bpf_none.c instead. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "platform.h"
#include "petw/error.h"
#include "platform_linux_internal.h"

#define MAX_LINKS 64

struct petw__bpf {
    struct bpf_object *obj;
    struct bpf_link *links[MAX_LINKS];
    uint32_t link_count;
    struct ring_buffer *ring;
    petw__bpf_fn fn;
    void *ctx;
};

/* libbpf's own messages: its warnings would print on the user's terminal
 * for every probe that fails; the reason petw gives is the one line. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list args)
{
    (void)level;
    (void)fmt;
    (void)args;
    return 0;
}

static void say(char *why, size_t size, const char *fmt, ...)
{
    if (!why || !size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

static int bpf_error(int e)
{
    e = e < 0 ? -e : e;
    if (e == EPERM || e == EACCES)
        return PETW_EACCES;
    if (e == ENOMEM)
        return PETW_ENOMEM;
    return PETW_ENOTSUP;
}

/* "tracepoint/GROUP/NAME" (or "tp/..."): the tracepoint's name, else NULL. */
static const char *tracepoint_of(const char *section)
{
    if (!strncmp(section, "tracepoint/", 11))
        return section + 11;
    if (!strncmp(section, "tp/", 3))
        return section + 3;
    return NULL;
}

int petw__bpf_load(const uint8_t *obj, size_t size, const char *name, petw__bpf **out, char *why,
                   size_t why_size)
{
    *out = NULL;
    say(why, why_size, "");
    const char *off = getenv("PETW_NO_BPF");
    if (off && *off && strcmp(off, "0")) {
        say(why, why_size, "BPF disabled (PETW_NO_BPF)");
        return PETW_ENOTSUP;
    }
    libbpf_set_print(quiet);
    petw__bpf *b = calloc(1, sizeof(*b));
    if (!b)
        return PETW_ENOMEM;
    LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = name);
    b->obj = bpf_object__open_mem(obj, size, &opts);
    if (!b->obj) {
        int e = errno;
        say(why, why_size, "the BPF object %s does not open (%s)", name, strerror(e));
        free(b);
        return PETW_ENOTSUP;
    }
    /* Programs whose tracepoint this kernel lacks are not loaded (a
     * syscall one architecture has and another not, a newer tracepoint). */
    struct bpf_program *p;
    bpf_object__for_each_program(p, b->obj)
    {
        const char *tp = tracepoint_of(bpf_program__section_name(p));
        if (tp && !petw__tracepoint_exists(tp))
            bpf_program__set_autoload(p, false);
    }
    int rc = bpf_object__load(b->obj);
    if (rc) {
        int e = errno ? errno : -rc;
        if (e == EPERM || e == EACCES)
            say(why, why_size,
                "BPF refused: loading programs needs root or CAP_BPF with CAP_PERFMON");
        else
            say(why, why_size, "the kernel does not load the BPF object %s (%s)", name,
                strerror(e));
        bpf_object__close(b->obj);
        free(b);
        return bpf_error(e);
    }
    *out = b;
    return 0;
}

int petw__bpf_map_update(petw__bpf *b, const char *map, const void *key, const void *value)
{
    struct bpf_map *m = bpf_object__find_map_by_name(b->obj, map);
    if (!m)
        return PETW_EINVAL;
    return bpf_map_update_elem(bpf_map__fd(m), key, value, BPF_ANY) ? bpf_error(errno) : 0;
}

int petw__bpf_map_lookup(petw__bpf *b, const char *map, const void *key, void *value)
{
    struct bpf_map *m = bpf_object__find_map_by_name(b->obj, map);
    if (!m)
        return PETW_EINVAL;
    return bpf_map_lookup_elem(bpf_map__fd(m), key, value) ? PETW_ENOENT : 0;
}

int petw__bpf_attach(petw__bpf *b, uint32_t *attached, char *why, size_t why_size)
{
    *attached = 0;
    say(why, why_size, "");
    size_t used = 0;
    struct bpf_program *p;
    bpf_object__for_each_program(p, b->obj)
    {
        const char *section = bpf_program__section_name(p);
        if (!bpf_program__autoload(p)) {
            const char *tp = tracepoint_of(section);
            if (why && used < why_size)
                used += (size_t)snprintf(why + used, why_size - used, "%s%s", used ? ", " : "",
                                         tp ? tp : section);
            continue;
        }
        if (b->link_count == MAX_LINKS)
            return PETW_ENOMEM;
        struct bpf_link *l = bpf_program__attach(p);
        if (!l) {
            int e = errno;
            say(why, why_size, "%s does not attach (%s)", section, strerror(e));
            return bpf_error(e);
        }
        b->links[b->link_count++] = l;
        (*attached)++;
    }
    return 0;
}

static int on_sample(void *ctx, void *data, size_t size)
{
    petw__bpf *b = ctx;
    b->fn(b->ctx, data, size);
    return 0;
}

int petw__bpf_ring(petw__bpf *b, const char *map, petw__bpf_fn fn, void *ctx)
{
    struct bpf_map *m = bpf_object__find_map_by_name(b->obj, map);
    if (!m || b->ring)
        return PETW_EINVAL;
    b->fn = fn;
    b->ctx = ctx;
    b->ring = ring_buffer__new(bpf_map__fd(m), on_sample, b, NULL);
    return b->ring ? 0 : bpf_error(errno);
}

int petw__bpf_poll(petw__bpf *b, uint32_t timeout_ms)
{
    if (!b->ring)
        return 0;
    int n =
        timeout_ms ? ring_buffer__poll(b->ring, (int)timeout_ms) : ring_buffer__consume(b->ring);
    return n < 0 && n != -EINTR ? bpf_error(n) : (n < 0 ? 0 : n);
}

void petw__bpf_detach(petw__bpf *b)
{
    for (uint32_t k = 0; b && k < b->link_count; k++)
        bpf_link__destroy(b->links[k]);
    if (b)
        b->link_count = 0;
}

int petw__bpf_stop(petw__bpf *b, uint32_t key)
{
    uint32_t one = 1;
    int rc = petw__bpf_map_update(b, "config", &key, &one);
    petw__sleep_ms(2);
    return rc;
}

static void destroy_link_fn(void *link)
{
    bpf_link__destroy(link);
}

void petw__bpf_close_async(petw__bpf *b)
{
    if (!b)
        return;
    /* Releasing a tracepoint's program waits for the kernel's grace
     * periods (tracepoint_synchronize_unregister: about 90 ms each here;
     * one after another, the file I/O program's 50 took 4.5 s). Each link
     * on a detached thread of its own, the waits overlap, and nothing is
     * joined: a process that exits meanwhile leaves the rest to the
     * kernel, which releases them the same way. The programs and maps
     * then close here at once, the links holding what they use. */
    for (uint32_t k = 0; k < b->link_count; k++)
        if (petw__thread_start_detached(destroy_link_fn, b->links[k]) != 0)
            bpf_link__destroy(b->links[k]);
    b->link_count = 0;
    petw__bpf_close(b);
}

void petw__bpf_close(petw__bpf *b)
{
    if (!b)
        return;
    petw__bpf_detach(b);
    ring_buffer__free(b->ring);
    bpf_object__close(b->obj);
    free(b);
}
