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

int export_pprof(const petw_profile *p, FILE *out, int value)
{
    int off = value == VALUE_OFFCPU;
    sbuf b = {0}, m = {0};
    strtab st = {0};
    (void)str_id(&st, "");
    uint32_t nloc = petw_profile_location_count(p);
    uint64_t period = (uint64_t)petw_profile_interval(p) * 100; /* ns */

    /* Profile.sample_type (1) and period_type (11): samples/count, cpu/nanoseconds
     * (--value offcpu: blocked time, offcpu/nanoseconds, alone). */
    const char *types[2][2] = {{"samples", "count"}, {"cpu", "nanoseconds"}};
    if (off)
        types[0][0] = "offcpu", types[0][1] = "nanoseconds";
    for (int k = 0; k < 2 - off; k++) {
        m.len = 0;
        proto_field_varint(&m, 1, str_id(&st, types[k][0]));
        proto_field_varint(&m, 2, str_id(&st, types[k][1]));
        proto_field_bytes(&b, 1, m.data, m.len);
    }
    /* Processes are root locations (ids after the model's), one per pid. */
    uint32_t nproc = petw_profile_process_count(p);
    /* Sample (2): location_id (1, packed, leaf first), value (2, packed), label (3). */
    uint32_t thread_key = str_id(&st, "thread"), pid_key = str_id(&st, "pid");
    sbuf ids = {0}, vals = {0}, lab = {0};
    for (uint32_t k = 0; k < petw_profile_stack_count(p); k++) {
        const petw_profile_stack *s = petw_profile_stack_at(p, k);
        if (!(off ? s->offcpu : s->samples))
            continue;
        ids.len = vals.len = 0;
        m.len = 0;
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
        proto_field_bytes(&m, 1, ids.data, ids.len);
        proto_field_bytes(&m, 2, vals.data, vals.len);
        lab.len = 0;
        proto_field_varint(&lab, 1, thread_key);
        proto_field_varint(&lab, 3, s->tid);
        proto_field_bytes(&m, 3, lab.data, lab.len);
        lab.len = 0;
        proto_field_varint(&lab, 1, pid_key);
        proto_field_varint(&lab, 3, s->pid);
        proto_field_bytes(&m, 3, lab.data, lab.len);
        proto_field_bytes(&b, 2, m.data, m.len);
    }
    /* Functions (5) are numbered as met: one per distinct (name, file). */
    fn_key *fns = NULL;
    uint32_t nfn = 0, fn_cap = 0;
    /* Mappings (3): one per module name; the first is what pprof calls the
     * main binary, so they go in order of self samples, user code first. */
    const char **mods = NULL;
    uint32_t nmod = 0;
    int failed = 0;
    module_weight *w = NULL;
    uint32_t nw = 0;
    for (uint32_t k = 0; k < petw_profile_stack_count(p) && !failed; k++) {
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
                failed = 1;
                break;
            }
            w = g;
            w[nw++] = (module_weight){l->module, 0, l->kernel};
        }
        w[j].samples += weight;
    }
    if (nw)
        sort_rows(w, nw, sizeof(*w), by_weight);
    if (!failed && nw && (mods = malloc(nw * sizeof(*mods))) != NULL)
        for (; nmod < nw; nmod++)
            mods[nmod] = w[nmod].module;
    free(w);
    for (uint32_t k = 0; k < nloc + nproc && !failed; k++) {
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
        uint32_t mapping = 0;
        if (l) {
            for (uint32_t j = 0; j < nmod && !mapping; j++)
                if (mods[j] == l->module)
                    mapping = j + 1;
            if (!mapping) {
                const char **g = realloc(mods, (nmod + 1) * sizeof(*mods));
                if (!g) {
                    failed = 1;
                    break;
                }
                mods = g;
                mods[nmod++] = l->module;
                mapping = nmod;
            }
        }
        /* Location: id (1), mapping_id (2), address (3), line (4): innermost first. */
        m.len = 0;
        proto_field_varint(&m, 1, (uint64_t)k + 1);
        if (mapping)
            proto_field_varint(&m, 2, mapping);
        if (l)
            proto_field_varint(&m, 3, l->address);
        uint32_t nl = l ? (l->line_count ? l->line_count : 1) : 1;
        for (uint32_t j = 0; j < nl; j++) {
            const char *name = proc_name       ? proc_name
                               : l->line_count ? l->lines[j].function
                                               : l->name;
            const char *file = l && l->line_count && l->lines[j].file ? l->lines[j].file : "";
            fn_key key = {str_id(&st, name), str_id(&st, file)};
            uint32_t id = 0;
            for (uint32_t f = nfn; f-- > 0 && !id;) /* recent first: locations share functions */
                if (fns[f].name == key.name && fns[f].file == key.file)
                    id = f + 1;
            if (!id) {
                if (nfn == fn_cap) {
                    uint32_t cap = fn_cap ? 2 * fn_cap : 256;
                    fn_key *g = realloc(fns, cap * sizeof(*fns));
                    if (!g) {
                        failed = 1;
                        break;
                    }
                    fns = g;
                    fn_cap = cap;
                }
                fns[nfn++] = key;
                id = nfn;
            }
            lab.len = 0;
            proto_field_varint(&lab, 1, id);
            if (l && l->line_count && l->lines[j].line)
                proto_field_varint(&lab, 2, l->lines[j].line);
            proto_field_bytes(&m, 4, lab.data, lab.len);
        }
        proto_field_bytes(&b, 4, m.data, m.len);
    }
    for (uint32_t j = 0; j < nmod; j++) {
        /* Mapping: id (1), filename (5); has_functions, has_filenames,
         * has_line_numbers, has_inline_frames (7-10): symbolized already,
         * so pprof does not look for the binaries. */
        m.len = 0;
        proto_field_varint(&m, 1, j + 1);
        proto_field_varint(&m, 5, str_id(&st, mods[j]));
        for (uint32_t f = 7; f <= 10; f++)
            proto_field_varint(&m, f, 1);
        proto_field_bytes(&b, 3, m.data, m.len);
    }
    for (uint32_t f = 0; f < nfn; f++) {
        /* Function: id (1), name (2), system_name (3), filename (4). */
        m.len = 0;
        proto_field_varint(&m, 1, f + 1);
        proto_field_varint(&m, 2, fns[f].name);
        proto_field_varint(&m, 3, fns[f].name);
        proto_field_varint(&m, 4, fns[f].file);
        proto_field_bytes(&b, 5, m.data, m.len);
    }
    for (uint32_t k = 0; k < st.count; k++) /* string_table (6) */
        proto_field_bytes(&b, 6, st.items[k], strlen(st.items[k]));
    int64_t first, last;
    petw_profile_bounds(p, &first, &last);
    if (first > 0) { /* time_nanos (9): FILETIME to Unix nanoseconds; duration_nanos (10) */
        proto_field_varint(&b, 9, (uint64_t)(first - 116444736000000000ll) * 100);
        proto_field_varint(&b, 10, (uint64_t)(last - first) * 100);
    }
    m.len = 0; /* period_type (11), period (12) */
    proto_field_varint(&m, 1, str_id(&st, "cpu"));
    proto_field_varint(&m, 2, str_id(&st, "nanoseconds"));
    proto_field_bytes(&b, 11, m.data, m.len);
    proto_field_varint(&b, 12, period);
    failed |= b.failed || m.failed || ids.failed || vals.failed || lab.failed || st.failed;
    int rc = failed ? -1 : write_gzip(out, (const uint8_t *)b.data, b.len);
    free(fns);
    free(mods);
    for (uint32_t k = 0; k < st.count; k++)
        free(st.items[k]);
    free(st.items);
    key_index_free(&st.index);
    sbuf_free(&b);
    sbuf_free(&m);
    sbuf_free(&ids);
    sbuf_free(&vals);
    sbuf_free(&lab);
    return rc;
}
