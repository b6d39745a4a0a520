/* SPDX-License-Identifier: MIT */
/* manifest.c - instrumentation manifests: expat reads the XML into raw
 * lists (attribute text, as written), then each provider is resolved into
 * the model of manifest.h (manifest_model.c), once every name and string it
 * uses is known.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../base/common/common.h"
#include "manifest.h"
#include "manifest_internal.h"
#include "petw/decode.h"

static void say(char *out, size_t size, int line, const char *fmt, va_list ap)
{
    int n = line > 0 ? snprintf(out, size, "line %d: ", line) : 0;
    if (n >= 0 && (size_t)n < size)
        vsnprintf(out + n, size - (size_t)n, fmt, ap);
}

int petw__manifest_fail(parser *p, int rc, int line, const char *fmt, ...)
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
int petw__manifest_slip(parser *p, int line, const char *fmt, ...)
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
int petw__manifest_pass_over(parser *p)
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
        petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
        return NULL;
    }
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (!c) {
        petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
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
        petw__manifest_fail(p, PETW_ENOMEM, 0, "out of memory");
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
        petw__manifest_fail(p, PETW_ECORRUPT, line_of(p), "a struct inside a struct");
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

/* An element inside a provider, outside templates: an event, a task,
 * opcode, level, keyword or channel, a template, a map or its entry. */
static void start_provider_child(parser *p, raw_provider *rp, const char *el, const XML_Char **atts)
{
    if (!strcmp(el, "event")) {
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
            petw__manifest_fail(p, PETW_ECORRUPT, line_of(p), "a provider inside a provider");
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
    } else {
        start_provider_child(p, rp, el, atts);
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
        return petw__manifest_fail(&p, PETW_ECORRUPT, 0, "larger than %u MB",
                                   PETW__MAN_MAX_BYTES >> 20);
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
        petw__manifest_fail(&p, PETW_ECORRUPT, (int)XML_GetCurrentLineNumber(p.xml), "XML: %s",
                            XML_ErrorString(XML_GetErrorCode(p.xml)));
    XML_ParserFree(p.xml);
    p.xml = NULL;
    if (p.rc == 0 && p.raw_count == 0)
        petw__manifest_fail(&p, PETW_ECORRUPT, 0, "no provider");
    if (p.rc == 0) {
        p.m->providers = calloc(p.raw_count, sizeof(*p.m->providers));
        if (!p.m->providers)
            petw__manifest_fail(&p, PETW_ENOMEM, 0, "out of memory");
    }
    for (uint32_t i = 0; p.rc == 0 && i < p.raw_count; i++) {
        petw__man_provider *mp = &p.m->providers[p.m->provider_count];
        p.m->provider_count++;
        if (petw__manifest_resolve_provider(&p, &p.raw[i], mp) != 0 &&
            petw__manifest_pass_over(&p)) {
            free_provider(mp); /* lenient: the provider is left out */
            p.m->provider_count--;
        }
    }
    free_raw(&p);
    if (p.rc == 0 && p.m->provider_count == 0) /* lenient, and none could be read */
        petw__manifest_fail(&p, PETW_ECORRUPT, 0, "%s", p.first);
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
