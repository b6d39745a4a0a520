/* SPDX-License-Identifier: MIT */
/* output_text.c - `petw dump --format text` (the default): one line per
 * record, the descriptor as key=value, then the decoded fields (values as
 * in JSON, but pointers unquoted and the trace header's time zone by its
 * members) or the payload as hex. */
#include <string.h>

#include "../tool.h"
#include "output.h"

static int text_begin(output *o)
{
    (void)o;
    return 0;
}

static void number(sbuf *b, const char *key, uint64_t v)
{
    sbuf_puts(b, key);
    sbuf_u64(b, v);
}

static int guid_zero(const petw_guid *g)
{
    static const petw_guid zero;
    return memcmp(g, &zero, sizeof(zero)) == 0;
}

/* Time, provider, descriptor, process, thread (record_ids: "-" for none),
 * CPU and activity IDs. */
static void header(sbuf *b, const petw_event_record *r, const petw_decoded_event *ev)
{
    const petw_event_header *h = &r->header;
    const petw_event_descriptor *d = &h->descriptor;
    const char *name = known_provider_name(&h->provider_id);
    petw_guid related;
    sbuf_time(b, h->timestamp);
    sbuf_putc(b, ' ');
    if (name)
        sbuf_puts(b, name);
    else
        sbuf_guid(b, &h->provider_id);
    number(b, " id=", d->id);
    number(b, " v=", d->version);
    number(b, " ch=", d->channel);
    number(b, " lvl=", d->level);
    number(b, " op=", d->opcode);
    number(b, " task=", d->task);
    sbuf_puts(b, " kw=");
    sbuf_hex64(b, d->keyword);
    uint64_t pid, tid;
    record_ids(r, ev, &pid, &tid);
    if (pid == RECORD_NO_ID)
        sbuf_puts(b, " pid=-");
    else
        number(b, " pid=", pid);
    if (tid == RECORD_NO_ID)
        sbuf_puts(b, " tid=-");
    else
        number(b, " tid=", tid);
    number(b, " cpu=", record_cpu(r));
    if (!guid_zero(&h->activity_id)) {
        sbuf_puts(b, " activity=");
        sbuf_guid(b, &h->activity_id);
    }
    if (record_related(r, &related)) {
        sbuf_puts(b, " related=");
        sbuf_guid(b, &related);
    }
    record_properties(b, r, 0);
}

/* ---- the trace header as a person reads it ---- */

static uint32_t rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static int32_t rd32s(const uint8_t *p)
{
    return (int32_t)(rd16(p) | rd16(p + 2) << 16);
}

/* A NUL-terminated UTF-16LE name of at most `units` units, quoted. */
static void utf16_name(sbuf *b, const uint8_t *p, uint32_t units)
{
    char out[32 * 3 + 1];
    size_t n = 0;
    for (uint32_t i = 0; i < units; i++) {
        uint32_t c = rd16(p + 2 * i);
        if (c == 0)
            break;
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < units) {
            uint32_t lo = rd16(p + 2 * (i + 1));
            if (lo >= 0xDC00 && lo < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            }
        }
        if (c >= 0xD800 && c < 0xE000)
            c = 0xFFFD; /* a lone surrogate */
        if (c < 0x80) {
            out[n++] = (char)c;
        } else if (c < 0x800) {
            out[n++] = (char)(0xC0 | c >> 6);
            out[n++] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out[n++] = (char)(0xE0 | c >> 12);
            out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (c & 0x3F));
        } else {
            out[n++] = (char)(0xF0 | c >> 18);
            out[n++] = (char)(0x80 | (c >> 12 & 0x3F));
            out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
            out[n++] = (char)(0x80 | (c & 0x3F));
        }
        if (n > sizeof(out) - 5)
            break;
    }
    out[n] = 0;
    json_string(b, out);
}

/* A TIME_ZONE_INFORMATION change date (SYSTEMTIME): a yearly rule (year
 * 0: the day-th weekday of the month, 5 being the last), a date, or none. */
static void zone_date(sbuf *b, const uint8_t *p)
{
    static const char *const weekdays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                           "Thursday", "Friday", "Saturday"};
    static const char *const months[] = {"January",   "February", "March",    "April",
                                         "May",       "June",     "July",     "August",
                                         "September", "October",  "November", "December"};
    static const char *const nth[] = {"first", "second", "third", "fourth", "last"};
    uint32_t year = rd16(p), month = rd16(p + 2), weekday = rd16(p + 4), day = rd16(p + 6);
    uint32_t hour = rd16(p + 8), minute = rd16(p + 10), second = rd16(p + 12), ms = rd16(p + 14);
    char text[96];
    int n;
    if (month == 0)
        n = snprintf(text, sizeof(text), "none");
    else if (year == 0 && month <= 12 && weekday < 7 && day >= 1 && day <= 5)
        n = snprintf(text, sizeof(text), "%s %s of %s, %02u:%02u", nth[day - 1], weekdays[weekday],
                     months[month - 1], hour, minute);
    else
        n = snprintf(text, sizeof(text), "%04u-%02u-%02u %02u:%02u", year, month, day, hour,
                     minute);
    if (month && (second || ms) && n > 0 && (size_t)n < sizeof(text))
        snprintf(text + n, sizeof(text) - (size_t)n, ms ? ":%02u.%03u" : ":%02u", second, ms);
    json_string(b, text);
}

/* The header's TIME_ZONE_INFORMATION (172 bytes, padded to 176), as
 * Windows' structure names its members; JSON and CSV keep the bytes. */
static void time_zone(sbuf *b, const uint8_t *p)
{
    sbuf_puts(b, "{Bias=");
    sbuf_i64(b, rd32s(p));
    sbuf_puts(b, " StandardName=");
    utf16_name(b, p + 4, 32);
    sbuf_puts(b, " StandardDate=");
    zone_date(b, p + 68);
    sbuf_puts(b, " StandardBias=");
    sbuf_i64(b, rd32s(p + 84));
    sbuf_puts(b, " DaylightName=");
    utf16_name(b, p + 88, 32);
    sbuf_puts(b, " DaylightDate=");
    zone_date(b, p + 152);
    sbuf_puts(b, " DaylightBias=");
    sbuf_i64(b, rd32s(p + 168));
    sbuf_putc(b, '}');
}

/* A value as in JSON, but: a pointer is an address, not text (unquoted),
 * and the trace header's time zone is its members. */
static void text_value(sbuf *b, const petw_decoded_event *ev, const petw_field *f, int header)
{
    if (f->in_type == PETW_IN_POINTER && f->kind == PETW_VALUE_HEX && !f->label)
        sbuf_hex64(b, f->v.u);
    else if (header && f->kind == PETW_VALUE_BINARY && f->v.bin.size >= 172 && f->name &&
             !strcmp(f->name, "TimeZoneInformation"))
        time_zone(b, f->v.bin.data);
    else
        json_value(b, ev, f);
}

/* " provider/event name=value name=value" */
static void fields(sbuf *b, const petw_decoded_event *ev, const petw_event_record *r)
{
    sbuf_putc(b, ' ');
    if (ev->provider_name) {
        text_string(b, ev->provider_name);
        sbuf_putc(b, '/');
    }
    text_string(b, ev->event_name ? ev->event_name : "?");
    sbuf_putc(b, ' ');
    /* EventTrace's opcode 0: the header record (TRACE_LOGFILE_HEADER). */
    static const petw_guid event_trace = {
        0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}};
    int header_event =
        petw_guid_equal(&r->header.provider_id, &event_trace) && r->header.descriptor.opcode == 0;
    for (uint32_t i = 0; i < ev->top_count; i++) {
        const petw_field *f = &ev->fields[i];
        if (i)
            sbuf_putc(b, ' ');
        text_string(b, f->name ? f->name : "");
        sbuf_putc(b, '=');
        text_value(b, ev, f, header_event);
    }
    if (ev->message) {
        sbuf_puts(b, ev->top_count ? " message=" : "message=");
        json_string(b, ev->message);
    }
}

static void text_event(output *o, const petw_event_record *r, const petw_decoded_event *ev)
{
    sbuf *b = &o->line;
    ev = with_schema(ev);
    header(b, r, ev);
    if (ev) {
        fields(b, ev, r);
    } else {
        number(b, " data[", r->user_data_length);
        sbuf_puts(b, "]=");
        sbuf_hex(b, r->user_data, r->user_data_length);
    }
    sbuf_putc(b, '\n');
    o->records++;
    output_record(o);
}

static void text_end(output *o)
{
    (void)o;
}

const output_format output_text = {"text", text_begin, text_event, text_end};
