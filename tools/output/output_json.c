/* SPDX-License-Identifier: MIT */
/* output_json.c - `petw dump --format json`: one JSON object per line and
 * record, the decoded fields by name (or the payload as hex). */
#include "../tool.h"
#include "output.h"

static int json_begin(output *o)
{
    (void)o;
    return 0;
}

/* `key` (with its punctuation) then a number. */
static void number(sbuf *b, const char *key, uint64_t v)
{
    sbuf_puts(b, key);
    sbuf_u64(b, v);
}

/* Every key but "fields", each followed by its comma. */
static void header(sbuf *b, const petw_event_record *r, const petw_decoded_event *ev)
{
    const petw_event_header *h = &r->header;
    const petw_event_descriptor *d = &h->descriptor;
    petw_guid related;
    sbuf_puts(b, "{\"timestamp\":\"");
    sbuf_time(b, h->timestamp);
    sbuf_puts(b, "\",\"provider\":");
    json_provider(b, r, ev);
    sbuf_puts(b, ",\"provider_guid\":\"");
    sbuf_guid(b, &h->provider_id);
    sbuf_puts(b, "\",\"event\":");
    if (ev && ev->event_name)
        json_string(b, ev->event_name);
    else
        sbuf_puts(b, "null");
    static const char *const names[] = {"task_name", "opcode_name", "level_name", "message"};
    for (int i = 0; ev && i < 4; i++) {
        const char *v = i == 0   ? ev->task_name
                        : i == 1 ? ev->opcode_name
                        : i == 2 ? ev->level_name
                                 : ev->message;
        if (v) {
            sbuf_puts(b, ",\"");
            sbuf_puts(b, names[i]);
            sbuf_puts(b, "\":");
            json_string(b, v);
        }
    }
    number(b, ",\"id\":", d->id);
    number(b, ",\"version\":", d->version);
    number(b, ",\"channel\":", d->channel);
    number(b, ",\"level\":", d->level);
    number(b, ",\"opcode\":", d->opcode);
    number(b, ",\"task\":", d->task);
    sbuf_puts(b, ",\"keyword\":\"");
    sbuf_hex64(b, d->keyword);
    uint64_t pid, tid;
    record_ids(r, ev, &pid, &tid);
    sbuf_puts(b, "\",\"pid\":");
    if (pid == RECORD_NO_ID)
        sbuf_puts(b, "null");
    else
        sbuf_u64(b, pid);
    sbuf_puts(b, ",\"tid\":");
    if (tid == RECORD_NO_ID)
        sbuf_puts(b, "null");
    else
        sbuf_u64(b, tid);
    number(b, ",\"cpu\":", record_cpu(r));
    sbuf_puts(b, ",\"activity_id\":\"");
    sbuf_guid(b, &h->activity_id);
    sbuf_puts(b, "\",");
    if (record_related(r, &related)) {
        sbuf_puts(b, "\"related_activity_id\":\"");
        sbuf_guid(b, &related);
        sbuf_puts(b, "\",");
    }
    record_properties(b, r, 1);
}

static void json_event(output *o, const petw_event_record *r, const petw_decoded_event *ev)
{
    sbuf *b = &o->line;
    ev = with_schema(ev);
    header(b, r, ev);
    sbuf_puts(b, "\"fields\":{");
    if (ev) {
        json_members(b, ev, 0, ev->top_count);
    } else {
        sbuf_puts(b, "\"data\":\"");
        sbuf_hex(b, r->user_data, r->user_data_length);
        sbuf_putc(b, '"');
    }
    sbuf_puts(b, "}}\n");
    o->records++;
    output_record(o);
}

static void json_end(output *o)
{
    (void)o;
}

const output_format output_json = {"json", json_begin, json_event, json_end};
