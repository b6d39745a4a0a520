/* SPDX-License-Identifier: MIT */
/* etw_tdh.c - TdhGetEventInformation, TdhGetPropertySize, TdhGetProperty
 * and TdhFormatProperty on top of the native decoder (petw/decode.h): TDH's
 * one decoder (etw_tdh_manifest.c) decodes the event, under the control
 * lock, and the answer is built from what it returns. A manifest event is
 * described by its template, as Windows does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include <tdh.h>

#include "etw_internal.h"
#include "petw/decode.h"

/* The TMF files TDH_CONTEXT_WPP_TMFFILE / TDH_CONTEXT_WPP_TMFSEARCHPATH
 * named, added once each to TDH's decoder (`loaded_into`: the decoder they
 * went into; a new decoder gets them again). Under the control lock. */
#define MAX_TMF_PATHS 64
static char *tmf_paths[MAX_TMF_PATHS];
static uint32_t tmf_path_count, tmf_loaded_count;
static const petw_decoder *tmf_loaded_into;

static void load_tmf_contexts(petw_decoder *dec, ULONG count, const TDH_CONTEXT *ctx)
{
    if (!dec)
        return;
    if (dec != tmf_loaded_into) {
        tmf_loaded_into = dec;
        tmf_loaded_count = 0;
    }
    for (ULONG i = 0; ctx && i < count; i++) {
        const WCHAR *w = (const WCHAR *)(uintptr_t)ctx[i].ParameterValue;
        if ((ctx[i].ParameterType != TDH_CONTEXT_WPP_TMFFILE &&
             ctx[i].ParameterType != TDH_CONTEXT_WPP_TMFSEARCHPATH) ||
            !w)
            continue;
        char path[4096];
        petw__wcs_to_utf8(w, path, sizeof(path));
        uint32_t k = 0;
        while (k < tmf_path_count && strcmp(tmf_paths[k], path))
            k++;
        if (k == tmf_path_count && k < MAX_TMF_PATHS && (tmf_paths[k] = strdup(path)) != NULL)
            tmf_path_count++;
    }
    /* Each path once per decoder, in the order first named. */
    for (; tmf_loaded_count < tmf_path_count; tmf_loaded_count++)
        (void)petw_decoder_add_tmf(dec, tmf_paths[tmf_loaded_count]);
}

/* Decodes `event` with TDH's decoder (with the TMF files the contexts
 * name); on ERROR_SUCCESS the caller is inside petw__tdh_enter and leaves
 * when done with *ev. */
static ULONG decode(PEVENT_RECORD event, ULONG count, const TDH_CONTEXT *ctx,
                    const petw_decoded_event **ev)
{
    if (event == NULL)
        return ERROR_INVALID_PARAMETER;
    petw_decoder *dec = petw__tdh_enter();
    load_tmf_contexts(dec, count, ctx);
    int rc = dec ? petw_decode(dec, (const petw_event_record *)event, ev) : PETW_ENOMEM;
    if (rc == 0 && !(*ev)->has_schema)
        rc = 1;
    if (rc != 0) {
        petw__tdh_leave();
        return rc == 1               ? ERROR_NOT_FOUND
               : rc == PETW_ECORRUPT ? ERROR_EVT_INVALID_EVENT_DATA
                                     : petw__etw_status(rc);
    }
    return ERROR_SUCCESS;
}

/* The loaded manifest's event a record of a manifest-based provider is
 * (not TraceLogging, EventWriteString or classic), or NULL. */
static const petw__man_event *manifest_event(PEVENT_RECORD e, petw_decoder *d,
                                             const petw__man_provider **pv)
{
    const USHORT other = EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_STRING_ONLY |
                         EVENT_HEADER_FLAG_TRACE_MESSAGE;
    if (!d || (e->EventHeader.Flags & other))
        return NULL;
    for (USHORT i = 0; i < e->ExtendedDataCount && e->ExtendedData; i++)
        if (e->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL)
            return NULL;
    *pv = petw__tdh_provider(d, &e->EventHeader.ProviderId);
    return *pv ? petw__manifest_find_event(*pv, e->EventHeader.EventDescriptor.Id,
                                           e->EventHeader.EventDescriptor.Version)
               : NULL;
}

/* The property list: top-level fields first, then each struct's members
 * as one block (TDH's layout). Arrays are one property (their element). */
typedef struct plan {
    uint32_t field[1024]; /* decoded field index of each property */
    uint32_t start[1024], members[1024];
    uint32_t n;
} plan;

static int make_plan(const petw_decoded_event *ev, plan *p)
{
    p->n = 0;
    if (ev->top_count > 1024)
        return -1;
    for (uint32_t i = 0; i < ev->top_count; i++)
        p->field[p->n++] = i;
    for (uint32_t k = 0; k < p->n; k++) {
        const petw_field *f = &ev->fields[p->field[k]];
        if (f->kind == PETW_VALUE_ARRAY && f->in_type == PETW_IN_STRUCT)
            f = f->count ? &ev->fields[f->first] : NULL; /* members of element 0 */
        p->start[k] = p->members[k] = 0;
        if (f == NULL || f->kind != PETW_VALUE_STRUCT)
            continue;
        if (p->n + f->count > 1024)
            return -1;
        p->start[k] = p->n;
        p->members[k] = f->count;
        for (uint32_t m = 0; m < f->count; m++)
            p->field[p->n++] = f->first + m;
    }
    return 0;
}

/* Property k of the plan (field f) as TDH describes it: its count, a
 * struct's members, or its in-type, out-type and length. */
static void describe_property(const petw_field *f, const plan *p, uint32_t k,
                              EVENT_PROPERTY_INFO *pi)
{
    pi->count = 1;
    if (f->kind == PETW_VALUE_ARRAY) {
        pi->Flags |= PropertyParamFixedCount;
        pi->count = (USHORT)f->count;
    }
    if (f->in_type == PETW_IN_STRUCT) {
        pi->Flags |= PropertyStruct;
        pi->structType.StructStartIndex = (USHORT)p->start[k];
        pi->structType.NumOfStructMembers = (USHORT)p->members[k];
        return;
    }
    pi->nonStructType.InType = petw__tdh_in(f->in_type);
    pi->nonStructType.OutType = petw__tdh_out(f->out_type, f->in_type);
    if (f->kind == PETW_VALUE_BINARY) {
        pi->Flags |= PropertyParamFixedLength;
        pi->length = (USHORT)f->v.bin.size;
    } else {
        pi->length = petw__tdh_fixed_length(pi->nonStructType.InType);
    }
}

ULONG EVNTAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
                                     PTDH_CONTEXT TdhContext, PTRACE_EVENT_INFO Buffer,
                                     PULONG BufferSize)
{
    if (BufferSize == NULL || (Buffer == NULL && *BufferSize != 0) || Event == NULL)
        return ERROR_INVALID_PARAMETER;
    const petw__man_provider *pv;
    const petw__man_event *me = manifest_event(Event, petw__tdh_enter(), &pv);
    if (me) {
        ULONG rc = petw__tdh_manifest_info(pv, me, Buffer, BufferSize);
        petw__tdh_leave();
        return rc;
    }
    petw__tdh_leave();
    const petw_decoded_event *ev;
    ULONG rc = decode(Event, TdhContextCount, TdhContext, &ev);
    if (rc != ERROR_SUCCESS)
        return rc;
    static _Thread_local plan p;
    if (make_plan(ev, &p) != 0) {
        petw__tdh_leave();
        return ERROR_EVT_INVALID_EVENT_DATA;
    }
    /* Size: the fixed part, the property array, then the names. */
    size_t props = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
                   (p.n ? p.n : 1) * sizeof(EVENT_PROPERTY_INFO);
    size_t need = props;
    const char *pname = ev->provider_name, *ename = ev->event_name;
    /* A classic kernel record is described as TDH describes MOF classes:
     * the class as the task name, the event type as the opcode name. */
    int mof = (Event->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) != 0;
    const char *names[] = {pname,           ename,          ev->task_name,
                           ev->opcode_name, ev->level_name, ev->message};
    if (mof)
        names[2] = pname, names[3] = ename;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if (names[k])
            need += (petw__tdh_wide_len(names[k]) + 1) * sizeof(WCHAR);
    for (uint32_t k = 0; k < p.n; k++)
        need += (petw__tdh_wide_len(ev->fields[p.field[k]].name) + 1) * sizeof(WCHAR);
    if (need > 0xFFFFFFFFu || *BufferSize < need) {
        *BufferSize = (ULONG)need;
        petw__tdh_leave();
        return ERROR_INSUFFICIENT_BUFFER;
    }
    memset(Buffer, 0, need);
    uint8_t *base = (uint8_t *)Buffer;
    size_t at = props;
#define PUT_NAME(off, s)                                                                           \
    do {                                                                                           \
        size_t n_ = petw__tdh_wide_len(s) + 1;                                                     \
        petw__utf8_to_wcs((s), (WCHAR *)(base + at), n_);                                          \
        (off) = (ULONG)at;                                                                         \
        at += n_ * sizeof(WCHAR);                                                                  \
    } while (0)
    memcpy(&Buffer->ProviderGuid, &Event->EventHeader.ProviderId, sizeof(GUID));
    Buffer->EventDescriptor = Event->EventHeader.EventDescriptor;
    Buffer->DecodingSource = ev->wpp_type_name ? DecodingSourceWPP
                             : mof             ? DecodingSourceWbem
                             : ev->task_name || ev->opcode_name || ev->level_name || ev->message
                                 ? DecodingSourceXMLFile
                                 : DecodingSourceTlg;
    ULONG *const offsets[] = {&Buffer->ProviderNameOffset, &Buffer->EventNameOffset,
                              &Buffer->TaskNameOffset,     &Buffer->OpcodeNameOffset,
                              &Buffer->LevelNameOffset,    &Buffer->EventMessageOffset};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if (names[k])
            PUT_NAME(*offsets[k], names[k]);
    Buffer->PropertyCount = p.n;
    Buffer->TopLevelPropertyCount = ev->top_count;
    for (uint32_t k = 0; k < p.n; k++) {
        const petw_field *f = &ev->fields[p.field[k]];
        EVENT_PROPERTY_INFO *pi = &Buffer->EventPropertyInfoArray[k];
        PUT_NAME(pi->NameOffset, f->name);
        describe_property(f, &p, k, pi);
    }
#undef PUT_NAME
    *BufferSize = (ULONG)need;
    petw__tdh_leave();
    return ERROR_SUCCESS;
}

/* Finds the field a descriptor path names. */
static ULONG find(const petw_decoded_event *ev, ULONG count, PPROPERTY_DATA_DESCRIPTOR d,
                  const petw_field **out)
{
    if (count == 0 || d == NULL)
        return ERROR_INVALID_PARAMETER;
    uint32_t first = 0, n = ev->top_count;
    const petw_field *f = NULL;
    char name[256];
    for (ULONG level = 0; level < count; level++) {
        const WCHAR *w = (const WCHAR *)(uintptr_t)d[level].PropertyName;
        if (w == NULL)
            return ERROR_INVALID_PARAMETER;
        petw__wcs_to_utf8(w, name, sizeof(name));
        f = NULL;
        for (uint32_t i = first; i < first + n && !f; i++)
            if (!strcmp(ev->fields[i].name, name))
                f = &ev->fields[i];
        if (f == NULL)
            return ERROR_NOT_FOUND;
        if (d[level].ArrayIndex != 0xFFFFFFFFu && f->kind == PETW_VALUE_ARRAY) {
            if (d[level].ArrayIndex >= f->count)
                return ERROR_NOT_FOUND;
            f = &ev->fields[f->first + d[level].ArrayIndex];
        }
        if (level + 1 < count) {
            if (f->kind != PETW_VALUE_STRUCT)
                return ERROR_NOT_FOUND;
            first = f->first, n = f->count;
        }
    }
    *out = f;
    return ERROR_SUCCESS;
}

/* The properties TDH gives a WPP message besides its arguments (the names
 * Windows' TDH uses): text as WCHAR strings with their NUL (4 bytes a
 * character on Linux: TDH makes these, they are no payload), the message
 * GUID, the time. ProviderGuid (the control GUID) is not in a TMF file: all
 * zero; SequenceNum is not kept in the EVENT_RECORD: 0. *len: its bytes. */
static int wpp_property(PEVENT_RECORD e, const petw_decoded_event *ev, const char *name,
                        uint8_t *out, size_t cap, size_t *len)
{
    const struct {
        const char *name, *value;
    } text[] = {
        {"FormattedString", ev->message},     {"GuidName", ev->provider_name},
        {"GuidTypeName", ev->wpp_type_name},  {"FunctionName", ev->wpp_function},
        {"FlagsName", ev->wpp_flags},         {"LevelName", ev->level_name},
        {"ComponentName", ev->wpp_component}, {"SubComponentName", ev->wpp_subcomponent},
    };
    for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
        if (strcmp(name, text[i].name))
            continue;
        const char *v = text[i].value ? text[i].value : "";
        size_t n = petw__tdh_wide_len(v) + 1;
        *len = n * sizeof(WCHAR);
        if (out && cap >= *len)
            petw__utf8_to_wcs(v, (WCHAR *)(void *)out, n);
        return 1;
    }
    uint8_t v[16];
    memset(v, 0, sizeof(v));
    if (!strcmp(name, "TraceGuid")) {
        memcpy(v, &e->EventHeader.ProviderId, 16);
        *len = 16;
    } else if (!strcmp(name, "ProviderGuid")) {
        *len = 16;
    } else if (!strcmp(name, "SequenceNum")) {
        *len = 4;
    } else if (!strcmp(name, "RawSystemTime")) {
        memcpy(v, &e->EventHeader.TimeStamp, 8);
        *len = 8;
    } else if (!strcmp(name, "SystemTime")) {
        FILETIME ft;
        SYSTEMTIME st;
        ft.dwLowDateTime = (DWORD)e->EventHeader.TimeStamp.QuadPart;
        ft.dwHighDateTime = (DWORD)((uint64_t)e->EventHeader.TimeStamp.QuadPart >> 32);
        if (!FileTimeToSystemTime(&ft, &st))
            memset(&st, 0, sizeof(st));
        memcpy(v, &st, sizeof(st));
        *len = sizeof(st);
    } else {
        return 0;
    }
    if (out && cap >= *len)
        memcpy(out, v, *len);
    return 1;
}

/* Whether field f is UTF-16 text in the payload. */
static int is_text(const petw_field *f)
{
    return f->kind == PETW_VALUE_STRING &&
           (f->in_type == PETW_IN_UNICODESTRING || f->in_type == PETW_IN_COUNTEDSTRING);
}

/* Converts `units` UTF-16LE code units at p to WCHARs at `out` (NULL: only
 * counts them); returns how many. A surrogate pair becomes one character,
 * a lone surrogate U+FFFD. Only where WCHAR is 4 bytes. */
static size_t utf16_to_wchars(const uint8_t *p, size_t units, uint8_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < units; i++, n++) {
        uint32_t c = petw__rd16(p + 2 * i);
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < units && petw__rd16(p + 2 * i + 2) >= 0xDC00 &&
            petw__rd16(p + 2 * i + 2) < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (petw__rd16(p + 2 * i + 2) - 0xDC00u);
            i++;
        } else if (c >= 0xD800 && c < 0xE000) {
            c = 0xFFFD;
        }
        if (out) {
            WCHAR w = (WCHAR)c;
            memcpy(out + n * sizeof(WCHAR), &w, sizeof(w));
        }
    }
    return n;
}

/* A text property's value as TdhGetProperty gives it (`data`: its bytes in
 * the payload; `out` NULL: only the size), in bytes. Windows gives the
 * payload's UTF-16 as it is, which is its WCHAR text; where WCHAR is 4
 * bytes (Linux) the text is converted, so that a consumer casting the
 * buffer to PWSTR reads it as on Windows: a UNICODESTRING is its WCHARs
 * with one NUL (added when the payload has none, a string of fixed length,
 * so the buffer always ends one); a COUNTEDSTRING is one WCHAR holding the
 * text's size in bytes (its low 16 bits where Windows has the u16 byte
 * count), then the text and a NUL. */
static size_t text_value(const petw_field *f, const uint8_t *data, uint8_t *out)
{
    if (sizeof(WCHAR) == 2) { /* Windows: already WCHAR text */
        if (out)
            memcpy(out, data, f->data_size);
        return f->data_size;
    }
    size_t head = 0, units = f->data_size / 2;
    if (f->in_type == PETW_IN_COUNTEDSTRING) {
        head = sizeof(WCHAR);
        data += 2;
        units = (f->data_size - 2) / 2;
    }
    size_t n = utf16_to_wchars(data, units, out ? out + head : NULL);
    size_t text = n;
    if (units == 0 || petw__rd16(data + 2 * (units - 1)) != 0) {
        if (out)
            memset(out + head + n * sizeof(WCHAR), 0, sizeof(WCHAR));
        n++;
    }
    if (head && out) {
        WCHAR bytes = (WCHAR)(text * sizeof(WCHAR));
        memcpy(out, &bytes, sizeof(bytes));
    }
    return head + n * sizeof(WCHAR);
}

/* The value TdhGetProperty gives for field f (`out` NULL: only its size):
 * text as WCHAR strings (an array of them one after the other), anything
 * else the payload's bytes. */
static size_t property_value(const petw_decoded_event *ev, const petw_field *f,
                             const uint8_t *user_data, uint8_t *out)
{
    if (is_text(f))
        return text_value(f, user_data + f->data_offset, out);
    if (f->kind == PETW_VALUE_ARRAY && f->count && is_text(&ev->fields[f->first])) {
        size_t at = 0;
        for (uint32_t k = 0; k < f->count; k++) {
            const petw_field *e = &ev->fields[f->first + k];
            at += text_value(e, user_data + e->data_offset, out ? out + at : NULL);
        }
        return at;
    }
    if (out)
        memcpy(out, user_data + f->data_offset, f->data_size);
    return f->data_size;
}

static ULONG property(PEVENT_RECORD Event, ULONG tdh_count, const TDH_CONTEXT *tdh, ULONG count,
                      PPROPERTY_DATA_DESCRIPTOR d, ULONG *size, ULONG cap, PBYTE buf)
{
    const petw_decoded_event *ev;
    ULONG rc = decode(Event, tdh_count, tdh, &ev);
    if (rc != ERROR_SUCCESS)
        return rc;
    const petw_field *f;
    rc = find(ev, count, d, &f);
    size_t wlen = 0;
    char name[256];
    if (rc == ERROR_NOT_FOUND && ev->wpp_type_name && count == 1) {
        petw__wcs_to_utf8((const WCHAR *)(uintptr_t)d[0].PropertyName, name, sizeof(name));
        if (wpp_property(Event, ev, name, buf, cap, &wlen)) {
            if (size)
                *size = (ULONG)wlen;
            rc = buf && cap < wlen ? ERROR_INSUFFICIENT_BUFFER : ERROR_SUCCESS;
            petw__tdh_leave();
            return rc;
        }
    }
    if (rc == ERROR_SUCCESS) {
        const uint8_t *user_data = (const uint8_t *)Event->UserData;
        size_t need = property_value(ev, f, user_data, NULL);
        if (need > 0xFFFFFFFFu)
            rc = ERROR_EVT_INVALID_EVENT_DATA;
        else if (size)
            *size = (ULONG)need;
        if (rc == ERROR_SUCCESS && buf) {
            if (cap < need)
                rc = ERROR_INSUFFICIENT_BUFFER;
            else
                property_value(ev, f, user_data, buf);
        }
    }
    petw__tdh_leave();
    return rc;
}

ULONG EVNTAPI TdhGetPropertySize(PEVENT_RECORD Event, ULONG TdhContextCount,
                                 PTDH_CONTEXT TdhContext, ULONG PropertyDataCount,
                                 PPROPERTY_DATA_DESCRIPTOR PropertyData, ULONG *PropertySize)
{
    if (PropertySize == NULL)
        return ERROR_INVALID_PARAMETER;
    return property(Event, TdhContextCount, TdhContext, PropertyDataCount, PropertyData,
                    PropertySize, 0, NULL);
}

ULONG EVNTAPI TdhGetProperty(PEVENT_RECORD Event, ULONG TdhContextCount, PTDH_CONTEXT TdhContext,
                             ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR PropertyData,
                             ULONG BufferSize, PBYTE Buffer)
{
    if (Buffer == NULL)
        return ERROR_INVALID_PARAMETER;
    return property(Event, TdhContextCount, TdhContext, PropertyDataCount, PropertyData, NULL,
                    BufferSize, Buffer);
}

static void utf16_text(const uint8_t *p, size_t units, char *out, size_t cap)
{
    petw__utf16le_to_utf8(p, units, out, cap);
}

/* Bytes of a number's TDH in-type (integers, floats, booleans, FILETIME
 * and pointers), 0 for the others. */
static size_t tdh_width(USHORT in_type, ULONG pointer_size)
{
    if (in_type == TDH_INTYPE_POINTER)
        return pointer_size == 4 ? 4 : 8;
    if (in_type == TDH_INTYPE_GUID || in_type == TDH_INTYPE_SYSTEMTIME)
        return 0; /* fixed, but not numbers: format_other's */
    return petw__tdh_fixed_length(in_type);
}

/* A FILETIME (100 ns units since 1601, UTC) as ISO 8601 with its seven
 * fraction digits: the proleptic Gregorian date from the day count
 * (H. Hinnant's civil_from_days, with days counted from 0000-03-01). */
static void filetime_text(uint64_t ft, char *text, size_t size)
{
    uint64_t secs = ft / 10000000u, frac = ft % 10000000u;
    int64_t days = (int64_t)(secs / 86400u) + 584694; /* 1601-01-01 from 0000-03-01 */
    uint32_t tod = (uint32_t)(secs % 86400u);
    int64_t era = days / 146097, doe = days - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
    int64_t year = yoe + era * 400 + (month <= 2);
    snprintf(text, size, "%04" PRId64 "-%02" PRId64 "-%02" PRId64 "T%02u:%02u:%02u.%07" PRIu64 "Z",
             year, month, day, tod / 3600, tod / 60 % 60, tod % 60, frac);
}

/* A fixed-size number of `width` bytes at `p`, as its out-type says. */
static void format_number(USHORT in_type, USHORT out_type, const uint8_t *p, size_t width,
                          char *text, size_t size)
{
    uint64_t u = 0;
    for (size_t i = 0; i < width; i++)
        u |= (uint64_t)p[i] << (8 * i);
    int hex = in_type == TDH_INTYPE_HEXINT32 || in_type == TDH_INTYPE_HEXINT64 ||
              in_type == TDH_INTYPE_POINTER ||
              (out_type >= TDH_OUTTYPE_HEXINT8 && out_type <= TDH_OUTTYPE_HEXINT64) ||
              out_type == TDH_OUTTYPE_WIN32ERROR || out_type == TDH_OUTTYPE_NTSTATUS ||
              out_type == TDH_OUTTYPE_HRESULT;
    int is_signed = in_type == TDH_INTYPE_INT8 || in_type == TDH_INTYPE_INT16 ||
                    in_type == TDH_INTYPE_INT32 || in_type == TDH_INTYPE_INT64;
    if (in_type == TDH_INTYPE_FLOAT) {
        float f;
        memcpy(&f, p, 4);
        snprintf(text, size, "%.9g", f);
    } else if (in_type == TDH_INTYPE_DOUBLE) {
        double f;
        memcpy(&f, p, 8);
        snprintf(text, size, "%.17g", f);
    } else if (in_type == TDH_INTYPE_BOOLEAN || out_type == TDH_OUTTYPE_BOOLEAN) {
        snprintf(text, size, "%s", u ? "true" : "false");
    } else if (out_type == TDH_OUTTYPE_STRING && width <= 2) {
        uint8_t unit[2] = {(uint8_t)u, (uint8_t)(u >> 8)};
        if (width == 1)
            snprintf(text, size, "%c", (char)u);
        else
            utf16_text(unit, 1, text, size);
    } else if (in_type == TDH_INTYPE_FILETIME) {
        filetime_text(u, text, size);
    } else if (out_type == TDH_OUTTYPE_IPV4 && width == 4) {
        snprintf(text, size, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]); /* network order */
    } else if (hex) {
        snprintf(text, size, "0x%" PRIX64, u);
    } else if (is_signed) {
        int64_t v = width == 1   ? (int8_t)u
                    : width == 2 ? (int16_t)u
                    : width == 4 ? (int32_t)u
                                 : (int64_t)u;
        snprintf(text, size, "%" PRId64, v);
    } else {
        snprintf(text, size, "%" PRIu64, u);
    }
}

/* A SID at `p` (n bytes) as ConvertSidToStringSid writes it. */
static ULONG sid_text(const uint8_t *p, size_t n, char *text, size_t size, size_t *used)
{
    int bytes = petw__sid_text(p, n, text, size);
    if (bytes < 0)
        return ERROR_EVT_INVALID_EVENT_DATA;
    *used = (size_t)bytes;
    return ERROR_SUCCESS;
}

/* Strings, GUIDs, SYSTEMTIMEs, SIDs and binary: the text and the bytes
 * used. */
static ULONG format_other(USHORT in_type, USHORT out_type, ULONG pointer_size, const uint8_t *p,
                          size_t n, USHORT property_length, char *text, size_t size, size_t *used)
{
    if (in_type == TDH_INTYPE_UNICODESTRING || in_type == TDH_INTYPE_ANSISTRING) {
        size_t unit = in_type == TDH_INTYPE_UNICODESTRING ? 2 : 1, i = 0;
        while (i + unit <= n && (unit == 1 ? p[i] : petw__rd16(p + i)) != 0)
            i += unit;
        if (i + unit > n)
            return ERROR_EVT_INVALID_EVENT_DATA;
        *used = i + unit;
        if (unit == 2)
            utf16_text(p, i / 2, text, size);
        else
            snprintf(text, size, "%.*s", (int)i, (const char *)p);
    } else if (in_type == TDH_INTYPE_COUNTEDSTRING || in_type == TDH_INTYPE_COUNTEDANSISTRING) {
        if (n < 2 || n < 2u + petw__rd16(p))
            return ERROR_EVT_INVALID_EVENT_DATA;
        size_t bytes = petw__rd16(p);
        *used = 2 + bytes;
        if (in_type == TDH_INTYPE_COUNTEDSTRING)
            utf16_text(p + 2, bytes / 2, text, size);
        else
            snprintf(text, size, "%.*s", (int)bytes, (const char *)p + 2);
    } else if (in_type == TDH_INTYPE_GUID) {
        if (n < 16)
            return ERROR_EVT_INVALID_EVENT_DATA;
        petw_guid g;
        petw__rd_guid(p, &g);
        char s[37];
        petw_guid_format(&g, s);
        for (char *c = s; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'f' ? *c - 32 : *c);
        snprintf(text, size, "{%s}", s);
        *used = 16;
    } else if (in_type == TDH_INTYPE_SYSTEMTIME) {
        if (n < 16)
            return ERROR_EVT_INVALID_EVENT_DATA;
        snprintf(text, size, "%04u-%02u-%02uT%02u:%02u:%02u.%03u", petw__rd16(p), petw__rd16(p + 2),
                 petw__rd16(p + 6), petw__rd16(p + 8), petw__rd16(p + 10), petw__rd16(p + 12),
                 petw__rd16(p + 14));
        *used = 16;
    } else if (in_type == TDH_INTYPE_SID) {
        return sid_text(p, n, text, size, used);
    } else if (in_type == TDH_INTYPE_WBEMSID) {
        /* A TOKEN_USER (a pointer, then its attributes padded to a pointer)
         * before the SID; a NULL pointer alone (4 zero bytes) for none. */
        size_t token = 2 * (size_t)(pointer_size == 4 ? 4 : 8);
        if (n < 4)
            return ERROR_EVT_INVALID_EVENT_DATA;
        if (petw__rd32(p) == 0) {
            text[0] = 0;
            *used = 4;
            return ERROR_SUCCESS;
        }
        if (n < token)
            return ERROR_EVT_INVALID_EVENT_DATA;
        ULONG rc = sid_text(p + token, n - token, text, size, used);
        *used += token;
        return rc;
    } else if (in_type == TDH_INTYPE_BINARY && out_type == TDH_OUTTYPE_IPV6 &&
               (property_length == 16 || property_length == 0)) {
        if (n < 16)
            return ERROR_EVT_INVALID_EVENT_DATA;
        petw__ipv6_text(p, text, size);
        *used = 16;
    } else if (in_type == TDH_INTYPE_BINARY) {
        if (n < property_length)
            return ERROR_EVT_INVALID_EVENT_DATA;
        size_t k = (size_t)snprintf(text, size, "0x");
        for (size_t i = 0; i < property_length; i++)
            k += (size_t)snprintf(text + k, size - k, "%02X", p[i]);
        *used = property_length;
    } else {
        return ERROR_INVALID_PARAMETER;
    }
    return ERROR_SUCCESS;
}

/* An integer's text by a value map (the entry equal to it) or a bitmap
 * (the entries of its set bits, joined by " | "); 0 when none matches. */
static int map_text(const EVENT_MAP_INFO *m, const uint8_t *p, size_t width, char *text,
                    size_t size)
{
    uint64_t u = 0;
    for (size_t i = 0; i < width && i < 8; i++)
        u |= (uint64_t)p[i] << (8 * i);
    int bitmap =
        (m->Flag & (EVENTMAP_INFO_FLAG_MANIFEST_BITMAP | EVENTMAP_INFO_FLAG_WBEM_BITMAP)) != 0;
    size_t at = 0;
    int found = 0;
    text[0] = 0;
    for (ULONG i = 0; i < m->EntryCount; i++) {
        const EVENT_MAP_ENTRY *e = &m->MapEntryArray[i];
        int match = bitmap ? e->Value != 0 && (u & e->Value) == e->Value : e->Value == u;
        if (!match || !e->OutputOffset || at + 4 >= size)
            continue;
        if (found++)
            at += (size_t)snprintf(text + at, size - at, " | ");
        at += petw__wcs_to_utf8((const WCHAR *)((const BYTE *)m + e->OutputOffset), text + at,
                                size - at);
        if (!bitmap)
            break;
    }
    return found;
}

ULONG EVNTAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
                                ULONG PointerSize, USHORT InType, USHORT OutType,
                                USHORT PropertyLength, USHORT UserDataLength, PBYTE UserData,
                                PULONG BufferSize, PWCHAR Buffer, PUSHORT UserDataConsumed)
{
    (void)EventInfo;
    if (BufferSize == NULL || UserDataConsumed == NULL || (UserData == NULL && UserDataLength))
        return ERROR_INVALID_PARAMETER;
    static _Thread_local char text[65536 * 3 + 64];
    size_t used = 0, width = tdh_width(InType, PointerSize);
    if (width) {
        if (UserDataLength < width)
            return ERROR_EVT_INVALID_EVENT_DATA;
        if (!MapInfo || !map_text(MapInfo, UserData, width, text, sizeof(text)))
            format_number(InType, OutType, UserData, width, text, sizeof(text));
        used = width;
    } else {
        ULONG rc = format_other(InType, OutType, PointerSize, UserData, UserDataLength,
                                PropertyLength, text, sizeof(text), &used);
        if (rc != ERROR_SUCCESS)
            return rc;
    }
    size_t chars = petw__tdh_wide_len(text) + 1;
    if (Buffer == NULL || *BufferSize < chars * sizeof(WCHAR)) {
        *BufferSize = (ULONG)(chars * sizeof(WCHAR));
        return ERROR_INSUFFICIENT_BUFFER;
    }
    petw__utf8_to_wcs(text, Buffer, chars);
    *BufferSize = (ULONG)(chars * sizeof(WCHAR));
    *UserDataConsumed = (USHORT)used;
    return ERROR_SUCCESS;
}
