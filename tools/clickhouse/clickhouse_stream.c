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
 *
 * Without threads (Windows builds), the blocks are kept and sent as one
 * body when the stream ends. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

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
};

/* libcurl asks for the body's next bytes: waits for a block, or ends the
 * body (0) once the caller has handed its last. */
static size_t on_read(char *out, size_t size, size_t n, void *context)
{
    clickhouse_stream *s = context;
    size_t room = size * n, got = 0;
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
    if (!s->headers)
        curl_slist_free_all(h);
    if (!s->headers || !(s->easy = curl_easy_init())) {
        snprintf(c->error, sizeof(c->error), "libcurl could not start");
        stream_free(s);
        return NULL;
    }
    if (!(s->url =
              clickhouse_insert_url(c, s->easy, into, format, "&min_insert_block_size_bytes=0"))) {
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
