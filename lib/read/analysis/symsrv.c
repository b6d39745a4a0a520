/* SPDX-License-Identifier: MIT */
/* symsrv.c - a file of a symbol server, fetched over HTTP(S) through
 * libcurl only because the user's symbol path names the server
 * (srv*CACHE*URL): URL/name.pdb/GUIDAGE/name.pdb, or on 404 the compressed
 * name.pd_ (a cabinet, expanded by libmspack), written into CACHE in the
 * same layout, so that the next run finds it there without asking. Each
 * file is written under a temporary name of its own process and renamed
 * when whole: a cache never holds half a PDB, even with two runs filling
 * it at once.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>
#ifdef PETW_HAVE_MSPACK
#include <mspack.h>
#endif

#include "analysis_internal.h"
#include "../../base/platform/platform.h"

/* 0, PETW_ENOENT (the server answered 404 or 410), PETW_EIO (down, or
 * another answer; `why` says which). */
static int get(const char *url, const char *path, char *why, size_t why_size)
{
    static int curl_ready;
    if (!curl_ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
            snprintf(why, why_size, "libcurl did not start");
            return PETW_EIO;
        }
        curl_ready = 1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.%u.part", path, petw__process_id()); /* per process */
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(why, why_size, "cannot write %.200s", tmp);
        return PETW_EIO;
    }
    CURL *c = curl_easy_init();
    if (!c) {
        fclose(f);
        remove(tmp);
        snprintf(why, why_size, "libcurl did not start");
        return PETW_EIO;
    }
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 8L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L); /* a stalled server: 30 s, then given up */
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "Microsoft-Symbol-Server/10.0.0.0");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    int closed = fclose(f);
    int ret = 0;
    if (rc != CURLE_OK) {
        snprintf(why, why_size, "%s", *err ? err : curl_easy_strerror(rc));
        ret = PETW_EIO;
    } else if (status == 404 || status == 410) {
        snprintf(why, why_size, "not on the server (HTTP %ld)", status);
        ret = PETW_ENOENT;
    } else if (status != 200) {
        snprintf(why, why_size, "HTTP %ld", status);
        ret = PETW_EIO;
    } else if (closed != 0 || rename(tmp, path) != 0) {
        snprintf(why, why_size, "cannot write %.200s", path);
        ret = PETW_EIO;
    }
    if (ret)
        remove(tmp);
    return ret;
}

#ifdef PETW_HAVE_MSPACK
/* The first file of the cabinet `cab`, written to `path` (a .pd_ holds
 * one). */
static int expand(const char *cab, const char *path, char *why, size_t why_size)
{
    struct mscab_decompressor *d = mspack_create_cab_decompressor(NULL);
    if (!d) {
        snprintf(why, why_size, "libmspack did not start");
        return PETW_ENOMEM;
    }
    int ret = PETW_ECORRUPT;
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.%u.part", path, petw__process_id()); /* per process */
    struct mscabd_cabinet *c = d->open(d, (char *)cab);
    if (!c || !c->files)
        snprintf(why, why_size, "not a cabinet file (libmspack error %d)", d->last_error(d));
    else if (d->extract(d, c->files, tmp) != MSPACK_ERR_OK)
        snprintf(why, why_size, "damaged cabinet (libmspack error %d)", d->last_error(d));
    else if (rename(tmp, path) != 0)
        snprintf(why, why_size, "cannot write %.200s", path), ret = PETW_EIO;
    else
        ret = 0;
    if (ret)
        remove(tmp);
    if (c)
        d->close(d, c);
    mspack_destroy_cab_decompressor(d);
    return ret;
}
#endif

int petw__symsrv_fetch(const char *server, const char *cache, const char *name, const char *key,
                       char *out, size_t size)
{
    char dir[4096], url[4200], why[CURL_ERROR_SIZE + 64];
    const char *slash = server[0] && server[strlen(server) - 1] == '/' ? "" : "/";
    if ((size_t)snprintf(dir, sizeof(dir), "%s/%s/%s", cache, name, key) >= sizeof(dir) ||
        (size_t)snprintf(out, size, "%s/%s", dir, name) >= size)
        return PETW_ENAMETOOLONG;
    int rc = petw__dir_create(dir);
    if (rc) {
        petw__warn("symbol cache %s: cannot create it: %s", dir, petw_strerror(rc));
        return rc;
    }
    snprintf(url, sizeof(url), "%s%s%s/%s/%s", server, slash, name, key, name);
    if ((rc = get(url, out, why, sizeof(why))) != PETW_ENOENT) {
        if (rc)
            petw__warn("symbol server %s: %s", url, why);
        return rc;
    }
#ifdef PETW_HAVE_MSPACK
    char cab[4200];
    size_t n = strlen(url);
    url[n - 1] = '_';                                                 /* name.pdb -> name.pd_ */
    snprintf(cab, sizeof(cab), "%s.%u.cab", out, petw__process_id()); /* expanded, removed */
    if ((rc = get(url, cab, why, sizeof(why))) == 0) {
        rc = expand(cab, out, why, sizeof(why));
        remove(cab);
    }
    if (rc)
        petw__warn("symbol server %s: %s%s", url, why, rc == PETW_ENOENT ? ", nor its .pdb" : "");
#else
    petw__warn("symbol server %s: %s (its compressed .pd_ is not asked: built without "
               "libmspack)",
               url, why);
#endif
    return rc;
}
