/* SPDX-License-Identifier: MIT */
/* tool_decode.c - decoders that know the manifests the user named, on the
 * command line (--manifest) and in PETW_MANIFEST_PATH, and the WPP TMF
 * files named with --tmf. */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#if defined(_WIN32)
#define PATH_LIST_SEP ';'
#else
#define PATH_LIST_SEP ':'
#endif

int manifest_add(manifest_list *m, const char *path)
{
    if (m->count == MAX_MANIFESTS || !path[0])
        return -1;
    m->tmf[m->count] = 0;
    m->paths[m->count++] = path;
    return 0;
}

int tmf_add(manifest_list *m, const char *path)
{
    if (manifest_add(m, path) != 0)
        return -1;
    m->tmf[m->count - 1] = 1;
    return 0;
}

/* Set once the first decoder is made: a command that makes several (an
 * export beside its model) warns of a manifest once. */
static int warned;

static int add(petw_decoder *d, const char *path, int tmf)
{
    int rc = tmf ? petw_decoder_add_tmf(d, path) : petw_decoder_add_manifest(d, path);
    /* A directory's files read in part or not at all: one line each. */
    for (const char *w = tmf || warned ? "" : petw_decoder_warnings(d); *w;) {
        const char *end = strchr(w, '\n');
        int n = end ? (int)(end - w) : (int)strlen(w);
        fprintf(stderr, "petw: warning: manifest %.*s\n", n, w);
        w += n + (end ? 1 : 0);
    }
    if (rc) {
        const char *why = petw_decoder_error(d);
        fprintf(stderr, "petw: %s %s\n", tmf ? "TMF" : "manifest",
                why[0] ? why : petw_strerror(rc));
    }
    return rc;
}

petw_decoder *decoder_create(const manifest_list *m)
{
    petw_decoder *d;
    if (petw_decoder_new(&d) != 0) {
        fprintf(stderr, "petw: %s\n", petw_strerror(PETW_ENOMEM));
        return NULL;
    }
    for (int i = 0; m && i < m->count; i++)
        if (add(d, m->paths[i], m->tmf[i]) != 0) {
            petw_decoder_free(d);
            return NULL;
        }
    const char *env = getenv("PETW_MANIFEST_PATH");
    char path[4096];
    while (env && *env) {
        const char *end = strchr(env, PATH_LIST_SEP);
        size_t n = end ? (size_t)(end - env) : strlen(env);
        if (n > 0 && n < sizeof(path)) {
            memcpy(path, env, n);
            path[n] = 0;
            if (add(d, path, 0) != 0) {
                fprintf(stderr, "petw: (from PETW_MANIFEST_PATH)\n");
                petw_decoder_free(d);
                return NULL;
            }
        }
        env = end ? end + 1 : NULL;
    }
    warned = 1;
    return d;
}
