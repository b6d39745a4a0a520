/* SPDX-License-Identifier: MIT */
/* decode_files.c - instrumentation manifests and WPP's TMF files added to a
 * decoder: from memory, a file, or every such file of a directory (in the
 * order of their names), with the warnings and errors that tell why one was
 * passed over.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"
#include "decode_internal.h"
#include "manifest.h"
#include "wpp.h"

/* Adds one line to the warnings; ENOMEM only. */
static int warn(petw_decoder *d, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;
    size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
    if (d->warnings_len + len + 2 > d->warnings_cap) {
        size_t cap = d->warnings_cap ? d->warnings_cap * 2 : 1024;
        while (cap < d->warnings_len + len + 2)
            cap *= 2;
        char *w = realloc(d->warnings, cap);
        if (!w)
            return PETW_ENOMEM;
        d->warnings = w;
        d->warnings_cap = cap;
    }
    memcpy(d->warnings + d->warnings_len, line, len);
    d->warnings_len += len;
    d->warnings[d->warnings_len++] = '\n';
    d->warnings[d->warnings_len] = 0;
    return 0;
}

/* Adds the manifest `xml`. Lenient (a file of a directory), one with slips
 * is kept with what it can give and one that is no manifest is passed
 * over, each with a warning; else either fails, with the reason. */
static int add_manifest(petw_decoder *d, const void *xml, size_t size, const char *path,
                        int lenient)
{
    petw__manifest *m;
    char why[200];
    uint32_t problems = 0;
    int rc = lenient ? petw__manifest_parse_lenient(xml, size, &m, why, sizeof(why), &problems)
                     : petw__manifest_parse(xml, size, &m, why, sizeof(why));
    if (rc && lenient && rc != PETW_ENOMEM)
        return warn(d, "%s: %s (not read)", path, why);
    if (rc) {
        snprintf(d->error, sizeof(d->error), "%s%s%s", path ? path : "", path ? ": " : "", why);
        return rc;
    }
    rc = petw__array_grow((void **)&d->manifests, &d->manifest_cap, d->manifest_count,
                          sizeof(*d->manifests));
    if (rc) {
        petw__manifest_free(m);
        return rc;
    }
    d->manifests[d->manifest_count++] = m;
    if (problems > 1)
        return warn(d, "%s: %s (read without what it names; %u more like it)", path, why,
                    problems - 1);
    if (problems)
        return warn(d, "%s: %s (read without what it names)", path, why);
    return 0;
}

int petw_decoder_add_manifest_xml(petw_decoder *d, const void *xml, size_t size)
{
    PETW__RETURN_IF(!d || (!xml && size), PETW_EINVAL);
    d->error[0] = 0;
    return add_manifest(d, xml, size, NULL, 0);
}

/* Reads the file at `path` whole (at most 64 MB) into *buf (malloc'd). */
static int read_file(petw_decoder *d, const char *path, uint8_t **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(d->error, sizeof(d->error), "%s: cannot open", path);
        return PETW_ENOTFOUND;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (n == cap) {
            if (cap >= PETW__MAN_MAX_BYTES) {
                snprintf(d->error, sizeof(d->error), "%s: larger than %u MB", path,
                         PETW__MAN_MAX_BYTES >> 20);
                rc = PETW_ELIMIT;
                break;
            }
            cap = cap ? cap * 2 : 65536;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                rc = PETW_ENOMEM;
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(d->error, sizeof(d->error), "%s: read error", path);
                rc = PETW_EIO;
            }
            break;
        }
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *size = n;
    return 0;
}

static int add_tmf(petw_decoder *d, const void *text, size_t size, const char *path)
{
    petw__wpp *w;
    char why[200] = "";
    int rc = petw__wpp_parse(text, size, &w, why, sizeof(why));
    if (rc) {
        snprintf(d->error, sizeof(d->error), "%s%s%s", path ? path : "", path ? ": " : "", why);
        return rc;
    }
    rc = petw__array_grow((void **)&d->tmfs, &d->tmf_cap, d->tmf_count, sizeof(*d->tmfs));
    if (rc) {
        petw__wpp_free(w);
        return rc;
    }
    d->tmfs[d->tmf_count++] = w;
    return 0;
}

int petw_decoder_add_tmf_text(petw_decoder *d, const void *text, size_t size)
{
    PETW__RETURN_IF(!d || (!text && size), PETW_EINVAL);
    d->error[0] = 0;
    return add_tmf(d, text, size, NULL);
}

/* lenient: a manifest of a directory (add_manifest); one that cannot be
 * read is passed over with a warning. */
static int add_manifest_file(petw_decoder *d, const char *path, int tmf, int lenient)
{
    uint8_t *buf;
    size_t n;
    int rc = read_file(d, path, &buf, &n);
    if (rc && lenient && rc != PETW_ENOMEM) {
        rc = warn(d, "%s (not read)", d->error);
        d->error[0] = 0;
        return rc;
    }
    PETW__FORWARD_IF_ERROR(rc);
    rc = tmf ? add_tmf(d, buf, n, path) : add_manifest(d, buf, n, path, lenient);
    free(buf);
    return rc;
}

typedef struct dir_walk {
    char **names; /* the directory's files of the kind wanted */
    uint32_t names_count, names_cap;
    int tmf; /* *.tmf files, else *.man and *.xml */
    int rc;
} dir_walk;

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    if (a < b)
        return 0;
    for (size_t i = 0; i < b; i++) {
        char c = s[a - b + i];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != suffix[i])
            return 0;
    }
    return 1;
}

static int dir_entry(const char *name, void *ctx)
{
    dir_walk *w = ctx;
    if (w->tmf ? !ends_with(name, ".tmf") : !ends_with(name, ".man") && !ends_with(name, ".xml"))
        return 0;
    size_t n = strlen(name) + 1;
    char *copy = malloc(n);
    if (!copy || petw__array_grow((void **)&w->names, &w->names_cap, w->names_count,
                                  sizeof(*w->names)) != 0) {
        free(copy);
        w->rc = PETW_ENOMEM;
        return w->rc;
    }
    memcpy(copy, name, n);
    w->names[w->names_count++] = copy;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory, in the order of their names (so which of two
 * files describing one provider wins does not depend on the file system). */
static int add_path(petw_decoder *d, const char *path, int tmf)
{
    PETW__RETURN_IF(!d || !path, PETW_EINVAL);
    d->error[0] = 0;
    d->warnings_len = 0;
    if (d->warnings)
        d->warnings[0] = 0;
    dir_walk w = {NULL, 0, 0, tmf, 0};
    if (petw__dir_each(path, "", dir_entry, &w) != 0)
        return add_manifest_file(d, path, tmf, 0); /* not a directory: named, so it must load */
    if (w.names_count > 1)
        qsort(w.names, w.names_count, sizeof(*w.names), cmp_name);
    int rc = w.rc;
    char file[4096];
    for (uint32_t i = 0; rc == 0 && i < w.names_count; i++)
        if (snprintf(file, sizeof(file), "%s/%s", path, w.names[i]) < (int)sizeof(file))
            rc = add_manifest_file(d, file, tmf, !tmf);
    if (rc == 0 && w.names_count == 0) {
        snprintf(d->error, sizeof(d->error), "%s: no %s file in it", path,
                 tmf ? ".tmf" : ".man or .xml");
        rc = PETW_ENOTFOUND;
    }
    for (uint32_t i = 0; i < w.names_count; i++)
        free(w.names[i]);
    free(w.names);
    return rc;
}

int petw_decoder_add_manifest(petw_decoder *d, const char *path)
{
    return add_path(d, path, 0);
}

int petw_decoder_add_tmf(petw_decoder *d, const char *path)
{
    return add_path(d, path, 1);
}

uint32_t petw__decoder_manifest_count(const petw_decoder *d)
{
    return d->manifest_count;
}

const petw__manifest *petw__decoder_manifest(const petw_decoder *d, uint32_t i)
{
    return i < d->manifest_count ? d->manifests[i] : NULL;
}

const char *petw_decoder_warnings(const petw_decoder *d)
{
    return d && d->warnings_len ? d->warnings : "";
}

const char *petw_decoder_error(const petw_decoder *d)
{
    return d && d->error[0] ? d->error : "";
}
