/* output_csv.c - `petw dump --format csv`: RFC 4180, a header row, then
 * one row per record (the payload as hex). */
#include "../tool.h"
#include "output.h"

static int csv_begin(output *o)
{
    sbuf_puts(&o->line, "timestamp,provider,provider_guid,id,version,channel,level,opcode,task,"
                        "keyword,pid,tid,cpu,activity_id,related_activity_id,data\n");
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
    const char *name = known_provider_name(&h->provider_id);
    petw_guid related;
    (void)ev;
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
    number(b, h->process_id);
    number(b, h->thread_id);
    number(b, record_cpu(r));
    sbuf_guid(b, &h->activity_id);
    sbuf_putc(b, ',');
    if (record_related(r, &related))
        sbuf_guid(b, &related);
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
