/* SPDX-License-Identifier: MIT */
/* eventsource.c - EventSource manifests put back together from the
 * ManifestData events that carry them (see eventsource.h), and the
 * decoder's side: a ManifestData event as fields, the provider's manifest
 * kept once whole.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../../base/common/common.h"
#include "decode_internal.h"
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

/* ---- the decoder: EventSource manifests in the trace ---- */

/* Keeps the manifest `xml` (malloc'd, taken over) that provider `guid`
 * wrote: a copy of the one kept is dropped, another replaces it. */
static int keep_stream_manifest(petw_decoder *d, const petw_guid *guid, uint8_t *xml, size_t size)
{
    char g[37];
    petw_guid_format(guid, g);
    uint64_t hash = XXH64(xml, size, 0);
    petw__stream_manifest *old = NULL;
    for (uint32_t i = 0; i < d->es_count && !old; i++)
        if (petw_guid_equal(&d->es_manifests[i].guid, guid))
            old = &d->es_manifests[i];
    if (old && old->hash == hash && old->size == size) {
        free(xml); /* sent again as it was (each time a session enables it) */
        return 0;
    }
    size_t kept = d->es_bytes - (old ? old->size : 0);
    if (!old && d->es_count == PETW__DECODE_MAX_STREAM_MANIFESTS) {
        free(xml);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: its manifest would be the trace's %u-th; %u are kept at most", g,
                 PETW__DECODE_MAX_STREAM_MANIFESTS + 1, PETW__DECODE_MAX_STREAM_MANIFESTS);
        return PETW_ELIMIT;
    }
    if (size > PETW__ES_MAX_BYTES - kept) {
        free(xml);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: its manifest (%zu bytes) would take the trace's manifests past "
                 "%u MB",
                 g, size, PETW__ES_MAX_BYTES >> 20);
        return PETW_ELIMIT;
    }
    petw__manifest *m;
    char why[200];
    int rc = petw__manifest_parse(xml, size, &m, why, sizeof(why));
    free(xml);
    if (rc) {
        snprintf(d->error, sizeof(d->error), "provider {%s}: the manifest in the trace: %s", g,
                 why);
        return rc;
    }
    if (!petw__decoder_provider_in(m, guid)) {
        petw__manifest_free(m);
        snprintf(d->error, sizeof(d->error),
                 "provider {%s}: the manifest in the trace describes another provider", g);
        return PETW_ECORRUPT;
    }
    if (!old) {
        rc = petw__array_grow((void **)&d->es_manifests, &d->es_cap, d->es_count,
                              sizeof(*d->es_manifests));
        if (rc) {
            petw__manifest_free(m);
            return rc;
        }
        old = &d->es_manifests[d->es_count++];
        memset(old, 0, sizeof(*old));
        old->guid = *guid;
    }
    petw__manifest_free(old->m); /* the provider's events now read with the new one */
    d->last_provider = NULL;
    old->m = m;
    old->hash = hash;
    old->size = size;
    d->es_bytes = kept + size;
    return 0;
}

/* A ManifestData event: its envelope as fields, its chunk collected; the
 * provider's manifest kept once every chunk came. *pv: the provider, when
 * a manifest names it. */
int petw__decoder_manifest_data(petw_decoder *d, const petw_event_record *rec,
                                const petw__man_provider **pv)
{
    const petw_guid *guid = &rec->header.provider_id;
    uint8_t *xml;
    size_t xml_size;
    char why[200];
    d->error[0] = 0;
    int rc = petw__es_add_chunk(&d->es, guid, rec->header.process_id, rec->header.thread_id,
                                d->data, d->size, &xml, &xml_size, why, sizeof(why));
    if (rc) {
        char g[37];
        petw_guid_format(guid, g);
        snprintf(d->error, sizeof(d->error), "provider {%s}: %s", g, why);
        return rc;
    }
    if (xml)
        PETW__FORWARD_IF_ERROR(keep_stream_manifest(d, guid, xml, xml_size));
    *pv = petw__decoder_man_provider(d, guid);
    static const struct {
        const char *name;
        uint8_t in, out, offset, size;
    } env[] = {
        {"Format", PETW_IN_UINT8, 0, 0, 1},       {"MajorVersion", PETW_IN_UINT8, 0, 1, 1},
        {"MinorVersion", PETW_IN_UINT8, 0, 2, 1}, {"Magic", PETW_IN_UINT8, PETW_OUT_HEX, 3, 1},
        {"TotalChunks", PETW_IN_UINT16, 0, 4, 2}, {"ChunkNumber", PETW_IN_UINT16, 0, 6, 2},
    };
    uint32_t n = (uint32_t)PETW__ARRAY_SIZE(env), first;
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, n + 1, &first));
    for (uint32_t i = 0; i < n; i++) {
        petw_field *f = &d->fields[i];
        f->name = env[i].name;
        f->in_type = env[i].in;
        f->out_type = env[i].out;
        f->kind = env[i].out == PETW_OUT_HEX ? PETW_VALUE_HEX : PETW_VALUE_UINT;
        f->v.u = env[i].size == 1 ? d->data[env[i].offset] : petw__rd16(d->data + env[i].offset);
        f->parent = UINT32_MAX;
        f->data_offset = env[i].offset;
        f->data_size = env[i].size;
    }
    /* The chunk's XML: its size (the bytes are the manifest's, not the
     * event's to show). */
    petw_field *f = &d->fields[n];
    f->name = "ChunkSize";
    f->in_type = PETW_IN_UINT32;
    f->kind = PETW_VALUE_UINT;
    f->v.u = d->size - PETW__ES_ENVELOPE;
    f->parent = UINT32_MAX;
    f->data_offset = PETW__ES_ENVELOPE;
    f->data_size = (uint32_t)(d->size - PETW__ES_ENVELOPE);
    d->result.top_count = n + 1;
    d->result.has_schema = 1;
    return 0;
}
