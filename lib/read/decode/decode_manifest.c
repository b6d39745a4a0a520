/* SPDX-License-Identifier: MIT */
/* decode_manifest.c - events an instrumentation manifest describes, decoded
 * by walking their template (manifest.c parses the manifest): the kernel
 * classes' and the .NET runtime's built-in schemas, the manifests added and
 * those written into the trace; and the event's message with its inserts.
 *
 * Allowed dependencies: common/, platform/, classes/, xxHash, expat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"
#include "decode_internal.h"
#include "kernel.h"
#include "manifest.h"
static int man_value(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                     int depth);

/* A string or binary field whose manifest gives a length: that many
 * characters (UTF-16 units for UnicodeString) or bytes, no terminator. */
static int man_sized(petw_decoder *d, uint8_t type, uint64_t length, uint32_t slot)
{
    petw_field *f = &d->fields[slot];
    const uint8_t *p = d->data + d->pos;
    uint64_t bytes = type == PETW_IN_UNICODESTRING ? 2 * length : length;
    PETW__RETURN_IF(bytes > d->size - d->pos, PETW_ECORRUPT);
    d->pos += (size_t)bytes;
    if (type == PETW_IN_UNICODESTRING) {
        size_t units = (size_t)length; /* up to the first NUL, if any */
        for (size_t k = 0; k < units; k++)
            if (petw__rd16(p + 2 * k) == 0)
                units = k;
        return petw__decoder_utf16_string(d, p, units, slot);
    }
    if (type == PETW_IN_ANSISTRING)
        return petw__decoder_bytes_string(d, p, strnlen((const char *)p, (size_t)length), slot);
    f->kind = PETW_VALUE_BINARY;
    f->v.bin.data = p;
    f->v.bin.size = (uint32_t)bytes;
    return 0;
}

/* The NT Kernel Logger's SID (PETW__IN_KERNEL_SID): 4 zero bytes for none,
 * else a TOKEN_USER (two pointer-size words) then the SID, read as
 * "S-1-5-21-...". */
static int kernel_sid(petw_decoder *d, uint32_t slot)
{
    const uint8_t *p = d->data + d->pos;
    PETW__FORWARD_IF_ERROR(petw__decoder_need(d, 4));
    if (petw__rd32(p) == 0) {
        d->pos += 4;
        d->fields[slot].kind = PETW_VALUE_NONE;
        return 0;
    }
    size_t at = 2 * (size_t)d->pointer_size; /* the TOKEN_USER */
    PETW__FORWARD_IF_ERROR(petw__decoder_need(d, at + 8));
    size_t n = p[at + 1];
    PETW__FORWARD_IF_ERROR(petw__decoder_need(d, at + 8 + 4 * n));
    d->pos += at + 8 + 4 * n;
    char text[PETW__SID_TEXT_MAX];
    petw__sid_text(p + at, 8 + 4 * n, text, sizeof(text));
    size_t len = strlen(text);
    return petw__decoder_bytes_string(d, (const uint8_t *)text, len, slot);
}

/* The bytes left of the payload when they hold a string of `type` (at
 * least one character) without its NUL, else 0. A manifest string (or
 * string array) is read so to the payload's end, as other ETW decoders do:
 * mc's code writes an array of strings with the size its caller gives, and
 * Windows' own samples give one that leaves the last NUL out. */
static size_t unterminated(const petw_decoder *d, uint8_t type)
{
    const uint8_t *p = d->data + d->pos;
    size_t left = d->size - d->pos;
    if (type == PETW_IN_ANSISTRING)
        return left && !memchr(p, 0, left) ? left : 0;
    if (type != PETW_IN_UNICODESTRING || left == 0 || left % 2)
        return 0;
    for (size_t k = 0; k < left; k += 2)
        if (petw__rd16(p + k) == 0)
            return 0;
    return left;
}

/* Field `i`'s length or count: fixed, or the number an earlier field held. */
static uint64_t man_size(const petw_decoder *d, const petw__man_field *f, uint16_t spec,
                         uint8_t ref_flag)
{
    return (f->flags & ref_flag) ? d->man_value[spec] : spec;
}

/* One value (one element, for arrays) of template field `i`. */
static int man_scalar(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                      int depth)
{
    const petw__man_field *f = &d->man[i];
    if (f->flags & PETW__MANF_STRUCT) {
        PETW__RETURN_IF(depth > PETW__DECODE_MAX_DEPTH, PETW_ECORRUPT);
        uint32_t first;
        PETW__FORWARD_IF_ERROR(
            petw__decoder_open_block(d, slot, PETW_VALUE_STRUCT, f->members, &first));
        uint32_t j = i + 1;
        for (uint32_t m = 0; m < f->members; m++) {
            d->fields[first + m].parent = slot;
            PETW__FORWARD_IF_ERROR(man_value(d, pv, j, first + m, depth + 1));
            j = d->man[j].next - (uint32_t)(d->man - pv->fields);
        }
        return 0;
    }
    size_t start = d->pos;
    int sized = (f->flags & (PETW__MANF_LENGTH | PETW__MANF_LENGTH_REF)) &&
                (f->in_type == PETW_IN_UNICODESTRING || f->in_type == PETW_IN_ANSISTRING ||
                 f->in_type == PETW_IN_BINARY);
    if (sized) {
        uint64_t length = man_size(d, f, f->length, PETW__MANF_LENGTH_REF);
        PETW__FORWARD_IF_ERROR(man_sized(d, f->in_type, length, slot));
        if (f->out_type == PETW_OUT_IPV6 && f->in_type == PETW_IN_BINARY && length == 16)
            PETW__FORWARD_IF_ERROR(petw__decoder_ipv6_string(d, d->data + start, slot));
    } else if (f->in_type == PETW__IN_KERNEL_SID) {
        PETW__FORWARD_IF_ERROR(kernel_sid(d, slot));
    } else if (unterminated(d, f->in_type)) {
        size_t left = unterminated(d, f->in_type);
        PETW__FORWARD_IF_ERROR(
            man_sized(d, f->in_type, f->in_type == PETW_IN_UNICODESTRING ? left / 2 : left, slot));
    } else if (f->in_type == PETW_IN_BINARY) {
        /* Binary without a length: the rest of the payload. */
        PETW__FORWARD_IF_ERROR(man_sized(d, f->in_type, d->size - d->pos, slot));
    } else {
        PETW__FORWARD_IF_ERROR(petw__decoder_basic(d, f->in_type, f->out_type, slot));
    }
    petw_field *v = &d->fields[slot];
    uint64_t number =
        v->kind == PETW_VALUE_INT ? (uint64_t)v->v.i
        : (v->kind == PETW_VALUE_UINT || v->kind == PETW_VALUE_HEX || v->kind == PETW_VALUE_BOOL)
            ? v->v.u
            : 0;
    d->man_value[i] = number;
    char text[512];
    if (f->map >= 0 && v->kind != PETW_VALUE_STRING &&
        petw__manifest_map_text(pv, f->map, number, text, sizeof(text)) == 0) {
        size_t at;
        PETW__FORWARD_IF_ERROR(petw__decoder_arena_reserve(d, strlen(text) + 1, &at));
        memcpy(d->arena + at, text, strlen(text) + 1);
        d->fields[slot].label = (const char *)(uintptr_t)(at + 1); /* fixed up at the end */
    }
    d->fields[slot].data_offset = (uint32_t)start;
    d->fields[slot].data_size = (uint32_t)(d->pos - start);
    return 0;
}

static int man_value(petw_decoder *d, const petw__man_provider *pv, uint32_t i, uint32_t slot,
                     int depth)
{
    const petw__man_field *f = &d->man[i];
    d->counters.work++;
    petw_field *fl = &d->fields[slot];
    uint8_t in_type = f->in_type == PETW__IN_KERNEL_SID ? PETW_IN_SID : f->in_type;
    fl->name = f->name;
    fl->in_type = in_type;
    fl->out_type = f->out_type;
    size_t start = d->pos;
    if (!(f->flags & (PETW__MANF_COUNT | PETW__MANF_COUNT_REF | PETW__MANF_COUNT_REST))) {
        PETW__FORWARD_IF_ERROR(man_scalar(d, pv, i, slot, depth));
    } else {
        uint64_t count = man_size(d, f, f->count, PETW__MANF_COUNT_REF);
        if (f->flags & PETW__MANF_COUNT_REST) {
            /* As many whole values as the payload holds. */
            size_t each = petw__decoder_number_size(d, f->in_type);
            PETW__RETURN_IF(each == 0, PETW_ECORRUPT);
            count = (d->size - d->pos) / each;
        }
        /* Every element takes a byte at least (a struct or a Null none: at
         * most PETW__DECODE_MAX_FIELDS of those). */
        PETW__RETURN_IF(count > d->size - d->pos && count > PETW__DECODE_MAX_FIELDS, PETW_ECORRUPT);
        uint32_t first;
        PETW__FORWARD_IF_ERROR(
            petw__decoder_open_block(d, slot, PETW_VALUE_ARRAY, (uint32_t)count, &first));
        for (uint32_t k = 0; k < count; k++) {
            petw_field *el = &d->fields[first + k];
            el->name = f->name;
            el->in_type = in_type;
            el->out_type = f->out_type;
            el->parent = slot;
            PETW__FORWARD_IF_ERROR(man_scalar(d, pv, i, first + k, depth + 1));
        }
    }
    d->fields[slot].data_offset = (uint32_t)start;
    d->fields[slot].data_size = (uint32_t)(d->pos - start);
    return 0;
}

/* The provider with `guid` in manifest `m`, or NULL. */
const petw__man_provider *petw__decoder_provider_in(const petw__manifest *m, const petw_guid *guid)
{
    for (uint32_t i = 0; i < petw__manifest_provider_count(m); i++) {
        const petw__man_provider *p = petw__manifest_provider(m, i);
        if (petw_guid_equal(&p->guid, guid))
            return p;
    }
    return NULL;
}

/* A classic kernel record's schema (by class, opcode and version), or
 * NULL. */
const petw__manifest *petw__decoder_kernel(petw_decoder *d)
{
    if (!d->kernel && !d->kernel_failed && petw__kernel_schemas(&d->kernel) != 0)
        d->kernel_failed = 1; /* out of memory: such events stay raw */
    return d->kernel;
}

/* The built-in provider (the .NET runtime's) with `guid`, or NULL. */
const petw__man_provider *petw__decoder_builtin_provider(petw_decoder *d, const petw_guid *guid)
{
    if (!d->clr && !d->clr_failed && petw__clr_schemas(&d->clr) != 0)
        d->clr_failed = 1; /* out of memory: such events stay raw */
    return d->clr ? petw__decoder_provider_in(d->clr, guid) : NULL;
}

const petw__man_event *petw__decoder_kernel_event(petw_decoder *d, const petw_event_record *rec,
                                                  const petw__man_provider **pv)
{
    *pv = petw__decoder_kernel(d) ? petw__decoder_provider_in(d->kernel, &rec->header.provider_id)
                                  : NULL;
    return *pv ? petw__manifest_find_event(*pv, rec->header.descriptor.opcode,
                                           rec->header.descriptor.version)
               : NULL;
}

/* The provider with `guid` in the manifests added, or NULL. */
const petw__man_provider *petw__decoder_man_provider(petw_decoder *d, const petw_guid *guid)
{
    if (d->last_provider && petw_guid_equal(&d->last_provider->guid, guid))
        return d->last_provider;
    for (uint32_t m = 0; m < d->manifest_count; m++) {
        const petw__man_provider *p = petw__decoder_provider_in(d->manifests[m], guid);
        if (p)
            return d->last_provider = p;
    }
    for (uint32_t m = 0; m < d->es_count; m++) {
        const petw__man_provider *p = petw__decoder_provider_in(d->es_manifests[m].m, guid);
        if (p)
            return d->last_provider = p;
    }
    return NULL;
}

int petw__decoder_manifest_fields(petw_decoder *d, const petw__man_provider *pv,
                                  const petw__man_event *ev)
{
    d->result.has_schema = 1;
    if (ev->field_count == 0) /* no template, or an empty one */
        return 0;
    d->man = pv->fields + ev->first_field;
    uint32_t first;
    PETW__FORWARD_IF_ERROR(petw__decoder_reserve_fields(d, ev->top_count, &first));
    uint32_t j = 0;
    for (uint32_t k = 0; k < ev->top_count; k++) {
        PETW__RETURN_IF(j >= ev->field_count, PETW_ECORRUPT);
        d->fields[k].parent = UINT32_MAX;
        PETW__FORWARD_IF_ERROR(man_value(d, pv, j, k, 0));
        j = d->man[j].next - ev->first_field;
    }
    d->result.top_count = ev->top_count;
    d->result.has_schema = 1;
    return 0;
}

/* Appends to the message buffer. */
int petw__decoder_msg_put(petw_decoder *d, size_t *len, const char *s, size_t n)
{
    if (*len + n + 1 > d->message_cap) {
        size_t cap = d->message_cap ? d->message_cap : 256;
        while (cap < *len + n + 1)
            cap *= 2;
        char *m = realloc(d->message, cap);
        if (!m)
            return PETW_ENOMEM;
        d->message = m;
        d->message_cap = cap;
    }
    memcpy(d->message + *len, s, n);
    *len += n;
    d->message[*len] = 0;
    return 0;
}

/* A field's value as message text (what %N inserts). */
void petw__decoder_value_text(const petw_field *f, char *out, size_t size)
{
    if (f->label) {
        snprintf(out, size, "%s", f->label);
        return;
    }
    switch (f->kind) {
    case PETW_VALUE_INT:
        snprintf(out, size, "%lld", (long long)f->v.i);
        break;
    case PETW_VALUE_UINT:
        snprintf(out, size, "%llu", (unsigned long long)f->v.u);
        break;
    case PETW_VALUE_HEX:
        snprintf(out, size, "0x%llX", (unsigned long long)f->v.u);
        break;
    case PETW_VALUE_FLOAT:
        snprintf(out, size, "%g", f->v.f);
        break;
    case PETW_VALUE_BOOL:
        snprintf(out, size, "%s", f->v.u ? "true" : "false");
        break;
    case PETW_VALUE_STRING:
        snprintf(out, size, "%s", f->v.s);
        break;
    case PETW_VALUE_GUID: {
        char g[40];
        petw_guid_format(&f->v.guid, g);
        snprintf(out, size, "{%s}", g);
        break;
    }
    case PETW_VALUE_SYSTEMTIME:
        snprintf(out, size, "%04u-%02u-%02uT%02u:%02u:%02u.%03u", f->v.st[0], f->v.st[1],
                 f->v.st[3], f->v.st[4], f->v.st[5], f->v.st[6], f->v.st[7]);
        break;
    case PETW_VALUE_FILETIME:
        snprintf(out, size, "%lld", (long long)f->v.i);
        break;
    case PETW_VALUE_BINARY: {
        size_t n = 0;
        out[0] = 0;
        for (uint32_t k = 0; k < f->v.bin.size && n + 3 < size; k++)
            n += (size_t)snprintf(out + n, size - n, "%02X", f->v.bin.data[k]);
        break;
    }
    default:
        out[0] = 0;
    }
}

/* The event's message with its inserts: %N is top-level field N's value,
 * %!fmt! after it is dropped; %n, %t, %r, %b, %% and %. are what
 * FormatMessage makes of them. */
int petw__decoder_render_message(petw_decoder *d, const char *msg)
{
    size_t len = 0;
    char v[1024];
    PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, "", 0));
    for (const char *s = msg; *s;) {
        const char *pct = strchr(s, '%');
        size_t n = pct ? (size_t)(pct - s) : strlen(s);
        PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, s, n));
        if (!pct)
            break;
        s = pct + 1;
        if (*s >= '1' && *s <= '9') {
            unsigned k = 0;
            while (*s >= '0' && *s <= '9' && k < 1000)
                k = k * 10 + (unsigned)(*s++ - '0');
            if (*s == '!') { /* a printf-style format: the value is shown as petw shows it */
                const char *end = strchr(s + 1, '!');
                s = end ? end + 1 : s + strlen(s);
            }
            v[0] = 0;
            if (k >= 1 && k <= d->result.top_count)
                petw__decoder_value_text(&d->fields[k - 1], v, sizeof(v));
            PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, v, strlen(v)));
            continue;
        }
        const char *put = *s == 'n'   ? "\n"
                          : *s == 't' ? "\t"
                          : *s == 'r' ? "\r"
                          : *s == 'b' ? " "
                          : *s == '%' ? "%"
                          : *s == '.' ? "."
                                      : NULL;
        if (put) {
            PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, put, 1));
            s++;
        } else {
            PETW__FORWARD_IF_ERROR(petw__decoder_msg_put(d, &len, "%", 1));
        }
    }
    /* Trailing line breaks are the message file's, not the event's. */
    while (len && (d->message[len - 1] == '\n' || d->message[len - 1] == '\r'))
        d->message[--len] = 0;
    d->result.message = d->message;
    return 0;
}

/* ---- WPP messages a TMF file describes ---- */

/* The name of a manifest event without a symbol (as .NET Framework's
 * EventSource writes them), as TraceEvent gives it: its task's, then
 * "/" and its opcode's unless that is Info; its arena offset in *at. */
int petw__decoder_name_from_task(petw_decoder *d, const petw__man_event *ev, size_t *at)
{
    const char *op = ev->opcode && ev->opcode_name ? ev->opcode_name : NULL;
    size_t n = strlen(ev->task_name) + (op ? 1 + strlen(op) : 0) + 1;
    PETW__FORWARD_IF_ERROR(petw__decoder_arena_reserve(d, n, at));
    snprintf(d->arena + *at, n, "%s%s%s", ev->task_name, op ? "/" : "", op ? op : "");
    return 0;
}