/* SPDX-License-Identifier: MIT */
/* clickhouse_http.c - requests to ClickHouse's HTTP interface through
 * libcurl: POST a statement, or an INSERT's query in the URL and its rows
 * as the body; a status other than 200 is the server's refusal, whose
 * first line becomes the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <zlib.h>

#include "clickhouse.h"

#if defined(_WIN32)
#include <windows.h>
static void pause_ms(unsigned ms)
{
    Sleep(ms);
}
#else
#include <time.h>
static void pause_ms(unsigned ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}
#endif

/* Copies [s, s + n) into out (size `size`), decoding %XX; -1 when it does
 * not fit. */
static int copy_part(char *out, size_t size, const char *s, size_t n, int decode)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (decode && ch == '%' && i + 2 < n) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            char *end;
            long v = strtol(hex, &end, 16);
            if (*end == 0) {
                ch = (char)v;
                i += 2;
            }
        }
        if (k + 1 >= size)
            return -1;
        out[k++] = ch;
    }
    out[k] = 0;
    return 0;
}

static int fail(clickhouse *c, const char *what)
{
    snprintf(c->error, sizeof(c->error), "%s", what);
    return -1;
}

static int parse_url(clickhouse *c, const char *url)
{
    const char *scheme_end = strstr(url, "://");
    if (!scheme_end || !((scheme_end - url == 4 && !strncmp(url, "http", 4)) ||
                         (scheme_end - url == 5 && !strncmp(url, "https", 5))))
        return fail(c, "the URL must be http[s]://[user:password@]host:port/?database=NAME");
    const char *auth = scheme_end + 3;
    const char *path = auth + strcspn(auth, "/?#");
    const char *at = NULL;
    for (const char *p = auth; p < path; p++)
        if (*p == '@')
            at = p; /* the last '@' ends the credentials */
    const char *host = at ? at + 1 : auth;
    if (host == path)
        return fail(c, "the URL names no host");
    if (at) {
        const char *colon = memchr(auth, ':', (size_t)(at - auth));
        const char *user_end = colon ? colon : at;
        if (copy_part(c->user, sizeof(c->user), auth, (size_t)(user_end - auth), 1) ||
            (colon &&
             copy_part(c->password, sizeof(c->password), colon + 1, (size_t)(at - colon - 1), 1)))
            return fail(c, "the URL's user name or password is too long");
        c->has_user = 1;
    }
    if (copy_part(c->where, sizeof(c->where), host, (size_t)(path - host), 0))
        return fail(c, "the URL's host is too long");
    int n = snprintf(c->url, sizeof(c->url), "%.*s://%s/", (int)(scheme_end - url), url, c->where);
    if (n < 0 || (size_t)n >= sizeof(c->url))
        return fail(c, "the URL is too long");
    strcpy(c->database, "default");
    const char *query = strchr(path, '?');
    for (const char *p = query ? query + 1 : NULL; p && *p;) {
        size_t len = strcspn(p, "&#");
        if (len > 9 && !strncmp(p, "database=", 9)) {
            if (copy_part(c->database, sizeof(c->database), p + 9, len - 9, 1))
                return fail(c, "the database name is too long");
        } else if (len) {
            return fail(c, "the URL's query may hold database=NAME alone");
        }
        p += len;
        p += *p == '&';
        if (*p == '#')
            break;
    }
    for (const char *p = c->database; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return fail(c, "the database name may hold letters, digits and '_' alone");
    return 0;
}

int clickhouse_open(clickhouse *c, const char *url)
{
    memset(c, 0, sizeof(*c));
    c->retries = 10;
    c->timeout_s = 300;
    c->parallel = 2;
    if (parse_url(c, url))
        return -1;
    const char *user = getenv("PETW_CLICKHOUSE_USER");
    const char *password = getenv("PETW_CLICKHOUSE_PASSWORD");
    if (!c->has_user && user && *user) {
        if (strlen(user) >= sizeof(c->user))
            return fail(c, "PETW_CLICKHOUSE_USER is too long");
        strcpy(c->user, user);
        c->has_user = 1;
    }
    if (c->has_user && !c->password[0] && password) {
        if (strlen(password) >= sizeof(c->password))
            return fail(c, "PETW_CLICKHOUSE_PASSWORD is too long");
        strcpy(c->password, password);
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(c->curl = curl_easy_init()) ||
        !(c->multi = curl_multi_init()))
        return fail(c, "libcurl could not start");
    /* No "Expect: 100-continue": libcurl would wait for an answer ClickHouse
     * does not give before every body over 1 MB. */
    struct curl_slist *gz = NULL;
    if (!(c->headers = curl_slist_append(NULL, "Expect:")) ||
        !(gz = curl_slist_append(NULL, "Expect:")) ||
        !(c->headers_gzip = curl_slist_append(gz, "Content-Encoding: gzip"))) {
        curl_slist_free_all(gz);
        return fail(c, "out of memory");
    }
    for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
        if (!(c->inserts[k].easy = curl_easy_init()))
            return fail(c, "libcurl could not start");
    return 0;
}

void clickhouse_close(clickhouse *c)
{
    for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++) {
        clickhouse_request *r = &c->inserts[k];
        if (r->easy && r->busy)
            curl_multi_remove_handle(c->multi, r->easy);
        if (r->easy)
            curl_easy_cleanup(r->easy);
        free(r->url);
        sbuf_free(&r->body);
        sbuf_free(&r->response);
    }
    if (c->multi)
        curl_multi_cleanup(c->multi);
    if (c->curl)
        curl_easy_cleanup(c->curl);
    curl_slist_free_all(c->headers);
    curl_slist_free_all(c->headers_gzip);
    sbuf_free(&c->gzip);
    sbuf_free(&c->response);
    sbuf_free(&c->native);
    for (int k = 0; k < 2 * CLICKHOUSE_MAX_COLUMNS; k++)
        sbuf_free(&c->scratch[k]);
    memset(c, 0, sizeof(*c)); /* the password too */
}

static size_t on_body(char *data, size_t size, size_t n, void *context)
{
    sbuf *b = context;
    if (b->len < (64u << 20)) /* answers past 64 MB are cut (none is expected) */
        sbuf_put(b, data, size * n);
    return size * n;
}

/* The server's message: its first line, without the stack trace. */
void clickhouse_server_error(clickhouse *c, const sbuf *response, long status)
{
    size_t n = response->len;
    const char *s = response->data ? response->data : "";
    size_t line = 0;
    while (line < n && s[line] != '\n' && line < 400)
        line++;
    snprintf(c->error, sizeof(c->error), "ClickHouse at %s answered %ld: %.*s", c->where, status,
             (int)line, s);
}

/* Prepares `h` to POST `len` bytes of `body` to `url`, the answer into
 * `response`. */
static void prepare(clickhouse *c, CURL *h, const char *url, const void *body, size_t len,
                    sbuf *response, int gzipped)
{
    clickhouse_prepare(c, h, url, response);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, len ? body : "");
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER,
                     (struct curl_slist *)(gzipped ? c->headers_gzip : c->headers));
}

void clickhouse_prepare(clickhouse *c, void *easy, const char *url, sbuf *response)
{
    CURL *h = easy;
    response->len = 0;
    response->failed = 0;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, response);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)c->timeout_s);
    if (c->has_user) {
        curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
        curl_easy_setopt(h, CURLOPT_USERNAME, c->user);
        curl_easy_setopt(h, CURLOPT_PASSWORD, c->password);
    }
    c->requests++;
}

/* What a finished request `h` (try `attempt`, from 0) means: 0 done, 1 try
 * again (after the pause this waited), -1 failed (c->error says why). */
static int outcome(clickhouse *c, CURL *h, CURLcode rc, const sbuf *response, size_t len,
                   unsigned attempt)
{
    if (rc == CURLE_OK) {
        long status = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        c->bytes_sent += len;
        if (status == 200)
            return 0;
        /* 503: the server is starting or shutting down; try again. */
        if (status != 503 || attempt >= c->retries) {
            clickhouse_server_error(c, response, status);
            return -1;
        }
    } else if (attempt >= c->retries) {
        snprintf(c->error, sizeof(c->error), "ClickHouse at %s: %s (after %u tries)", c->where,
                 curl_easy_strerror(rc), attempt + 1);
        return -1;
    }
    c->retried++;
    pause_ms(attempt < 3 ? 250u << attempt : 2000u); /* 0.25, 0.5, 1, then 2 s */
    return 1;
}

/* One POST of `body` to `url`, retried on transport failures. */
static int post(clickhouse *c, const char *url, const void *body, size_t len)
{
    for (unsigned attempt = 0;; attempt++) {
        prepare(c, c->curl, url, body, len, &c->response, 0);
        int rc = outcome(c, c->curl, curl_easy_perform(c->curl), &c->response, len, attempt);
        if (rc <= 0)
            return rc;
    }
}

int clickhouse_query(clickhouse *c, const char *sql)
{
    return post(c, c->url, sql, strlen(sql));
}

/* `in` compressed as one gzip member (zlib's fastest level: the body is
 * compressed while the next is built, on the same thread) into `out`.
 * Returns 0, or -1 (out of memory). */
static int gzip(const sbuf *in, sbuf *out)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    out->len = 0;
    out->failed = 0;
    size_t bound = deflateBound(&z, (uLong)in->len);
    char *at = sbuf_room(out, bound);
    int rc = -1;
    if (at && in->len <= (uInt)-1 && bound <= (uInt)-1) {
        z.next_in = (Bytef *)in->data;
        z.avail_in = (uInt)in->len;
        z.next_out = (Bytef *)at;
        z.avail_out = (uInt)bound;
        if (deflate(&z, Z_FINISH) == Z_STREAM_END) {
            out->len = z.total_out;
            rc = 0;
        }
    }
    deflateEnd(&z);
    return rc;
}

enum { UNTIL_FREE, UNTIL_ALL_ENDED, ONCE };

/* Drives the inserts in flight: ONCE, as far as they go without waiting;
 * UNTIL_FREE, until fewer than c->parallel are in flight; UNTIL_ALL_ENDED,
 * until none is. A failed insert sets c->insert_failed; the others go on. */
static void pump(clickhouse *c, int until)
{
    for (;;) {
        int running = 0, msgs = 0;
        if (curl_multi_perform(c->multi, &running) != CURLM_OK) {
            running = 0; /* no way on: fail what is in flight below */
            for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
                if (c->inserts[k].busy) {
                    curl_multi_remove_handle(c->multi, c->inserts[k].easy);
                    c->inserts[k].busy = 0;
                    c->insert_failed = 1;
                    if (!c->first_failed || c->inserts[k].id < c->first_failed)
                        c->first_failed = c->inserts[k].id;
                    fail(c, "libcurl failed");
                }
            return;
        }
        CURLMsg *m;
        while ((m = curl_multi_info_read(c->multi, &msgs))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            clickhouse_request *r = NULL;
            for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
                if (c->inserts[k].busy && c->inserts[k].easy == m->easy_handle)
                    r = &c->inserts[k];
            if (!r)
                continue;
            CURLcode result = m->data.result; /* m is not valid past the removal */
            curl_multi_remove_handle(c->multi, r->easy);
            int rc = outcome(c, r->easy, result, &r->response, r->body.len, r->attempt);
            if (rc > 0) {
                r->attempt++;
                prepare(c, r->easy, r->url, r->body.data, r->body.len, &r->response, r->gzipped);
                curl_multi_add_handle(c->multi, r->easy);
                continue;
            }
            if (rc < 0) {
                c->insert_failed = 1;
                if (!c->first_failed || r->id < c->first_failed)
                    c->first_failed = r->id;
            }
            r->busy = 0;
            r->body.len = 0;
        }
        int busy = 0;
        for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
            busy += c->inserts[k].busy;
        if (!busy || until == ONCE || (until == UNTIL_FREE && busy < (int)c->parallel))
            return;
        curl_multi_wait(c->multi, NULL, 0, 1000, NULL);
    }
}

char *clickhouse_insert_url(clickhouse *c, void *easy, const char *into, const char *format,
                            const char *settings)
{
    char sql[1024];
    int n = snprintf(sql, sizeof(sql), "INSERT INTO %s FORMAT %s", into, format);
    if (n < 0 || (size_t)n >= sizeof(sql)) {
        fail(c, "an INSERT statement too long");
        return NULL;
    }
    char *escaped = curl_easy_escape(easy, sql, n);
    size_t size = strlen(c->url) + (escaped ? strlen(escaped) : 0) + strlen(settings) + 16;
    char *url = escaped ? malloc(size) : NULL;
    if (!url)
        fail(c, "out of memory");
    else
        snprintf(url, size, "%s?query=%s%s", c->url, escaped, settings);
    curl_free(escaped);
    return url;
}

int clickhouse_insert(clickhouse *c, const char *into, const char *format, sbuf *rows)
{
    if (c->parallel < 1 || c->parallel > CLICKHOUSE_MAX_PARALLEL)
        c->parallel = c->parallel < 1 ? 1 : CLICKHOUSE_MAX_PARALLEL;
    clickhouse_request *r = NULL;
    while (!c->insert_failed) {
        for (unsigned k = 0; k < c->parallel && !r; k++)
            if (!c->inserts[k].busy)
                r = &c->inserts[k];
        if (r)
            break;
        pump(c, UNTIL_FREE);
    }
    if (c->insert_failed)
        return -1;
    char *url = clickhouse_insert_url(c, r->easy, into, format, "");
    if (!url)
        return -1;
    free(r->url);
    r->url = url;
    /* The request takes the rows; the caller gets the request's old buffer. */
    sbuf old = r->body;
    r->body = *rows;
    old.len = 0;
    old.failed = 0;
    *rows = old;
    r->attempt = 0;
    r->gzipped = 0;
    if (c->compress && r->body.len) {
        if (gzip(&r->body, &c->gzip)) {
            r->body.len = 0;
            return fail(c, "out of memory compressing a batch");
        }
        sbuf plain = r->body; /* the compressed body goes; the plain one is kept for reuse */
        r->body = c->gzip;
        c->gzip = plain;
        r->gzipped = 1;
    }
    r->busy = 1;
    r->id = ++c->inserts_started;
    prepare(c, r->easy, r->url, r->body.data, r->body.len, &r->response, r->gzipped);
    if (curl_multi_add_handle(c->multi, r->easy) != CURLM_OK) {
        r->busy = 0;
        c->insert_failed = 1;
        if (!c->first_failed)
            c->first_failed = r->id;
        return fail(c, "libcurl could not start a request");
    }
    pump(c, ONCE); /* sends what it can now */
    return c->insert_failed ? -1 : 0;
}

void clickhouse_insert_poll(clickhouse *c)
{
    pump(c, ONCE);
}

int clickhouse_insert_wait(clickhouse *c)
{
    pump(c, UNTIL_ALL_ENDED);
    return c->insert_failed ? -1 : 0;
}

unsigned clickhouse_insert_busy(const clickhouse *c)
{
    unsigned busy = 0;
    for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
        busy += c->inserts[k].busy != 0;
    return busy;
}

uint64_t clickhouse_insert_landed(const clickhouse *c)
{
    uint64_t landed = c->inserts_started;
    for (int k = 0; k < CLICKHOUSE_MAX_PARALLEL; k++)
        if (c->inserts[k].busy && c->inserts[k].id - 1 < landed)
            landed = c->inserts[k].id - 1;
    if (c->first_failed && c->first_failed - 1 < landed)
        landed = c->first_failed - 1;
    return landed;
}

void clickhouse_insert_wait_some(clickhouse *c, int ms)
{
    if (clickhouse_insert_busy(c))
        curl_multi_wait(c->multi, NULL, 0, ms, NULL);
    pump(c, ONCE);
}
