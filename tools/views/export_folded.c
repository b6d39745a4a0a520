/* SPDX-License-Identifier: MIT */
/* export_folded.c - `petw convert --to folded`: collapsed stacks, the text
 * flamegraph.pl, inferno, speedscope and Perfetto read: one line per
 * distinct stack as text (the process's name, then its frames root first,
 * inlined functions as frames, separated by ';'), a space and the sample
 * count; lines sorted, so equal stacks of several threads or addresses are
 * one line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_tool.h"

typedef struct line {
    char *text;
    uint64_t samples;
} line;

typedef struct folded {
    sbuf text;
    line *lines;
    uint32_t count, cap;
    uint32_t *slots, nslots; /* index + 1, 0: empty */
    int failed;
} folded;

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < n; k++)
        h = (h ^ (uint8_t)s[k]) * 0x100000001b3ull;
    return h;
}

static void add(folded *f, uint64_t samples)
{
    if (2 * (f->count + 1) > f->nslots) {
        uint32_t n = f->nslots ? 2 * f->nslots : 1024;
        uint32_t *slots = calloc(n, sizeof(*slots));
        if (!slots) {
            f->failed = 1;
            return;
        }
        for (uint32_t k = 0; k < f->count; k++) {
            const char *t = f->lines[k].text;
            uint32_t j = (uint32_t)hash(t, strlen(t)) & (n - 1);
            while (slots[j])
                j = (j + 1) & (n - 1);
            slots[j] = k + 1;
        }
        free(f->slots);
        f->slots = slots;
        f->nslots = n;
    }
    uint32_t j = (uint32_t)hash(f->text.data, f->text.len) & (f->nslots - 1);
    for (; f->slots[j]; j = (j + 1) & (f->nslots - 1)) {
        line *l = &f->lines[f->slots[j] - 1];
        if (strlen(l->text) == f->text.len && !memcmp(l->text, f->text.data, f->text.len)) {
            l->samples += samples;
            return;
        }
    }
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? 2 * f->cap : 256;
        line *l = realloc(f->lines, cap * sizeof(*l));
        if (!l) {
            f->failed = 1;
            return;
        }
        f->lines = l;
        f->cap = cap;
    }
    char *text = malloc(f->text.len + 1);
    if (!text) {
        f->failed = 1;
        return;
    }
    memcpy(text, f->text.data, f->text.len);
    text[f->text.len] = 0;
    f->lines[f->count] = (line){text, samples};
    f->slots[j] = ++f->count;
}

/* A frame name with the separators it cannot hold replaced. */
static void put_name(sbuf *b, const char *name, int root)
{
    for (const char *c = name; *c; c++)
        sbuf_putc(b, *c == ';' || (root && *c == ' ') ? '_' : *c == '\n' || *c == '\r' ? ' ' : *c);
}

static void on_frame(void *ctx, const petw_profile_location *l, const char *function,
                     const petw_source_line *src)
{
    (void)l;
    (void)src;
    sbuf *b = &((folded *)ctx)->text;
    sbuf_putc(b, ';');
    put_name(b, function, 0);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const line *)a)->text, ((const line *)b)->text);
}

int export_folded(const petw_profile *p, FILE *out, int value)
{
    folded f;
    memset(&f, 0, sizeof(f));
    for (uint32_t k = 0; k < petw_profile_stack_count(p) && !f.failed; k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        uint64_t v = stack_value(p, s, value == VALUE_BOTH ? VALUE_SAMPLES : value);
        if (!v)
            continue;
        char buf[32];
        f.text.len = 0;
        put_name(&f.text, process_label(p, s->pid, buf, sizeof(buf)), 1);
        stack_walk_root_first(p, s, 0, on_frame, &f);
        f.failed |= f.text.failed;
        if (!f.failed)
            add(&f, v);
    }
    int rc = f.failed ? -1 : 0;
    if (!rc)
        sort_rows(f.lines, f.count, sizeof(*f.lines), by_text);
    for (uint32_t k = 0; k < f.count; k++) {
        if (!rc && fprintf(out, "%s %" PRIu64 "\n", f.lines[k].text, f.lines[k].samples) < 0)
            rc = -1;
        free(f.lines[k].text);
    }
    free(f.lines);
    free(f.slots);
    sbuf_free(&f.text);
    return rc;
}
