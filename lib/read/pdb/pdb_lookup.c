/* SPDX-License-Identifier: MIT */
/* pdb_lookup.c - an address to its source frames: the section and offset
 * of an RVA (section headers), the module that holds it (section
 * contributions), that module's procedures (S_*PROC32, indexed when the
 * module is first read), the inline sites within the procedure that cover
 * the address (S_INLINESITE and S_INLINESITE2: binary annotations give their
 * code ranges and line offsets, DEBUG_S_INLINEELINES their first line and
 * file) and the procedure's line (DEBUG_S_LINES, DEBUG_S_FILECHKSMS and the
 * "/names" table). Every offset a record gives is checked against the
 * module stream before it is followed.
 *
 * Allowed dependencies: common, platform.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_internal.h"

/* Symbol record kinds (CodeView). */
#define S_END 0x0006
#define S_LPROC32 0x110f
#define S_GPROC32 0x1110
#define S_LPROC32_ID 0x1146
#define S_GPROC32_ID 0x1147
#define S_INLINESITE 0x114d
#define S_INLINESITE_END 0x114e
#define S_PROC_ID_END 0x114f
#define S_LPROC32_DPC 0x1155
#define S_LPROC32_DPC_ID 0x1156
#define S_INLINESITE2 0x115d

/* C13 debug subsections. */
#define DEBUG_S_IGNORE 0x80000000u
#define DEBUG_S_LINES 0xf2
#define DEBUG_S_FILECHKSMS 0xf4
#define DEBUG_S_INLINEELINES 0xf6

#define MAX_INLINE_DEPTH 64

static int is_proc(uint16_t kind)
{
    return kind == S_LPROC32 || kind == S_GPROC32 || kind == S_LPROC32_ID || kind == S_GPROC32_ID ||
           kind == S_LPROC32_DPC || kind == S_LPROC32_DPC_ID;
}

/* ---- a module's streams ---- */

static int by_proc(const void *a, const void *b)
{
    const pdb_proc *x = a, *y = b;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_line_block(const void *a, const void *b)
{
    const pdb_line_block *x = a, *y = b;
    if (x->segment != y->segment)
        return x->segment < y->segment ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Indexes the top-level procedures: each one's End leads past its scope. */
static int index_procs(pdb_module_data *d)
{
    uint32_t cap = 0;
    for (uint32_t at = 4; d->symbols_end - at >= 4;) {
        uint32_t len = petw__rd16(d->bytes + at);
        uint16_t kind = petw__rd16(d->bytes + at + 2);
        if (len < 2 || len > d->symbols_end - at - 2)
            break; /* damaged: what came before stays usable */
        uint32_t next = at + 2 + len;
        if (is_proc(kind) && len >= 2 + 35) {
            const uint8_t *r = d->bytes + at + 4;
            if (d->proc_count == cap &&
                petw__array_grow((void **)&d->procs, &cap, d->proc_count, sizeof(pdb_proc)) < 0)
                return PETW_ENOMEM;
            d->procs[d->proc_count++] =
                (pdb_proc){petw__rd16(r + 32), petw__rd32(r + 28), petw__rd32(r + 12), at};
            uint32_t end = petw__rd32(r + 4);
            if (end > at && end < d->symbols_end && d->symbols_end - end >= 4) {
                uint32_t end_len = petw__rd16(d->bytes + end);
                if (end_len >= 2 && end_len <= d->symbols_end - end - 2)
                    next = end + 2 + end_len;
            }
        }
        at = next;
    }
    if (d->proc_count)
        qsort(d->procs, d->proc_count, sizeof(pdb_proc), by_proc);
    return 0;
}

static int index_subsections(pdb_module_data *d, uint32_t at, uint32_t end)
{
    uint32_t line_cap = 0, inlinee_cap = 0;
    while (end - at >= 8) {
        uint32_t kind = petw__rd32(d->bytes + at), len = petw__rd32(d->bytes + at + 4);
        at += 8;
        if (len > end - at)
            break;
        if (kind == DEBUG_S_LINES && len >= 12) {
            if (d->line_count == line_cap &&
                petw__array_grow((void **)&d->lines, &line_cap, d->line_count,
                                 sizeof(pdb_line_block)) < 0)
                return PETW_ENOMEM;
            const uint8_t *h = d->bytes + at;
            d->lines[d->line_count++] =
                (pdb_line_block){petw__rd16(h + 4), petw__rd32(h), petw__rd32(h + 8), at, len};
        } else if (kind == DEBUG_S_FILECHKSMS && !d->checksums_at) {
            d->checksums_at = at;
            d->checksums_length = len;
        } else if (kind == DEBUG_S_INLINEELINES && len >= 4) {
            if (d->inlinee_count == inlinee_cap) {
                uint32_t cap = inlinee_cap;
                if (petw__array_grow((void **)&d->inlinee_at, &cap, d->inlinee_count, 4) < 0 ||
                    petw__array_grow((void **)&d->inlinee_length, &inlinee_cap, d->inlinee_count,
                                     4) < 0)
                    return PETW_ENOMEM;
            }
            d->inlinee_at[d->inlinee_count] = at;
            d->inlinee_length[d->inlinee_count++] = len;
        }
        uint32_t padded = (len + 3) & ~3u;
        if (padded > end - at)
            break;
        at += padded;
    }
    if (d->line_count)
        qsort(d->lines, d->line_count, sizeof(pdb_line_block), by_line_block);
    return 0;
}

static void module_drop(petw_pdb *pdb, pdb_module *m)
{
    pdb_module_data *d = m->data;
    if (!d)
        return;
    pdb->cached_bytes -= d->size;
    free(d->bytes);
    free(d->procs);
    free(d->lines);
    free(d->inlinee_at);
    free(d->inlinee_length);
    free(d);
    m->data = NULL;
}

static int module_load(petw_pdb *pdb, uint32_t index, pdb_module_data **out)
{
    pdb_module *m = &pdb->modules[index];
    if (m->data) {
        *out = m->data;
        return 0;
    }
    pdb_module_data *d = calloc(1, sizeof(*d));
    PETW__RETURN_IF(!d, PETW_ENOMEM);
    uint64_t need = (uint64_t)m->symbol_bytes + m->c11_bytes + m->c13_bytes;
    if (m->stream != PDB_NO_STREAM && need) {
        uint32_t have = petw__pdb_stream_size(pdb, m->stream);
        if (need > have || need > PDB_MAX_MODULE_STREAM || m->symbol_bytes < 4) {
            free(d);
            return petw__pdb_fail(pdb, PETW_ECORRUPT,
                                  "module %u (%s): its stream %u holds %u bytes, its header "
                                  "says %llu",
                                  index, m->name, m->stream, have, (unsigned long long)need);
        }
        if (pdb->cached_bytes + need > PDB_MAX_CACHED)
            for (uint32_t i = 0; i < pdb->module_count; i++)
                module_drop(pdb, &pdb->modules[i]);
        d->size = (uint32_t)need;
        d->bytes = malloc(d->size);
        int rc =
            d->bytes ? petw__pdb_stream_read(pdb, m->stream, 0, d->bytes, d->size) : PETW_ENOMEM;
        d->symbols_end = m->symbol_bytes;
        if (rc == 0)
            rc = index_procs(d);
        if (rc == 0)
            rc = index_subsections(d, m->symbol_bytes + m->c11_bytes, d->size);
        if (rc < 0) {
            free(d->bytes);
            free(d->procs);
            free(d->lines);
            free(d->inlinee_at);
            free(d->inlinee_length);
            free(d);
            return rc;
        }
    }
    pdb->cached_bytes += d->size;
    m->data = d;
    *out = d;
    return 0;
}

/* ---- lines ---- */

static const char *file_name(petw_pdb *pdb, pdb_module_data *d, uint32_t checksum)
{
    if (!d->checksums_at || checksum > d->checksums_length || d->checksums_length - checksum < 4)
        return NULL;
    return petw__pdb_name(pdb, petw__rd32(d->bytes + d->checksums_at + checksum));
}

/* The line of (segment, offset) in the module's line table: 1 when found. */
static int line_at(pdb_module_data *d, uint16_t segment, uint32_t offset, uint32_t *line,
                   uint32_t *checksum)
{
    uint32_t lo = 0, hi = d->line_count;
    while (lo < hi) { /* the first block past (segment, offset) */
        uint32_t mid = lo + (hi - lo) / 2;
        const pdb_line_block *b = &d->lines[mid];
        if (b->segment < segment || (b->segment == segment && b->offset <= offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return 0;
    const pdb_line_block *b = &d->lines[lo - 1];
    if (b->segment != segment || offset - b->offset >= b->size)
        return 0;
    const uint8_t *p = d->bytes + b->at;
    uint32_t has_columns = petw__rd16(p + 6) & 1;
    uint32_t want = offset - b->offset, best = 0;
    uint32_t first_line = 0, first_checksum = 0;
    int found = 0, have_first = 0;
    for (uint32_t at = 12; b->length - at >= 12;) {
        uint32_t file = petw__rd32(p + at), n = petw__rd32(p + at + 4);
        uint32_t size = petw__rd32(p + at + 8);
        uint64_t need = 12 + (uint64_t)n * (has_columns ? 12 : 8);
        if (size < need || size > b->length - at)
            break;
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *e = p + at + 12 + 8 * (size_t)i;
            uint32_t o = petw__rd32(e), l = petw__rd32(e + 4) & 0xFFFFFFu;
            if (!have_first) {
                have_first = 1;
                first_line = l;
                first_checksum = file;
            }
            /* An entry at the address (the first of several there), else
             * the last of the entries at the greatest offset before it:
             * where llvm-symbolizer and DIA land on equal offsets. */
            if (found == 2)
                continue;
            if (o == want || (o < want && (!found || o >= best))) {
                best = o;
                found = o == want ? 2 : 1;
                *line = l;
                *checksum = file;
            }
        }
        at += size;
    }
    if (!found && have_first) {
        /* Code before the first entry: the range's first line, as
         * llvm-symbolizer and DIA take it. */
        *line = first_line;
        *checksum = first_checksum;
        found = 1;
    }
    return found;
}

/* The first line and file of inlinee `id` (DEBUG_S_INLINEELINES). */
static int inlinee_line(pdb_module_data *d, uint32_t id, uint32_t *line, uint32_t *checksum)
{
    for (uint32_t k = 0; k < d->inlinee_count; k++) {
        const uint8_t *p = d->bytes + d->inlinee_at[k];
        uint32_t len = d->inlinee_length[k];
        uint32_t extra = petw__rd32(p) == 1;
        for (uint32_t at = 4; len - at >= 12;) {
            uint32_t inlinee = petw__rd32(p + at);
            if (inlinee == id) {
                *checksum = petw__rd32(p + at + 4);
                *line = petw__rd32(p + at + 8);
                return 1;
            }
            at += 12;
            if (extra) {
                if (len - at < 4)
                    break;
                uint32_t n = petw__rd32(p + at);
                if (n > (len - at - 4) / 4)
                    break;
                at += 4 + 4 * n;
            }
        }
    }
    return 0;
}

/* ---- inline sites ---- */

/* Binary annotations: compressed unsigned numbers (1, 2 or 4 bytes). */
static int annotation(const uint8_t *p, uint32_t n, uint32_t *at, uint32_t *v)
{
    if (*at >= n)
        return 0;
    uint8_t b = p[(*at)++];
    if (!(b & 0x80)) {
        *v = b;
        return 1;
    }
    if ((b & 0xC0) == 0x80) {
        if (*at >= n)
            return 0;
        *v = ((uint32_t)(b & 0x3F) << 8) | p[(*at)++];
        return 1;
    }
    if ((b & 0xE0) == 0xC0) {
        if (n - *at < 3)
            return 0;
        *v = ((uint32_t)(b & 0x1F) << 24) | ((uint32_t)p[*at] << 16) | ((uint32_t)p[*at + 1] << 8) |
             p[*at + 2];
        *at += 3;
        return 1;
    }
    return 0;
}

static int32_t signed_annotation(uint32_t v)
{
    return (v & 1) ? -(int32_t)(v >> 1) : (int32_t)(v >> 1);
}

enum {
    BA_CODE_OFFSET = 1,
    BA_CHANGE_CODE_OFFSET_BASE,
    BA_CHANGE_CODE_OFFSET,
    BA_CHANGE_CODE_LENGTH,
    BA_CHANGE_FILE,
    BA_CHANGE_LINE_OFFSET,
    BA_CHANGE_LINE_END_DELTA,
    BA_CHANGE_RANGE_KIND,
    BA_CHANGE_COLUMN_START,
    BA_CHANGE_COLUMN_END_DELTA,
    BA_CHANGE_CODE_OFFSET_AND_LINE_OFFSET,
    BA_CHANGE_CODE_LENGTH_AND_CODE_OFFSET,
    BA_CHANGE_COLUMN_END,
};

/* Whether the code ranges an inline site's annotations describe cover
 * `want` (an offset from the start of the procedure), and if so the line
 * offset (from the inlinee's first line) and file there (0: the
 * inlinee's). Each range starts where the code offset moves (ChangeCodeOffset
 * and its combined forms, taking the line and file as they are then) and
 * ends at the next move or after ChangeCodeLength. */
static int site_covers(const uint8_t *p, uint32_t n, uint32_t want, uint32_t function_size,
                       int32_t *line_offset, uint32_t *file)
{
    uint32_t code = 0, cur_file = 0, open_file = 0, at = 0, op, a, b;
    int32_t line = 0, open_line = 0;
    int open = 0;
    uint32_t open_start = 0;
#define CLOSE(end)                                                                                 \
    do {                                                                                           \
        if (open && want >= open_start && want < (end)) {                                          \
            *line_offset = open_line;                                                              \
            *file = open_file;                                                                     \
            return 1;                                                                              \
        }                                                                                          \
        open = 0;                                                                                  \
    } while (0)
#define OPEN()                                                                                     \
    do {                                                                                           \
        open = 1;                                                                                  \
        open_start = code;                                                                         \
        open_line = line;                                                                          \
        open_file = cur_file;                                                                      \
    } while (0)
    while (annotation(p, n, &at, &op) && op != 0) {
        /* Every opcode has an operand (one more for the combined length and
         * offset); an unknown opcode ends the walk. */
        if (op > BA_CHANGE_COLUMN_END || !annotation(p, n, &at, &a))
            return 0;
        switch (op) {
        case BA_CODE_OFFSET:
            code = a;
            break;
        case BA_CHANGE_CODE_OFFSET:
            CLOSE(code + a);
            code += a;
            OPEN();
            break;
        case BA_CHANGE_CODE_LENGTH:
            CLOSE(code + a);
            code += a;
            break;
        case BA_CHANGE_FILE:
            cur_file = a;
            break;
        case BA_CHANGE_LINE_OFFSET:
            line += signed_annotation(a);
            break;
        case BA_CHANGE_CODE_OFFSET_AND_LINE_OFFSET:
            line += signed_annotation(a >> 4);
            CLOSE(code + (a & 0xF));
            code += a & 0xF;
            OPEN();
            break;
        case BA_CHANGE_CODE_LENGTH_AND_CODE_OFFSET:
            if (!annotation(p, n, &at, &b))
                return 0;
            CLOSE(code + b);
            code += b;
            OPEN();
            CLOSE(code + a);
            code += a;
            break;
        default: /* the offset base, line end, range kind, columns: not used */
            break;
        }
    }
    CLOSE(function_size); /* a range never closed runs to the procedure's end */
    return 0;
#undef CLOSE
#undef OPEN
}

typedef struct site {
    uint32_t inlinee;
    int32_t line_offset;
    uint32_t file;
} site;

/* The inline sites of the procedure at `record` that cover `want`,
 * outermost first. */
static uint32_t find_sites(const pdb_module_data *d, uint32_t record, uint32_t want,
                           uint32_t function_size, site *sites)
{
    uint32_t depth = 0;
    uint32_t end = petw__rd32(d->bytes + record + 4 + 4);
    if (end <= record || end > d->symbols_end)
        end = d->symbols_end;
    uint32_t at = record + 2 + petw__rd16(d->bytes + record);
    while (at < end && end - at >= 4) {
        uint32_t len = petw__rd16(d->bytes + at);
        uint16_t kind = petw__rd16(d->bytes + at + 2);
        if (len < 2 || len > end - at - 2)
            break;
        uint32_t next = at + 2 + len;
        if ((kind == S_INLINESITE && len >= 14) || (kind == S_INLINESITE2 && len >= 18)) {
            const uint8_t *r = d->bytes + at + 4;
            uint32_t skip = kind == S_INLINESITE ? 12 : 16;
            site s = {petw__rd32(r + 8), 0, 0};
            uint32_t site_end = petw__rd32(r + 4);
            if (site_covers(r + skip, len - 2 - skip, want, function_size, &s.line_offset,
                            &s.file)) {
                if (depth == MAX_INLINE_DEPTH)
                    break;
                sites[depth++] = s;
                if (site_end > at && site_end < end)
                    end = site_end; /* what is inlined further lies within */
            } else if (site_end > at && site_end < end) {
                next = site_end; /* its S_INLINESITE_END, skipped next */
            }
        }
        at = next;
    }
    return depth;
}

/* ---- lookup ---- */

static int section_offset(const petw_pdb *pdb, uint32_t rva, uint16_t *segment, uint32_t *offset)
{
    for (uint32_t i = 0; i < pdb->section_count; i++) {
        const pdb_section *s = &pdb->sections[i];
        if (rva >= s->rva && rva - s->rva < s->size) {
            *segment = (uint16_t)(i + 1);
            *offset = rva - s->rva;
            return 1;
        }
    }
    return 0;
}

static int module_of(const petw_pdb *pdb, uint16_t segment, uint32_t offset, uint32_t *module)
{
    uint32_t lo = 0, hi = pdb->contribution_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const pdb_contribution *c = &pdb->contributions[mid];
        if (c->section < segment || (c->section == segment && c->offset <= offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return 0;
    const pdb_contribution *c = &pdb->contributions[lo - 1];
    if (c->section != segment || offset - c->offset >= c->size)
        return 0;
    *module = c->module;
    return 1;
}

static const pdb_proc *proc_at(const pdb_module_data *d, uint16_t segment, uint32_t offset)
{
    uint32_t lo = 0, hi = d->proc_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const pdb_proc *p = &d->procs[mid];
        if (p->segment < segment || (p->segment == segment && p->offset <= offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const pdb_proc *p = &d->procs[lo - 1];
    if (p->segment != segment || offset - p->offset >= p->size)
        return NULL;
    return p;
}

static const char *record_name(petw_pdb *pdb, const pdb_module_data *d, uint32_t record,
                               uint32_t at)
{
    uint32_t len = petw__rd16(d->bytes + record);
    if (at >= len + 2)
        return NULL;
    const char *s = (const char *)d->bytes + record + at;
    const char *nul = memchr(s, 0, len + 2 - at);
    return petw__pdb_intern(pdb, s, nul ? (size_t)(nul - s) : len + 2 - at);
}

/* The public at or before (segment, offset) in the same segment. */
static const pdb_public *public_at(const petw_pdb *pdb, uint16_t segment, uint32_t offset)
{
    uint32_t lo = 0, hi = pdb->public_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const pdb_public *p = &pdb->publics[mid];
        if (p->segment < segment || (p->segment == segment && p->offset <= offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo || pdb->publics[lo - 1].segment != segment)
        return NULL;
    return &pdb->publics[lo - 1];
}

int petw_pdb_lookup(petw_pdb *pdb, uint32_t rva, petw_pdb_frame *frames, uint32_t max,
                    uint32_t *count)
{
    PETW__RETURN_IF(!pdb || !count || (max && !frames), PETW_EINVAL);
    *count = 0;
    pdb->error[0] = 0;
    uint16_t segment;
    uint32_t offset, module;
    if (!max || !section_offset(pdb, rva, &segment, &offset))
        return 0;
    pdb_module_data *d = NULL;
    const pdb_proc *proc = NULL;
    if (module_of(pdb, segment, offset, &module)) {
        PETW__FORWARD_IF_ERROR(module_load(pdb, module, &d));
        proc = proc_at(d, segment, offset);
    }
    const char *function = NULL;
    if (proc) {
        function = record_name(pdb, d, proc->record, 4 + 35);
    } else if (!d || !d->proc_count) {
        /* No module symbols here (a stripped PDB, or code of no object
         * file the DBI lists): the public before it names it. */
        PETW__FORWARD_IF_ERROR(petw__pdb_load_publics(pdb));
        const pdb_public *p = public_at(pdb, segment, offset);
        if (p)
            function = petw__pdb_public_name(pdb, p->record);
    }
    if (!function)
        return 0;

    site sites[MAX_INLINE_DEPTH];
    uint32_t depth =
        proc ? find_sites(d, proc->record, offset - proc->offset, proc->size, sites) : 0;
    uint32_t n = 0;
    for (uint32_t k = depth; k-- > 0 && n < max;) {
        uint32_t line = 0, checksum = 0;
        const char *name = petw__pdb_inlinee_name(pdb, sites[k].inlinee);
        petw_pdb_frame *f = &frames[n++];
        f->function = name ? name : "??";
        f->file = NULL;
        f->line = 0;
        if (inlinee_line(d, sites[k].inlinee, &line, &checksum)) {
            f->file = file_name(pdb, d, sites[k].file ? sites[k].file : checksum);
            f->line = (uint32_t)((int32_t)line + sites[k].line_offset);
        }
    }
    if (n < max) {
        uint32_t line = 0, checksum = 0;
        petw_pdb_frame *f = &frames[n++];
        f->function = function;
        f->file = NULL;
        f->line = 0;
        if (d && line_at(d, segment, offset, &line, &checksum)) {
            f->file = file_name(pdb, d, checksum);
            f->line = line;
        }
    }
    *count = n;
    return 0;
}
