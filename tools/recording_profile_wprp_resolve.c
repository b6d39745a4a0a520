/* SPDX-License-Identifier: MIT */
/* recording_profile_wprp_resolve.c - a WPR profile (recording_profile.h)
 * resolved from the table of elements recording_profile_wprp.c read: the
 * chosen profile, its Base chains, its collectors and providers (kernel
 * groups, stacks, keywords, levels, buffers), and what petw does not do
 * reported as unsupported lines. */
#if defined(PETW_HAVE_EXPAT)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recording_profile_wprp.h"

/* The definition item `i` is based on (its Base, or what a reference
 * names), or -1. */
static int wp_base(wp *w, int i)
{
    wp_item *it = &w->items[i];
    if (it->base_at == -2) {
        it->base_at = -1;
        for (int j = 0; it->base[0] && it->type != WP_SYSTEM && j < w->count; j++)
            if (!w->items[j].ref && w->items[j].type == it->type &&
                !strcmp(w->items[j].id, it->base)) {
                it->base_at = j;
                break;
            }
    }
    return it->base_at;
}

/* How the unsupported lines name item `i`. */
static void wp_who(const wp *w, int i, char *out, size_t size)
{
    static const char *const defs[] = {"Profile", "EventCollector", "EventProvider", "",
                                       "SystemProvider"};
    static const char *const refs[] = {"Profile", "EventCollectorId", "EventProviderId", "",
                                       "SystemProviderId"};
    const wp_item *it = &w->items[i];
    if (it->ref)
        snprintf(out, size, "%s \"%s\"", it->type == WP_SYSTEM ? it->name : refs[it->type],
                 it->base);
    else
        snprintf(out, size, "%s \"%s\"", defs[it->type], it->id[0] ? it->id : it->name);
}

/* Item `i` and what it is based on, most derived first, in chain[]. What
 * is not in the file (a Base, or what a reference names: WPR's built-in
 * collectors and providers can be) is reported; a reference to nothing
 * has an empty chain. Returns the chain's length, or -1. */
static int wp_chain(wp *w, int i, int chain[WP_MAX_BASE], recording_profile *out)
{
    int n = 0;
    for (;;) {
        if (n == WP_MAX_BASE)
            return recording_profile__fail(w->err, w->err_size, w->items[chain[0]].line,
                                           "a Base chain longer than %d (a loop?) from here",
                                           WP_MAX_BASE);
        chain[n++] = i;
        int b = wp_base(w, i);
        wp_item *it = &w->items[i];
        if (b >= 0) {
            i = b;
            continue;
        }
        char who[WP_WHO];
        wp_who(w, i, who, sizeof(who));
        if (it->ref && it->type != WP_SYSTEM) {
            recording_profile__unsupported(
                out, "%s: not in the file (WPR's built-in %s are not here)", who,
                it->type == WP_COLLECTOR ? "collectors" : "providers");
            return 0;
        }
        if (it->base[0] && !it->ref)
            recording_profile__unsupported(
                out, "%s: Base \"%s\" is not in the file%s", who, it->base,
                it->type == WP_PROFILE ? " (WPR's built-in profiles are not here)" : "");
        return n;
    }
}

/* Adds the notes of item `i` (-1: the file's own) to the unsupported lines, once. */
static void wp_report(wp *w, int i, recording_profile *out)
{
    char who[WP_WHO] = "";
    if (i >= 0) {
        if (w->items[i].reported)
            return;
        w->items[i].reported = 1;
        wp_who(w, i, who, sizeof(who));
    }
    for (int k = 0; k < w->note_count; k++)
        if (w->notes[k].item == i)
            recording_profile__unsupported(out, "%s%s%s", who, i >= 0 ? ": " : "",
                                           w->notes[k].text);
}

/* The chain of `i`, each reported. Returns its length or -1. */
static int wp_use(wp *w, int i, int chain[WP_MAX_BASE], recording_profile *out)
{
    int n = wp_chain(w, i, chain, out);
    for (int k = 0; k < n; k++)
        wp_report(w, chain[k], out);
    return n;
}

/* Enables provider item `i` as its chain resolves it: the most derived
 * Name, Level and Stack; the Keywords of each while they say "Add". */
static int wp_provider(wp *w, int i, recording_profile *out)
{
    int chain[WP_MAX_BASE], n = wp_use(w, i, chain, out), def = i, level = -1, stack = -1;
    int keywords_done = 0;
    const char *name = "";
    uint64_t keywords = 0;
    if (n <= 0)
        return n;
    for (int k = 0; k < n; k++) {
        wp_item *it = &w->items[chain[k]];
        name = name[0] ? name : it->name;
        level = level >= 0 ? level : it->level;
        stack = stack >= 0 ? stack : it->stack;
        if (it->set && !keywords_done) {
            keywords |= it->keywords;
            keywords_done = !it->add;
        }
        if (w->items[def].ref)
            def = chain[k]; /* the definition names the provider in messages */
    }
    char who[WP_WHO];
    wp_who(w, def, who, sizeof(who));
    if (!name[0])
        return recording_profile__fail(w->err, w->err_size, w->items[i].line, "%s has no Name",
                                       who);
    if (stack == 1)
        recording_profile__unsupported(out, "%s: Stack=\"true\" (stacks are not recorded)", who);
    return recording_profile__add_provider(out, name, keywords, level, w->err, w->err_size,
                                           w->items[i].line);
}

/* Adds system provider item `i`'s kernel groups and stacks, as its chain
 * resolves them (Keywords and Stacks each while they say "Add"), to
 * out->kernel and out->stacks; what petw has no source for is reported. */
static int wp_system_provider(wp *w, int i, recording_profile *out)
{
    int chain[WP_MAX_BASE], n = wp_use(w, i, chain, out), def = i;
    int keywords_done = 0, stacks_done = 0;
    uint64_t keywords = 0, stacks = 0;
    for (int k = 0; k < n; k++) {
        wp_item *it = &w->items[chain[k]];
        if (it->set && !keywords_done) {
            keywords |= it->keywords;
            keywords_done = !it->add;
        }
        if (it->stacks_set && !stacks_done) {
            stacks |= it->stacks;
            stacks_done = !it->stacks_add;
        }
        if (w->items[def].ref)
            def = chain[k];
    }
    char who[WP_WHO];
    wp_who(w, def, who, sizeof(who));
    for (size_t k = 0; k < recording_profile__wpr_sys_keyword_count; k++) {
        if (!(keywords >> k & 1))
            continue;
        if (recording_profile__wpr_sys_keywords[k].petw)
            recording_profile__add_names(out->kernel, sizeof(out->kernel),
                                         recording_profile__wpr_sys_keywords[k].petw);
        else
            recording_profile__unsupported(out, "%s: Keyword \"%s\" (petw has no source for it)",
                                           who, recording_profile__wpr_sys_keywords[k].wpr);
    }
    for (size_t k = 0; k < recording_profile__wpr_sys_stack_count; k++)
        if (stacks >> k & 1)
            recording_profile__add_names(out->stacks, sizeof(out->stacks),
                                         recording_profile__wpr_sys_stacks[k].petw);
    return n < 0 ? -1 : 0;
}

/* A profile's Name, DetailLevel and LoggingMode, through its Base chain. */
static void wp_profile_attrs(wp *w, int p, const char **name, const char **detail, int *memory)
{
    *name = *detail = "";
    *memory = -1;
    for (int k = 0; p >= 0 && k < WP_MAX_BASE; k++, p = wp_base(w, p)) {
        wp_item *it = &w->items[p];
        *name = (*name)[0] ? *name : it->name;
        *detail = (*detail)[0] ? *detail : it->detail;
        *memory = *memory >= 0 ? *memory : it->memory;
    }
}

/* The profile `select` picks (recording_profile_parse says how), or -1 with the reason. */
static int wp_select(wp *w, const char *select)
{
    int best = -1, best_score = -1, profiles = 0, one_name = 1;
    const char *first = NULL;
    for (int i = 0; i < w->count; i++) {
        if (w->items[i].type != WP_PROFILE)
            continue;
        if (select && !recording_profile__casecmp(w->items[i].id, select))
            return i;
        const char *name, *detail;
        int memory;
        char full[sizeof(w->items[i].name) + sizeof(w->items[i].detail) + 1];
        wp_profile_attrs(w, i, &name, &detail, &memory);
        snprintf(full, sizeof(full), "%s.%s", name, detail);
        profiles++;
        one_name = one_name && (!first || !recording_profile__casecmp(first, name));
        first = first ? first : name;
        if (select && recording_profile__casecmp(name, select) &&
            recording_profile__casecmp(full, select))
            continue;
        int score = 2 * !recording_profile__casecmp(detail, "Verbose") + (memory != 1);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    if (profiles == 0)
        return recording_profile__fail(w->err, w->err_size, 0, "no <Profile> in the file");
    if (best >= 0 && (select || profiles == 1 || one_name))
        return best;
    char list[400] = "";
    size_t len = 0;
    for (int i = 0; i < w->count && len < sizeof(list); i++)
        if (w->items[i].type == WP_PROFILE)
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "",
                                    w->items[i].id);
    if (len >= sizeof(list))
        memcpy(list + sizeof(list) - 4, "...", 4);
    if (select)
        return recording_profile__fail(w->err, w->err_size, 0,
                                       "no profile '%s' in the file; it has: %s", select, list);
    return recording_profile__fail(w->err, w->err_size, 0,
                                   "the file has %d profiles: choose one of %s", profiles, list);
}

/* Resolves the chosen profile into `out`. */
int recording_profile__wprp_resolve(wp *w, const char *select, recording_profile *out)
{
    int p = wp_select(w, select), chain[WP_MAX_BASE], n;
    if (p < 0 || (n = wp_use(w, p, chain, out)) < 0)
        return -1;
    const char *name, *detail;
    wp_profile_attrs(w, p, &name, &detail, &out->memory);
    out->memory = out->memory == 1;
    snprintf(out->name, sizeof(out->name), "%s", w->items[p].id);
    /* The profiles whose collectors it records: its own, then its base's
     * while each adds to the one before (no Collectors, or Operation="Add"). */
    int last = 0;
    while (last + 1 < n && (!w->items[chain[last]].set || w->items[chain[last]].add))
        last++;
    int *refs = malloc((size_t)w->count * sizeof(int) * 2), count = 0, rc = 0;
    if (!refs)
        return recording_profile__fail(w->err, w->err_size, 0, "out of memory");
    int *dropped = refs + w->count;
    for (int k = last; k >= 0; k--)
        for (int i = 0; i < w->count; i++)
            if (w->items[i].owner == chain[k] && w->items[i].ref)
                refs[count++] = i;
    /* A collector reference whose EventProviders say "Set" replaces the
     * providers of the same collector before it. */
    for (int a = 0; a < count; a++) {
        wp_item *r = &w->items[refs[a]];
        dropped[a] = 0;
        for (int b = 0; r->set && !r->add && b < a; b++)
            if (w->items[refs[b]].type == r->type && !strcmp(w->items[refs[b]].base, r->base))
                dropped[b] = 1;
    }
    int first = -1; /* the collector whose buffers the session has */
    for (int a = 0; a < count && rc == 0; a++) {
        if (dropped[a])
            continue;
        int r = refs[a], cc[WP_MAX_BASE], m = wp_use(w, r, cc, out);
        if (m < 0)
            rc = -1;
        for (int i = 0; m >= 0 && i < w->count && rc == 0; i++)
            if (w->items[i].owner == r && w->items[i].type == WP_SYSPROV)
                rc = wp_system_provider(w, i, out); /* a kernel collector's groups */
        if (m < 0 || w->items[r].type != WP_COLLECTOR)
            continue;                 /* kernel collectors' buffers are the session's */
        uint32_t kb = 0, buffers = 0; /* none for a collector not in the file */
        int percent = 0;
        for (int k = 0; k < m; k++) {
            wp_item *c = &w->items[cc[k]];
            kb = kb ? kb : c->kb;
            if (!buffers && c->buffers) {
                buffers = c->buffers;
                percent = c->percent;
            }
        }
        buffers = percent ? 0 : buffers;
        if (m > 0 && first < 0) {
            first = r;
            out->buffer_size_kb = kb;
            out->buffers = buffers;
        } else if (m > 0 && (kb != out->buffer_size_kb || buffers != out->buffers)) {
            recording_profile__unsupported(
                out,
                "EventCollectorId \"%s\": its own buffers (its providers are "
                "recorded in the session of \"%s\")",
                w->items[r].base, w->items[first].base);
        }
        for (int i = 0; i < w->count && rc == 0; i++)
            if (w->items[i].owner == r && w->items[i].type == WP_PROVIDER)
                rc = wp_provider(w, i, out);
    }
    free(refs);
    if (rc == 0 && out->count == 0 && out->kernel[0])
        ; /* kernel events alone */
    else if (rc == 0 && out->count == 0 && out->unsupported_count)
        rc = recording_profile__fail(
            w->err, w->err_size, w->items[p].line,
            "profile '%s' enables no event provider petw can record; it asks for: %s", out->name,
            out->unsupported[0]);
    else if (rc == 0 && out->count == 0)
        rc = recording_profile__fail(w->err, w->err_size, w->items[p].line,
                                     "profile '%s' enables no event provider", out->name);
    wp_report(w, -1, out); /* the file's own notes last */
    return rc;
}

#else
typedef int recording_profile__wprp_resolve_needs_expat; /* WPR profiles are refused */
#endif
