/* SPDX-License-Identifier: MIT */
/* manifest_model.c - manifest.h's model: a manifest's raw provider
 * (manifest.c's lists, the attributes as written) resolved into it (numbers
 * checked; levels, tasks, opcodes, keywords, channels and maps found by name,
 * the manifest's own, else Windows' standard ones; templates' types and
 * sizes checked; strings looked up; events sorted), and the names of tasks,
 * opcodes and levels looked up in it. manifest_lookup.c finds events and
 * maps' text.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/common/common.h"
#include "manifest.h"
#include "manifest_internal.h"
#include "petw/decode.h"

static int number(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    while (*s == ' ')
        s++;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s)
            return -1;
    }
    uint64_t v = 0;
    for (; *s && *s != ' '; s++) {
        int d = (*s >= '0' && *s <= '9')   ? *s - '0'
                : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
                : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10
                                           : 99;
        if (d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    while (*s == ' ')
        s++;
    if (*s || v > max)
        return -1;
    *out = v;
    return 0;
}

typedef struct named {
    const char *name;
    uint64_t value;
    const char *text;
} named;

static const named std_levels[] = {
    {"win:LogAlways", 0, "Log Always"},
    /* What TraceEvent's manifest writer names level 0; its reader takes it. */
    {"win:Always", 0, "Log Always"},
    {"win:Critical", 1, "Critical"},
    {"win:Error", 2, "Error"},
    {"win:Warning", 3, "Warning"},
    {"win:Informational", 4, "Information"},
    {"win:Verbose", 5, "Verbose"},
};

static const named std_opcodes[] = {
    {"win:Info", 0, "Info"},         {"win:Start", 1, "Start"},
    {"win:Stop", 2, "Stop"},         {"win:DC_Start", 3, "DCStart"},
    {"win:DC_Stop", 4, "DCStop"},    {"win:Extension", 5, "Extension"},
    {"win:Reply", 6, "Reply"},       {"win:Resume", 7, "Resume"},
    {"win:Suspend", 8, "Suspend"},   {"win:Send", 9, "Send"},
    {"win:Receive", 240, "Receive"},
};

static const named std_tasks[] = {{"win:None", 0, "None"}};

static const named std_keywords[] = {
    {"win:AnyKeyword", 0, NULL},
    {"win:ResponseTime", 0x01000000000000ull, NULL},
    {"win:ReservedKeyword49", 0x02000000000000ull, NULL},
    {"win:WDIDiag", 0x04000000000000ull, NULL},
    {"win:SQM", 0x08000000000000ull, NULL},
    {"win:AuditFailure", 0x10000000000000ull, NULL},
    {"win:AuditSuccess", 0x20000000000000ull, NULL},
    {"win:CorrelationHint", 0x40000000000000ull, NULL},
    {"win:EventlogClassic", 0x80000000000000ull, NULL},
};

static const named std_channels[] = {
    {"TraceClassic", 0, NULL}, {"System", 8, NULL},        {"Application", 9, NULL},
    {"Security", 10, NULL},    {"TraceLogging", 11, NULL}, {"ProviderMetadata", 12, NULL},
};

static const named in_types[] = {
    {"win:Null", PETW_IN_NULL, NULL},
    {"win:UnicodeString", PETW_IN_UNICODESTRING, NULL},
    {"win:AnsiString", PETW_IN_ANSISTRING, NULL},
    {"win:Int8", PETW_IN_INT8, NULL},
    {"win:UInt8", PETW_IN_UINT8, NULL},
    {"win:Int16", PETW_IN_INT16, NULL},
    {"win:UInt16", PETW_IN_UINT16, NULL},
    {"win:Int32", PETW_IN_INT32, NULL},
    {"win:UInt32", PETW_IN_UINT32, NULL},
    {"win:Int64", PETW_IN_INT64, NULL},
    {"win:UInt64", PETW_IN_UINT64, NULL},
    {"win:Float", PETW_IN_FLOAT, NULL},
    {"win:Double", PETW_IN_DOUBLE, NULL},
    {"win:Boolean", PETW_IN_BOOL32, NULL},
    {"win:Binary", PETW_IN_BINARY, NULL},
    {"win:GUID", PETW_IN_GUID, NULL},
    {"win:Pointer", PETW_IN_POINTER, NULL},
    {"win:FILETIME", PETW_IN_FILETIME, NULL},
    {"win:SYSTEMTIME", PETW_IN_SYSTEMTIME, NULL},
    {"win:SID", PETW_IN_SID, NULL},
    {"win:HexInt32", PETW_IN_HEXINT32, NULL},
    {"win:HexInt64", PETW_IN_HEXINT64, NULL},
    {"win:CountedUnicodeString", PETW_IN_COUNTEDSTRING, NULL},
    {"win:CountedAnsiString", PETW_IN_COUNTEDANSISTRING, NULL},
    {"win:CountedBinary", PETW_IN_COUNTEDBINARY, NULL},
};

/* Out-types, as TraceLogging numbers them (PETW_OUT_*); the ones that do
 * not change how petw shows a value map to 0. */
/* The petw: extensions of the built-in tables (manifest.h). */
static const named builtin_in_types[] = {
    {"petw:KernelSid", PETW__IN_KERNEL_SID, NULL},
};
#define COUNT_REST "petw:rest"

static const named out_types[] = {
    {"xs:string", PETW_OUT_STRING, NULL},
    {"xs:boolean", PETW_OUT_BOOLEAN, NULL},
    {"xs:hexBinary", PETW_OUT_HEX, NULL},
    {"win:HexInt8", PETW_OUT_HEX, NULL},
    {"win:HexInt16", PETW_OUT_HEX, NULL},
    {"win:HexInt32", PETW_OUT_HEX, NULL},
    {"win:HexInt64", PETW_OUT_HEX, NULL},
    {"win:PID", PETW_OUT_PID, NULL},
    {"win:TID", PETW_OUT_TID, NULL},
    {"win:Port", PETW_OUT_PORT, NULL},
    {"win:IPv4", PETW_OUT_IPV4, NULL},
    {"win:IPv6", PETW_OUT_IPV6, NULL},
    {"win:Win32Error", PETW_OUT_WIN32ERROR, NULL},
    {"win:NTSTATUS", PETW_OUT_NTSTATUS, NULL},
    {"win:HResult", PETW_OUT_HRESULT, NULL},
    {"win:ErrorCode", PETW_OUT_HEX, NULL},
    {"win:Utf8", PETW_OUT_UTF8, NULL},
};

static const named *find_named(const named *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return &t[i];
    return NULL;
}

/* The string-table text of "$(string.ID)", or `s` itself when it is not a
 * reference; NULL (and a failure) for a reference to no string. */
static const char *text_of(parser *p, const char *s, int line)
{
    if (!s || strncmp(s, "$(string.", 9) != 0)
        return s;
    size_t n = strlen(s);
    if (n < 11 || s[n - 1] != ')') {
        petw__manifest_slip(p, line, "malformed string reference \"%s\"", s);
        return NULL;
    }
    const char *found = NULL;
    for (uint32_t i = 0; i < p->texts_count; i++) {
        const raw_string *t = &p->texts[i];
        if (t->id && strlen(t->id) == n - 10 && !strncmp(t->id, s + 9, n - 10) &&
            (!found || t->preferred)) {
            found = t->value ? t->value : "";
            if (t->preferred)
                break;
        }
    }
    if (!found)
        petw__manifest_slip(p, line, "no string %s in the string table", s);
    return found;
}

static const raw_item *find_item(const raw_item *items, uint32_t n, const char *name, int32_t task)
{
    for (uint32_t i = 0; i < n; i++)
        if (items[i].name && !strcmp(items[i].name, name) && items[i].task == task)
            return &items[i];
    return NULL;
}

/* An event's task, opcode or level: the provider's own by name, else a
 * standard one. */
static int resolve_ref(parser *p, const raw_item *items, uint32_t n, int32_t task, const named *std,
                       size_t std_n, const char *what, const char *name, uint64_t max, int line,
                       uint64_t *value, const char **text)
{
    const raw_item *it = find_item(items, n, name, task);
    if (!it && task >= 0)
        it = find_item(items, n, name, -1);
    if (it) {
        if (number(it->value, max, value) != 0) {
            *value = 0;
            *text = NULL;
            return petw__manifest_slip(p, it->line, "%s \"%s\": bad value \"%s\"", what, name,
                                       it->value ? it->value : "");
        }
        const char *t = it->message ? text_of(p, it->message, it->line) : it->name;
        *text = t ? t : it->name;
        return p->rc;
    }
    const named *s = std ? find_named(std, std_n, name) : NULL;
    /* A level by number, as EventSource's ManifestBuilder writes the ones
     * EventLevel does not name: "win:7" below 16, "20" from 16 on. */
    const char *digits = !strncmp(name, "win:", 4) ? name + 4 : name;
    if (!s && std == std_levels && digits[0] >= '0' && digits[0] <= '9' &&
        number(digits, max, value) == 0) {
        *text = NULL;
        return 0;
    }
    if (!s) {
        *value = 0;
        *text = NULL;
        return petw__manifest_slip(p, line, "unknown %s \"%s\"", what, name);
    }
    *value = s->value;
    *text = s->text ? s->text : s->name;
    return 0;
}

static int resolve_keywords(parser *p, const raw_provider *rp, const char *list, int line,
                            uint64_t *mask)
{
    *mask = 0;
    char name[256];
    for (const char *s = list; *s;) {
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = 0;
        while (s[n] && s[n] != ' ' && s[n] != '\t')
            n++;
        if (n == 0)
            break;
        if (n >= sizeof(name))
            return petw__manifest_fail(p, PETW_ECORRUPT, line, "keyword name too long");
        memcpy(name, s, n);
        name[n] = 0;
        s += n;
        const raw_item *k = find_item(rp->keywords, rp->keywords_count, name, -1);
        uint64_t v;
        if (k) {
            if (number(k->value, UINT64_MAX, &v) != 0) {
                PETW__FORWARD_IF_ERROR(
                    petw__manifest_slip(p, k->line, "keyword \"%s\": bad mask", name));
                v = 0;
            }
        } else {
            const named *st = find_named(std_keywords, PETW__ARRAY_SIZE(std_keywords), name);
            if (!st)
                PETW__FORWARD_IF_ERROR(
                    petw__manifest_slip(p, line, "unknown keyword \"%s\"", name));
            v = st ? st->value : 0;
        }
        *mask |= v;
    }
    return 0;
}

static int resolve_channel(parser *p, const raw_provider *rp, const char *name, int line,
                           uint8_t *value)
{
    for (uint32_t i = 0; i < rp->channels_count; i++) {
        const raw_item *c = &rp->channels[i];
        if ((c->name && !strcmp(c->name, name)) || (c->chid && !strcmp(c->chid, name))) {
            uint64_t v = 16 + i; /* channels without a value: numbered from 16 */
            if (c->value && number(c->value, 255, &v) != 0)
                return petw__manifest_slip(p, c->line, "channel \"%s\": bad value", name);
            *value = (uint8_t)v;
            return 0;
        }
    }
    const named *s = find_named(std_channels, PETW__ARRAY_SIZE(std_channels), name);
    if (!s)
        return petw__manifest_slip(p, line, "unknown channel \"%s\"", name);
    *value = (uint8_t)s->value;
    return 0;
}

/* A field's length or count: a number, or the name of an earlier field of
 * the same template (at the same level) holding it. */
static int resolve_size(parser *p, const raw_provider *rp, const raw_template *t, uint32_t k,
                        const char *spec, uint8_t fixed_flag, uint8_t ref_flag, uint16_t *out,
                        uint8_t *flags)
{
    const raw_field *f = &rp->fields[t->first + k];
    uint64_t v;
    if (number(spec, PETW__MAN_MAX_COUNT, &v) == 0) {
        *out = (uint16_t)v;
        *flags |= fixed_flag;
        return 0;
    }
    for (uint32_t j = 0; j < k; j++) {
        const raw_field *g = &rp->fields[t->first + j];
        if (g->name && !strcmp(g->name, spec) && g->parent == f->parent && !g->is_struct) {
            *out = (uint16_t)j;
            *flags |= ref_flag;
            return 0;
        }
    }
    return petw__manifest_fail(p, PETW_ECORRUPT, f->line,
                               "field \"%s\": \"%s\" is neither a number nor an earlier field",
                               f->name ? f->name : "", spec);
}

static int resolve_template(parser *p, const raw_provider *rp, const raw_template *t,
                            petw__man_provider *mp, petw__man_event *ev)
{
    if (t->count > PETW__MAN_MAX_FIELDS)
        return petw__manifest_fail(p, PETW_ECORRUPT, t->line,
                                   "template \"%s\" has more than %d fields", t->tid,
                                   PETW__MAN_MAX_FIELDS);
    /* No realloc to the same size when the template is empty: with a zero
     * total, realloc(ptr, 0) may free ptr and return NULL (glibc does). */
    if (t->count) {
        petw__man_field *fields =
            realloc(mp->fields, (mp->field_count + t->count) * sizeof(*fields));
        if (!fields)
            return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
        mp->fields = fields;
    }
    ev->first_field = mp->field_count;
    ev->field_count = t->count;
    ev->has_template = 1;
    ev->template_id = t->tid;
    for (uint32_t k = 0; k < t->count; k++) {
        const raw_field *r = &rp->fields[t->first + k];
        petw__man_field *f = &mp->fields[mp->field_count + k];
        memset(f, 0, sizeof(*f));
        f->map = -1;
        f->line = (uint32_t)r->line;
        f->name = r->name ? r->name : "";
        if (r->is_struct) {
            f->flags = PETW__MANF_STRUCT;
            f->in_type = PETW_IN_STRUCT;
            f->members = (uint16_t)r->members;
            if (r->members == 0)
                return petw__manifest_fail(p, PETW_ECORRUPT, r->line,
                                           "struct \"%s\" has no members", f->name);
        } else {
            const named *in =
                r->in ? find_named(in_types, PETW__ARRAY_SIZE(in_types), r->in) : NULL;
            if (!in && r->in && p->builtin)
                in = find_named(builtin_in_types, PETW__ARRAY_SIZE(builtin_in_types), r->in);
            if (!in)
                return petw__manifest_fail(p, PETW_ECORRUPT, r->line,
                                           "field \"%s\": unknown inType \"%s\"", f->name,
                                           r->in ? r->in : "(none)");
            f->in_type = (uint8_t)in->value;
            const named *out =
                r->out ? find_named(out_types, PETW__ARRAY_SIZE(out_types), r->out) : NULL;
            f->out_type = out ? (uint8_t)out->value : 0;
        }
        if (r->length)
            PETW__FORWARD_IF_ERROR(resolve_size(p, rp, t, k, r->length, PETW__MANF_LENGTH,
                                                PETW__MANF_LENGTH_REF, &f->length, &f->flags));
        if (r->count && p->builtin && !strcmp(r->count, COUNT_REST))
            f->flags |= PETW__MANF_COUNT_REST;
        else if (r->count)
            PETW__FORWARD_IF_ERROR(resolve_size(p, rp, t, k, r->count, PETW__MANF_COUNT,
                                                PETW__MANF_COUNT_REF, &f->count, &f->flags));
        if (r->map) {
            for (uint32_t j = 0; j < mp->map_count && f->map < 0; j++)
                if (!strcmp(mp->maps[j].name, r->map))
                    f->map = (int32_t)j;
            if (f->map < 0) /* lenient: the field's values without their names */
                PETW__FORWARD_IF_ERROR(petw__manifest_slip(
                    p, r->line, "field \"%s\": unknown map \"%s\"", f->name, r->map));
        }
    }
    /* Links: the field after each one and its members (a backward pass). */
    uint32_t base = mp->field_count, tops = 0;
    for (uint32_t k = t->count; k-- > 0;) {
        petw__man_field *f = &mp->fields[base + k];
        f->next = base + k + 1 + (f->flags & PETW__MANF_STRUCT ? f->members : 0);
    }
    for (uint32_t k = 0; k < t->count; k++)
        if (rp->fields[t->first + k].parent == UINT32_MAX)
            tops++;
    ev->top_count = tops;
    mp->field_count += t->count;
    return 0;
}

static int resolve_maps(parser *p, const raw_provider *rp, petw__man_provider *mp)
{
    if (rp->maps_count) {
        mp->maps = calloc(rp->maps_count, sizeof(*mp->maps));
        if (!mp->maps)
            return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    if (rp->map_entries_count) {
        mp->map_entries = calloc(rp->map_entries_count, sizeof(*mp->map_entries));
        if (!mp->map_entries)
            return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; i < rp->maps_count; i++) {
        const raw_map *r = &rp->maps[i];
        if (!r->name)
            return petw__manifest_fail(p, PETW_ECORRUPT, r->line, "a map without a name");
        mp->maps[i].name = r->name;
        mp->maps[i].bitmap = r->bitmap;
        mp->maps[i].first = r->first;
        mp->maps[i].count = r->count;
    }
    for (uint32_t i = 0; i < rp->map_entries_count; i++) {
        const raw_map_entry *r = &rp->map_entries[i];
        if (number(r->value, UINT64_MAX, &mp->map_entries[i].value) != 0)
            return petw__manifest_fail(p, PETW_ECORRUPT, r->line, "map entry: bad value \"%s\"",
                                       r->value ? r->value : "");
        const char *t = r->message ? text_of(p, r->message, r->line) : NULL;
        mp->map_entries[i].text = t ? t : "";
    }
    mp->map_count = rp->maps_count;
    mp->map_entry_count = rp->map_entries_count;
    return p->rc;
}

/* The names of the provider's tasks, opcodes and levels, by value. */
static int resolve_names(parser *p, const raw_provider *rp, petw__man_provider *mp)
{
    uint32_t n = rp->tasks_count + rp->opcodes_count + rp->levels_count;
    if (n == 0)
        return 0;
    mp->names = calloc(n, sizeof(*mp->names));
    if (!mp->names)
        return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
    const raw_item *lists[3] = {rp->tasks, rp->opcodes, rp->levels};
    const uint32_t counts[3] = {rp->tasks_count, rp->opcodes_count, rp->levels_count};
    static const uint64_t max[3] = {65535, 255, 255};
    static const char *const what[3] = {"task", "opcode", "level"};
    for (uint32_t kind = 0; kind < 3; kind++)
        for (uint32_t i = 0; i < counts[kind]; i++) {
            const raw_item *it = &lists[kind][i];
            petw__man_name *nm = &mp->names[mp->name_count];
            if (number(it->value, max[kind], &nm->value) != 0) {
                PETW__FORWARD_IF_ERROR(
                    petw__manifest_slip(p, it->line, "%s \"%s\": bad value \"%s\"", what[kind],
                                        it->name ? it->name : "", it->value ? it->value : ""));
                continue; /* lenient: the value has no name */
            }
            nm->kind = kind;
            nm->task = PETW__MAN_ANY_TASK;
            if (kind == PETW__MAN_OPCODE && it->task >= 0) {
                uint64_t tv;
                if (number(rp->tasks[it->task].value, 65535, &tv) != 0) {
                    PETW__FORWARD_IF_ERROR(
                        petw__manifest_slip(p, rp->tasks[it->task].line, "task: bad value"));
                    continue;
                }
                nm->task = (uint32_t)tv;
            }
            const char *t = it->message ? text_of(p, it->message, it->line) : it->name;
            PETW__FORWARD_IF_ERROR(p->rc);
            nm->text = t ? t : "";
            mp->name_count++;
        }
    return 0;
}

/* The provider's own keywords, tasks, opcodes, levels and channels with
 * their symbols, in document order, then each map followed by its entries
 * (for code generators). Run after resolve_maps (entries' values checked). */
static int resolve_items(parser *p, const raw_provider *rp, petw__man_provider *mp)
{
    const raw_item *lists[5] = {rp->tasks, rp->opcodes, rp->levels, rp->keywords, rp->channels};
    const uint32_t counts[5] = {rp->tasks_count, rp->opcodes_count, rp->levels_count,
                                rp->keywords_count, rp->channels_count};
    static const uint64_t max[5] = {65535, 255, 255, UINT64_MAX, 255};
    uint32_t n = 0;
    for (uint32_t kind = 0; kind < 5; kind++)
        n += counts[kind];
    n += rp->maps_count + rp->map_entries_count;
    if (n == 0)
        return 0;
    mp->items = calloc(n, sizeof(*mp->items));
    if (!mp->items)
        return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
    for (uint32_t kind = 0; kind < 5; kind++)
        for (uint32_t i = 0; i < counts[kind]; i++) {
            const raw_item *it = &lists[kind][i];
            petw__man_item *o = &mp->items[mp->item_count];
            o->kind = kind;
            o->task = PETW__MAN_ANY_TASK;
            o->name = it->name ? it->name : "";
            o->symbol = it->symbol;
            o->line = (uint32_t)it->line;
            if (kind == PETW__MAN_CHANNEL && !it->value)
                o->value = 16 + i; /* as resolve_channel numbers them */
            else if (number(it->value, max[kind], &o->value) != 0)
                o->bad = 1; /* an error only where an event uses it (resolve_ref) */
            uint64_t tv;
            if (kind == PETW__MAN_OPCODE && it->task >= 0) {
                if (number(rp->tasks[it->task].value, 65535, &tv) == 0)
                    o->task = (uint32_t)tv;
                else
                    o->bad = 1;
            }
            mp->item_count++;
        }
    for (uint32_t i = 0; i < rp->maps_count; i++) {
        const raw_map *r = &rp->maps[i];
        petw__man_item *o = &mp->items[mp->item_count++];
        o->kind = PETW__MAN_MAP;
        o->task = PETW__MAN_ANY_TASK;
        o->value = (uint64_t)r->bitmap;
        o->name = r->name;
        o->symbol = r->symbol;
        o->line = (uint32_t)r->line;
        for (uint32_t k = r->first; k < r->first + r->count; k++) {
            o = &mp->items[mp->item_count++];
            o->kind = PETW__MAN_MAP_ENTRY;
            o->task = PETW__MAN_ANY_TASK;
            o->value = mp->map_entries[k].value;
            o->name = mp->map_entries[k].text;
            o->symbol = rp->map_entries[k].symbol;
            o->line = (uint32_t)rp->map_entries[k].line;
        }
    }
    return 0;
}

static int resolve_event(parser *p, const raw_provider *rp, petw__man_provider *mp,
                         const raw_event *r, petw__man_event *ev)
{
    uint64_t v;
    memset(ev, 0, sizeof(*ev));
    if (number(r->value, 65535, &v) != 0)
        return petw__manifest_fail(p, PETW_ECORRUPT, r->line, "event: bad value \"%s\"",
                                   r->value ? r->value : "");
    ev->id = (uint16_t)v;
    v = 0;
    if (r->version && number(r->version, 255, &v) != 0)
        return petw__manifest_fail(p, PETW_ECORRUPT, r->line, "event %u: bad version", ev->id);
    ev->version = (uint8_t)v;
    ev->symbol = r->symbol;
    ev->line = (uint32_t)r->line;
    int32_t task_index = -1;
    if (r->task) {
        const raw_item *t = find_item(rp->tasks, rp->tasks_count, r->task, -1);
        task_index = t ? (int32_t)(t - rp->tasks) : -1;
        PETW__FORWARD_IF_ERROR(resolve_ref(p, rp->tasks, rp->tasks_count, -1, std_tasks,
                                           PETW__ARRAY_SIZE(std_tasks), "task", r->task, 65535,
                                           r->line, &v, &ev->task_name));
        ev->task = (uint16_t)v;
    }
    if (r->opcode) {
        PETW__FORWARD_IF_ERROR(resolve_ref(p, rp->opcodes, rp->opcodes_count, task_index,
                                           std_opcodes, PETW__ARRAY_SIZE(std_opcodes), "opcode",
                                           r->opcode, 255, r->line, &v, &ev->opcode_name));
        ev->opcode = (uint8_t)v;
    }
    if (r->level) {
        PETW__FORWARD_IF_ERROR(resolve_ref(p, rp->levels, rp->levels_count, -1, std_levels,
                                           PETW__ARRAY_SIZE(std_levels), "level", r->level, 255,
                                           r->line, &v, &ev->level_name));
        ev->level = (uint8_t)v;
    }
    if (r->keywords)
        PETW__FORWARD_IF_ERROR(resolve_keywords(p, rp, r->keywords, r->line, &ev->keywords));
    if (r->channel)
        PETW__FORWARD_IF_ERROR(resolve_channel(p, rp, r->channel, r->line, &ev->channel));
    if (r->message) {
        ev->message = text_of(p, r->message, r->line);
        PETW__FORWARD_IF_ERROR(p->rc);
    }
    if (r->tmpl) {
        for (uint32_t i = 0; i < rp->templates_count; i++)
            if (rp->templates[i].tid && !strcmp(rp->templates[i].tid, r->tmpl))
                return resolve_template(p, rp, &rp->templates[i], mp, ev);
        return petw__manifest_fail(p, PETW_ECORRUPT, r->line, "event %u: unknown template \"%s\"",
                                   ev->id, r->tmpl);
    }
    return 0;
}

int petw__manifest_resolve_provider(parser *p, const raw_provider *rp, petw__man_provider *mp)
{
    memset(mp, 0, sizeof(*mp));
    if (!rp->guid || petw_guid_parse(rp->guid, &mp->guid) != 0)
        return petw__manifest_fail(p, PETW_ECORRUPT, rp->line,
                                   "provider \"%s\": bad or missing guid",
                                   rp->name ? rp->name : "");
    mp->name = rp->name ? rp->name : "";
    mp->symbol = rp->symbol;
    mp->line = (uint32_t)rp->line;
    mp->message = rp->message ? text_of(p, rp->message, rp->line) : NULL;
    PETW__FORWARD_IF_ERROR(p->rc);
    PETW__FORWARD_IF_ERROR(resolve_maps(p, rp, mp));
    PETW__FORWARD_IF_ERROR(resolve_names(p, rp, mp));
    PETW__FORWARD_IF_ERROR(resolve_items(p, rp, mp));
    if (rp->events_count) {
        mp->events = calloc(rp->events_count, sizeof(*mp->events));
        if (!mp->events)
            return petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; i < rp->events_count; i++) {
        if (resolve_event(p, rp, mp, &rp->events[i], &mp->events[mp->event_count]) == 0)
            mp->event_count++;
        else if (!petw__manifest_pass_over(p)) /* lenient: the event is left out */
            return p->rc;
    }
    if (mp->event_count > 1)
        qsort(mp->events, mp->event_count, sizeof(*mp->events), petw__man_event_cmp);
    uint32_t kept = mp->event_count ? 1 : 0;
    for (uint32_t i = 1; i < mp->event_count; i++) {
        if (petw__man_event_cmp(&mp->events[kept - 1], &mp->events[i]) != 0) {
            mp->events[kept++] = mp->events[i];
            continue;
        }
        petw__manifest_fail(p, PETW_ECORRUPT, rp->line,
                            "provider \"%s\": event %u version %u defined twice", mp->name,
                            mp->events[i].id, mp->events[i].version);
        if (!petw__manifest_pass_over(p)) /* lenient: the first definition stays */
            return p->rc;
    }
    mp->event_count = kept;
    return 0;
}

const char *petw__manifest_name(const petw__man_provider *p, uint32_t kind, uint32_t task,
                                uint64_t value)
{
    const petw__man_name *any = NULL;
    for (uint32_t i = 0; i < p->name_count; i++) {
        const petw__man_name *n = &p->names[i];
        if (n->kind != kind || n->value != value)
            continue;
        if (n->task == task || kind != PETW__MAN_OPCODE)
            return n->text;
        if (n->task == PETW__MAN_ANY_TASK && !any)
            any = n;
    }
    if (any)
        return any->text;
    const named *std = kind == PETW__MAN_TASK     ? std_tasks
                       : kind == PETW__MAN_OPCODE ? std_opcodes
                                                  : std_levels;
    size_t n = kind == PETW__MAN_TASK     ? PETW__ARRAY_SIZE(std_tasks)
               : kind == PETW__MAN_OPCODE ? PETW__ARRAY_SIZE(std_opcodes)
                                          : PETW__ARRAY_SIZE(std_levels);
    for (size_t i = 0; i < n; i++)
        if (std[i].value == value)
            return std[i].text;
    return NULL;
}
