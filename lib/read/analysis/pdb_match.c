/* SPDX-License-Identifier: MIT */
/* pdb_match.c - the PDB of a Windows image, by the identity its trace
 * carries (KernelTraceControl's DbgID_RSDS: GUID, age, PDB name), found in
 * the symbol directories (--symbols DIR) as a plain file (DIR/name.pdb) or
 * in a symbol store's layout (DIR/name.pdb/GUIDAGE/name.pdb, the GUID's 32
 * hex digits then the age in hex, as symstore writes them), then in the
 * local parts of _NT_SYMBOL_PATH, then from the symbol servers it names
 * (symsrv.c), into their caches. A PDB whose
 * GUID or age differs is never used (said once). Each identity is searched
 * once; its PDB stays open until the profile is freed.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "petw/pdb.h"

typedef struct pdb_entry {
    petw_guid guid;
    uint32_t age;
    char name[256];
    petw_pdb *pdb; /* NULL: none found */
} pdb_entry;

#define MAX_PATH_DIRS 32
#define MAX_SERVERS 8

typedef struct symbol_server {
    const char *url, *cache; /* in path_text */
    int down;                /* it could not be reached: not asked again */
} symbol_server;

typedef struct pe_entry {
    uint32_t time_stamp, image_size;
    char name[256];
    petw__pe_exports *exports; /* NULL: none found */
} pe_entry;

struct petw__pdbs {
    pdb_entry *entries;
    uint32_t count, cap;
    pe_entry *images;
    uint32_t image_count, image_cap;
    char *path_text; /* a copy of _NT_SYMBOL_PATH, cut into dirs */
    const char *path_dirs[MAX_PATH_DIRS];
    uint32_t path_dir_count;
    symbol_server servers[MAX_SERVERS];
    uint32_t server_count;
    int servers_said; /* "not built in" said */
};

static int has_prefix(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if ((*s | 0x20) != *prefix)
            return 0;
    return 1;
}

/* _NT_SYMBOL_PATH as Windows tools read it: plain directories, cache*DIR,
 * and the downstream stores of srv*DIR*URL (and symsrv*DLL*DIR*URL), which
 * hold a symbol store's layout, all searched first; then the servers, in
 * the path's order, each fetching into its element's first store (or, when
 * the element names none, the cache*DIR before it). */
static void read_symbol_path(petw__pdbs *t)
{
    const char *env = getenv("_NT_SYMBOL_PATH");
    if (!env || !*env || !(t->path_text = malloc(strlen(env) + 1)))
        return;
    strcpy(t->path_text, env);
    const char *cache = NULL; /* the last cache*DIR */
    for (char *e = t->path_text; e;) {
        char *next = strchr(e, ';');
        if (next)
            *next++ = 0;
        int skip = 0; /* leading '*'-separated fields that are not directories */
        int is_cache = has_prefix(e, "cache*");
        if (has_prefix(e, "srv*") || is_cache)
            skip = 1;
        else if (has_prefix(e, "symsrv*"))
            skip = 2;
        const char *first_dir = NULL;
        for (char *f = e; f && t->path_dir_count < MAX_PATH_DIRS;) {
            char *star = skip || strchr(f, '*') ? strchr(f, '*') : NULL;
            if (star)
                *star++ = 0;
            if (skip)
                skip--;
            else if (strstr(f, "://")) {
                const char *store = first_dir ? first_dir : cache;
                if (!store)
                    petw__warn("_NT_SYMBOL_PATH: %s has no cache to fetch into (srv*CACHE*URL "
                               "or cache*DIR before it): not asked",
                               f);
                else if (t->server_count < MAX_SERVERS) {
                    t->servers[t->server_count].url = f;
                    t->servers[t->server_count++].cache = store;
                }
            } else if (*f) {
                t->path_dirs[t->path_dir_count++] = f;
                if (!first_dir)
                    first_dir = f;
                if (is_cache)
                    cache = f;
            }
            f = star;
        }
        e = next;
    }
}

static petw_pdb *try_pdb(const char *path, const petw_guid *guid, uint32_t age)
{
    petw_pdb *pdb;
    FILE *probe = fopen(path, "rb"); /* most candidates are not there: cheaply */
    if (!probe)
        return NULL;
    fclose(probe);
    char why[200];
    int rc = petw_pdb_open(path, &pdb, why, sizeof(why));
    if (rc == PETW_ENOTREG)
        return NULL; /* DIR/name.pdb, a symbol store's directory */
    if (rc != 0) {
        petw__warn("%s: not used: %s", path, why);
        return NULL;
    }
    petw_pdb_info info;
    petw_pdb_get_info(pdb, &info);
    if (!petw_guid_equal(&info.guid, guid) || info.age != age) {
        char want[37], have[37];
        petw_guid_format(guid, want);
        petw_guid_format(&info.guid, have);
        petw__warn("%s: not used: it is %s age %u, the image's PDB is %s age %u", path, have,
                   info.age, want, age);
        petw_pdb_close(pdb);
        return NULL;
    }
    return pdb;
}

/* The PDB's file name without its recorded directory ("" when none), and
 * its symbol store key: the GUID's 32 hex digits, then the age in hex. */
static const char *store_name(const pdb_entry *e, char key[48])
{
    const char *base = e->name;
    for (const char *s = e->name; *s; s++)
        if (*s == '\\' || *s == '/')
            base = s + 1;
    int n = snprintf(key, 48, "%08X%04X%04X", e->guid.data1, e->guid.data2, e->guid.data3);
    for (int k = 0; k < 8; k++)
        n += snprintf(key + n, 48 - (size_t)n, "%02X", e->guid.data4[k]);
    snprintf(key + n, 48 - (size_t)n, "%X", e->age);
    return base;
}

static petw_pdb *find_pdb(const pdb_entry *e, const char *const *dirs, uint32_t dir_count)
{
    char key[48];
    const char *base = store_name(e, key);
    if (!*base)
        return NULL;
    char path[4096];
    for (uint32_t d = 0; d < dir_count; d++) {
        petw_pdb *pdb;
        snprintf(path, sizeof(path), "%s/%s/%s/%s", dirs[d], base, key, base);
        if ((pdb = try_pdb(path, &e->guid, e->age)))
            return pdb;
        snprintf(path, sizeof(path), "%s/%s", dirs[d], base);
        if ((pdb = try_pdb(path, &e->guid, e->age)))
            return pdb;
    }
    return NULL;
}

/* Asks the symbol path's servers, in order, for the PDB, until one gives
 * a file of its GUID and age. A server that cannot be reached is not asked
 * again in this run. */
static petw_pdb *fetch_pdb(petw__pdbs *t, const pdb_entry *e)
{
    char key[48], path[4096];
    const char *base = store_name(e, key);
    if (!*base || !t->server_count)
        return NULL;
    /* A name from the trace must not climb out of the cache. */
    if (!strcmp(base, ".") || !strcmp(base, ".."))
        return NULL;
    for (uint32_t k = 0; k < t->server_count; k++) {
        symbol_server *s = &t->servers[k];
        if (s->down)
            continue;
        int rc = petw__symsrv_fetch(s->url, s->cache, base, key, path, sizeof(path));
        if (rc == PETW_ENOTSUP) {
            if (!t->servers_said)
                petw__warn("_NT_SYMBOL_PATH names a symbol server, but symbol servers are not "
                           "built in (no libcurl): only its local caches are searched");
            t->servers_said = 1;
            return NULL;
        }
        if (rc == PETW_EIO)
            s->down = 1;
        petw_pdb *pdb;
        if (rc == 0 && (pdb = try_pdb(path, &e->guid, e->age)))
            return pdb;
        if (rc == 0)
            remove(path); /* not the PDB asked for (said): the cache does not keep it */
    }
    return NULL;
}

int petw__pdbs_lookup(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const petw_guid *guid, uint32_t age, const char *name, uint32_t rva,
                      petw__strings *strings, petw_source_line *lines, uint32_t max,
                      uint32_t *count)
{
    *count = 0;
    if (!*pdbs) {
        if (!(*pdbs = calloc(1, sizeof(**pdbs))))
            return PETW_ENOMEM;
        read_symbol_path(*pdbs);
    }
    petw__pdbs *t = *pdbs;
    pdb_entry *e = NULL;
    for (uint32_t k = 0; k < t->count && !e; k++)
        if (petw_guid_equal(&t->entries[k].guid, guid) && t->entries[k].age == age &&
            !strcmp(t->entries[k].name, name))
            e = &t->entries[k];
    if (!e) {
        PETW__FORWARD_IF_ERROR(
            petw__grow((void **)&t->entries, &t->cap, t->count + 1, sizeof(*t->entries)));
        e = &t->entries[t->count++];
        memset(e, 0, sizeof(*e));
        e->guid = *guid;
        e->age = age;
        snprintf(e->name, sizeof(e->name), "%s", name);
        e->pdb = find_pdb(e, config->dirs, config->dir_count);
        if (!e->pdb)
            e->pdb = find_pdb(e, t->path_dirs, t->path_dir_count);
        if (!e->pdb)
            e->pdb = fetch_pdb(t, e);
    }
    if (!e->pdb)
        return 0;
    petw_pdb_frame frames[32];
    uint32_t n = 0;
    if (petw_pdb_lookup(e->pdb, rva, frames, max < 32 ? max : 32, &n) != 0)
        return 0; /* a damaged part of the PDB: the frame keeps its RVA */
    for (uint32_t k = 0; k < n; k++) {
        lines[k].function = petw__strings_intern(strings, frames[k].function);
        lines[k].file = frames[k].file ? petw__strings_intern(strings, frames[k].file) : NULL;
        lines[k].line = frames[k].line;
        if (!lines[k].function)
            return PETW_ENOMEM;
    }
    *count = n;
    return 0;
}

static petw__pe_exports *try_image(const char *path, const pe_entry *e)
{
    char why[200];
    uint32_t stamp, size;
    petw__pe_exports *x;
    int rc = petw__pe_exports_open(path, &stamp, &size, &x, why, sizeof(why));
    if (rc == PETW_ENOENT || rc == PETW_ENOTREG)
        return NULL; /* not there, or DIR/name, a symbol store's directory */
    if (rc != 0) {
        petw__warn("%s: not used: %s", path, why);
        return NULL;
    }
    if (stamp != e->time_stamp || size != e->image_size) {
        petw__warn("%s: not used: its time stamp is 0x%08x and size 0x%x, the trace's image "
                   "has 0x%08x and 0x%x",
                   path, stamp, size, e->time_stamp, e->image_size);
        petw__pe_exports_free(x);
        return NULL;
    }
    return x;
}

static petw__pe_exports *find_image(const pe_entry *e, const char *const *dirs, uint32_t count)
{
    static const char *const forms[] = {"%s/%s/%08X%x/%s", "%s/%s/%08X%X/%s"};
    char path[4096];
    for (uint32_t d = 0; d < count; d++) {
        petw__pe_exports *x;
        for (int k = 0; k < 2; k++) {
            snprintf(path, sizeof(path), forms[k], dirs[d], e->name, e->time_stamp, e->image_size,
                     e->name);
            if ((x = try_image(path, e)))
                return x;
        }
        snprintf(path, sizeof(path), "%s/%s", dirs[d], e->name);
        if ((x = try_image(path, e)))
            return x;
    }
    return NULL;
}

int petw__pdbs_export(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const char *image_path, uint32_t time_stamp, uint32_t image_size,
                      uint32_t rva, char *out, size_t out_size)
{
    if (!*pdbs) {
        if (!(*pdbs = calloc(1, sizeof(**pdbs))))
            return 0;
        read_symbol_path(*pdbs);
    }
    petw__pdbs *t = *pdbs;
    const char *base = image_path;
    for (const char *s = image_path; *s; s++)
        if (*s == '\\' || *s == '/')
            base = s + 1;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return 0;
    pe_entry *e = NULL;
    for (uint32_t k = 0; k < t->image_count && !e; k++)
        if (t->images[k].time_stamp == time_stamp && t->images[k].image_size == image_size &&
            !strcmp(t->images[k].name, base))
            e = &t->images[k];
    if (!e) {
        if (petw__grow((void **)&t->images, &t->image_cap, t->image_count + 1, sizeof(*t->images)))
            return 0;
        e = &t->images[t->image_count++];
        memset(e, 0, sizeof(*e));
        e->time_stamp = time_stamp;
        e->image_size = image_size;
        snprintf(e->name, sizeof(e->name), "%s", base);
        e->exports = find_image(e, config->dirs, config->dir_count);
        if (!e->exports)
            e->exports = find_image(e, t->path_dirs, t->path_dir_count);
    }
    uint32_t offset;
    const char *name = e->exports ? petw__pe_exports_lookup(e->exports, rva, &offset) : NULL;
    if (!name)
        return 0;
    if (offset)
        snprintf(out, out_size, "%s+0x%x", name, offset);
    else
        snprintf(out, out_size, "%s", name);
    return 1;
}

void petw__pdbs_free(petw__pdbs *pdbs)
{
    if (!pdbs)
        return;
    for (uint32_t k = 0; k < pdbs->image_count; k++)
        petw__pe_exports_free(pdbs->images[k].exports);
    free(pdbs->images);
    for (uint32_t k = 0; k < pdbs->count; k++)
        petw_pdb_close(pdbs->entries[k].pdb);
    free(pdbs->entries);
    free(pdbs->path_text);
    free(pdbs);
}
