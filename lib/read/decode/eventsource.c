/* eventsource.c - EventSource manifests put back together from the
 * ManifestData events that carry them (see eventsource.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/common/common.h"
#include "eventsource.h"

int petw__es_envelope_read(const uint8_t *data, size_t size, petw__es_envelope *out)
{
    if (size < PETW__ES_ENVELOPE)
        return -1;
    out->format = data[0];
    out->major = data[1];
    out->minor = data[2];
    out->magic = data[3];
    out->total = petw__rd16(data + 4);
    out->number = petw__rd16(data + 6);
    return 0;
}

static void drop(petw__es_collector *c, petw__es_stream *s)
{
    c->held -= s->size;
    free(s->xml);
    memset(s, 0, sizeof(*s));
}

void petw__es_collector_clear(petw__es_collector *c)
{
    for (int i = 0; i < PETW__ES_MAX_PENDING; i++)
        if (c->streams[i].xml || c->streams[i].next)
            drop(c, &c->streams[i]);
    c->held = 0;
}

static petw__es_stream *find(petw__es_collector *c, const petw_guid *guid, uint32_t pid,
                             uint32_t tid)
{
    for (int i = 0; i < PETW__ES_MAX_PENDING; i++) {
        petw__es_stream *s = &c->streams[i];
        if (s->next && s->pid == pid && s->tid == tid && petw_guid_equal(&s->guid, guid))
            return s;
    }
    return NULL;
}

/* A free slot, or the one whose last chunk came first (dropped). */
static petw__es_stream *take_slot(petw__es_collector *c)
{
    petw__es_stream *oldest = &c->streams[0];
    for (int i = 0; i < PETW__ES_MAX_PENDING; i++) {
        petw__es_stream *s = &c->streams[i];
        if (!s->next)
            return s;
        if (s->touched < oldest->touched)
            oldest = s;
    }
    drop(c, oldest);
    return oldest;
}

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static int
fail(petw__es_collector *c, petw__es_stream *s, int rc, char *error, size_t error_size,
     const char *fmt, ...)
{
    if (s)
        drop(c, s);
    va_list ap;
    va_start(ap, fmt);
    if (error_size)
        vsnprintf(error, error_size, fmt, ap);
    va_end(ap);
    return rc;
}

int petw__es_add_chunk(petw__es_collector *c, const petw_guid *guid, uint32_t pid, uint32_t tid,
                       const uint8_t *data, size_t size, uint8_t **xml, size_t *xml_size,
                       char *error, size_t error_size)
{
    *xml = NULL;
    *xml_size = 0;
    if (error_size)
        error[0] = 0;
    c->chunks++;
    petw__es_stream *s = find(c, guid, pid, tid);
    petw__es_envelope e;
    if (petw__es_envelope_read(data, size, &e) != 0)
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData of %u bytes, shorter than its %u-byte envelope", (unsigned)size,
                    PETW__ES_ENVELOPE);
    if (e.magic != PETW__ES_MAGIC)
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData envelope: magic 0x%02X, not 0x%02X", e.magic, PETW__ES_MAGIC);
    if (e.format != PETW__ES_FORMAT_XML)
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData envelope: format %u, not %u (XML)", e.format,
                    PETW__ES_FORMAT_XML);
    if (e.total == 0 || e.number >= e.total)
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData envelope: chunk %u of %u is out of range", e.number, e.total);
    if (size == PETW__ES_ENVELOPE)
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData chunk %u of %u holds no XML", e.number, e.total);
    if (e.number == 0) {
        if (s) /* a re-sent manifest: the chunks still missing will not come */
            drop(c, s);
        s = take_slot(c);
        s->guid = *guid;
        s->pid = pid;
        s->tid = tid;
        s->first = e;
    } else if (!s) {
        return fail(c, NULL, PETW_ECORRUPT, error, error_size,
                    "ManifestData chunk %u of %u without chunk 0 before it", e.number, e.total);
    } else if (e.number != s->next) {
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData chunk %u of %u where chunk %u was expected (chunks lost or out "
                    "of order)",
                    e.number, e.total, s->next);
    } else if (e.total != s->first.total || e.format != s->first.format ||
               e.major != s->first.major || e.minor != s->first.minor) {
        return fail(c, s, PETW_ECORRUPT, error, error_size,
                    "ManifestData chunk %u of %u (version %u.%u) does not match chunk 0 (%u "
                    "chunks, version %u.%u)",
                    e.number, e.total, e.major, e.minor, s->first.total, s->first.major,
                    s->first.minor);
    }
    size_t n = size - PETW__ES_ENVELOPE;
    if (n > PETW__ES_MAX_BYTES - c->held)
        return fail(c, s, PETW_ELIMIT, error, error_size,
                    "ManifestData chunk %u of %u: the manifest%s would pass %u MB", e.number,
                    e.total, c->held > s->size ? "s being collected" : "",
                    PETW__ES_MAX_BYTES >> 20);
    if (s->size + n > s->cap) {
        size_t cap = s->cap ? s->cap : 65536;
        while (cap < s->size + n)
            cap *= 2;
        uint8_t *b = realloc(s->xml, cap);
        if (!b)
            return fail(c, s, PETW_ENOMEM, error, error_size, "out of memory");
        s->xml = b;
        s->cap = cap;
    }
    memcpy(s->xml + s->size, data + PETW__ES_ENVELOPE, n);
    s->size += n;
    c->held += n;
    s->touched = c->chunks;
    s->next = (uint16_t)(e.number + 1);
    if (s->next < e.total)
        return 0;
    *xml = s->xml;
    *xml_size = s->size;
    c->held -= s->size;
    memset(s, 0, sizeof(*s));
    return 0;
}
