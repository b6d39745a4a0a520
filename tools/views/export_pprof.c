/* SPDX-License-Identifier: MIT */
/* export_pprof.c - `petw convert --to pprof`: the model as pprof's
 * profile.proto (github.com/google/pprof, proto/profile.proto), gzipped,
 * which `go tool pprof`, Pyroscope, Grafana and speedscope read.
 *
 * Written with output_proto.h (the tools' one protobuf writer) from the
 * published field numbers; the gzip member holds stored deflate blocks
 * (RFC 1951 BTYPE 00) with its CRC-32, so no compression library is needed.
 * Samples: one per distinct stack, values [samples/count, cpu/nanoseconds];
 * a label "thread" names the thread; the process is the root location, as
 * perf's and samply's exports do. Locations are the model's (inlined frames
 * as several lines), one mapping per image file. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output_proto.h"
#include "analysis_tool.h"

/* ---- the string table: index 0 is "" ---- */

typedef struct strtab {
    char **items; /* copies */
    uint32_t count, cap;
    key_index index;
    int failed;
} strtab;

static const char *str_key(const void *items, uint32_t k)
{
    return ((char *const *)items)[k];
}

static uint32_t str_id(strtab *t, const char *s)
{
    if (!s)
        s = "";
    uint32_t slot;
    int found = key_index_find(&t->index, s, t->count, str_key, t->items, &slot);
    if (found > 0)
        return key_index_at(&t->index, slot);
    if (found < 0) {
        t->failed = 1;
        return 0;
    }
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 1024;
        char **items = realloc(t->items, cap * sizeof(*items));
        if (!items) {
            t->failed = 1;
            return 0;
        }
        t->items = items;
        t->cap = cap;
    }
    if (!(t->items[t->count] = strdup(s))) {
        t->failed = 1;
        return 0;
    }
    key_index_add(&t->index, slot, t->count);
    return t->count++;
}

/* ---- gzip with stored blocks ---- */

static uint32_t crc_table[256];

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    if (!crc_table[1])
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t c = k;
            for (int j = 0; j < 8; j++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            crc_table[k] = c;
        }
    crc = ~crc;
    for (size_t k = 0; k < n; k++)
        crc = crc_table[(crc ^ p[k]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static int write_gzip(FILE *out, const uint8_t *data, size_t n)
{
    static const uint8_t head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};
    int ok = fwrite(head, 1, sizeof(head), out) == sizeof(head);
    size_t at = 0;
    do {
        size_t len = n - at > 65535 ? 65535 : n - at;
        uint8_t bh[5] = {(uint8_t)(at + len == n), (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)~len,
                         (uint8_t)(~len >> 8)};
        ok &= fwrite(bh, 1, 5, out) == 5;
        ok &= len == 0 || fwrite(data + at, 1, len, out) == len;
        at += len;
    } while (at < n);
    uint32_t crc = crc32_update(0, data, n), size = (uint32_t)n;
    uint8_t tail[8] = {(uint8_t)crc,          (uint8_t)(crc >> 8),  (uint8_t)(crc >> 16),
                       (uint8_t)(crc >> 24),  (uint8_t)size,        (uint8_t)(size >> 8),
                       (uint8_t)(size >> 16), (uint8_t)(size >> 24)};
    ok &= fwrite(tail, 1, 8, out) == 8;
    return ok ? 0 : -1;
}

/* ---- the profile ---- */

typedef struct module_weight {
    const char *module;
    uint64_t samples;
    int kernel;
} module_weight;

static int by_weight(const void *a, const void *b)
{
    const module_weight *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel - y->kernel;
    return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : 0;
}

/* Functions: one per distinct (name, file). */
typedef struct fn_key {
    uint32_t name, file;
} fn_key;

/* What the export builds: the message, its scratch buffers, the string
 * table, and the functions and mappings numbered so far. */
typedef struct pprof_out {
    sbuf b, m, lab;
    strtab st;
    fn_key *fns; /* Functions (5) are numbered as met: one per distinct (name, file). */
    uint32_t nfn, fn_cap;
    const char **mods; /* Mappings (3): one per module name. */
    uint32_t nmod;
    int failed;      /* out of memory for a table */
    int sbuf_failed; /* a scratch buffer that failed and is gone */
} pprof_out;

/* Profile.sample_type (1): samples/count, cpu/nanoseconds (--value offcpu:
 * blocked time, offcpu/nanoseconds, alone). */
static void put_sample_types(pprof_out *o, int off)
{
    const char *types[2][2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
    if (off)
        types[0][0] = "offcpu", types[0][1] = "nanoseconds";
    for (int k = 0; k < 2 - off; k++) {
        o->m.len = 0;
        proto_field_varint(&o->m, 1, str_id(&o->st, types[k][0]));
        proto_field_varint(&o->m, 2, str_id(&o->st, types[k][1]));
        proto_field_bytes(&o->b, 1, o->m.data, o->m.len);
    }
}

/* Sample (2): location_id (1, packed, leaf first; a process is a root
 * location, numbered after the model's), value (2, packed), label (3). */
static void put_samples(const petw_profile *p, pprof_out *o, int off, uint64_t period)
{
    uint32_t nloc = petw_profile_location_count(p), nproc = petw_profile_process_count(p);
    uint32_t thread_key = str_id(&o->st, "thread"), pid_key = str_id(&o->st, "pid");
    sbuf ids = {0}, vals = {0};
    sbuf *m = &o->m, *lab = &o->lab;
    for (uint32_t k = 0; k < petw_profile_stack_count(p); k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        if (!(off ? s->offcpu : s->samples))
            continue;
        ids.len = vals.len = 0;
        m->len = 0;
        for (uint32_t j = 0; j < s->frame_count; j++)
            proto_varint(&ids, (uint64_t)s->frames[j] + 1);
        const petw_profile_process *pr = petw_profile_process_find(p, s->pid);
        uint32_t proc_index = UINT32_MAX;
        for (uint32_t j = 0; pr && j < nproc; j++)
            if (petw_profile_process_at(p, j) == pr)
                proc_index = j;
        if (proc_index != UINT32_MAX)
            proto_varint(&ids, (uint64_t)nloc + proc_index + 1);
        if (off) {
            proto_varint(&vals, s->offcpu * 100);
        } else {
            proto_varint(&vals, s->samples);
            proto_varint(&vals, s->samples * period);
        }
        proto_field_bytes(m, 1, ids.data, ids.len);
        proto_field_bytes(m, 2, vals.data, vals.len);
        lab->len = 0;
        proto_field_varint(lab, 1, thread_key);
        proto_field_varint(lab, 3, s->tid);
        proto_field_bytes(m, 3, lab->data, lab->len);
        lab->len = 0;
        proto_field_varint(lab, 1, pid_key);
        proto_field_varint(lab, 3, s->pid);
        proto_field_bytes(m, 3, lab->data, lab->len);
        proto_field_bytes(&o->b, 2, m->data, m->len);
    }
    o->sbuf_failed |= ids.failed || vals.failed;
    sbuf_free(&ids);
    sbuf_free(&vals);
}

/* The mappings' order: the first is what pprof calls the main binary, so
 * they go in order of self samples, user code first (o->mods). */
static void order_mappings(const petw_profile *p, pprof_out *o, int off)
{
    module_weight *w = NULL;
    uint32_t nw = 0;
    for (uint32_t k = 0; k < petw_profile_stack_count(p) && !o->failed; k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        uint64_t weight = off ? s->offcpu : s->samples;
        if (!weight)
            continue;
        const petw_profile_location *l = petw_profile_location_at(p, s->frames[0]);
        uint32_t j = 0;
        while (j < nw && w[j].module != l->module)
            j++;
        if (j == nw) {
            module_weight *g = realloc(w, (nw + 1) * sizeof(*w));
            if (!g) {
                o->failed = 1;
                break;
            }
            w = g;
            w[nw++] = (module_weight){l->module, 0, l->kernel};
        }
        w[j].samples += weight;
    }
    if (nw)
        sort_rows(w, nw, sizeof(*w), by_weight);
    if (!o->failed && nw && (o->mods = malloc(nw * sizeof(*o->mods))) != NULL)
        for (; o->nmod < nw; o->nmod++)
            o->mods[o->nmod] = w[o->nmod].module;
    free(w);
}

/* A location's mapping id (1-based), a new mapping for a module no sample
 * is in; 0 when out of memory (o->failed). */
static uint32_t mapping_id(pprof_out *o, const char *module)
{
    for (uint32_t j = 0; j < o->nmod; j++)
        if (o->mods[j] == module)
            return j + 1;
    const char **g = realloc(o->mods, (o->nmod + 1) * sizeof(*o->mods));
    if (!g) {
        o->failed = 1;
        return 0;
    }
    o->mods = g;
    o->mods[o->nmod++] = module;
    return o->nmod;
}

/* A function's id (1-based), numbered as met; 0 when out of memory (o->failed). */
static uint32_t function_id(pprof_out *o, const char *name, const char *file)
{
    fn_key key = {str_id(&o->st, name), str_id(&o->st, file)};
    for (uint32_t f = o->nfn; f-- > 0;) /* recent first: locations share functions */
        if (o->fns[f].name == key.name && o->fns[f].file == key.file)
            return f + 1;
    if (o->nfn == o->fn_cap) {
        uint32_t cap = o->fn_cap ? 2 * o->fn_cap : 256;
        fn_key *g = realloc(o->fns, cap * sizeof(*o->fns));
        if (!g) {
            o->failed = 1;
            return 0;
        }
        o->fns = g;
        o->fn_cap = cap;
    }
    o->fns[o->nfn++] = key;
    return o->nfn;
}

/* Location (4): id (1), mapping_id (2), address (3), line (4): innermost
 * first; the model's locations, then one per process. */
static void put_locations(const petw_profile *p, pprof_out *o)
{
    uint32_t nloc = petw_profile_location_count(p), nproc = petw_profile_process_count(p);
    sbuf *m = &o->m, *lab = &o->lab;
    for (uint32_t k = 0; k < nloc + nproc && !o->failed; k++) {
        const petw_profile_location *l = k < nloc ? petw_profile_location_at(p, k) : NULL;
        char buf[48];
        const char *proc_name = NULL;
        if (!l) {
            const petw_profile_process *pr = petw_profile_process_at(p, k - nloc);
            proc_name = process_label(p, pr->pid, buf, sizeof(buf));
            if (proc_name != buf) {
                snprintf(buf, sizeof(buf), "%.30s (%" PRIu32 ")", proc_name, pr->pid);
                proc_name = buf;
            }
        }
        uint32_t mapping = l ? mapping_id(o, l->module) : 0;
        if (o->failed)
            break;
        m->len = 0;
        proto_field_varint(m, 1, (uint64_t)k + 1);
        if (mapping)
            proto_field_varint(m, 2, mapping);
        if (l)
            proto_field_varint(m, 3, l->address);
        uint32_t nl = l ? (l->line_count ? l->line_count : 1) : 1;
        for (uint32_t j = 0; j < nl; j++) {
            const char *name = proc_name       ? proc_name
                               : l->line_count ? l->lines[j].function
                                               : l->name;
            const char *file = l && l->line_count && l->lines[j].file ? l->lines[j].file : "";
            uint32_t id = function_id(o, name, file);
            if (!id)
                break;
            lab->len = 0;
            proto_field_varint(lab, 1, id);
            if (l && l->line_count && l->lines[j].line)
                proto_field_varint(lab, 2, l->lines[j].line);
            proto_field_bytes(m, 4, lab->data, lab->len);
        }
        proto_field_bytes(&o->b, 4, m->data, m->len);
    }
}

/* Mappings (3), functions (5) and the string table (6). */
static void put_tables(pprof_out *o)
{
    sbuf *m = &o->m;
    for (uint32_t j = 0; j < o->nmod; j++) {
        /* Mapping: id (1), filename (5); has_functions, has_filenames,
         * has_line_numbers, has_inline_frames (7-10): symbolized already,
         * so pprof does not look for the binaries. */
        m->len = 0;
        proto_field_varint(m, 1, j + 1);
        proto_field_varint(m, 5, str_id(&o->st, o->mods[j]));
        for (uint32_t f = 7; f <= 10; f++)
            proto_field_varint(m, f, 1);
        proto_field_bytes(&o->b, 3, m->data, m->len);
    }
    for (uint32_t f = 0; f < o->nfn; f++) {
        /* Function: id (1), name (2), system_name (3), filename (4). */
        m->len = 0;
        proto_field_varint(m, 1, f + 1);
        proto_field_varint(m, 2, o->fns[f].name);
        proto_field_varint(m, 3, o->fns[f].name);
        proto_field_varint(m, 4, o->fns[f].file);
        proto_field_bytes(&o->b, 5, m->data, m->len);
    }
    for (uint32_t k = 0; k < o->st.count; k++) /* string_table (6) */
        proto_field_bytes(&o->b, 6, o->st.items[k], strlen(o->st.items[k]));
}

int export_pprof(const petw_profile *p, FILE *out, int value)
{
    int off = value == VALUE_OFFCPU;
    pprof_out o = {0};
    (void)str_id(&o.st, "");
    uint64_t period = (uint64_t)petw_profile_interval(p) * 100; /* ns */

    put_sample_types(&o, off);
    put_samples(p, &o, off, period);
    order_mappings(p, &o, off);
    put_locations(p, &o);
    put_tables(&o);
    int64_t first, last;
    petw_profile_bounds(p, &first, &last);
    if (first > 0) { /* time_nanos (9): FILETIME to Unix nanoseconds; duration_nanos (10) */
        proto_field_varint(&o.b, 9, (uint64_t)(first - 116444736000000000ll) * 100);
        proto_field_varint(&o.b, 10, (uint64_t)(last - first) * 100);
    }
    o.m.len = 0; /* period_type (11), period (12) */
    proto_field_varint(&o.m, 1, str_id(&o.st, "cpu"));
    proto_field_varint(&o.m, 2, str_id(&o.st, "nanoseconds"));
    proto_field_bytes(&o.b, 11, o.m.data, o.m.len);
    proto_field_varint(&o.b, 12, period);
    int failed =
        o.failed || o.sbuf_failed || o.b.failed || o.m.failed || o.lab.failed || o.st.failed;
    int rc = failed ? -1 : write_gzip(out, (const uint8_t *)o.b.data, o.b.len);
    free(o.fns);
    free(o.mods);
    for (uint32_t k = 0; k < o.st.count; k++)
        free(o.st.items[k]);
    free(o.st.items);
    key_index_free(&o.st.index);
    sbuf_free(&o.b);
    sbuf_free(&o.m);
    sbuf_free(&o.lab);
    return rc;
}
