/* SPDX-License-Identifier: MIT */
/* recording_profile_wprp.c - WPR profiles (recording_profile.h): the file is read once
 * with expat into a table of the elements that matter (collectors,
 * providers, profiles, the references between them, and what petw does not
 * do as notes on them); the chosen profile is then resolved from the table
 * (recording_profile_wprp_resolve.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(PETW_HAVE_EXPAT)
#include "recording_profile_wprp.h"

/* The elements whose children matter, as a stack. */
enum {
    K_ROOT,
    K_PROFILES,
    K_PROFILE,
    K_COLLECTORS,
    K_COLLECTOR,
    K_SYSTEM,
    K_PROVIDERS,
    K_PROVIDER,
    K_KEYWORDS,
    K_SYSPROV,
    K_SYS_KEYWORDS,
    K_SYS_STACKS
};

/* WPR's system keywords (WPRControlProfiles.xsd's SystemKeywordEnumeration)
 * as the kernel groups `--kernel` takes: "" when petw always records it,
 * NULL when petw has no source for it. */
const recording_profile__wpr_name recording_profile__wpr_sys_keywords[] = {
    {"ProcessThread", "process,thread"},
    {"Loader", "image"},
    {"CSwitch", "cswitch"},
    {"CompactCSwitch", "cswitch"},
    {"ReadyThread", "dispatcher"},
    {"SampledProfile", "profile"},
    {"DiskIO", "disk"},
    {"DiskIOInit", "disk"},
    {"FileIO", "file_io"},
    {"FileIOInit", "file_io_init"},
    {"Filename", "file_io"},
    {"NetworkTrace", "networktrace"},
    {"HardFaults", "hard_faults"},
    {"AllFaults", "memory"},
    {"VirtualAllocation", "virt_alloc"},
    {"CpuConfig", ""}, /* SystemConfig's CPU records: in every kernel session */
    {"MemoryInfo", NULL},
    {"MemoryInfoWS", NULL},
    {"Registry", NULL},
    {"DPC", NULL},
    {"Interrupt", NULL},
    {"SystemCall", NULL},
    {"Alpc", NULL},
    {"Power", NULL},
    {"IdleStates", NULL},
    {"Pool", NULL},
    {"ProcessCounter", NULL},
    {"Timer", NULL},
    {"SynchronizationObjects", NULL},
    {"Spinlock", NULL},
    {"IPI", NULL},
    {"Drivers", NULL},
    {"SplitIO", NULL},
    {"VAMap", NULL},
    {"ReferenceSet", NULL},
    {"FootPrint", NULL},
    {"Session", NULL},
    {"ThreadPriority", NULL},
    {"KernelQueue", NULL},
    {"ClockInterrupt", NULL},
    {"HalClock", NULL},
    {"AntiStarvation", NULL},
    {"ProcessFreeze", NULL},
    {"WDFDPC", NULL},
    {"WDFInterrupt", NULL},
    {"CC", NULL},
};

/* WPR's system stacks petw records, as the groups `--stacks` takes. */
const recording_profile__wpr_name recording_profile__wpr_sys_stacks[] = {
    {"SampledProfile", "profile"},
    {"CSwitch", "cswitch"},
    {"ReadyThread", "readythread"},
};
const size_t recording_profile__wpr_sys_keyword_count =
    sizeof(recording_profile__wpr_sys_keywords) / sizeof(recording_profile__wpr_sys_keywords[0]);
const size_t recording_profile__wpr_sys_stack_count =
    sizeof(recording_profile__wpr_sys_stacks) / sizeof(recording_profile__wpr_sys_stacks[0]);

static const char *const profile_attrs[] = {"Id",          "Name",    "Base",   "DetailLevel",
                                            "LoggingMode", "Default", "Strict", "Internal",
                                            "Description", NULL};
static const char *const collector_attrs[] = {"Id", "Name", "Base", "FileName", NULL};
static const char *const provider_attrs[] = {"Id",    "Name",           "Base", "Level",
                                             "Stack", "NonPagedMemory", NULL};
static const char *const sysprov_attrs[] = {"Id", "Base", NULL};
static const char *const value_attrs[] = {"Value", NULL};
static const char *const list_attrs[] = {"Operation", NULL};
static const char *const buffers_attrs[] = {"Value", "Operation", "PercentageOfTotalMemory", NULL};

/* Stops the parse with "line N: reason" (the first failure wins). */
static void wp_fail(wp *w, const char *fmt, ...)
{
    char reason[400];
    va_list ap;
    if (w->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    w->failed = 1;
    recording_profile__fail(w->err, w->err_size, (long)XML_GetCurrentLineNumber(w->parser), "%s",
                            reason);
    XML_StopParser(w->parser, XML_FALSE);
}

/* Room for one more element in an array of `*cap`: the array, or NULL. */
static void *grow(void *array, int *cap, size_t size)
{
    if (*cap == WP_MAX_ITEMS)
        return NULL;
    int n = *cap ? *cap * 2 : 32;
    void *p = realloc(array, (size_t)(n < WP_MAX_ITEMS ? n : WP_MAX_ITEMS) * size);
    if (p)
        *cap = n < WP_MAX_ITEMS ? n : WP_MAX_ITEMS;
    return p;
}

/* Something item `i` (-1: the file) asks for that petw does not do. */
static void wp_note_add(wp *w, int item, const char *fmt, ...)
{
    if (w->failed)
        return;
    if (w->note_count == w->note_cap) {
        wp_note *p = grow(w->notes, &w->note_cap, sizeof(*p));
        if (!p) {
            wp_fail(w, "more than %d things petw does not do", WP_MAX_ITEMS);
            return;
        }
        w->notes = p;
    }
    wp_note *n = &w->notes[w->note_count++];
    va_list ap;
    n->item = item;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof(n->text), fmt, ap);
    va_end(ap);
}

static const char *attr_get(const XML_Char **attr, const char *name)
{
    for (; attr[0]; attr += 2)
        if (!strcmp(attr[0], name))
            return attr[1];
    return NULL;
}

static int is_true(const char *v)
{
    return v && (!recording_profile__casecmp(v, "true") || !strcmp(v, "1"));
}

/* Notes the attributes of an element of item `i` that are not `known`,
 * unless they say "false" (or nothing). `el`: the element, when it is not
 * the item's own. */
static void wp_note_others(wp *w, int i, const char *el, const XML_Char **attr,
                           const char *const *known)
{
    for (; attr[0]; attr += 2) {
        int k = 0;
        while (known[k] && strcmp(known[k], attr[0]))
            k++;
        if (!known[k] && attr[1][0] && recording_profile__casecmp(attr[1], "false") &&
            strcmp(attr[1], "0"))
            wp_note_add(w, i, "%s%s%s%s=\"%s\"", el ? "<" : "", el ? el : "", el ? "> " : "",
                        attr[0], attr[1]);
    }
}

/* Operation="Add" (1) or "Set", the default (0); another is noted. */
static int wp_operation(wp *w, int i, const char *el, const XML_Char **attr)
{
    const char *op = attr_get(attr, "Operation");
    if (op && recording_profile__casecmp(op, "Set") && recording_profile__casecmp(op, "Add"))
        wp_note_add(w, i, "<%s> Operation=\"%s\"", el, op);
    wp_note_others(w, i, el, attr, list_attrs);
    return op && !recording_profile__casecmp(op, "Add");
}

static void wp_copy(wp *w, char *dst, size_t size, const char *src, const char *what)
{
    if (!src)
        src = "";
    if (strlen(src) >= size)
        wp_fail(w, "%s '%.40s...' is longer than %zu characters", what, src, size - 1);
    else
        memcpy(dst, src, strlen(src) + 1);
}

/* A new item for element `el`; `owner` as wp_item says. Returns its index
 * or -1 (the parse stopped). */
static int wp_new(wp *w, int type, int ref, int owner, const char *el, const XML_Char **attr)
{
    if (w->count == w->cap) {
        wp_item *p = grow(w->items, &w->cap, sizeof(*p));
        if (!p) {
            wp_fail(w, "more than %d collectors, providers and profiles", WP_MAX_ITEMS);
            return -1;
        }
        w->items = p;
    }
    int i = w->count++;
    wp_item *it = &w->items[i];
    memset(it, 0, sizeof(*it));
    it->type = type;
    it->ref = ref;
    it->owner = owner;
    it->line = (long)XML_GetCurrentLineNumber(w->parser);
    it->level = it->stack = it->memory = -1;
    it->base_at = -2;
    if (ref) {
        wp_copy(w, it->base, sizeof(it->base), attr_get(attr, "Value"), "Value");
        if (type == WP_SYSTEM)
            wp_copy(w, it->name, sizeof(it->name), el, "element");
        wp_note_others(w, i, NULL, attr, value_attrs);
        if (!it->base[0])
            wp_fail(w, "<%s> without a Value", el);
        return w->failed ? -1 : i;
    }
    wp_copy(w, it->id, sizeof(it->id), attr_get(attr, "Id"), "Id");
    wp_copy(w, it->base, sizeof(it->base), attr_get(attr, "Base"), "Base");
    const char *name = attr_get(attr, "Name");
    if (type == WP_PROVIDER && name && name[0] == '*')
        name++; /* a TraceLogging or EventSource name: its GUID is the name's hash */
    if (type != WP_COLLECTOR)
        wp_copy(w, it->name, sizeof(it->name), name, "Name");
    if (type == WP_PROFILE) {
        const char *mode = attr_get(attr, "LoggingMode");
        wp_copy(w, it->detail, sizeof(it->detail), attr_get(attr, "DetailLevel"), "DetailLevel");
        if (mode && recording_profile__casecmp(mode, "File") &&
            recording_profile__casecmp(mode, "Memory"))
            wp_fail(w, "LoggingMode '%.40s' is neither File nor Memory", mode);
        else if (mode)
            it->memory = !recording_profile__casecmp(mode, "Memory");
        wp_note_others(w, i, NULL, attr, profile_attrs);
    } else if (type == WP_PROVIDER) {
        const char *level = attr_get(attr, "Level"), *stack = attr_get(attr, "Stack");
        uint64_t v;
        if (level && recording_profile__number(level, strlen(level), 255, &v) != 0)
            wp_fail(w, "Level '%.40s' is not 0-255", level);
        else if (level)
            it->level = (int)v;
        if (stack)
            it->stack = is_true(stack);
        wp_note_others(w, i, NULL, attr, provider_attrs);
    } else if (type == WP_SYSPROV) {
        wp_note_others(w, i, NULL, attr, sysprov_attrs);
    } else {
        wp_note_others(w, i, NULL, attr, collector_attrs);
    }
    return w->failed ? -1 : i;
}

/* <BufferSize> or <Buffers> of collector item `i`. */
static void wp_buffers(wp *w, int i, const char *el, const XML_Char **attr)
{
    wp_item *it = &w->items[i];
    const char *value = attr_get(attr, "Value"), *op = attr_get(attr, "Operation");
    uint64_t v;
    if (!value || recording_profile__number(value, strlen(value), UINT32_MAX, &v) != 0) {
        wp_fail(w, "<%s> Value '%.40s' is not a number", el, value ? value : "");
        return;
    }
    if (el[6] == 'S') { /* BufferSize */
        it->kb = (uint32_t)v;
    } else {
        it->buffers = (uint32_t)v;
        it->percent = is_true(attr_get(attr, "PercentageOfTotalMemory"));
        if (it->percent)
            wp_note_add(w, i, "<Buffers> as %s%% of memory (PercentageOfTotalMemory)", value);
    }
    if (op && recording_profile__casecmp(op, "Set"))
        wp_note_add(w, i, "<%s> Operation=\"%s\"", el, op);
    wp_note_others(w, i, el, attr, buffers_attrs);
}

static void wp_keyword(wp *w, int i, const XML_Char **attr)
{
    const char *value = attr_get(attr, "Value");
    uint64_t v;
    if (!value || recording_profile__number(value, strlen(value), UINT64_MAX, &v) != 0) {
        wp_fail(w, "Keyword Value '%.40s' is not a number (0x hex or decimal)", value ? value : "");
        return;
    }
    w->items[i].keywords |= v;
    wp_note_others(w, i, "Keyword", attr, value_attrs);
}

/* A SystemProvider's <Keyword> or <Stack> (`stack`): a bit of its table,
 * or a note for a name WPR does not have. */
static void wp_sys_name(wp *w, int i, int stack, const XML_Char **attr)
{
    const char *value = attr_get(attr, "Value");
    size_t n =
        stack ? recording_profile__wpr_sys_stack_count : recording_profile__wpr_sys_keyword_count;
    size_t k = 0;
    while (value && k < n &&
           recording_profile__casecmp(stack ? recording_profile__wpr_sys_stacks[k].wpr
                                            : recording_profile__wpr_sys_keywords[k].wpr,
                                      value))
        k++;
    if (!value)
        wp_fail(w, "<%s> without a Value", stack ? "Stack" : "Keyword");
    else if (k < n && stack)
        w->items[i].stacks |= 1ull << k;
    else if (k < n)
        w->items[i].keywords |= 1ull << k;
    else
        wp_note_add(w, i, "%s \"%.40s\" (%s)", stack ? "Stack" : "Keyword", value,
                    stack ? "its stacks are not recorded" : "not a system keyword petw knows");
    wp_note_others(w, i, stack ? "Stack" : "Keyword", attr, value_attrs);
}

/* An element in the profiles' part of the tree (the root, <Profiles>, a
 * <Profile>, its <Collectors>): the kind it opens, or -1 (a leaf handled here,
 * or content that does not matter); *item, the item it makes. */
static int wp_profile_element(wp *w, int parent, int at, const XML_Char *el, const XML_Char **attr,
                              int *item)
{
    int kind = -1;
    wp_item *it = at >= 0 ? &w->items[at] : NULL;
    switch (parent) {
    case -1:
        if (strcmp(el, "WindowsPerformanceRecorder")) {
            wp_fail(w, "not a WPR profile: the root element is <%.40s>", el);
            return -1;
        }
        kind = K_ROOT;
        break;
    case K_ROOT:
        if (!strcmp(el, "Profiles"))
            kind = K_PROFILES;
        else
            wp_note_add(w, -1, "<%s> (not used)", el);
        break;
    case K_PROFILES:
        /* System and heap definitions matter only where a profile uses them. */
        if (!strcmp(el, "Profile"))
            *item = wp_new(w, WP_PROFILE, 0, -1, el, attr), kind = K_PROFILE;
        else if (!strcmp(el, "EventCollector"))
            *item = wp_new(w, WP_COLLECTOR, 0, -1, el, attr), kind = K_COLLECTOR;
        else if (!strcmp(el, "EventProvider"))
            *item = wp_new(w, WP_PROVIDER, 0, -1, el, attr), kind = K_PROVIDER;
        else if (!strcmp(el, "SystemProvider"))
            *item = wp_new(w, WP_SYSPROV, 0, -1, el, attr), kind = K_SYSPROV;
        break;
    case K_PROFILE:
        if (!strcmp(el, "Collectors")) {
            it->set = 1;
            it->add = wp_operation(w, at, el, attr);
            kind = K_COLLECTORS;
        } else if (strcmp(el, "ProblemCategories")) {
            wp_note_add(w, at, "<%s>", el);
        }
        break;
    case K_COLLECTORS:
        if (!strcmp(el, "EventCollectorId")) {
            *item = wp_new(w, WP_COLLECTOR, 1, at, el, attr), kind = K_COLLECTOR;
        } else if (!strcmp(el, "SystemCollectorId") || !strcmp(el, "HeapEventCollectorId")) {
            *item = wp_new(w, WP_SYSTEM, 1, at, el, attr), kind = K_SYSTEM;
            if (*item >= 0 && el[0] == 'H')
                wp_note_add(w, *item, "heap events (a heap session)");
        } else {
            wp_note_add(w, at, "<%s>", el);
        }
        break;
    }
    return kind;
}

/* An element inside a collector or a provider (its buffers, providers,
 * keywords; a system collector's settings, noted): as wp_profile_element. */
static int wp_collector_element(wp *w, int parent, int at, const XML_Char *el,
                                const XML_Char **attr, int *item)
{
    int kind = -1;
    wp_item *it = at >= 0 ? &w->items[at] : NULL;
    switch (parent) {
    case K_SYSTEM: {
        const char *v = attr_get(attr, "Value");
        if (!strcmp(w->items[at].name, "SystemCollectorId") && !strcmp(el, "SystemProviderId")) {
            wp_new(w, WP_SYSPROV, 1, at, el, attr);
            break;
        }
        if (!strcmp(w->items[at].name, "SystemCollectorId") && !strcmp(el, "SystemProvider")) {
            *item = wp_new(w, WP_SYSPROV, 0, at, el, attr), kind = K_SYSPROV;
            break;
        }
        v = v ? v : attr_get(attr, "Id");
        wp_note_add(w, at, "%s%s%s%s (not recorded)", el, v ? " \"" : "", v ? v : "",
                    v ? "\"" : "");
        break;
    }
    case K_SYSPROV:
        if (!strcmp(el, "Keywords")) {
            it->add = it->set ? it->add : wp_operation(w, at, el, attr);
            it->set = 1;
            kind = K_SYS_KEYWORDS;
        } else if (!strcmp(el, "Stacks")) {
            it->stacks_add = it->stacks_set ? it->stacks_add : wp_operation(w, at, el, attr);
            it->stacks_set = 1;
            kind = K_SYS_STACKS;
        } else {
            wp_note_add(w, at, "<%s>", el);
        }
        break;
    case K_SYS_KEYWORDS:
    case K_SYS_STACKS:
        if (!strcmp(el, parent == K_SYS_STACKS ? "Stack" : "Keyword"))
            wp_sys_name(w, at, parent == K_SYS_STACKS, attr);
        else
            wp_note_add(w, at, "<%s><%s>", parent == K_SYS_STACKS ? "Stacks" : "Keywords", el);
        break;
    case K_COLLECTOR:
        if (!strcmp(el, "BufferSize") || !strcmp(el, "Buffers")) {
            wp_buffers(w, at, el, attr);
        } else if (!strcmp(el, "EventProviders") && it->ref) {
            it->set = 1;
            it->add = wp_operation(w, at, el, attr);
            kind = K_PROVIDERS;
        } else {
            wp_note_add(w, at, "<%s>", el);
        }
        break;
    case K_PROVIDERS:
        if (!strcmp(el, "EventProviderId"))
            *item = wp_new(w, WP_PROVIDER, 1, at, el, attr), kind = K_PROVIDER;
        else if (!strcmp(el, "EventProvider"))
            *item = wp_new(w, WP_PROVIDER, 0, at, el, attr), kind = K_PROVIDER;
        else
            wp_note_add(w, at, "<%s>", el);
        break;
    case K_PROVIDER:
        if (!strcmp(el, "Keywords")) {
            it->add = it->set ? it->add : wp_operation(w, at, el, attr);
            it->set = 1;
            kind = K_KEYWORDS;
        } else {
            wp_note_add(w, at, "<%s>", el);
        }
        break;
    case K_KEYWORDS:
        if (!strcmp(el, "Keyword"))
            wp_keyword(w, at, attr);
        else
            wp_note_add(w, at, "<Keywords><%s>", el);
        break;
    }
    return kind;
}

static void XMLCALL wp_start(void *user, const XML_Char *el, const XML_Char **attr)
{
    wp *w = user;
    if (w->failed)
        return;
    if (w->skip) {
        w->skip++;
        return;
    }
    int parent = w->depth ? w->kind[w->depth - 1] : -1, at = w->depth ? w->at[w->depth - 1] : -1;
    int item = at;
    int kind = parent < K_COLLECTOR ? wp_profile_element(w, parent, at, el, attr, &item)
                                    : wp_collector_element(w, parent, at, el, attr, &item);
    if (w->failed)
        return;
    if (kind < 0 || w->depth == WP_MAX_DEPTH) {
        w->skip = 1; /* a leaf handled above, or content that does not matter */
        return;
    }
    w->kind[w->depth] = kind;
    w->at[w->depth++] = item;
}

static void XMLCALL wp_end(void *user, const XML_Char *el)
{
    wp *w = user;
    (void)el;
    if (w->skip)
        w->skip--;
    else if (w->depth)
        w->depth--;
}

static void XMLCALL wp_doctype(void *user, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal_subset)
{
    (void)name;
    (void)sysid;
    (void)pubid;
    (void)has_internal_subset;
    wp_fail(user, "a document type declaration (<!DOCTYPE>) has no place in a WPR profile");
}

int recording_profile__parse_wprp(const char *data, size_t size, const char *select,
                                  recording_profile *out, char *err, size_t err_size)
{
    wp w;
    memset(&w, 0, sizeof(w));
    w.err = err;
    w.err_size = err_size;
    w.parser = XML_ParserCreate(NULL);
    if (!w.parser)
        return recording_profile__fail(err, err_size, 0, "out of memory");
    XML_SetUserData(w.parser, &w);
    XML_SetElementHandler(w.parser, wp_start, wp_end);
    XML_SetStartDoctypeDeclHandler(w.parser, wp_doctype);
    int rc = 0;
    size_t off = 0;
    do { /* in pieces: XML_Parse takes an int */
        size_t n = size - off < WP_CHUNK ? size - off : WP_CHUNK;
        if (XML_Parse(w.parser, data + off, (int)n, off + n == size) != XML_STATUS_OK) {
            if (!w.failed)
                recording_profile__fail(err, err_size, (long)XML_GetCurrentLineNumber(w.parser),
                                        "%s", XML_ErrorString(XML_GetErrorCode(w.parser)));
            rc = -1;
        }
        off += n;
    } while (rc == 0 && off < size);
    if (rc == 0)
        rc = recording_profile__wprp_resolve(&w, select, out);
    XML_ParserFree(w.parser);
    free(w.items);
    free(w.notes);
    return rc;
}

#else
typedef int recording_profile__wprp_needs_expat; /* WPR profiles are refused */
#endif
