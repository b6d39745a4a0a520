/* SPDX-License-Identifier: MIT */
/* output_value.c - strings as each format needs them (one UTF-8 repair,
 * one JSON escaper, one CSV quoter), and decoded values as JSON. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../tool.h"
#include "output.h"

/* How a string writer treats each byte. */
enum { COPY, ESCAPE, END, MULTI };
#define X8(a) a, a, a, a, a, a, a, a
#define X32(a) X8(a), X8(a), X8(a), X8(a)
#define NON_ASCII [0x80] = X32(MULTI), X32(MULTI), X32(MULTI), X32(MULTI)

#define CONTROL                                                                                    \
    [1] = X8(ESCAPE), X8(ESCAPE), X8(ESCAPE), ESCAPE, ESCAPE, ESCAPE, ESCAPE, ESCAPE, ESCAPE,      \
    ESCAPE /* 0x01-0x1f */

/* JSON: control characters, quote and backslash escaped. */
static const uint8_t json_class[256] = {
    [0] = END, CONTROL, ['"'] = ESCAPE, ['\\'] = ESCAPE, NON_ASCII};
/* Plain text: control characters escaped (as in JSON), so a record stays
 * on its line. */
static const uint8_t text_class[256] = {[0] = END, CONTROL, NON_ASCII};
/* A quoted CSV field: quotes doubled, everything else as it is. */
static const uint8_t csv_class[256] = {[0] = END, ['"'] = ESCAPE, NON_ASCII};

typedef void (*escape_fn)(sbuf *b, unsigned char c);

/* Length of the well-formed UTF-8 sequence at `s` (s[0] >= 0x80), or minus
 * the length of its maximal ill-formed part, which U+FFFD replaces (the
 * Unicode standard's practice, which Python and browsers follow). The NUL
 * at the end stops a sequence like any byte that does not continue it. */
static int utf8_length(const unsigned char *s)
{
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    int n;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return -1;
    for (int i = 1; i < n; i++) {
        if (s[i] < lo || s[i] > hi)
            return -i;
        lo = 0x80, hi = 0xBF;
    }
    return n;
}

/* Appends `str` as well-formed UTF-8: runs of plain bytes copied whole,
 * bytes of class ESCAPE through `escape`, ill-formed sequences as U+FFFD. */
static void put_string(sbuf *b, const char *str, const uint8_t *cls, escape_fn escape)
{
    const unsigned char *s = (const unsigned char *)str, *run = s;
    for (;;) {
        uint8_t k;
        while ((k = cls[*s]) == COPY)
            s++;
        if (k == END)
            break;
        if (k == MULTI) {
            int n = utf8_length(s);
            if (n > 0) {
                s += n;
                continue;
            }
            sbuf_put(b, run, (size_t)(s - run));
            sbuf_put(b, "\xEF\xBF\xBD", 3);
            s += -n;
        } else {
            sbuf_put(b, run, (size_t)(s - run));
            escape(b, *s++);
        }
        run = s;
    }
    sbuf_put(b, run, (size_t)(s - run));
}

static void json_escape(sbuf *b, unsigned char c)
{
    if (c == '"' || c == '\\') {
        sbuf_putc(b, '\\');
        sbuf_putc(b, (char)c);
    } else {
        sbuf_put(b, "\\u00", 4);
        sbuf_hex(b, &c, 1);
    }
}

static void csv_escape(sbuf *b, unsigned char c)
{
    sbuf_put(b, "\"\"", 2); /* the only ESCAPE byte: a quote */
    (void)c;
}

void json_string(sbuf *b, const char *s)
{
    sbuf_putc(b, '"');
    put_string(b, s, json_class, json_escape);
    sbuf_putc(b, '"');
}

void text_string(sbuf *b, const char *s)
{
    put_string(b, s, text_class, json_escape);
}

void csv_field(sbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        put_string(b, s, csv_class, csv_escape);
        return;
    }
    sbuf_putc(b, '"');
    put_string(b, s, csv_class, csv_escape);
    sbuf_putc(b, '"');
}

static void json_float(sbuf *b, double f)
{
    char tmp[32];
    if (!isfinite(f)) {
        sbuf_puts(b, "null"); /* JSON has no NaN or infinity */
        return;
    }
    /* The shortest form that reads back as the same double (9.99, not
     * 9.9900000000000002); 17 digits always do. */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(tmp, sizeof(tmp), "%.*g", digits, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    sbuf_puts(b, tmp);
}

static void json_systemtime(sbuf *b, const uint16_t st[8])
{
    char tmp[64];
    snprintf(tmp, sizeof(tmp), "\"%04u-%02u-%02uT%02u:%02u:%02u.%03uZ\"", st[0], st[1], st[3],
             st[4], st[5], st[6], st[7]);
    sbuf_puts(b, tmp);
}

static void json_elements(sbuf *b, const petw_decoded_event *ev, const petw_field *array)
{
    sbuf_putc(b, '[');
    for (uint32_t i = 0; i < array->count; i++) {
        if (i)
            sbuf_putc(b, ',');
        json_value(b, ev, &ev->fields[array->first + i]);
    }
    sbuf_putc(b, ']');
}

void json_members(sbuf *b, const petw_decoded_event *ev, uint32_t first, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        const petw_field *f = &ev->fields[first + i];
        if (i)
            sbuf_putc(b, ',');
        json_string(b, f->name ? f->name : "");
        sbuf_putc(b, ':');
        json_value(b, ev, f);
    }
}

/* Values shown as JSON strings other than text: hex, GUIDs, times, bytes. */
static void json_quoted(sbuf *b, const petw_field *f)
{
    sbuf_putc(b, '"');
    if (f->kind == PETW_VALUE_HEX)
        sbuf_hex64(b, f->v.u);
    else if (f->kind == PETW_VALUE_GUID)
        sbuf_guid(b, &f->v.guid);
    else if (f->kind == PETW_VALUE_FILETIME)
        sbuf_time(b, f->v.i);
    else
        sbuf_hex(b, f->v.bin.data, f->v.bin.size);
    sbuf_putc(b, '"');
}

void json_value(sbuf *b, const petw_decoded_event *ev, const petw_field *f)
{
    if (f->label) { /* a manifest map's text for the number */
        json_string(b, f->label);
        return;
    }
    switch (f->kind) {
    case PETW_VALUE_INT:
        sbuf_i64(b, f->v.i);
        break;
    case PETW_VALUE_UINT:
        sbuf_u64(b, f->v.u);
        break;
    case PETW_VALUE_FLOAT:
        json_float(b, f->v.f);
        break;
    case PETW_VALUE_BOOL:
        sbuf_puts(b, f->v.u ? "true" : "false");
        break;
    case PETW_VALUE_STRING:
        json_string(b, f->v.s);
        break;
    case PETW_VALUE_HEX:
    case PETW_VALUE_GUID:
    case PETW_VALUE_FILETIME:
    case PETW_VALUE_BINARY:
        json_quoted(b, f);
        break;
    case PETW_VALUE_SYSTEMTIME:
        json_systemtime(b, f->v.st);
        break;
    case PETW_VALUE_STRUCT:
        sbuf_putc(b, '{');
        json_members(b, ev, f->first, f->count);
        sbuf_putc(b, '}');
        break;
    case PETW_VALUE_ARRAY:
        json_elements(b, ev, f);
        break;
    default:
        sbuf_puts(b, "null");
        break;
    }
}

void json_provider(sbuf *b, const petw_event_record *r, const petw_decoded_event *ev)
{
    const char *name =
        ev && ev->provider_name ? ev->provider_name : known_provider_name(&r->header.provider_id);
    if (name) {
        json_string(b, name);
    } else {
        sbuf_putc(b, '"');
        sbuf_guid(b, &r->header.provider_id);
        sbuf_putc(b, '"');
    }
}
