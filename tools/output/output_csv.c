/* SPDX-License-Identifier: MIT */
/* output_csv.c - `petw dump --format csv`: RFC 4180, a header row, then
 * one row per record: the header fields, the event name and the decoded
 * fields as one JSON object (empty when not decoded), the payload as hex. */
#include "../tool.h"
#include "output.h"

static int csv_begin(output *o)
{
    sbuf_puts(&o->line, "timestamp,provider,provider_guid,id,version,channel,level,opcode,task,"
                        "keyword,pid,tid,cpu,activity_id,related_activity_id,event,fields,data\n");
    output_record(o);
    return 0;
}

static void number(sbuf *b, uint64_t v)
{
    sbuf_u64(b, v);
    sbuf_putc(b, ',');
}

static void csv_event(output *o, const petw_event_record *r, const petw_decoded_event *ev)
{
    sbuf *b = &o->line;
    const petw_event_header *h = &r->header;
    const petw_event_descriptor *d = &h->descriptor;
    ev = with_schema(ev);
    const char *name =
        ev && ev->provider_name ? ev->provider_name : known_provider_name(&h->provider_id);
    petw_guid related;
    sbuf_time(b, h->timestamp);
    sbuf_putc(b, ',');
    if (name)
        csv_field(b, name);
    else
        sbuf_guid(b, &h->provider_id);
    sbuf_putc(b, ',');
    sbuf_guid(b, &h->provider_id);
    sbuf_putc(b, ',');
    number(b, d->id);
    number(b, d->version);
    number(b, d->channel);
    number(b, d->level);
    number(b, d->opcode);
    number(b, d->task);
    sbuf_hex64(b, d->keyword);
    sbuf_putc(b, ',');
    uint64_t pid, tid;
    record_ids(r, ev, &pid, &tid);
    if (pid != RECORD_NO_ID)
        sbuf_u64(b, pid); /* empty: none */
    sbuf_putc(b, ',');
    if (tid != RECORD_NO_ID)
        sbuf_u64(b, tid);
    sbuf_putc(b, ',');
    number(b, record_cpu(r));
    sbuf_guid(b, &h->activity_id);
    sbuf_putc(b, ',');
    if (record_related(r, &related))
        sbuf_guid(b, &related);
    sbuf_putc(b, ',');
    if (ev) {
        csv_field(b, ev->event_name ? ev->event_name : "");
        sbuf_putc(b, ',');
        sbuf fields = {0};
        sbuf_putc(&fields, '{');
        json_members(&fields, ev, 0, ev->top_count);
        sbuf_putc(&fields, '}');
        sbuf_putc(&fields, '\0');
        csv_field(b, fields.data ? fields.data : "");
        sbuf_free(&fields);
    } else {
        sbuf_putc(b, ',');
    }
    sbuf_putc(b, ',');
    sbuf_hex(b, r->user_data, r->user_data_length);
    sbuf_putc(b, '\n');
    o->records++;
    output_record(o);
}

static void csv_end(output *o)
{
    (void)o;
}

const output_format output_csv = {"csv", csv_begin, csv_event, csv_end};
