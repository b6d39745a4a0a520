/* manifest.c - instrumentation manifests: expat reads the XML into raw
 * lists (attribute text, as written), then each provider is resolved into
 * the model of manifest.h, once every name and string it uses is known. */
#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../base/common/common.h"
#include "manifest.h"
#include "petw/decode.h"

/* ---- raw lists, as the document says ---- */

typedef struct raw_item { /* task, opcode, level, keyword or channel */
    const char *name, *value, *message, *symbol;
    const char *chid; /* a channel's other name */
    int32_t task;     /* an opcode defined inside a task: that task, else -1 */
    int line;
} raw_item;

typedef struct raw_event {
    const char *value, *version, *level, *task, *opcode, *keywords, *tmpl, *message, *symbol,
        *channel;
    int line;
} raw_event;

typedef struct raw_field {
    const char *name, *in, *out, *length, *count, *map;
    int is_struct;
    uint32_t members, parent; /* parent: the struct's index, or UINT32_MAX */
    int line;
} raw_field;

typedef struct raw_template {
    const char *tid;
    uint32_t first, count; /* in the provider's raw fields */
    int line;
} raw_template;

typedef struct raw_map {
    const char *name, *symbol;
    int bitmap;
    uint32_t first, count; /* in the provider's raw map entries */
    int line;
} raw_map;

typedef struct raw_map_entry {
    const char *value, *message, *symbol;
    int line;
} raw_map_entry;

#define LIST(T, n)                                                                                 \
    T *n;                                                                                          \
    uint32_t n##_count, n##_cap

typedef struct raw_provider {
    const char *name, *guid, *message, *symbol;
    int line;
    LIST(raw_event, events);
    LIST(raw_item, tasks);
    LIST(raw_item, opcodes);
    LIST(raw_item, levels);
    LIST(raw_item, keywords);
    LIST(raw_item, channels);
    LIST(raw_template, templates);
    LIST(raw_field, fields);
    LIST(raw_map, maps);
    LIST(raw_map_entry, map_entries);
} raw_provider;

typedef struct raw_string {
    const char *id, *value;
    int preferred; /* en-US, or no culture given */
} raw_string;

struct petw__manifest {
    petw__man_provider *providers;
    uint32_t provider_count;
    char **strings; /* every string the model points to */
    uint32_t strings_count, strings_cap;
};

#define STACK_DEPTH 64

typedef struct parser {
    XML_Parser xml;
    petw__manifest *m;
    LIST(raw_provider, raw);
    LIST(raw_string, texts);
    int32_t provider, task, tmpl, map, strukt; /* current elements, or -1 */
    int in_resources, preferred_culture;
    int builtin; /* petw's own table: the petw: extensions are allowed */
    /* The open elements' local names (the first STACK_DEPTH of them, cut
     * to fit), for telling a definition from a same-named element
     * elsewhere: <channel><publishing><level> is not a level, a
     * <counters><provider> not an event provider. */
    char stack[STACK_DEPTH][24];
    uint32_t depth;
    int rc;
    char *error;
    size_t error_size;
    /* Lenient: a slip (a name an event uses that is not defined) leaves the
     * event without that name, an event or provider that cannot be read is
     * left out; the first such problem is kept in `first`, all counted. */
    int lenient;
    uint32_t problems;
    char first[200];
} parser;

#define GROW(p, list)                                                                              \
    (petw__array_grow((void **)&(list), &list##_cap, list##_count, sizeof(*(list))) == 0           \
         ? 0                                                                                       \
         : fail((p), PETW_ENOMEM, 0, "out of memory"))

static void say(char *out, size_t size, int line, const char *fmt, va_list ap)
{
    int n = line > 0 ? snprintf(out, size, "line %d: ", line) : 0;
    if (n >= 0 && (size_t)n < size)
        vsnprintf(out + n, size - (size_t)n, fmt, ap);
}

static int fail(parser *p, int rc, int line, const char *fmt, ...)
{
    if (p->rc == 0) {
        p->rc = rc;
        va_list ap;
        va_start(ap, fmt);
        if (p->error_size)
            say(p->error, p->error_size, line, fmt, ap);
        va_end(ap);
        if (p->xml)
            XML_StopParser(p->xml, XML_FALSE);
    }
    return rc;
}

/* A name an event uses that the manifest does not define (or defines with
 * a bad value): a failure, or, lenient, a problem counted and passed over
 * (returns 0; the caller goes on without the name). */
static int slip(parser *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!p->lenient) {
        if (p->rc == 0) {
            p->rc = PETW_ECORRUPT;
            if (p->error_size)
                say(p->error, p->error_size, line, fmt, ap);
        }
        va_end(ap);
        return PETW_ECORRUPT;
    }
    if (p->problems++ == 0)
        say(p->first, sizeof(p->first), line, fmt, ap);
    va_end(ap);
    return 0;
}

/* Lenient: the failure just met (an event or provider that cannot be read)
 * becomes a problem passed over; returns 1 when it did, 0 when the failure
 * stands (not lenient, or not a flaw of the document). */
static int pass_over(parser *p)
{
    if (!p->lenient || p->rc != PETW_ECORRUPT)
        return 0;
    if (p->problems++ == 0)
        snprintf(p->first, sizeof(p->first), "%s", p->error_size ? p->error : "");
    p->rc = 0;
    if (p->error_size)
        p->error[0] = 0;
    return 1;
}

/* A copy of `s` owned by the manifest; NULL stays NULL. */
static const char *keep(parser *p, const char *s)
{
    if (!s)
        return NULL;
    petw__manifest *m = p->m;
    if (petw__array_grow((void **)&m->strings, &m->strings_cap, m->strings_count,
                         sizeof(*m->strings)) != 0) {
        fail(p, PETW_ENOMEM, 0, "out of memory");
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (!c) {
        fail(p, PETW_ENOMEM, 0, "out of memory");
        return NULL;
    }
    memcpy(c, s, n);
    m->strings[m->strings_count++] = c;
    return c;
}

static const char *attr(parser *p, const XML_Char **atts, const char *name)
{
    for (int i = 0; atts[i]; i += 2)
        if (!strcmp(atts[i], name))
            return keep(p, atts[i + 1]);
    return NULL;
}

/* The element's name without a namespace prefix. */
static const char *local(const char *name)
{
    const char *c = strrchr(name, ':');
    return c ? c + 1 : name;
}

static int line_of(parser *p)
{
    return (int)XML_GetCurrentLineNumber(p->xml);
}

static raw_provider *cur(parser *p)
{
    return p->provider >= 0 ? &p->raw[p->provider] : NULL;
}

static void add_item(parser *p, raw_item **list, uint32_t *count, uint32_t *cap,
                     const XML_Char **atts, const char *value_attr, int32_t task)
{
    if (petw__array_grow((void **)list, cap, *count, sizeof(**list)) != 0) {
        fail(p, PETW_ENOMEM, 0, "out of memory");
        return;
    }
    raw_item *it = &(*list)[(*count)++];
    it->name = attr(p, atts, "name");
    it->value = attr(p, atts, value_attr);
    it->message = attr(p, atts, "message");
    it->symbol = attr(p, atts, "symbol");
    it->chid = NULL;
    it->task = task;
    it->line = line_of(p);
}

static void start_template_child(parser *p, raw_provider *rp, const char *el, const XML_Char **atts)
{
    int is_struct = !strcmp(el, "struct");
    if (!is_struct && strcmp(el, "data") != 0)
        return;
    if (p->strukt >= 0 && is_struct) {
        fail(p, PETW_ECORRUPT, line_of(p), "a struct inside a struct");
        return;
    }
    if (GROW(p, rp->fields))
        return;
    raw_field *f = &rp->fields[rp->fields_count];
    memset(f, 0, sizeof(*f));
    f->name = attr(p, atts, "name");
    f->in = attr(p, atts, "inType");
    f->out = attr(p, atts, "outType");
    f->length = attr(p, atts, "length");
    f->count = attr(p, atts, "count");
    f->map = attr(p, atts, "map");
    f->is_struct = is_struct;
    f->parent = p->strukt >= 0 ? (uint32_t)p->strukt : UINT32_MAX;
    f->line = line_of(p);
    if (p->strukt >= 0)
        rp->fields[p->strukt].members++;
    if (is_struct)
        p->strukt = (int32_t)rp->fields_count;
    rp->fields_count++;
    rp->templates[p->tmpl].count++;
}

/* Whether the element `back` levels up (1: the parent) is `name`. */
static int up_is(const parser *p, uint32_t back, const char *name)
{
    if (p->depth < back || p->depth - back >= STACK_DEPTH)
        return 0;
    return !strcmp(p->stack[p->depth - back], name);
}

/* Where each definition may stand: its parent element. */
static int in_place(const parser *p, const char *el)
{
    static const char *const places[][2] = {
        {"provider", "events"},    {"event", "events"},
        {"task", "tasks"},         {"opcode", "opcodes"},
        {"level", "levels"},       {"keyword", "keywords"},
        {"channel", "channels"},   {"importChannel", "channels"},
        {"template", "templates"}, {"valueMap", "maps"},
        {"bitMap", "maps"},
    };
    for (size_t i = 0; i < PETW__ARRAY_SIZE(places); i++)
        if (!strcmp(el, places[i][0]))
            return up_is(p, 1, places[i][1]);
    if (!strcmp(el, "map"))
        return up_is(p, 1, "valueMap") || up_is(p, 1, "bitMap");
    return 1;
}

static void XMLCALL on_start(void *ctx, const XML_Char *name, const XML_Char **atts)
{
    parser *p = ctx;
    const char *el = local(name);
    raw_provider *rp = cur(p);
    int placed = in_place(p, el);
    if (p->depth < STACK_DEPTH)
        snprintf(p->stack[p->depth], sizeof(p->stack[0]), "%s", el);
    p->depth++;
    if (p->rc || !placed)
        return;
    if (!strcmp(el, "provider")) {
        if (rp) {
            fail(p, PETW_ECORRUPT, line_of(p), "a provider inside a provider");
            return;
        }
        if (GROW(p, p->raw))
            return;
        rp = &p->raw[p->raw_count];
        memset(rp, 0, sizeof(*rp));
        rp->name = attr(p, atts, "name");
        rp->guid = attr(p, atts, "guid");
        rp->message = attr(p, atts, "message");
        rp->symbol = attr(p, atts, "symbol");
        rp->line = line_of(p);
        p->provider = (int32_t)p->raw_count++;
    } else if (!strcmp(el, "resources")) {
        const char *culture = NULL;
        for (int i = 0; atts[i]; i += 2)
            if (!strcmp(atts[i], "culture"))
                culture = atts[i + 1];
        p->in_resources = 1;
        p->preferred_culture = !culture || !strcmp(culture, "en-US");
    } else if (!strcmp(el, "string") && p->in_resources) {
        if (GROW(p, p->texts))
            return;
        raw_string *s = &p->texts[p->texts_count++];
        s->id = attr(p, atts, "id");
        s->value = attr(p, atts, "value");
        s->preferred = p->preferred_culture;
    } else if (!rp) {
        return;
    } else if (p->tmpl >= 0) {
        start_template_child(p, rp, el, atts);
    } else if (!strcmp(el, "event")) {
        if (GROW(p, rp->events))
            return;
        raw_event *e = &rp->events[rp->events_count++];
        e->value = attr(p, atts, "value");
        e->version = attr(p, atts, "version");
        e->level = attr(p, atts, "level");
        e->task = attr(p, atts, "task");
        e->opcode = attr(p, atts, "opcode");
        e->keywords = attr(p, atts, "keywords");
        e->tmpl = attr(p, atts, "template");
        e->message = attr(p, atts, "message");
        e->symbol = attr(p, atts, "symbol");
        e->channel = attr(p, atts, "channel");
        e->line = line_of(p);
    } else if (!strcmp(el, "task")) {
        add_item(p, &rp->tasks, &rp->tasks_count, &rp->tasks_cap, atts, "value", -1);
        p->task = (int32_t)rp->tasks_count - 1;
    } else if (!strcmp(el, "opcode")) {
        add_item(p, &rp->opcodes, &rp->opcodes_count, &rp->opcodes_cap, atts, "value", p->task);
    } else if (!strcmp(el, "level")) {
        add_item(p, &rp->levels, &rp->levels_count, &rp->levels_cap, atts, "value", -1);
    } else if (!strcmp(el, "keyword")) {
        add_item(p, &rp->keywords, &rp->keywords_count, &rp->keywords_cap, atts, "mask", -1);
    } else if (!strcmp(el, "channel") || !strcmp(el, "importChannel")) {
        add_item(p, &rp->channels, &rp->channels_count, &rp->channels_cap, atts, "value", -1);
        if (rp->channels_count)
            rp->channels[rp->channels_count - 1].chid = attr(p, atts, "chid");
    } else if (!strcmp(el, "template")) {
        if (GROW(p, rp->templates))
            return;
        raw_template *t = &rp->templates[rp->templates_count];
        t->tid = attr(p, atts, "tid");
        t->first = rp->fields_count;
        t->count = 0;
        t->line = line_of(p);
        p->tmpl = (int32_t)rp->templates_count++;
    } else if (!strcmp(el, "valueMap") || !strcmp(el, "bitMap")) {
        if (GROW(p, rp->maps))
            return;
        raw_map *mp = &rp->maps[rp->maps_count];
        mp->name = attr(p, atts, "name");
        mp->symbol = attr(p, atts, "symbol");
        mp->bitmap = !strcmp(el, "bitMap");
        mp->first = rp->map_entries_count;
        mp->count = 0;
        mp->line = line_of(p);
        p->map = (int32_t)rp->maps_count++;
    } else if (!strcmp(el, "map") && p->map >= 0) {
        if (GROW(p, rp->map_entries))
            return;
        raw_map_entry *me = &rp->map_entries[rp->map_entries_count++];
        me->value = attr(p, atts, "value");
        me->message = attr(p, atts, "message");
        me->symbol = attr(p, atts, "symbol");
        me->line = line_of(p);
        rp->maps[p->map].count++;
    }
}

static void XMLCALL on_end(void *ctx, const XML_Char *name)
{
    parser *p = ctx;
    const char *el = local(name);
    if (p->depth)
        p->depth--;
    if (!in_place(p, el)) /* its start was ignored too */
        return;
    if (!strcmp(el, "provider"))
        p->provider = -1;
    else if (!strcmp(el, "task"))
        p->task = -1;
    else if (!strcmp(el, "template"))
        p->tmpl = -1;
    else if (!strcmp(el, "struct"))
        p->strukt = -1;
    else if (!strcmp(el, "valueMap") || !strcmp(el, "bitMap"))
        p->map = -1;
    else if (!strcmp(el, "resources"))
        p->in_resources = 0;
}

/* ---- resolution ---- */

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
        slip(p, line, "malformed string reference \"%s\"", s);
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
        slip(p, line, "no string %s in the string table", s);
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
            return slip(p, it->line, "%s \"%s\": bad value \"%s\"", what, name,
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
        return slip(p, line, "unknown %s \"%s\"", what, name);
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
            return fail(p, PETW_ECORRUPT, line, "keyword name too long");
        memcpy(name, s, n);
        name[n] = 0;
        s += n;
        const raw_item *k = find_item(rp->keywords, rp->keywords_count, name, -1);
        uint64_t v;
        if (k) {
            if (number(k->value, UINT64_MAX, &v) != 0) {
                PETW__FORWARD_IF_ERROR(slip(p, k->line, "keyword \"%s\": bad mask", name));
                v = 0;
            }
        } else {
            const named *st = find_named(std_keywords, PETW__ARRAY_SIZE(std_keywords), name);
            if (!st)
                PETW__FORWARD_IF_ERROR(slip(p, line, "unknown keyword \"%s\"", name));
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
                return slip(p, c->line, "channel \"%s\": bad value", name);
            *value = (uint8_t)v;
            return 0;
        }
    }
    const named *s = find_named(std_channels, PETW__ARRAY_SIZE(std_channels), name);
    if (!s)
        return slip(p, line, "unknown channel \"%s\"", name);
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
    return fail(p, PETW_ECORRUPT, f->line,
                "field \"%s\": \"%s\" is neither a number nor an earlier field",
                f->name ? f->name : "", spec);
}

static int resolve_template(parser *p, const raw_provider *rp, const raw_template *t,
                            petw__man_provider *mp, petw__man_event *ev)
{
    if (t->count > PETW__MAN_MAX_FIELDS)
        return fail(p, PETW_ECORRUPT, t->line, "template \"%s\" has more than %d fields", t->tid,
                    PETW__MAN_MAX_FIELDS);
    /* No realloc to the same size when the template is empty: with a zero
     * total, realloc(ptr, 0) may free ptr and return NULL (glibc does). */
    if (t->count) {
        petw__man_field *fields =
            realloc(mp->fields, (mp->field_count + t->count) * sizeof(*fields));
        if (!fields)
            return fail(p, PETW_ENOMEM, 0, "out of memory");
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
                return fail(p, PETW_ECORRUPT, r->line, "struct \"%s\" has no members", f->name);
        } else {
            const named *in =
                r->in ? find_named(in_types, PETW__ARRAY_SIZE(in_types), r->in) : NULL;
            if (!in && r->in && p->builtin)
                in = find_named(builtin_in_types, PETW__ARRAY_SIZE(builtin_in_types), r->in);
            if (!in)
                return fail(p, PETW_ECORRUPT, r->line, "field \"%s\": unknown inType \"%s\"",
                            f->name, r->in ? r->in : "(none)");
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
                PETW__FORWARD_IF_ERROR(
                    slip(p, r->line, "field \"%s\": unknown map \"%s\"", f->name, r->map));
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
            return fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    if (rp->map_entries_count) {
        mp->map_entries = calloc(rp->map_entries_count, sizeof(*mp->map_entries));
        if (!mp->map_entries)
            return fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; i < rp->maps_count; i++) {
        const raw_map *r = &rp->maps[i];
        if (!r->name)
            return fail(p, PETW_ECORRUPT, r->line, "a map without a name");
        mp->maps[i].name = r->name;
        mp->maps[i].bitmap = r->bitmap;
        mp->maps[i].first = r->first;
        mp->maps[i].count = r->count;
    }
    for (uint32_t i = 0; i < rp->map_entries_count; i++) {
        const raw_map_entry *r = &rp->map_entries[i];
        if (number(r->value, UINT64_MAX, &mp->map_entries[i].value) != 0)
            return fail(p, PETW_ECORRUPT, r->line, "map entry: bad value \"%s\"",
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
        return fail(p, PETW_ENOMEM, 0, "out of memory");
    const raw_item *lists[3] = {rp->tasks, rp->opcodes, rp->levels};
    const uint32_t counts[3] = {rp->tasks_count, rp->opcodes_count, rp->levels_count};
    static const uint64_t max[3] = {65535, 255, 255};
    static const char *const what[3] = {"task", "opcode", "level"};
    for (uint32_t kind = 0; kind < 3; kind++)
        for (uint32_t i = 0; i < counts[kind]; i++) {
            const raw_item *it = &lists[kind][i];
            petw__man_name *nm = &mp->names[mp->name_count];
            if (number(it->value, max[kind], &nm->value) != 0) {
                PETW__FORWARD_IF_ERROR(slip(p, it->line, "%s \"%s\": bad value \"%s\"", what[kind],
                                            it->name ? it->name : "", it->value ? it->value : ""));
                continue; /* lenient: the value has no name */
            }
            nm->kind = kind;
            nm->task = PETW__MAN_ANY_TASK;
            if (kind == PETW__MAN_OPCODE && it->task >= 0) {
                uint64_t tv;
                if (number(rp->tasks[it->task].value, 65535, &tv) != 0) {
                    PETW__FORWARD_IF_ERROR(slip(p, rp->tasks[it->task].line, "task: bad value"));
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
        return fail(p, PETW_ENOMEM, 0, "out of memory");
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

static int cmp_event(const void *a, const void *b)
{
    const petw__man_event *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->version < y->version ? -1 : x->version > y->version;
}

static int resolve_event(parser *p, const raw_provider *rp, petw__man_provider *mp,
                         const raw_event *r, petw__man_event *ev)
{
    uint64_t v;
    memset(ev, 0, sizeof(*ev));
    if (number(r->value, 65535, &v) != 0)
        return fail(p, PETW_ECORRUPT, r->line, "event: bad value \"%s\"", r->value ? r->value : "");
    ev->id = (uint16_t)v;
    v = 0;
    if (r->version && number(r->version, 255, &v) != 0)
        return fail(p, PETW_ECORRUPT, r->line, "event %u: bad version", ev->id);
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
        return fail(p, PETW_ECORRUPT, r->line, "event %u: unknown template \"%s\"", ev->id,
                    r->tmpl);
    }
    return 0;
}

static int resolve_provider(parser *p, const raw_provider *rp, petw__man_provider *mp)
{
    memset(mp, 0, sizeof(*mp));
    if (!rp->guid || petw_guid_parse(rp->guid, &mp->guid) != 0)
        return fail(p, PETW_ECORRUPT, rp->line, "provider \"%s\": bad or missing guid",
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
            return fail(p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; i < rp->events_count; i++) {
        if (resolve_event(p, rp, mp, &rp->events[i], &mp->events[mp->event_count]) == 0)
            mp->event_count++;
        else if (!pass_over(p)) /* lenient: the event is left out */
            return p->rc;
    }
    if (mp->event_count > 1)
        qsort(mp->events, mp->event_count, sizeof(*mp->events), cmp_event);
    uint32_t kept = mp->event_count ? 1 : 0;
    for (uint32_t i = 1; i < mp->event_count; i++) {
        if (cmp_event(&mp->events[kept - 1], &mp->events[i]) != 0) {
            mp->events[kept++] = mp->events[i];
            continue;
        }
        fail(p, PETW_ECORRUPT, rp->line, "provider \"%s\": event %u version %u defined twice",
             mp->name, mp->events[i].id, mp->events[i].version);
        if (!pass_over(p)) /* lenient: the first definition stays */
            return p->rc;
    }
    mp->event_count = kept;
    return 0;
}

static void free_raw(parser *p)
{
    for (uint32_t i = 0; i < p->raw_count; i++) {
        raw_provider *r = &p->raw[i];
        free(r->events);
        free(r->tasks);
        free(r->opcodes);
        free(r->levels);
        free(r->keywords);
        free(r->channels);
        free(r->templates);
        free(r->fields);
        free(r->maps);
        free(r->map_entries);
    }
    free(p->raw);
    free(p->texts);
}

static void free_provider(petw__man_provider *p)
{
    free(p->events);
    free(p->fields);
    free(p->maps);
    free(p->map_entries);
    free(p->names);
    free(p->items);
}

static int parse(const void *xml, size_t size, petw__manifest **out, char *error, size_t error_size,
                 int builtin, uint32_t *problems)
{
    parser p;
    memset(&p, 0, sizeof(p));
    p.builtin = builtin;
    p.lenient = problems != NULL;
    if (problems)
        *problems = 0;
    p.provider = p.task = p.tmpl = p.map = p.strukt = -1;
    p.error = error;
    p.error_size = error_size;
    if (error_size)
        error[0] = 0;
    *out = NULL;
    if (size > PETW__MAN_MAX_BYTES || size > INT_MAX)
        return fail(&p, PETW_ECORRUPT, 0, "larger than %u MB", PETW__MAN_MAX_BYTES >> 20);
    p.m = calloc(1, sizeof(*p.m));
    p.xml = XML_ParserCreate(NULL);
    if (!p.m || !p.xml) {
        free(p.m);
        if (p.xml)
            XML_ParserFree(p.xml);
        return PETW_ENOMEM;
    }
    XML_SetUserData(p.xml, &p);
    XML_SetElementHandler(p.xml, on_start, on_end);
    if (XML_Parse(p.xml, xml, (int)size, XML_TRUE) == XML_STATUS_ERROR && p.rc == 0)
        fail(&p, PETW_ECORRUPT, (int)XML_GetCurrentLineNumber(p.xml), "XML: %s",
             XML_ErrorString(XML_GetErrorCode(p.xml)));
    XML_ParserFree(p.xml);
    p.xml = NULL;
    if (p.rc == 0 && p.raw_count == 0)
        fail(&p, PETW_ECORRUPT, 0, "no provider");
    if (p.rc == 0) {
        p.m->providers = calloc(p.raw_count, sizeof(*p.m->providers));
        if (!p.m->providers)
            fail(&p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; p.rc == 0 && i < p.raw_count; i++) {
        petw__man_provider *mp = &p.m->providers[p.m->provider_count];
        p.m->provider_count++;
        if (resolve_provider(&p, &p.raw[i], mp) != 0 && pass_over(&p)) {
            free_provider(mp); /* lenient: the provider is left out */
            p.m->provider_count--;
        }
    }
    free_raw(&p);
    if (p.rc == 0 && p.m->provider_count == 0) /* lenient, and none could be read */
        fail(&p, PETW_ECORRUPT, 0, "%s", p.first);
    if (p.rc) { /* the provider that failed is counted, so freed too */
        petw__manifest_free(p.m);
        return p.rc;
    }
    if (problems) {
        *problems = p.problems;
        if (p.problems && error_size)
            snprintf(error, error_size, "%s", p.first);
    }
    *out = p.m;
    return 0;
}

int petw__manifest_parse(const void *xml, size_t size, petw__manifest **out, char *error,
                         size_t error_size)
{
    return parse(xml, size, out, error, error_size, 0, NULL);
}

int petw__manifest_parse_lenient(const void *xml, size_t size, petw__manifest **out, char *error,
                                 size_t error_size, uint32_t *problems)
{
    return parse(xml, size, out, error, error_size, 0, problems);
}

int petw__manifest_parse_builtin(const void *xml, size_t size, petw__manifest **out, char *error,
                                 size_t error_size)
{
    return parse(xml, size, out, error, error_size, 1, NULL);
}

void petw__manifest_free(petw__manifest *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->provider_count; i++)
        free_provider(&m->providers[i]);
    free(m->providers);
    for (uint32_t i = 0; i < m->strings_count; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m);
}

uint32_t petw__manifest_provider_count(const petw__manifest *m)
{
    return m->provider_count;
}

const petw__man_provider *petw__manifest_provider(const petw__manifest *m, uint32_t i)
{
    return i < m->provider_count ? &m->providers[i] : NULL;
}

const petw__man_event *petw__manifest_find_event(const petw__man_provider *p, uint16_t id,
                                                 uint8_t version)
{
    petw__man_event key;
    memset(&key, 0, sizeof(key));
    key.id = id;
    key.version = version;
    if (!p->event_count)
        return NULL;
    return bsearch(&key, p->events, p->event_count, sizeof(key), cmp_event);
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

int petw__manifest_map_text(const petw__man_provider *p, int32_t map, uint64_t value, char *out,
                            size_t size)
{
    if (map < 0 || (uint32_t)map >= p->map_count || size == 0)
        return -1;
    const petw__man_map *m = &p->maps[map];
    if (m->count == 0) /* no entries: the provider may have none at all */
        return -1;
    const petw__man_map_entry *e = p->map_entries + m->first;
    out[0] = 0;
    if (!m->bitmap) {
        for (uint32_t i = 0; i < m->count; i++)
            if (e[i].value == value) {
                snprintf(out, size, "%s", e[i].text);
                return 0;
            }
        return -1;
    }
    size_t used = 0;
    int any = 0;
    for (uint32_t i = 0; i < m->count; i++)
        if (e[i].value && (value & e[i].value) == e[i].value) {
            int n = snprintf(out + used, size - used, "%s%s", any ? " | " : "", e[i].text);
            if (n < 0 || (size_t)n >= size - used)
                break;
            used += (size_t)n;
            any = 1;
        }
    return any ? 0 : -1;
}
