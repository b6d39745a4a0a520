/* SPDX-License-Identifier: MIT */
/* wpp.c - reading WPP's trace message format (TMF) files. The format, as
 * tracepdb writes it:
 *
 *   // comments (the PDB's name, ...)
 *   <message GUID> <component> // SRC=<file> MJ= MN=
 *   #typev <file_line> <number> "<format>" // LEVEL=<l> FLAGS=<f> FUNC=<fn>
 *   {
 *   <argument expression>, <item type> -- <N>
 *   }
 *
 * The format's %0 is the prefix tracefmt puts before a message (it is
 * dropped); %1 to %9 are the fixed inserts (component, file_line, thread,
 * time, kernel time, user time, sequence, process, CPU) and %10 onwards the
 * arguments, each with a printf format between exclamation marks.
 *
 * Then the decoder's side: a TraceMessage record's arguments as fields,
 * as the TMF message its GUID and number name describes them, and the
 * message's text with its inserts.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include "wpp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/common/common.h"
#include "decode_internal.h"

/* Strings and argument lists live in blocks that never move. */
typedef struct block {
    struct block *next;
    size_t used, cap;
    char data[];
} block;

struct petw__wpp {
    petw__wpp_message *messages;
    uint32_t count, cap;
    block *blocks;
};

static void *take(petw__wpp *w, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    block *b = w->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = malloc(sizeof(block) + cap);
        if (!b)
            return NULL;
        b->next = w->blocks;
        b->used = 0;
        b->cap = cap;
        w->blocks = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

static const char *copy(petw__wpp *w, const char *s, size_t n)
{
    char *c = take(w, n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = 0;
    }
    return c;
}

static const char *trim(const char *s, const char *end, size_t *n)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    *n = (size_t)(end - s);
    return s;
}

/* The value of `key`=... in a comment, up to the next blank; "" if absent. */
static const char *attribute(petw__wpp *w, const char *s, const char *end, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = s; p + k < end; p++) {
        if ((p == s || p[-1] == ' ' || p[-1] == '\t') && !memcmp(p, key, k) && p[k] == '=') {
            const char *v = p + k + 1, *e = v;
            while (e < end && *e != ' ' && *e != '\t' && *e != '\r')
                e++;
            return copy(w, v, (size_t)(e - v));
        }
    }
    return "";
}

static const char *find_last(const char *s, const char *end, const char *what)
{
    size_t n = strlen(what);
    for (const char *p = end - n; p >= s; p--)
        if (!memcmp(p, what, n))
            return p;
    return NULL;
}

static const struct {
    const char *name;
    petw__wpp_item item;
    uint8_t size;
} items[] = {
    {"ItemChar", PETW__WPP_INT, 1},         {"ItemUChar", PETW__WPP_UINT, 1},
    {"ItemShort", PETW__WPP_INT, 2},        {"ItemUShort", PETW__WPP_UINT, 2},
    {"ItemLong", PETW__WPP_INT, 4},         {"ItemULong", PETW__WPP_UINT, 4},
    {"ItemULongX", PETW__WPP_HEX, 4},       {"ItemLongLong", PETW__WPP_INT, 8},
    {"ItemULongLong", PETW__WPP_UINT, 8},   {"ItemLongLongX", PETW__WPP_HEX, 8},
    {"ItemULongLongX", PETW__WPP_HEX, 8},   {"ItemLongLongXX", PETW__WPP_HEX, 8},
    {"ItemPtr", PETW__WPP_POINTER, 0},      {"ItemString", PETW__WPP_STRING, 0},
    {"ItemRString", PETW__WPP_STRING, 0},   {"ItemWString", PETW__WPP_WSTRING, 0},
    {"ItemRWString", PETW__WPP_WSTRING, 0}, {"ItemGuid", PETW__WPP_GUID, 16},
    {"ItemDouble", PETW__WPP_DOUBLE, 8},    {"ItemNTSTATUS", PETW__WPP_HEX, 4},
    {"ItemHRESULT", PETW__WPP_HEX, 4},      {"ItemWINERROR", PETW__WPP_UINT, 4},
    {"ItemSetLong", PETW__WPP_HEX, 4},      {"ItemSetShort", PETW__WPP_HEX, 2},
    {"ItemSetByte", PETW__WPP_HEX, 1},      {"ItemListLong", PETW__WPP_ENUM, 4},
    {"ItemListShort", PETW__WPP_ENUM, 2},   {"ItemListByte", PETW__WPP_ENUM, 1},
    {"ItemPort", PETW__WPP_UINT, 2},        {"ItemIPAddr", PETW__WPP_HEX, 4},
    {"ItemTimestamp", PETW__WPP_UINT, 8},   {"ItemEnum", PETW__WPP_UINT, 4},
};

/* "<expression>, <item> -- <N>" into *a; 0, or -1 when malformed. */
static int parse_arg(petw__wpp *w, const char *s, const char *end, petw__wpp_arg *a)
{
    const char *dash = find_last(s, end, "--");
    const char *comma = dash ? find_last(s, dash, ", Item") : NULL;
    if (!dash || !comma)
        return -1;
    memset(a, 0, sizeof(*a));
    size_t n;
    const char *name = trim(s, comma, &n);
    a->name = copy(w, name, n);
    const char *num = dash + 2;
    while (num < end && (*num == ' ' || *num == '\t'))
        num++;
    a->number = (uint32_t)strtoul(num, NULL, 10);
    const char *type = trim(comma + 1, dash, &n);
    const char *paren = memchr(type, '(', n);
    size_t tn = paren ? (size_t)(paren - type) : n;
    a->item = PETW__WPP_UNKNOWN;
    for (size_t i = 0; i < PETW__ARRAY_SIZE(items); i++) {
        if (strlen(items[i].name) == tn && !memcmp(items[i].name, type, tn)) {
            a->item = items[i].item;
            a->size = items[i].size;
        }
    }
    if (a->item == PETW__WPP_ENUM && paren) { /* ItemListLong(A,B,C): value k is the k-th name */
        const char *close = memchr(paren, ')', (size_t)(type + n - paren));
        size_t len = close ? (size_t)(close - paren - 1) : 0;
        char *labels = take(w, len + 2);
        if (!labels || !a->name)
            return -2;
        memcpy(labels, paren + 1, len);
        labels[len] = labels[len + 1] = 0;
        a->label_count = len ? 1 : 0;
        for (size_t i = 0; i < len; i++)
            if (labels[i] == ',') {
                labels[i] = 0;
                a->label_count++;
            }
        a->labels = labels;
    } else if (a->item == PETW__WPP_ENUM) {
        a->item = PETW__WPP_UINT;
    }
    return a->name ? 0 : -2;
}

static int is_guid_line(const char *s, const char *end)
{
    return end - s > 37 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-' &&
           (s[36] == ' ' || s[36] == '\t');
}

/* A TMF file being read: the messages so far, the message GUID line in
 * force, and the argument list of the last #typev while inside its braces. */
typedef struct tmf_parse {
    petw__wpp *w;
    petw_guid guid;
    const char *guid_name;
    int have_guid, in_args;
    petw__wpp_arg args[256];
    uint32_t nargs, line;
    char *why;
    size_t why_size;
} tmf_parse;

/* A line inside a message's argument list ("name, ItemX -- N"), or its
 * closing brace, which gives the message its arguments. */
static int args_line(tmf_parse *t, const char *s, const char *e, size_t n)
{
    petw__wpp *w = t->w;
    if (n && *s == '}') {
        petw__wpp_message *m = &w->messages[w->count - 1];
        petw__wpp_arg *a = take(w, (t->nargs ? t->nargs : 1) * sizeof(*a));
        if (!a)
            return PETW_ENOMEM;
        memcpy(a, t->args, t->nargs * sizeof(*a));
        m->args = a;
        m->arg_count = t->nargs;
        t->in_args = 0;
    } else if (n && *s != '{') {
        int r = t->nargs < 256 ? parse_arg(w, s, e, &t->args[t->nargs]) : -1;
        if (r == -2)
            return PETW_ENOMEM;
        if (r < 0) {
            snprintf(t->why, t->why_size, "line %u: not an argument (expression, Item -- N)",
                     t->line);
            return PETW_ECORRUPT;
        }
        t->nargs++;
    }
    return 0;
}

/* "GUID name": the message GUID of the #typev lines that follow. */
static int guid_line(tmf_parse *t, const char *s, const char *e)
{
    char g[37];
    memcpy(g, s, 36);
    g[36] = 0;
    if (petw_guid_parse(g, &t->guid) != 0) {
        snprintf(t->why, t->why_size, "line %u: bad message GUID", t->line);
        return PETW_ECORRUPT;
    }
    const char *nm = s + 37, *ne = nm;
    while (ne < e && *ne != ' ' && *ne != '\t')
        ne++;
    t->guid_name = copy(t->w, nm, (size_t)(ne - nm));
    t->have_guid = 1;
    return t->guid_name ? 0 : PETW_ENOMEM;
}

/* "#typev <name> <number> "format" //   LEVEL=... FUNC=...": a message, whose
 * argument list follows in braces (possibly empty). */
static int typev_line(tmf_parse *t, const char *s, const char *e, size_t n)
{
    petw__wpp *w = t->w;
    const char *q1 = memchr(s, '"', n), *q2 = q1 ? find_last(q1 + 1, e, "\"") : NULL;
    if (!t->have_guid || !q1 || !q2) {
        snprintf(t->why, t->why_size, "line %u: #typev %s", t->line,
                 t->have_guid ? "without a quoted format" : "before a message GUID line");
        return PETW_ECORRUPT;
    }
    /* "#typev <name> <number> ": the name, then the number. */
    const char *tn = s + 6;
    while (tn < q1 && (*tn == ' ' || *tn == '\t'))
        tn++;
    const char *te = tn;
    while (te < q1 && *te != ' ' && *te != '\t')
        te++;
    char *numend;
    unsigned long number = strtoul(te, &numend, 10);
    if (numend == te || numend > q1) {
        snprintf(t->why, t->why_size, "line %u: #typev without a message number", t->line);
        return PETW_ECORRUPT;
    }
    int rc = petw__array_grow((void **)&w->messages, &w->cap, w->count, sizeof(*w->messages));
    if (rc)
        return rc;
    petw__wpp_message *m = &w->messages[w->count++];
    memset(m, 0, sizeof(*m));
    m->guid = t->guid;
    m->number = (uint32_t)number;
    m->guid_name = t->guid_name;
    m->type_name = copy(w, tn, (size_t)(te - tn));
    const char *f = q1 + 1;
    if (q2 - f >= 2 && f[0] == '%' && f[1] == '0')
        f += 2; /* tracefmt's prefix */
    m->format = copy(w, f, (size_t)(q2 - f));
    const char *c = q2 + 1;
    m->level = attribute(w, c, e, "LEVEL");
    m->flags = attribute(w, c, e, "FLAGS");
    m->function = attribute(w, c, e, "FUNC");
    m->component = attribute(w, c, e, "COMPNAME");
    m->subcomponent = attribute(w, c, e, "SUBCOMP");
    m->args = NULL;
    t->nargs = 0;
    t->in_args = 1;
    if (!m->type_name || !m->format || !m->level || !m->flags || !m->function || !m->component ||
        !m->subcomponent)
        return PETW_ENOMEM;
    return 0;
}

int petw__wpp_parse(const char *text, size_t size, petw__wpp **out, char *why, size_t why_size)
{
    petw__wpp *w = calloc(1, sizeof(*w));
    if (!w)
        return PETW_ENOMEM;
    tmf_parse parse = {.w = w, .guid_name = "", .why = why, .why_size = why_size}, *t = &parse;
    int rc = 0;
    const char *p = text, *end = text + size;
    while (p < end && rc == 0) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *le = eol ? eol : end;
        size_t n;
        const char *s = trim(p, le, &n);
        const char *e = s + n;
        t->line++;
        p = eol ? eol + 1 : end;
        if (t->in_args)
            rc = args_line(t, s, e, n);
        else if (n == 0 || (n >= 2 && s[0] == '/' && s[1] == '/'))
            continue;
        else if (is_guid_line(s, e))
            rc = guid_line(t, s, e);
        else if (n > 7 && !memcmp(s, "#typev", 6) && (s[6] == ' ' || s[6] == '\t'))
            rc = typev_line(t, s, e, n);
        /* Other lines (#enumv blocks, directives) are not needed to decode. */
    }
    if (rc == 0 && t->in_args) {
        snprintf(why, why_size, "line %u: argument list not closed", t->line);
        rc = PETW_ECORRUPT;
    }
    if (rc) {
        petw__wpp_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

void petw__wpp_free(petw__wpp *w)
{
    if (!w)
        return;
    for (block *b = w->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(w->messages);
    free(w);
}

const petw__wpp_message *petw__wpp_find(const petw__wpp *w, const petw_guid *guid, uint32_t number)
{
    for (uint32_t i = 0; w && i < w->count; i++)
        if (w->messages[i].number == number && petw_guid_equal(&w->messages[i].guid, guid))
            return &w->messages[i];
    return NULL;
}

uint32_t petw__wpp_count(const petw__wpp *w)
{
    return w ? w->count : 0;
}

const petw__wpp_message *petw__wpp_at(const petw__wpp *w, uint32_t i)
{
    return w && i < w->count ? &w->messages[i] : NULL;
}

/* ---- the decoder: WPP messages a TMF file describes ---- */

/* The TMF message a TraceMessage record is, when every argument's item type
 * is one petw reads; else NULL (the record stays raw). */
const petw__wpp_message *petw__decoder_wpp_message(petw_decoder *d, const petw_event_record *rec)
{
    if (!(rec->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE))
        return NULL;
    for (uint32_t i = 0; i < d->tmf_count; i++) {
        const petw__wpp_message *m =
            petw__wpp_find(d->tmfs[i], &rec->header.provider_id, rec->header.descriptor.id);
        if (!m)
            continue;
        for (uint32_t k = 0; k < m->arg_count; k++)
            if (m->args[k].item == PETW__WPP_UNKNOWN)
                return NULL;
        return m;
    }
    return NULL;
}

static const uint8_t wpp_int_in[] = {0, PETW_IN_INT8, PETW_IN_INT16, 0, PETW_IN_INT32, 0, 0,
                                     0, PETW_IN_INT64};
static const uint8_t wpp_uint_in[] = {0, PETW_IN_UINT8, PETW_IN_UINT16, 0, PETW_IN_UINT32, 0, 0,
                                      0, PETW_IN_UINT64};

/* One argument into field `slot`, from d->pos. */
static int wpp_value(petw_decoder *d, const petw__wpp_arg *a, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    size_t left = d->size - d->pos;
    switch (a->item) {
    case PETW__WPP_STRING: {
        const uint8_t *nul = memchr(p, 0, left);
        PETW__RETURN_IF(!nul, PETW_ECORRUPT);
        f->in_type = PETW_IN_ANSISTRING;
        PETW__FORWARD_IF_ERROR(petw__decoder_bytes_string(d, p, (size_t)(nul - p), slot));
        d->pos += (size_t)(nul - p) + 1;
        return 0;
    }
    case PETW__WPP_WSTRING: {
        size_t units = 0;
        while (2 * units + 1 < left && petw__rd16(p + 2 * units))
            units++;
        PETW__RETURN_IF(2 * units + 1 >= left, PETW_ECORRUPT);
        f->in_type = PETW_IN_UNICODESTRING;
        PETW__FORWARD_IF_ERROR(petw__decoder_utf16_string(d, p, units, slot));
        d->pos += 2 * units + 2;
        return 0;
    }
    case PETW__WPP_GUID:
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 16));
        petw__rd_guid(p, &f->v.guid);
        f->in_type = PETW_IN_GUID;
        f->kind = PETW_VALUE_GUID;
        d->pos += 16;
        return 0;
    case PETW__WPP_DOUBLE:
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 8));
        uint64_t bits = petw__rd64(p);
        memcpy(&f->v.f, &bits, 8);
        f->in_type = PETW_IN_DOUBLE;
        f->kind = PETW_VALUE_FLOAT;
        d->pos += 8;
        return 0;
    default:
        break;
    }
    size_t n = a->item == PETW__WPP_POINTER ? (size_t)d->pointer_size : a->size;
    PETW__FORWARD_IF_ERROR(petw__decoder_need(d, n));
    uint64_t v = n == 1 ? p[0] : n == 2 ? petw__rd16(p) : n == 4 ? petw__rd32(p) : petw__rd64(p);
    d->pos += n;
    if (a->item == PETW__WPP_INT) {
        int shift = (int)(64 - 8 * n);
        f->v.i = (int64_t)(v << shift) >> shift;
        f->kind = PETW_VALUE_INT;
        f->in_type = wpp_int_in[n];
        return 0;
    }
    f->v.u = v;
    f->kind =
        a->item == PETW__WPP_HEX || a->item == PETW__WPP_POINTER ? PETW_VALUE_HEX : PETW_VALUE_UINT;
    f->in_type = a->item == PETW__WPP_POINTER ? PETW_IN_POINTER : wpp_uint_in[n];
    if (a->item == PETW__WPP_ENUM && v < a->label_count) { /* ItemListLong's k-th name */
        const char *label = a->labels;
        for (uint64_t k = 0; k < v; k++)
            label += strlen(label) + 1;
        size_t at;
        PETW__FORWARD_IF_ERROR(petw__decoder_arena_reserve(d, strlen(label) + 1, &at));
        memcpy(d->arena + at, label, strlen(label) + 1);
        f->label = (const char *)(uintptr_t)(at + 1); /* fixed up at the end */
    }
    return 0;
}

int petw__decoder_wpp_fields(petw_decoder *d, const petw__wpp_message *m)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, m->arg_count, &first));
    for (uint32_t k = 0; k < m->arg_count; k++) {
        size_t start = d->pos;
        d->fields[k].name = m->args[k].name;
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(wpp_value(d, &m->args[k], k));
        d->fields[k].data_offset = (uint32_t)start;
        d->fields[k].data_size = (uint32_t)(d->pos - start);
    }
    d->result.top_count = m->arg_count;
    d->result.has_schema = 1;
    return 0;
}

/* A field's value as a WPP format's `!spec!` asks for it (flags, width
 * and precision kept; the size prefixes are the TMF's item's business). */
static void wpp_value_text(const petw_decoder *d, const petw_field *f, const char *spec,
                           size_t spec_len, char *out, size_t size)
{
    /* Flags, then a width and a precision of at most 3 digits each (a
     * TMF's spec is not trusted: a huge width would be slow to pad). */
    char fw[24] = "%", fmt[40];
    size_t n = 1, i = 0;
    while (i < spec_len && strchr("-+ #0", spec[i]) && n < 6)
        fw[n++] = spec[i++];
    for (int part = 0; part < 2; part++) {
        if (part == 1) {
            if (i >= spec_len || spec[i] != '.')
                break;
            fw[n++] = spec[i++];
        }
        for (int k = 0; i < spec_len && spec[i] >= '0' && spec[i] <= '9'; i++, k++)
            if (k < 3)
                fw[n++] = spec[i];
    }
    fw[n] = 0;
    char conv = spec_len ? spec[spec_len - 1] : 's';
    if (f->label || f->kind == PETW_VALUE_STRING) {
        snprintf(fmt, sizeof(fmt), "%ss", fw);
        snprintf(out, size, fmt, f->label ? f->label : f->v.s);
    } else if (f->kind == PETW_VALUE_GUID) {
        char g[37];
        petw_guid_format(&f->v.guid, g);
        snprintf(out, size, "%s", g);
    } else if (f->kind == PETW_VALUE_FLOAT) {
        snprintf(fmt, sizeof(fmt), "%s%c", fw, strchr("eEfFgGaA", conv) ? conv : 'f');
        snprintf(out, size, fmt, f->v.f);
    } else if (conv == 'p') {
        snprintf(out, size, "%0*" PRIX64, d->pointer_size * 2, f->v.u);
    } else if (conv == 'c') {
        snprintf(out, size, "%c", (int)(f->v.u & 0xFF));
    } else if (f->kind == PETW_VALUE_INT && (conv == 'd' || conv == 'i')) {
        snprintf(fmt, sizeof(fmt), "%slld", fw);
        snprintf(out, size, fmt, (long long)f->v.i);
    } else if (f->kind == PETW_VALUE_INT || f->kind == PETW_VALUE_UINT ||
               f->kind == PETW_VALUE_HEX) {
        uint64_t v = f->v.u;
        if (f->kind == PETW_VALUE_INT && f->data_size < 8) /* %x of a negative 32-bit value */
            v &= (UINT64_C(1) << (8 * f->data_size)) - 1;
        snprintf(fmt, sizeof(fmt), "%sll%c", fw, strchr("xXou", conv) ? conv : 'u');
        if (conv == 'd' || conv == 'i')
            snprintf(fmt, sizeof(fmt), "%sllu", fw);
        snprintf(out, size, fmt, (unsigned long long)v);
    } else {
        petw__decoder_value_text(f, out, size);
    }
}

/* The message text: %N!spec! inserts argument N (10 onwards) or a fixed
 * insert (%1 the component, %2 file_line, %3 thread, %8 process, %9 CPU;
 * the times and sequence of %4 to %7 are left empty); %% is %. */
int petw__decoder_render_wpp(petw_decoder *d, const petw__wpp_message *m,
                             const petw_event_record *rec)
{
    size_t len = 0;
    char v[1024];
    PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, "", 0));
    for (const char *s = m->format; *s;) {
        const char *pct = strchr(s, '%');
        size_t n = pct ? (size_t)(pct - s) : strlen(s);
        PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, s, n));
        if (!pct)
            break;
        s = pct + 1;
        if (*s < '0' || *s > '9') {
            PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, "%", 1));
            if (*s == '%')
                s++;
            continue;
        }
        unsigned k = 0;
        while (*s >= '0' && *s <= '9' && k < 100000)
            k = k * 10 + (unsigned)(*s++ - '0');
        const char *spec = "s";
        size_t spec_len = 1;
        if (*s == '!') {
            const char *end = strchr(s + 1, '!');
            spec = s + 1;
            spec_len = end ? (size_t)(end - spec) : strlen(spec);
            s = end ? end + 1 : spec + spec_len;
        }
        v[0] = 0;
        if (k == 1)
            snprintf(v, sizeof(v), "%s", m->guid_name);
        else if (k == 2)
            snprintf(v, sizeof(v), "%s", m->type_name);
        else if (k == 3)
            snprintf(v, sizeof(v), "%u", rec->header.thread_id);
        else if (k == 8)
            snprintf(v, sizeof(v), "%u", rec->header.process_id);
        else if (k == 9)
            snprintf(v, sizeof(v), "%u", (unsigned)rec->buffer_context.u.p.processor_number);
        for (uint32_t i = 0; k >= 10 && i < m->arg_count; i++)
            if (m->args[i].number == k)
                wpp_value_text(d, &d->fields[i], spec, spec_len, v, sizeof(v));
        PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, v, strlen(v)));
    }
    d->result.message = d->message;
    return 0;
}
