/* output_text.c - `petw dump --format text` (the default): one line per
 * record, the descriptor as key=value, then the decoded fields (values as
 * in JSON) or the payload as hex. */
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

/* " provider/event name=value name=value" */
static void fields(sbuf *b, const petw_decoded_event *ev)
{
    sbuf_putc(b, ' ');
    if (ev->provider_name) {
        text_string(b, ev->provider_name);
        sbuf_putc(b, '/');
    }
    text_string(b, ev->event_name ? ev->event_name : "?");
    sbuf_putc(b, ' ');
    for (uint32_t i = 0; i < ev->top_count; i++) {
        const petw_field *f = &ev->fields[i];
        if (i)
            sbuf_putc(b, ' ');
        text_string(b, f->name ? f->name : "");
        sbuf_putc(b, '=');
        json_value(b, ev, f);
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
        fields(b, ev);
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
