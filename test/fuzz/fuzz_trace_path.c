/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the whole reading path an ETW consumer takes, on a real
 * file. Each input is written to a temporary file (one per process), opened
 * with OpenTraceA or OpenTraceW (EVENT_TRACE_LOGFILE.LogFileName, in
 * PROCESS_TRACE_MODE_EVENT_RECORD), processed with ProcessTrace and closed
 * with CloseTrace. For every event the callback
 * - touches every byte the record claims (user data, extended items);
 * - decodes it with the native decoder (petw_decode) and checks every field
 *   lies inside the payload;
 * - writes it with the `petw dump` JSON and CSV writers (tools/output/) into
 *   memory and checks the JSON line is valid JSON in valid UTF-8, and the
 *   CSV row is one well-formed RFC 4180 record of the header's 16 fields;
 * - asks TDH for its schema (TdhGetEventInformation), checks every offset
 *   in it, then for each top-level property (each array element and struct
 *   member too) TdhGetPropertySize, TdhGetProperty into a buffer of exactly
 *   that size, and TdhFormatProperty over those bytes; and walks UserData
 *   with TdhFormatProperty as Microsoft's sample does.
 * Results must agree: TDH finds a schema exactly when the decoder does.
 * Only the first MAX_DEEP_EVENTS events of an input get the expensive
 * checks (a 4096x-expanding buffer may hold 200,000 events); the others are
 * still read and touched. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <evntcons.h>
#include <evntrace.h>
#include <tdh.h>

#include <petw/petw.h>

#include "output/output.h"

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

#define MAX_DEEP_EVENTS 4096
#define MAX_ELEMENTS 16 /* array elements and struct members looked up by path */

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz_trace_path.c:%d: check failed: %s\n", __LINE__, #c);             \
            __builtin_trap();                                                                      \
        }                                                                                          \
    } while (0)

/* ---- the temporary file ---- */

static char path[1024];
static WCHAR wpath[1024];
#if !defined(_WIN32)
static int path_fd = -1;
#endif

static void remove_path(void)
{
    if (path[0])
        remove(path);
}

static int make_path(void)
{
    if (path[0])
        return 0;
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
#if defined(_WIN32)
    char *name = _tempnam(NULL, "petwfz");
    if (!name)
        return -1;
    snprintf(path, sizeof(path), "%s.etl", name);
    free(name);
#else
    snprintf(path, sizeof(path), "%s/petw-fuzz-trace-XXXXXX", dir);
    path_fd = mkstemp(path);
    if (path_fd < 0) {
        path[0] = 0;
        return -1;
    }
#endif
    for (size_t i = 0; i <= strlen(path); i++)
        wpath[i] = (WCHAR)(unsigned char)path[i];
    atexit(remove_path);
    return 0;
}

/* The file holds exactly the input. */
static int write_input(const uint8_t *data, size_t size)
{
#if defined(_WIN32)
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && put == size ? 0 : -1;
#else
    if (ftruncate(path_fd, 0) != 0)
        return -1;
    size_t put = 0;
    while (put < size) {
        ssize_t n = pwrite(path_fd, data + put, size - put, (off_t)put);
        if (n <= 0)
            return -1;
        put += (size_t)n;
    }
    return 0;
#endif
}

/* ---- validity of what the writers produce ---- */

/* Length of the well-formed UTF-8 sequence at s[0..n) (s[0] >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if (s[i] < lo || s[i] > hi)
            return 0;
        lo = 0x80, hi = 0xBF;
    }
    return len;
}

static int valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = utf8_seq(s + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

/* A strict JSON parser (RFC 8259) that only says yes or no. */
typedef struct json_in {
    const unsigned char *p, *end;
} json_in;

static void j_ws(json_in *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
        j->p++;
}

static int j_lit(json_in *j, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n) != 0)
        return 0;
    j->p += n;
    return 1;
}

static int hexdigit(unsigned c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int j_string(json_in *j)
{
    if (j->p >= j->end || *j->p != '"')
        return 0;
    j->p++;
    while (j->p < j->end) {
        unsigned c = *j->p;
        if (c == '"') {
            j->p++;
            return 1;
        }
        if (c < 0x20)
            return 0; /* a raw control character inside a string */
        if (c == '\\') {
            if (j->end - j->p < 2)
                return 0;
            unsigned e = j->p[1];
            if (e == 'u') {
                if (j->end - j->p < 6 || !hexdigit(j->p[2]) || !hexdigit(j->p[3]) ||
                    !hexdigit(j->p[4]) || !hexdigit(j->p[5]))
                    return 0;
                j->p += 6;
            } else if (strchr("\"\\/bfnrt", (int)e) && e) {
                j->p += 2;
            } else {
                return 0;
            }
            continue;
        }
        if (c >= 0x80) {
            size_t k = utf8_seq(j->p, (size_t)(j->end - j->p));
            if (!k)
                return 0;
            j->p += k;
            continue;
        }
        j->p++;
    }
    return 0;
}

static int j_number(json_in *j)
{
    const unsigned char *s = j->p;
    if (j->p < j->end && *j->p == '-')
        j->p++;
    if (j->p >= j->end)
        return 0;
    if (*j->p == '0') {
        j->p++;
    } else if (*j->p >= '1' && *j->p <= '9') {
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    } else {
        return 0;
    }
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9')
            return 0;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9')
            return 0;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    return j->p > s;
}

static int j_value(json_in *j, int depth)
{
    if (depth > 200)
        return 0;
    j_ws(j);
    if (j->p >= j->end)
        return 0;
    switch (*j->p) {
    case '{':
        j->p++;
        j_ws(j);
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            return 1;
        }
        for (;;) {
            j_ws(j);
            if (!j_string(j))
                return 0;
            j_ws(j);
            if (j->p >= j->end || *j->p++ != ':')
                return 0;
            if (!j_value(j, depth + 1))
                return 0;
            j_ws(j);
            if (j->p >= j->end)
                return 0;
            if (*j->p == '}') {
                j->p++;
                return 1;
            }
            if (*j->p++ != ',')
                return 0;
        }
    case '[':
        j->p++;
        j_ws(j);
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            return 1;
        }
        for (;;) {
            if (!j_value(j, depth + 1))
                return 0;
            j_ws(j);
            if (j->p >= j->end)
                return 0;
            if (*j->p == ']') {
                j->p++;
                return 1;
            }
            if (*j->p++ != ',')
                return 0;
        }
    case '"':
        return j_string(j);
    case 't':
        return j_lit(j, "true");
    case 'f':
        return j_lit(j, "false");
    case 'n':
        return j_lit(j, "null");
    default:
        return j_number(j);
    }
}

/* One JSON object on one line, ending with its newline. */
static void check_json_line(const char *s, size_t n)
{
    CHECK(n >= 2 && s[n - 1] == '\n');
    CHECK(memchr(s, '\n', n - 1) == NULL); /* one record, one line */
    CHECK(valid_utf8((const unsigned char *)s, n));
    json_in j = {(const unsigned char *)s, (const unsigned char *)s + n - 1};
    j_ws(&j);
    CHECK(j.p < j.end && *j.p == '{');
    CHECK(j_value(&j, 0));
    CHECK(j.p == j.end);
}

/* Fields of one RFC 4180 record at s[0..n) ending in '\n', or -1. */
static long csv_fields(const char *s, size_t n, size_t *consumed)
{
    size_t i = 0;
    long fields = 1;
    for (;;) {
        if (i < n && s[i] == '"') { /* quoted: "" inside, then , or newline */
            i++;
            for (;;) {
                if (i >= n)
                    return -1;
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"') {
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                i++;
            }
        } else {
            while (i < n && s[i] != ',' && s[i] != '\n') {
                if (s[i] == '"' || s[i] == '\r')
                    return -1;
                i++;
            }
        }
        if (i >= n)
            return -1;
        if (s[i] == '\n') {
            *consumed = i + 1;
            return fields;
        }
        if (s[i] != ',')
            return -1;
        i++;
        fields++;
    }
}

/* The header row and one record of as many fields. */
static void check_csv(const char *s, size_t n)
{
    size_t used = 0, used2 = 0;
    CHECK(valid_utf8((const unsigned char *)s, n));
    long header = csv_fields(s, n, &used);
    CHECK(header == 18);
    long row = csv_fields(s + used, n - used, &used2);
    CHECK(row == header);
    CHECK(used + used2 == n);
}

/* Writes `r` with `format` into memory; `check` sees the bytes. */
static void write_with(const output_format *format, PEVENT_RECORD r, const petw_decoded_event *ev,
                       void (*check)(const char *, size_t))
{
    char *buf = NULL;
    size_t len = 0;
#if defined(_WIN32)
    FILE *f = tmpfile();
#else
    FILE *f = open_memstream(&buf, &len);
#endif
    if (!f)
        return;
    output o;
    int rc = output_begin(&o, format, f);
    if (rc == 0) {
        output_event(&o, (const petw_event_record *)r, ev);
        rc = output_end(&o);
    }
#if defined(_WIN32)
    if (rc == 0) {
        long n = ftell(f);
        buf = n > 0 ? malloc((size_t)n) : NULL;
        rewind(f);
        len = buf ? fread(buf, 1, (size_t)n, f) : 0;
    }
#endif
    fclose(f);
    if (rc == 0)
        check(buf ? buf : "", len);
    free(buf);
}

/* ---- the native decoder ---- */

static const petw_decoded_event *decoded;
static uint32_t payload_size;

static void touch_field(const petw_decoded_event *ev, const petw_field *f, int depth)
{
    volatile uint8_t sink = 0;
    CHECK(depth <= 64);
    if (f->name)
        sink ^= (uint8_t)f->name[strlen(f->name) ? strlen(f->name) - 1 : 0];
    CHECK((uint64_t)f->data_offset + f->data_size <= payload_size);
    if (f->kind == PETW_VALUE_STRING)
        sink ^= (uint8_t)f->v.s[strlen(f->v.s) ? strlen(f->v.s) - 1 : 0];
    if (f->kind == PETW_VALUE_BINARY)
        for (uint32_t i = 0; i < f->v.bin.size; i++)
            sink ^= f->v.bin.data[i];
    if (f->kind == PETW_VALUE_STRUCT || f->kind == PETW_VALUE_ARRAY) {
        CHECK((uint64_t)f->first + f->count <= ev->field_count);
        for (uint32_t i = 0; i < f->count; i++)
            touch_field(ev, &ev->fields[f->first + i], depth + 1);
    }
    (void)sink;
}

/* ---- TDH ---- */

typedef struct tdh_view {
    PTRACE_EVENT_INFO info;
    ULONG size;
    ULONG pointer_size;
} tdh_view;

/* A name at `off` lies in the buffer, after the property array, with its
 * NUL. 0 means none. */
static const WCHAR *name_at(const tdh_view *v, ULONG off, size_t names_start)
{
    if (off == 0)
        return NULL;
    CHECK(off >= names_start && off < v->size && off % sizeof(WCHAR) == 0);
    size_t room = (v->size - off) / sizeof(WCHAR);
    const WCHAR *w = (const WCHAR *)((const BYTE *)v->info + off);
    CHECK(wcsnlen(w, room) < room);
    return w;
}

/* Formats `n` bytes of `in_type` (copied to exactly `n` bytes, so ASan
 * sees any over-read) through both of TdhFormatProperty's buffer paths.
 * Returns the bytes consumed, or -1. */
static long format_value(const tdh_view *v, USHORT in_type, USHORT out_type, USHORT length,
                         const BYTE *bytes, size_t n)
{
    if (n > 65535)
        n = 65535;
    BYTE *copy = malloc(n ? n : 1);
    if (!copy)
        return -1;
    if (n)
        memcpy(copy, bytes, n);
    WCHAR small[2];
    ULONG tsize = sizeof(small);
    USHORT consumed = 0;
    ULONG rc = TdhFormatProperty(v->info, NULL, v->pointer_size, in_type, out_type, length,
                                 (USHORT)n, copy, &tsize, small, &consumed);
    long result = -1;
    if (rc == ERROR_SUCCESS) {
        CHECK(consumed <= n);
        CHECK(wcsnlen(small, 2) < 2);
        result = consumed;
    } else if (rc == ERROR_INSUFFICIENT_BUFFER) {
        CHECK(tsize > sizeof(small) && tsize % sizeof(WCHAR) == 0);
        WCHAR *text = malloc(tsize);
        if (text) {
            ULONG tsize2 = tsize;
            consumed = 0;
            rc = TdhFormatProperty(v->info, NULL, v->pointer_size, in_type, out_type, length,
                                   (USHORT)n, copy, &tsize2, text, &consumed);
            CHECK(rc == ERROR_SUCCESS);
            CHECK(tsize2 == tsize);
            CHECK(consumed <= n);
            CHECK(wcsnlen(text, tsize / sizeof(WCHAR)) == tsize / sizeof(WCHAR) - 1);
            result = consumed;
            free(text);
        }
    } else {
        CHECK(rc == ERROR_EVT_INVALID_EVENT_DATA || rc == ERROR_INVALID_PARAMETER);
    }
    free(copy);
    return result;
}

/* TdhGetPropertySize and TdhGetProperty for one descriptor path; the bytes
 * are formatted when `p` is a single value or an array (its first element). */
static void get_property(const tdh_view *v, PEVENT_RECORD r, PROPERTY_DATA_DESCRIPTOR *d,
                         ULONG depth, const EVENT_PROPERTY_INFO *p)
{
    ULONG ps = 0;
    ULONG rc = TdhGetPropertySize(r, 0, NULL, depth, d, &ps);
    if (rc != ERROR_SUCCESS) {
        CHECK(rc == ERROR_NOT_FOUND || rc == ERROR_EVT_INVALID_EVENT_DATA ||
              rc == ERROR_NOT_ENOUGH_MEMORY);
        return;
    }
    /* UTF-16 text comes out as WCHAR strings (4-byte units where WCHAR is
     * 4 bytes): a unit for each 2 payload bytes at most, and a NUL (and for
     * counted strings a length) for each of at most 65,535 elements. Other
     * values are payload bytes. */
    int text =
        !(p->Flags & PropertyStruct) && (p->nonStructType.InType == TDH_INTYPE_UNICODESTRING ||
                                         p->nonStructType.InType == TDH_INTYPE_COUNTEDSTRING);
    CHECK(text ? ps <= 2 * (uint64_t)r->UserDataLength + 8u * 65536u : ps <= r->UserDataLength);
    BYTE *buf = malloc(ps ? ps : 1);
    if (!buf)
        return;
    if (ps)
        CHECK(TdhGetProperty(r, 0, NULL, depth, d, ps - 1, buf) == ERROR_INSUFFICIENT_BUFFER);
    CHECK(TdhGetProperty(r, 0, NULL, depth, d, ps, buf) == ERROR_SUCCESS);
    if (!(p->Flags & PropertyStruct))
        format_value(v, p->nonStructType.InType, p->nonStructType.OutType,
                     (p->Flags & PropertyParamFixedLength) ? p->length : 0, buf, ps);
    free(buf);
}

static void tdh_event(PEVENT_RECORD r, int decode_rc)
{
    ULONG size = 0;
    ULONG rc = TdhGetEventInformation(r, 0, NULL, NULL, &size);
    /* The decoder (with its schema cache) and TDH (a fresh decoder each
     * call) must agree on whether the event has a schema. */
    if (decode_rc == PETW_ECORRUPT)
        CHECK(rc == ERROR_EVT_INVALID_EVENT_DATA);
    if (decode_rc == 0 && !decoded->has_schema)
        CHECK(rc == ERROR_NOT_FOUND);
    if (decode_rc == 0 && decoded->has_schema)
        CHECK(rc == ERROR_INSUFFICIENT_BUFFER || rc == ERROR_EVT_INVALID_EVENT_DATA);
    if (rc != ERROR_INSUFFICIENT_BUFFER)
        return;
    size_t props = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray);
    CHECK(size >= props + sizeof(EVENT_PROPERTY_INFO));
    tdh_view v = {malloc(size), size,
                  (r->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4u : 8u};
    if (!v.info)
        return;
    ULONG small = size - 1;
    CHECK(TdhGetEventInformation(r, 0, NULL, v.info, &small) == ERROR_INSUFFICIENT_BUFFER);
    ULONG got = size;
    CHECK(TdhGetEventInformation(r, 0, NULL, v.info, &got) == ERROR_SUCCESS);
    CHECK(got == size);
    PTRACE_EVENT_INFO info = v.info;
    CHECK(info->TopLevelPropertyCount <= info->PropertyCount);
    size_t names =
        props + (info->PropertyCount ? info->PropertyCount : 1) * sizeof(EVENT_PROPERTY_INFO);
    CHECK(names <= size);
    /* Classic kernel records come from the built-in MOF class table, the
     * rest from TraceLogging schemas (no manifest is given here). */
    CHECK(info->DecodingSource == ((r->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER)
                                       ? DecodingSourceWbem
                                       : DecodingSourceTlg));
    CHECK(!memcmp(&info->ProviderGuid, &r->EventHeader.ProviderId, sizeof(GUID)));
    name_at(&v, info->ProviderNameOffset, names);
    name_at(&v, info->EventNameOffset, names);
    name_at(&v, info->TaskNameOffset, names);
    name_at(&v, info->OpcodeNameOffset, names);
    name_at(&v, info->LevelNameOffset, names);
    name_at(&v, info->EventMessageOffset, names);
    EVENT_PROPERTY_INFO *pa = info->EventPropertyInfoArray;
    for (ULONG k = 0; k < info->PropertyCount; k++) {
        CHECK(name_at(&v, pa[k].NameOffset, names) != NULL);
        if (pa[k].Flags & PropertyStruct) {
            CHECK(pa[k].structType.StructStartIndex + (ULONG)pa[k].structType.NumOfStructMembers <=
                  info->PropertyCount);
            CHECK(pa[k].structType.NumOfStructMembers == 0 ||
                  pa[k].structType.StructStartIndex > k);
        }
    }

    /* Each top-level property by name; elements and members by path. */
    for (ULONG k = 0; k < info->TopLevelPropertyCount; k++) {
        EVENT_PROPERTY_INFO *p = &pa[k];
        PROPERTY_DATA_DESCRIPTOR d[2];
        memset(d, 0, sizeof(d));
        d[0].PropertyName = (ULONGLONG)(uintptr_t)name_at(&v, p->NameOffset, names);
        d[0].ArrayIndex = 0xFFFFFFFFu;
        get_property(&v, r, d, 1, p);
        if (p->Flags & PropertyParamFixedCount)
            for (ULONG i = 0; i < p->count && i < MAX_ELEMENTS; i++) {
                d[0].ArrayIndex = i;
                get_property(&v, r, d, 1, p);
            }
        if (p->Flags & PropertyStruct) {
            d[0].ArrayIndex = (p->Flags & PropertyParamFixedCount) && p->count ? 0 : 0xFFFFFFFFu;
            for (ULONG m = 0; m < p->structType.NumOfStructMembers && m < MAX_ELEMENTS; m++) {
                EVENT_PROPERTY_INFO *q = &pa[p->structType.StructStartIndex + m];
                d[1].PropertyName = (ULONGLONG)(uintptr_t)name_at(&v, q->NameOffset, names);
                d[1].ArrayIndex = 0xFFFFFFFFu;
                get_property(&v, r, d, 2, q);
            }
        }
    }

    /* UserData walked value by value, as Microsoft's TdhFormatProperty
     * sample does, until a struct or the first value that does not format. */
    const BYTE *data = r->UserData;
    size_t left = r->UserDataLength;
    for (ULONG k = 0; k < info->TopLevelPropertyCount; k++) {
        EVENT_PROPERTY_INFO *p = &pa[k];
        if (p->Flags & PropertyStruct)
            break;
        ULONG n = (p->Flags & PropertyParamFixedCount) ? p->count : 1;
        long used = 0;
        for (ULONG e = 0; e < n && e < MAX_ELEMENTS && used >= 0; e++) {
            used = format_value(&v, p->nonStructType.InType, p->nonStructType.OutType,
                                (p->Flags & PropertyParamFixedLength) ? p->length : 0, data, left);
            if (used >= 0) {
                data += used;
                left -= (size_t)used;
            }
        }
        if (used < 0)
            break;
    }
    free(v.info);
}

/* ---- the consumer ---- */

typedef struct run {
    petw_decoder *decoder;
    uint64_t events;
} run;

static VOID WINAPI on_event(PEVENT_RECORD r)
{
    run *ctx = r->UserContext;
    volatile uint8_t sink = 0;
    for (USHORT i = 0; i < r->UserDataLength; i++)
        sink ^= ((const uint8_t *)r->UserData)[i];
    for (USHORT k = 0; k < r->ExtendedDataCount; k++)
        for (USHORT i = 0; i < r->ExtendedData[k].DataSize; i++)
            sink ^= ((const uint8_t *)(uintptr_t)r->ExtendedData[k].DataPtr)[i];
    (void)sink;
    if (ctx->events++ >= MAX_DEEP_EVENTS || !ctx->decoder)
        return;

    const petw_event_record *rec = (const petw_event_record *)r;
    decoded = NULL;
    int rc = petw_decode(ctx->decoder, rec, &decoded);
    if (rc == 0) {
        payload_size = r->UserDataLength;
        if (decoded->provider_name)
            (void)strlen(decoded->provider_name);
        if (decoded->event_name)
            (void)strlen(decoded->event_name);
        CHECK(decoded->top_count <= decoded->field_count);
        for (uint32_t i = 0; i < decoded->top_count; i++)
            touch_field(decoded, &decoded->fields[i], 0);
    } else {
        CHECK(rc == PETW_ECORRUPT || rc == PETW_ENOMEM);
    }
    write_with(&output_json, r, rc == 0 ? decoded : NULL, check_json_line);
    write_with(&output_csv, r, rc == 0 ? decoded : NULL, check_csv);
    tdh_event(r, rc);
}

static ULONG WINAPI on_buffer_w(PEVENT_TRACE_LOGFILEW lf)
{
    (void)lf;
    return TRUE;
}

static ULONG WINAPI on_buffer_a(PEVENT_TRACE_LOGFILEA lf)
{
    (void)lf;
    return TRUE;
}

static void check_header(const TRACE_LOGFILE_HEADER *h)
{
    if (h->LoggerName)
        CHECK(wcsnlen(h->LoggerName, PETW_MAX_NAME) < PETW_MAX_NAME);
    if (h->LogFileName)
        CHECK(wcsnlen(h->LogFileName, PETW_MAX_NAME) < PETW_MAX_NAME);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (make_path() != 0 || write_input(data, size) != 0)
        return 0;
    run ctx = {NULL, 0};
    petw_decoder_new(&ctx.decoder); /* fresh each input: no state carried over */
    /* The input's length picks the API flavour and the clock mode, so every
     * input (and its minimization) runs the same way each time. */
    ULONG mode =
        PROCESS_TRACE_MODE_EVENT_RECORD | ((size & 2) ? PROCESS_TRACE_MODE_RAW_TIMESTAMP : 0);
    TRACEHANDLE h;
    EVENT_TRACE_LOGFILEW lw;
    EVENT_TRACE_LOGFILEA la;
    memset(&lw, 0, sizeof(lw));
    memset(&la, 0, sizeof(la));
    if (size & 1) {
        la.LogFileName = path;
        la.ProcessTraceMode = mode;
        la.EventRecordCallback = on_event;
        la.BufferCallback = on_buffer_a;
        la.Context = &ctx;
        h = OpenTraceA(&la);
        if (h != INVALID_PROCESSTRACE_HANDLE)
            check_header(&la.LogfileHeader);
    } else {
        lw.LogFileName = wpath;
        lw.ProcessTraceMode = mode;
        lw.EventRecordCallback = on_event;
        lw.BufferCallback = on_buffer_w;
        lw.Context = &ctx;
        h = OpenTraceW(&lw);
        if (h != INVALID_PROCESSTRACE_HANDLE)
            check_header(&lw.LogfileHeader);
    }
    if (h != INVALID_PROCESSTRACE_HANDLE) {
        ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
        CHECK(rc != ERROR_INVALID_PARAMETER && rc != ERROR_INVALID_HANDLE); /* not misuse */
        CHECK(CloseTrace(h) == ERROR_SUCCESS);
    } else {
        CHECK(size == 0 || GetLastError() != ERROR_SUCCESS);
    }
    petw_decoder_free(ctx.decoder);
    return 0;
}
