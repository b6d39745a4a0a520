/* SPDX-License-Identifier: MIT */
/* decode.c - events into named, typed fields: the decoder, the primitives
 * every kind of event builds its fields with, and petw_decode, which picks
 * the kind. TraceLogging's self-describing events (schema and payload) are
 * decode_tracelogging.c's. Events
 * an instrumentation manifest describes are decode_manifest.c's (manifest.c
 * parses it), WPP messages wpp.c's, EventSource's manifests in the trace
 * eventsource.c's, and the manifests and TMF files added decode_files.c's.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat. Everything read from the
 * record is bounds-checked; fields are built in an array where every struct's or array's children
 * are one contiguous block (reserved before recursing).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"
#include "decode_internal.h"
#include "eventsource.h"
#include "kernel.h"
#include "manifest.h"
#include "petw/decode.h"
#include "wpp.h"

void petw__decoder_counters_get(const petw_decoder *d, petw__decoder_counters *out)
{
    *out = d->counters;
}

int petw_decoder_new(petw_decoder **out)
{
    PETW__RETURN_IF(!out, PETW_EINVAL);
    petw_decoder *d = calloc(1, sizeof(*d));
    if (!d)
        return PETW_ENOMEM;
    *out = d;
    return 0;
}

void petw_decoder_free(petw_decoder *d)
{
    if (!d)
        return;
    for (uint32_t i = 0; i < PETW__DECODE_CACHE_SLOTS; i++)
        free(d->slot[i]);
    for (uint32_t i = 0; i < d->manifest_count; i++)
        petw__manifest_free(d->manifests[i]);
    for (uint32_t i = 0; i < d->es_count; i++)
        petw__manifest_free(d->es_manifests[i].m);
    free(d->es_manifests);
    petw__es_collector_clear(&d->es);
    petw__manifest_free(d->kernel);
    petw__manifest_free(d->clr);
    for (uint32_t i = 0; i < d->tmf_count; i++)
        petw__wpp_free(d->tmfs[i]);
    free(d->tmfs);
    free(d->manifests);
    free(d->warnings);
    free(d->message);
    free(d->scratch);
    free(d->fields);
    free(d->arena);
    free(d);
}

/* Arena strings live until the next petw_decode; offsets until the end,
 * since the arena may move while one event is decoded. */
int petw__decoder_arena_reserve(petw_decoder *d, size_t n, size_t *at)
{
    if (d->arena_used + n > d->arena_cap) {
        size_t cap = d->arena_cap ? d->arena_cap : 4096;
        while (cap < d->arena_used + n)
            cap *= 2;
        char *a = realloc(d->arena, cap);
        if (!a)
            return PETW_ENOMEM;
        d->arena = a;
        d->arena_cap = cap;
    }
    *at = d->arena_used;
    d->arena_used += n;
    return 0;
}

/* Reserves `n` contiguous field slots; returns the first index. */
int petw__decoder_reserve_fields(petw_decoder *d, uint32_t n, uint32_t *first)
{
    PETW__RETURN_IF(n > PETW__DECODE_MAX_FIELDS - d->field_count, PETW_ECORRUPT);
    if (d->field_count + n > d->field_cap) {
        uint32_t cap = d->field_cap ? d->field_cap : 64;
        while (cap < d->field_count + n)
            cap *= 2;
        petw_field *f = realloc(d->fields, cap * sizeof(*f));
        if (!f)
            return PETW_ENOMEM;
        d->fields = f;
        d->field_cap = cap;
    }
    d->counters.work += n;
    *first = d->field_count;
    if (n) /* an event with no fields may have no array yet */
        memset(d->fields + d->field_count, 0, n * sizeof(petw_field));
    d->field_count += n;
    return 0;
}

/* Makes field `slot` a struct or array of `n` children, reserved as one
 * block; *first is the first child's index. */
int petw__decoder_open_block(petw_decoder *d, uint32_t slot, petw_value_kind kind, uint32_t n,
                             uint32_t *first)
{
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, n, first));
    d->fields[slot].kind = kind;
    d->fields[slot].first = *first;
    d->fields[slot].count = n;
    return 0;
}

int petw__decoder_need(petw_decoder *d, size_t n)
{
    return n <= d->size - d->pos ? 0 : PETW_ECORRUPT;
}

/* Bytes of a fixed-size number in-type, or 0 for any other in-type. */
size_t petw__decoder_type_size(uint8_t type, size_t pointer_size)
{
    switch (type) {
    case PETW_IN_INT8:
    case PETW_IN_UINT8:
        return 1;
    case PETW_IN_INT16:
    case PETW_IN_UINT16:
        return 2;
    case PETW_IN_INT32:
    case PETW_IN_UINT32:
    case PETW_IN_FLOAT:
    case PETW_IN_BOOL32:
    case PETW_IN_HEXINT32:
        return 4;
    case PETW_IN_POINTER:
        return pointer_size;
    case PETW_IN_INT64:
    case PETW_IN_UINT64:
    case PETW_IN_DOUBLE:
    case PETW_IN_FILETIME:
    case PETW_IN_HEXINT64:
        return 8;
    default:
        return 0;
    }
}

size_t petw__decoder_number_size(const petw_decoder *d, uint8_t type)
{
    return petw__decoder_type_size(type, (size_t)d->pointer_size);
}

int petw__decoder_utf16_string(petw_decoder *d, const uint8_t *s, size_t units, uint32_t slot)
{
    size_t at;
    PETW__FORWARD_IF_ERROR(petw__decoder_arena_reserve(d, units * 3 + 1, &at));
    petw__utf16le_to_utf8(s, units, d->arena + at, units * 3 + 1);
    d->fields[slot].v.s = (const char *)(uintptr_t)at; /* fixed up at the end */
    d->fields[slot].kind = PETW_VALUE_STRING;
    return 0;
}

int petw__decoder_bytes_string(petw_decoder *d, const uint8_t *s, size_t n, uint32_t slot)
{
    size_t at;
    PETW__FORWARD_IF_ERROR(petw__decoder_arena_reserve(d, n + 1, &at));
    memcpy(d->arena + at, s, n);
    d->arena[at + n] = 0;
    d->fields[slot].v.s = (const char *)(uintptr_t)at;
    d->fields[slot].kind = PETW_VALUE_STRING;
    return 0;
}

/* A 16-byte IPv6 address as text, as Windows writes it. */
int petw__decoder_ipv6_string(petw_decoder *d, const uint8_t *p, uint32_t slot)
{
    char text[48];
    petw__ipv6_text(p, text, sizeof(text));
    return petw__decoder_bytes_string(d, (const uint8_t *)text, strlen(text), slot);
}

/* A fixed-size number of in-type `type`, shown as out-type `out` says. */
static int decode_number(petw_decoder *d, uint8_t type, uint8_t out, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    size_t n = petw__decoder_number_size(d, type);
    if (n == 0)
        return PETW_ECORRUPT; /* an in-type TraceLogging does not define */
    PETW__FORWARD_IF_ERROR(petw__decoder_need(d, n));
    d->pos += n;
    uint64_t u = n == 1 ? p[0] : n == 2 ? petw__rd16(p) : n == 4 ? petw__rd32(p) : petw__rd64(p);
    int is_signed = type == PETW_IN_INT8 || type == PETW_IN_INT16 || type == PETW_IN_INT32 ||
                    type == PETW_IN_INT64;
    if (is_signed) {
        int64_t v = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u : n == 4 ? (int32_t)u : (int64_t)u;
        f->kind = PETW_VALUE_INT;
        f->v.i = v;
    } else {
        f->kind = PETW_VALUE_UINT;
        f->v.u = u;
    }
    if (type == PETW_IN_FLOAT) {
        float x;
        memcpy(&x, p, 4);
        f->kind = PETW_VALUE_FLOAT;
        f->v.f = x;
    } else if (type == PETW_IN_DOUBLE) {
        memcpy(&f->v.f, p, 8);
        f->kind = PETW_VALUE_FLOAT;
    } else if (type == PETW_IN_FILETIME) {
        f->kind = PETW_VALUE_FILETIME;
        f->v.i = (int64_t)u;
    } else if (type == PETW_IN_BOOL32 || out == PETW_OUT_BOOLEAN) {
        f->kind = PETW_VALUE_BOOL;
        f->v.u = u != 0;
    } else if (type == PETW_IN_HEXINT32 || type == PETW_IN_HEXINT64 || type == PETW_IN_POINTER ||
               out == PETW_OUT_HEX || out == PETW_OUT_WIN32ERROR || out == PETW_OUT_NTSTATUS ||
               out == PETW_OUT_HRESULT) {
        f->kind = PETW_VALUE_HEX;
        f->v.u = u & (n == 8 ? ~0ull : ((1ull << (8 * n)) - 1));
    } else if (out == PETW_OUT_STRING && n <= 2) {
        /* A character: UTF-8 of one code unit. */
        uint8_t units[4] = {(uint8_t)u, (uint8_t)(u >> 8), 0, 0};
        if (n == 1)
            return petw__decoder_bytes_string(d, units, u ? 1 : 0, slot);
        return petw__decoder_utf16_string(d, units, 1, slot);
    } else if (out == PETW_OUT_PORT && n == 2) {
        f->v.u = ((u & 0xFF) << 8) | (u >> 8); /* network byte order */
    } else if (out == PETW_OUT_IPV4 && n == 4) {
        char ip[16];
        snprintf(ip, sizeof(ip), "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
        return petw__decoder_bytes_string(d, (const uint8_t *)ip, strlen(ip), slot);
    }
    return 0;
}

/* One value of a non-struct in-type, as it is laid out in TraceLogging and
 * in manifest templates without a length. */
int petw__decoder_basic(petw_decoder *d, uint8_t type, uint8_t out, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    switch (type) {
    case PETW_IN_NULL:
        f->kind = PETW_VALUE_NONE;
        return 0;
    case PETW_IN_UNICODESTRING: {
        size_t i = 0;
        for (;; i += 2) {
            PETW__FORWARD_IF_ERROR(petw__decoder_need(d, i + 2));
            if (petw__rd16(p + i) == 0)
                break;
        }
        d->pos += i + 2;
        return petw__decoder_utf16_string(d, p, i / 2, slot);
    }
    case PETW_IN_ANSISTRING: {
        size_t i = 0;
        for (;; i++) {
            PETW__FORWARD_IF_ERROR(petw__decoder_need(d, i + 1));
            if (p[i] == 0)
                break;
        }
        d->pos += i + 1;
        return petw__decoder_bytes_string(d, p, i, slot);
    }
    case PETW_IN_COUNTEDSTRING:
    case PETW_IN_COUNTEDANSISTRING:
    case PETW_IN_BINARY:
    case PETW_IN_COUNTEDBINARY: {
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 2));
        size_t n = petw__rd16(p);
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 2 + n));
        d->pos += 2 + n;
        if (type == PETW_IN_COUNTEDSTRING)
            return petw__decoder_utf16_string(d, p + 2, n / 2, slot);
        if (type == PETW_IN_COUNTEDANSISTRING)
            return petw__decoder_bytes_string(d, p + 2, n, slot);
        if (out == PETW_OUT_IPV6 && n == 16)
            return petw__decoder_ipv6_string(d, p + 2, slot);
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = p + 2;
        f->v.bin.size = (uint32_t)n;
        return 0;
    }
    case PETW_IN_SID: {
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 8));
        size_t n = 8 + 4u * p[1];
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, n));
        d->pos += n;
        f->kind = PETW_VALUE_BINARY;
        f->v.bin.data = p;
        f->v.bin.size = (uint32_t)n;
        return 0;
    }
    case PETW_IN_GUID:
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 16));
        petw__rd_guid(p, &f->v.guid);
        f->kind = PETW_VALUE_GUID;
        d->pos += 16;
        return 0;
    case PETW_IN_SYSTEMTIME:
        PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 16));
        for (int i = 0; i < 8; i++)
            f->v.st[i] = petw__rd16(p + 2 * i);
        f->kind = PETW_VALUE_SYSTEMTIME;
        d->pos += 16;
        return 0;
    default:
        return decode_number(d, type, out, slot);
    }
}

/* Turns arena offsets into pointers once the arena stopped moving. */
static void fix_strings(petw_decoder *d)
{
    for (uint32_t i = 0; i < d->field_count; i++) {
        if (d->fields[i].kind == PETW_VALUE_STRING)
            d->fields[i].v.s = d->arena + (size_t)(uintptr_t)d->fields[i].v.s;
        if (d->fields[i].label) /* offset + 1 */
            d->fields[i].label = d->arena + (size_t)(uintptr_t)d->fields[i].label - 1;
    }
}

/* EventWriteString: the payload is one UTF-16LE string. */
static int decode_string_only(petw_decoder *d)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, 1, &first));
    d->fields[0].name = "string";
    d->fields[0].in_type = PETW_IN_UNICODESTRING;
    d->fields[0].parent = UINT32_MAX;
    size_t units = d->size / 2;
    while (units > 0 && petw__rd16(d->data + 2 * (units - 1)) == 0)
        units--;
    PETW__FORWARD_IF_ERROR(petw__decoder_utf16_string(d, d->data, units, 0));
    d->fields[0].data_size = (uint32_t)d->size;
    d->result.top_count = 1;
    d->result.has_schema = 1;
    return 0;
}

/* No schema: the payload as one binary field. */
static int decode_binary(petw_decoder *d)
{
    uint32_t first;
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, 1, &first));
    d->fields[0].name = "data";
    d->fields[0].in_type = PETW_IN_BINARY;
    d->fields[0].kind = PETW_VALUE_BINARY;
    d->fields[0].parent = UINT32_MAX;
    d->fields[0].v.bin.data = d->data;
    d->fields[0].v.bin.size = (uint32_t)d->size;
    d->fields[0].data_size = (uint32_t)d->size;
    d->result.top_count = 1;
    return 0;
}

/* A TraceLogging event's schema and its provider's traits, from the
 * record's extended data items (NULL when absent). */
static void find_schema_and_traits(const petw_event_record *rec, const uint8_t **schema,
                                   size_t *schema_size, const uint8_t **traits, size_t *traits_size)
{
    for (uint16_t i = 0; i < rec->extended_data_count && rec->extended_data; i++) {
        const petw_extended_item *x = &rec->extended_data[i];
        if (x->ext_type == PETW_EXT_TYPE_EVENT_SCHEMA_TL) {
            *schema = (const uint8_t *)(uintptr_t)x->data_ptr;
            *schema_size = x->data_size;
        } else if (x->ext_type == PETW_EXT_TYPE_PROV_TRAITS) {
            *traits = (const uint8_t *)(uintptr_t)x->data_ptr;
            *traits_size = x->data_size;
        }
    }
}

/* The decoded event's names: a kernel class's opcode, a WPP message's
 * (and its rendered text), an EventSource's ManifestData, or a manifest
 * event's names for the values the record carries (and its message). */
static int name_event(petw_decoder *d, const petw_event_record *rec, const petw__man_provider *pv,
                      const petw__man_event *ev, const petw__wpp_message *wm, int classic, int es,
                      size_t symbol_at)
{
    petw_decoded_event *r = &d->result;
    if (ev && classic) {
        r->event_name = ev->symbol; /* the opcode's name in the class */
        r->opcode_name = ev->symbol;
    } else if (wm) {
        r->provider_name = wm->guid_name;
        r->event_name = r->wpp_type_name = wm->type_name;
        r->level_name = wm->level;
        r->wpp_function = wm->function;
        r->wpp_flags = wm->flags;
        r->wpp_component = wm->component;
        r->wpp_subcomponent = wm->subcomponent;
        PETW__FORWARD_IF_ERROR(petw__decoder_render_wpp(d, wm, rec));
    } else if (es) {
        r->event_name = "ManifestData";
    } else if (ev) {
        /* Names for the values the record carries: a provider may write
         * an event with another task, opcode or level than its manifest's. */
        const petw_event_descriptor *ds = &rec->header.descriptor;
        r->event_name = symbol_at != (size_t)-1 ? d->arena + symbol_at : ev->symbol;
        r->task_name = ds->task == ev->task ? ev->task_name
                                            : petw__manifest_name(pv, PETW__MAN_TASK, 0, ds->task);
        r->opcode_name = ds->opcode == ev->opcode && ds->task == ev->task
                             ? ev->opcode_name
                             : petw__manifest_name(pv, PETW__MAN_OPCODE, ds->task, ds->opcode);
        r->level_name = ds->level == ev->level
                            ? ev->level_name
                            : petw__manifest_name(pv, PETW__MAN_LEVEL, 0, ds->level);
        if (ev->message)
            PETW__FORWARD_IF_ERROR(petw__decoder_render_message(d, ev->message));
    }
    return 0;
}

int petw_decode(petw_decoder *d, const petw_event_record *rec, const petw_decoded_event **out)
{
    PETW__RETURN_IF(!d || !rec || !out || (rec->user_data_length && !rec->user_data), PETW_EINVAL);
    petw_decoded_event *r = &d->result;
    memset(r, 0, sizeof(*r));
    d->field_count = 0;
    d->arena_used = 0;
    d->data = rec->user_data;
    d->size = rec->user_data_length;
    d->pos = 0;
    d->pointer_size = (rec->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
    const uint8_t *schema = NULL, *traits = NULL;
    size_t schema_size = 0, traits_size = 0;
    find_schema_and_traits(rec, &schema, &schema_size, &traits, &traits_size);
    size_t name_at = petw__decoder_tracelogging_provider_name(d, traits, traits_size);
    const petw__man_provider *pv = NULL;
    const petw__man_event *ev = NULL;
    int classic = (rec->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) &&
                  !(rec->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE);
    /* An EventSource's ManifestData event (not one its manifest describes). */
    int es = !schema && !classic && !(rec->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY) &&
             rec->header.descriptor.id == PETW__ES_MANIFEST_ID &&
             rec->header.descriptor.opcode == PETW__ES_MANIFEST_OPCODE;
    const petw__wpp_message *wm = NULL;
    if (schema || es)
        ;
    else if (d->tmf_count && (wm = petw__decoder_wpp_message(d, rec)) != NULL)
        ;
    else if (classic)
        ev = petw__decoder_kernel_event(d, rec, &pv);
    else if (((d->manifest_count || d->es_count) &&
              (pv = petw__decoder_man_provider(d, &rec->header.provider_id)) != NULL) ||
             (pv = petw__decoder_builtin_provider(d, &rec->header.provider_id)) != NULL)
        ev = petw__manifest_find_event(pv, rec->header.descriptor.id,
                                       rec->header.descriptor.version);
    if (schema)
        PETW__FORWARD_IF_ERROR(petw__decoder_tracelogging_fields(d, schema, schema_size));
    else if (rec->header.flags & PETW_EVENT_HEADER_FLAG_STRING_ONLY)
        PETW__FORWARD_IF_ERROR(decode_string_only(d));
    else if (es)
        PETW__FORWARD_IF_ERROR(petw__decoder_manifest_data(d, rec, &pv));
    else if (wm)
        PETW__FORWARD_IF_ERROR(petw__decoder_wpp_fields(d, wm));
    else if (ev)
        PETW__FORWARD_IF_ERROR(petw__decoder_manifest_fields(d, pv, ev));
    else
        PETW__FORWARD_IF_ERROR(decode_binary(d));
    size_t symbol_at = (size_t)-1;
    if (ev && !classic && !ev->symbol && ev->task_name)
        PETW__FORWARD_IF_ERROR(petw__decoder_name_from_task(d, ev, &symbol_at));
    fix_strings(d);
    r->provider_name = name_at != (size_t)-1 ? d->arena + name_at : pv ? pv->name : NULL;
    PETW__FORWARD_IF_ERROR(name_event(d, rec, pv, ev, wm, classic, es, symbol_at));
    r->fields = d->fields;
    r->field_count = d->field_count;
    *out = r;
    return 0;
}
