/* SPDX-License-Identifier: MIT */
/* output_chrome.c - `petw convert --to chrome`: the Trace Event Format
 * (JSON) that chrome://tracing, Perfetto and speedscope load.
 *
 * Each record is an event: a start/stop pair (opcodes 1 and 2) tied by an
 * activity ID becomes an async slice (b/e), one without an activity ID a
 * slice of its thread (B/E, the innermost open B closed by the next stop),
 * anything else an instant (i). Each process gets a name record (M) when
 * first seen. Activities are flows (s, t, f: Start, other events, Stop),
 * and a Start with a related activity a step of its parent's flow; the
 * fields --counter names are counter records (C). Times are microseconds
 * from the first record.
 *
 * Kernel records are output_chrome_kernel.c's. */
#include "output_chrome.h"

static int chrome_begin(output *o)
{
    o->state = calloc(1, sizeof(chrome_state));
    if (!o->state)
        return -1;
    sbuf_puts(&o->line, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    output_record(o);
    return 0;
}

static int guid_zero(const petw_guid *g)
{
    static const petw_guid zero;
    return memcmp(g, &zero, sizeof(zero)) == 0;
}

/* Opens a B slice on the record's thread. Returns 0, or -1 when memory ran
 * out (the record is then shown as an instant). */
static int push_slice(chrome_state *c, const petw_event_header *h, const char *name)
{
    if (c->open_count == c->open_cap) {
        size_t cap = c->open_cap ? 2 * c->open_cap : 64;
        open_slice *grown = realloc(c->open, cap * sizeof(*grown));
        if (!grown)
            return -1;
        c->open = grown;
        c->open_cap = cap;
    }
    open_slice *o = &c->open[c->open_count];
    o->name = malloc(strlen(name) + 1);
    if (!o->name)
        return -1;
    strcpy(o->name, name);
    o->pid = h->process_id;
    o->tid = h->thread_id;
    c->open_count++;
    return 0;
}

/* Closes the innermost open B slice of the record's thread: the record
 * becomes its E, with its name. An unmatched stop stays an instant. */
static void pop_slice(chrome_state *c, const petw_event_header *h, slice *s)
{
    for (size_t i = c->open_count; i-- > 0;) {
        if (c->open[i].pid == h->process_id && c->open[i].tid == h->thread_id) {
            s->ph = "E";
            s->name = s->owned = c->open[i].name;
            memmove(&c->open[i], &c->open[i + 1], (c->open_count - i - 1) * sizeof(*c->open));
            c->open_count--;
            return;
        }
    }
}

static void phase(chrome_state *c, const petw_event_record *r, slice *s)
{
    const petw_event_header *h = &r->header;
    int start = h->descriptor.opcode == 1;
    s->ph = "i";
    if (!chrome_start_stop(r))
        return;
    if (!guid_zero(&h->activity_id)) {
        /* Tied by an activity ID: may start and end on different threads. */
        s->ph = start ? "b" : "e";
        s->id = &h->activity_id;
    } else if (start) {
        if (push_slice(c, h, s->name) == 0)
            s->ph = "B";
    } else {
        pop_slice(c, h, s);
    }
}

/* The decoded fields, or the event ID, opcode and payload as hex. */
static void args(sbuf *b, const petw_event_record *r, const petw_decoded_event *ev)
{
    if (ev && ev->has_schema) {
        json_members(b, ev, 0, ev->top_count);
        return;
    }
    sbuf_puts(b, "\"id\":");
    sbuf_u64(b, r->header.descriptor.id);
    sbuf_puts(b, ",\"opcode\":");
    sbuf_u64(b, r->header.descriptor.opcode);
    sbuf_puts(b, ",\"data\":\"");
    sbuf_hex(b, r->user_data, r->user_data_length);
    sbuf_putc(b, '"');
}

static void write_slice(output *o, const petw_event_record *r, const petw_decoded_event *ev,
                        const slice *s, double ts)
{
    sbuf *b = &o->line;
    if (o->records++)
        sbuf_puts(b, ",\n");
    sbuf_puts(b, "{\"ph\":\"");
    sbuf_puts(b, s->ph);
    sbuf_puts(b, "\",\"name\":");
    json_string(b, s->name);
    sbuf_puts(b, ",\"cat\":");
    json_provider(b, r, ev);
    sbuf_puts(b, ",\"ts\":");
    chrome_put_ts(b, ts);
    sbuf_puts(b, ",\"pid\":");
    sbuf_u64(b, r->header.process_id);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, r->header.thread_id);
    if (s->id) {
        sbuf_puts(b, ",\"id\":\"");
        sbuf_guid(b, s->id);
        sbuf_putc(b, '"');
    }
    if (s->ph[0] == 'i')
        sbuf_puts(b, ",\"s\":\"t\"");
    sbuf_puts(b, ",\"args\":{");
    args(b, r, ev);
    sbuf_puts(b, "}}");
}

/* The start of a flow event (s, t or f) of flow `id`, bound to the event
 * just written on the same thread ("bp":"e": its enclosing slice). */
static void flow_event(output *o, const petw_event_record *r, const char *ph, const petw_guid *id,
                       double ts)
{
    sbuf *b = &o->line;
    sbuf_puts(b, ",\n{\"ph\":\"");
    sbuf_puts(b, ph);
    sbuf_puts(b, "\",\"bp\":\"e\",\"name\":\"activity\",\"cat\":\"activity\",\"id\":\"");
    sbuf_guid(b, id);
    sbuf_puts(b, "\",\"ts\":");
    chrome_put_ts(b, ts);
    sbuf_puts(b, ",\"pid\":");
    sbuf_u64(b, r->header.process_id);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, r->header.thread_id);
    sbuf_putc(b, '}');
    o->records++;
}

/* Activities as flows: an activity's Start starts its flow (s) and its
 * Stop finishes it (f); its other events are steps (t); a Start with a
 * related activity is also a step of the parent's flow, so the arrow runs
 * from the parent into the child across threads and processes. */
static void flows(output *o, const petw_event_record *r, double ts)
{
    const petw_event_header *h = &r->header;
    petw_guid related;
    if (guid_zero(&h->activity_id))
        return;
    int op = chrome_start_stop(r) ? h->descriptor.opcode : 0;
    flow_event(o, r, op == 1 ? "s" : op == 2 ? "f" : "t", &h->activity_id, ts);
    if (op == 1 && record_related(r, &related) && !guid_zero(&related))
        flow_event(o, r, "t", &related, ts);
}

/* The --counter fields the event holds, as counter records (C) of its
 * process, named as the user named them. */
static void counters(output *o, const petw_event_record *r, const petw_decoded_event *ev, double ts)
{
    char guid[37];
    const char *provider =
        ev && ev->provider_name ? ev->provider_name : known_provider_name(&r->header.provider_id);
    if (!provider) {
        petw_guid_format(&r->header.provider_id, guid);
        provider = guid;
    }
    for (uint32_t k = 0; k < o->counters->count; k++) {
        double v;
        const counter_spec *cs = &o->counters->items[k];
        if (!counter_value(cs, provider, ev, &v))
            continue;
        char num[48];
        snprintf(num, sizeof(num), "%.17g", v);
        sbuf *b = &o->line;
        sbuf_puts(b, ",\n{\"ph\":\"C\",\"name\":");
        json_string(b, cs->text);
        sbuf_puts(b, ",\"ts\":");
        chrome_put_ts(b, ts);
        sbuf_puts(b, ",\"pid\":");
        sbuf_u64(b, r->header.process_id);
        sbuf_puts(b, ",\"tid\":0,\"args\":{");
        json_string(b, cs->field);
        sbuf_putc(b, ':');
        sbuf_puts(b, num);
        sbuf_puts(b, "}}");
        o->records++;
    }
}

static void chrome_event(output *o, const petw_event_record *r, const petw_decoded_event *ev)
{
    chrome_state *c = o->state;
    const petw_event_header *h = &r->header;
    slice s = {0};
    if (!c->started) {
        c->origin = h->timestamp;
        c->started = 1;
    }
    c->last_ts = (double)(h->timestamp - c->origin) / 10.0; /* FILETIME -> us */
    if ((h->flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) && chrome_kernel_event(o, c, r, ev))
        return;
    chrome_name_process(o, c, h->process_id);
    chrome_name_slice(&s, r, ev);
    phase(c, r, &s);
    write_slice(o, r, ev, &s, c->last_ts);
    flows(o, r, c->last_ts);
    if (o->counters && ev)
        counters(o, r, ev, c->last_ts);
    output_record(o);
    free(s.owned);
}

/* Slices still open at the end of the trace are closed there. */
static void chrome_end(output *o)
{
    chrome_state *c = o->state;
    sbuf *b = &o->line;
    chrome_kernel_end(o, c);
    for (size_t i = 0; i < c->open_count; i++) {
        sbuf_puts(b, ",\n{\"ph\":\"E\",\"pid\":");
        sbuf_u64(b, c->open[i].pid);
        sbuf_puts(b, ",\"tid\":");
        sbuf_u64(b, c->open[i].tid);
        sbuf_puts(b, ",\"ts\":");
        chrome_put_ts(b, c->last_ts);
        sbuf_putc(b, '}');
        free(c->open[i].name);
    }
    sbuf_puts(b, "\n]}\n");
    output_record(o);
    free(c->open);
    chrome_kernel_free(c);
    sbuf_free(&c->scratch);
    free(c);
    o->state = NULL;
}

const output_format output_chrome = {"chrome", chrome_begin, chrome_event, chrome_end};
