/* SPDX-License-Identifier: MIT */
/* clickhouse_stream.c - one INSERT whose body goes out while it is being
 * built: the caller hands blocks (of Native, say) one after the other, a
 * thread of the stream's own gives them to libcurl as the body of one
 * POST (chunked transfer encoding), so that building the next block,
 * sending this one and the server's reading of the last run at once. The
 * server gathers the blocks into parts of `part_rows` rows (its
 * min_insert_block_size_rows; the byte limit is lifted), so that a trace
 * becomes one part rather than a part per batch, which ClickHouse would
 * merge again at once (a third of its time with 64 MiB batches).
 * With c->compress the body is one gzip stream (Content-Encoding: gzip),
 * each block compressed by the stream's thread as libcurl asks for it,
 * while the caller builds the next.
 *
 * Without threads (Windows builds), the blocks are kept and sent as one
 * body when the stream ends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <zlib.h>

#include "clickhouse.h"

#define DEPTH 3 /* blocks handed over and not yet sent, at most */

#if !defined(_WIN32)
#include <pthread.h>

struct clickhouse_stream {
    clickhouse *c;
    CURL *easy;
    char *url;
    struct curl_slist *headers;
    sbuf response;
    pthread_t thread;
    pthread_mutex_t lock; /* everything below */
    pthread_cond_t changed;
    sbuf blocks[DEPTH]; /* a ring: `count` blocks from `first` */
    unsigned first, count;
    size_t at;    /* bytes of blocks[first] libcurl has */
    int ended;    /* the caller handed its last block */
    int finished; /* the request ended: result and status say how */
    CURLcode result;
    long status;
    /* c->compress: the stream thread's alone. The body compressed so
     * far and not yet given to libcurl (from `zat`); gzip ends the body. */
    int gzip, zfinished, zfailed;
    z_stream z;
    sbuf zout;
    size_t zat;
};

/* Compresses `n` bytes at `in` (`flush`: Z_NO_FLUSH, or Z_FINISH at the
 * end) onto s->zout. 0, or -1 (out of memory, or zlib failed). */
static int deflate_some(clickhouse_stream *s, const void *in, size_t n, int flush)
{
    s->z.next_in = (Bytef *)in;
    s->z.avail_in = (uInt)n;
    for (;;) {
        size_t room = 256u * 1024;
        char *at = sbuf_room(&s->zout, room);
        if (!at)
            return -1;
        s->z.next_out = (Bytef *)at;
        s->z.avail_out = (uInt)room;
        int rc = deflate(&s->z, flush);
        s->zout.len += room - s->z.avail_out;
        if (rc == Z_STREAM_END)
            return 0;
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return -1;
        if (s->z.avail_out != 0) { /* deflate had room: it took everything */
            if (flush == Z_NO_FLUSH && s->z.avail_in == 0)
                return 0;
            if (rc == Z_BUF_ERROR)
                return -1; /* no progress with room to write: not to happen */
        }
    }
}

/* on_read with c->compress: the next block is compressed when the bytes
 * compressed before are all given; the gzip stream ends with the body. A
 * failure ends the request (libcurl's abort: the insert fails, as a
 * transport failure would). */
static size_t on_read_gzip(char *out, size_t room, clickhouse_stream *s)
{
    for (;;) {
        if (s->zat < s->zout.len) {
            size_t got = s->zout.len - s->zat < room ? s->zout.len - s->zat : room;
            memcpy(out, s->zout.data + s->zat, got);
            s->zat += got;
            return got;
        }
        s->zout.len = 0;
        s->zat = 0;
        if (s->zfinished || s->zfailed)
            return s->zfailed ? CURL_READFUNC_ABORT : 0;
        pthread_mutex_lock(&s->lock);
        while (!s->count && !s->ended)
            pthread_cond_wait(&s->changed, &s->lock);
        sbuf *b = s->count ? &s->blocks[s->first] : NULL; /* stays in the ring till compressed */
        pthread_mutex_unlock(&s->lock);
        if (!b) {
            s->zfinished = 1;
            s->zfailed = deflate_some(s, "", 0, Z_FINISH) != 0;
            continue;
        }
        s->zfailed = b->len > (uInt)-1 || deflate_some(s, b->data, b->len, Z_NO_FLUSH) != 0;
        pthread_mutex_lock(&s->lock);
        b->len = 0; /* its memory stays in the ring for reuse */
        s->first = (s->first + 1) % DEPTH;
        s->count--;
        pthread_cond_broadcast(&s->changed);
        pthread_mutex_unlock(&s->lock);
    }
}

/* libcurl asks for the body's next bytes: waits for a block, or ends the
 * body (0) once the caller has handed its last. */
static size_t on_read(char *out, size_t size, size_t n, void *context)
{
    clickhouse_stream *s = context;
    size_t room = size * n, got = 0;
    if (s->gzip)
        return on_read_gzip(out, room, s);
    pthread_mutex_lock(&s->lock);
    while (!s->count && !s->ended)
        pthread_cond_wait(&s->changed, &s->lock);
    if (s->count) {
        sbuf *b = &s->blocks[s->first];
        got = b->len - s->at < room ? b->len - s->at : room;
        memcpy(out, b->data + s->at, got);
        s->at += got;
        if (s->at == b->len) { /* sent: its memory stays in the ring for reuse */
            b->len = 0;
            s->at = 0;
            s->first = (s->first + 1) % DEPTH;
            s->count--;
            pthread_cond_broadcast(&s->changed);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return got;
}

static void *stream_main(void *arg)
{
    clickhouse_stream *s = arg;
    CURLcode rc = curl_easy_perform(s->easy);
    long status = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(s->easy, CURLINFO_RESPONSE_CODE, &status);
    pthread_mutex_lock(&s->lock);
    s->result = rc;
    s->status = status;
    s->finished = 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void stream_free(clickhouse_stream *s)
{
    if (s->easy)
        curl_easy_cleanup(s->easy);
    curl_slist_free_all(s->headers);
    free(s->url);
    sbuf_free(&s->response);
    for (int k = 0; k < DEPTH; k++)
        sbuf_free(&s->blocks[k]);
    if (s->gzip)
        deflateEnd(&s->z);
    sbuf_free(&s->zout);
    free(s);
}

clickhouse_stream *clickhouse_stream_start(clickhouse *c, const char *into, const char *format,
                                           uint64_t part_rows)
{
    clickhouse_stream *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(c->error, sizeof(c->error), "out of memory");
        return NULL;
    }
    s->c = c;
    /* No "Expect: 100-continue" (as clickhouse_open says), and a body of
     * unknown length. */
    struct curl_slist *h = curl_slist_append(NULL, "Expect:");
    s->headers = h ? curl_slist_append(h, "Transfer-Encoding: chunked") : NULL;
    if (s->headers && c->compress) {
        h = s->headers;
        s->headers = curl_slist_append(h, "Content-Encoding: gzip");
    }
    if (!s->headers)
        curl_slist_free_all(h);
    if (c->compress) { /* zlib's fastest level, as clickhouse_insert's bodies */
        if (deflateInit2(&s->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            snprintf(c->error, sizeof(c->error), "out of memory");
            curl_slist_free_all(s->headers);
            free(s);
            return NULL;
        }
        s->gzip = 1;
    }
    if (!s->headers || !(s->easy = curl_easy_init())) {
        snprintf(c->error, sizeof(c->error), "libcurl could not start");
        stream_free(s);
        return NULL;
    }
    char settings[96];
    snprintf(settings, sizeof(settings),
             "&min_insert_block_size_rows=%" PRIu64 "&min_insert_block_size_bytes=0", part_rows);
    if (!(s->url = clickhouse_insert_url(c, s->easy, into, format, settings))) {
        stream_free(s);
        return NULL;
    }
    clickhouse_prepare(c, s->easy, s->url, &s->response);
    curl_easy_setopt(s->easy, CURLOPT_HTTPHEADER, s->headers);
    curl_easy_setopt(s->easy, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(s->easy, CURLOPT_READDATA, s);
    curl_easy_setopt(s->easy, CURLOPT_UPLOAD_BUFFERSIZE, 512L * 1024);
    /* A file's insert lasts as long as its events take to decode: no limit
     * on the whole, but on a transfer stalled for the request's limit. */
    curl_easy_setopt(s->easy, CURLOPT_TIMEOUT, 0L);
    curl_easy_setopt(s->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(s->easy, CURLOPT_LOW_SPEED_TIME, (long)c->timeout_s);
    if (pthread_mutex_init(&s->lock, NULL)) {
        stream_free(s);
        snprintf(c->error, sizeof(c->error), "cannot start a thread");
        return NULL;
    }
    if (pthread_cond_init(&s->changed, NULL)) {
        pthread_mutex_destroy(&s->lock);
        stream_free(s);
        snprintf(c->error, sizeof(c->error), "cannot start a thread");
        return NULL;
    }
    if (pthread_create(&s->thread, NULL, stream_main, s)) {
        pthread_cond_destroy(&s->changed);
        pthread_mutex_destroy(&s->lock);
        stream_free(s);
        snprintf(c->error, sizeof(c->error), "cannot start a thread");
        return NULL;
    }
    return s;
}

int clickhouse_stream_put(clickhouse_stream *s, sbuf *block)
{
    if (block->failed) {
        snprintf(s->c->error, sizeof(s->c->error), "out of memory building a batch");
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    while (s->count == DEPTH && !s->finished)
        pthread_cond_wait(&s->changed, &s->lock);
    int finished = s->finished;
    if (!finished) {
        sbuf *slot = &s->blocks[(s->first + s->count) % DEPTH];
        sbuf spare = *slot; /* a sent block's memory, empty */
        *slot = *block;
        *block = spare;
        block->len = 0;
        block->failed = 0;
        s->count++;
        pthread_cond_broadcast(&s->changed);
    }
    pthread_mutex_unlock(&s->lock);
    return finished ? -1 : 0; /* ended early: clickhouse_stream_end says why */
}

int clickhouse_stream_end(clickhouse_stream *s, int *transient)
{
    clickhouse *c = s->c;
    pthread_mutex_lock(&s->lock);
    s->ended = 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    curl_off_t sent = 0;
    curl_easy_getinfo(s->easy, CURLINFO_SIZE_UPLOAD_T, &sent);
    c->bytes_sent += (uint64_t)sent;
    int rc = 0;
    *transient = 0;
    if (s->result != CURLE_OK) {
        snprintf(c->error, sizeof(c->error), "ClickHouse at %s: %s", c->where,
                 curl_easy_strerror(s->result));
        *transient = 1;
        rc = -1;
    } else if (s->status != 200) {
        clickhouse_server_error(c, &s->response, s->status);
        *transient = s->status == 503;
        rc = -1;
    }
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    stream_free(s);
    return rc;
}

#else /* no threads: the blocks are sent as one body at the end */

struct clickhouse_stream {
    clickhouse *c;
    char into[1100], format[32];
    sbuf body;
};

clickhouse_stream *clickhouse_stream_start(clickhouse *c, const char *into, const char *format,
                                           uint64_t part_rows)
{
    (void)part_rows;
    clickhouse_stream *s = calloc(1, sizeof(*s));
    if (!s || strlen(into) >= sizeof(s->into) || strlen(format) >= sizeof(s->format)) {
        free(s);
        snprintf(c->error, sizeof(c->error), "out of memory");
        return NULL;
    }
    s->c = c;
    strcpy(s->into, into);
    strcpy(s->format, format);
    return s;
}

int clickhouse_stream_put(clickhouse_stream *s, sbuf *block)
{
    sbuf_put(&s->body, block->data, block->len);
    block->len = 0;
    return s->body.failed ? -1 : 0;
}

int clickhouse_stream_end(clickhouse_stream *s, int *transient)
{
    clickhouse *c = s->c;
    *transient = 0;
    int rc = s->body.failed ? -1 : 0;
    if (rc)
        snprintf(c->error, sizeof(c->error), "out of memory building a batch");
    else if (s->body.len)
        rc = clickhouse_insert(c, s->into, s->format, &s->body) || clickhouse_insert_wait(c);
    sbuf_free(&s->body);
    free(s);
    return rc ? -1 : 0;
}

#endif
