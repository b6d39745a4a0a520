/* SPDX-License-Identifier: MIT */
/* output.c - the output interface: choosing a format, and the record
 * writing and bookkeeping every format shares. */
#include <string.h>

#include "output.h"

static const output_format *const formats[] = {&output_text, &output_csv, &output_json,
                                               &output_chrome};

const output_format *output_find(const char *name)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
        if (!strcmp(formats[i]->name, name))
            return formats[i];
    return NULL;
}

int output_begin(output *o, const output_format *format, FILE *file)
{
    memset(o, 0, sizeof(*o));
    o->format = format;
    o->file = file;
    if (format->begin(o) != 0) {
        sbuf_free(&o->line);
        return PETW_ENOMEM;
    }
    return 0;
}

void output_event(output *o, const petw_event_record *r, const petw_decoded_event *ev)
{
    o->events++;
    o->format->event(o, r, ev);
}

void output_record(output *o)
{
    sbuf *b = &o->line;
    if (b->failed) {
        o->error = PETW_ENOMEM; /* never half a record */
        b->failed = 0;
    } else if (b->len && fwrite(b->data, 1, b->len, o->file) != b->len) {
        o->error = PETW_EIO;
    }
    b->len = 0;
}

int output_end(output *o)
{
    o->format->end(o);
    sbuf_free(&o->line);
    if ((fflush(o->file) != 0 || ferror(o->file)) && !o->error)
        o->error = PETW_EIO;
    return o->error;
}

const petw_decoded_event *with_schema(const petw_decoded_event *ev)
{
    return ev && ev->has_schema ? ev : NULL;
}

unsigned record_cpu(const petw_event_record *r)
{
    return (r->header.flags & PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX)
               ? r->buffer_context.u.processor_index
               : r->buffer_context.u.p.processor_number;
}

/* The unsigned top-level field named one of `names`, or RECORD_NO_ID. */
static uint64_t id_field(const petw_decoded_event *ev, const char *const *names, int count)
{
    for (uint32_t k = 0; ev && k < ev->top_count; k++) {
        const petw_field *f = &ev->fields[k];
        if (!f->name ||
            (f->kind != PETW_VALUE_UINT && f->kind != PETW_VALUE_HEX && f->kind != PETW_VALUE_INT))
            continue;
        for (int j = 0; j < count; j++)
            if (!strcmp(f->name, names[j]))
                return f->kind == PETW_VALUE_INT ? (uint64_t)f->v.i : f->v.u;
    }
    return RECORD_NO_ID;
}

void record_ids(const petw_event_record *r, const petw_decoded_event *ev, uint64_t *pid,
                uint64_t *tid)
{
    static const char *const pids[] = {"ProcessId", "StackProcess"};
    static const char *const tids[] = {"ThreadId", "TThreadId", "StackThread"};
    *pid = r->header.process_id;
    *tid = r->header.thread_id;
    if (*pid == 0xFFFFFFFFu)
        *pid = id_field(ev, pids, 2);
    if (*tid == 0xFFFFFFFFu)
        *tid = id_field(ev, tids, 3);
}

void sid_text(sbuf *b, const uint8_t *p, size_t size)
{
    if (size < 8 || size < 8u + 4u * p[1]) {
        sbuf_puts(b, "?");
        return;
    }
    uint64_t authority = 0;
    for (int k = 2; k < 8; k++)
        authority = authority << 8 | p[k];
    sbuf_puts(b, "S-");
    sbuf_u64(b, p[0]);
    sbuf_putc(b, '-');
    if (authority >> 32)
        sbuf_hex64(b, authority);
    else
        sbuf_u64(b, authority);
    for (uint32_t k = 0; k < p[1]; k++) {
        uint32_t v;
        memcpy(&v, p + 8 + 4 * k, 4);
        sbuf_putc(b, '-');
        sbuf_u64(b, v);
    }
}

void record_properties(sbuf *b, const petw_event_record *r, int json)
{
    for (int i = 0; i < r->extended_data_count; i++) {
        const petw_extended_item *it = &r->extended_data[i];
        const uint8_t *p = (const uint8_t *)(uintptr_t)it->data_ptr;
        uint64_t v = 0;
        if (it->data_size >= 8)
            memcpy(&v, p, 8);
        switch (it->ext_type) {
        case PETW_EXT_TYPE_SID:
            sbuf_puts(b, json ? "\"sid\":\"" : " sid=");
            sid_text(b, p, it->data_size);
            sbuf_puts(b, json ? "\"," : "");
            break;
        case PETW_EXT_TYPE_TS_ID: {
            uint32_t t;
            if (it->data_size < 4)
                break;
            memcpy(&t, p, 4);
            sbuf_puts(b, json ? "\"ts_id\":" : " ts_id=");
            sbuf_u64(b, t);
            sbuf_puts(b, json ? "," : "");
            break;
        }
        case PETW_EXT_TYPE_PROCESS_START_KEY:
        case PETW_EXT_TYPE_EVENT_KEY:
            if (it->data_size < 8)
                break;
            if (it->ext_type == PETW_EXT_TYPE_EVENT_KEY)
                sbuf_puts(b, json ? "\"event_key\":\"" : " event_key=");
            else
                sbuf_puts(b, json ? "\"process_start_key\":\"" : " process_start_key=");
            sbuf_hex64(b, v);
            sbuf_puts(b, json ? "\"," : "");
            break;
        case PETW_EXT_TYPE_STACK_TRACE64:
            if (it->data_size < 8)
                break;
            sbuf_puts(b, json ? "\"stack\":[" : " stack=");
            for (uint32_t f = 0; 8u + 8u * (f + 1) <= it->data_size; f++) {
                uint64_t a;
                memcpy(&a, p + 8 + 8 * f, 8);
                if (f)
                    sbuf_putc(b, ',');
                sbuf_puts(b, json ? "\"" : "");
                sbuf_hex64(b, a);
                sbuf_puts(b, json ? "\"" : "");
            }
            sbuf_puts(b, json ? "]," : "");
            break;
        default:
            break;
        }
    }
}

int record_related(const petw_event_record *r, petw_guid *related)
{
    int found = 0; /* the last item wins */
    for (int i = 0; i < r->extended_data_count; i++)
        if (r->extended_data[i].ext_type == PETW_EXT_TYPE_RELATED_ACTIVITYID &&
            r->extended_data[i].data_size >= 16) {
            memcpy(related, (const void *)(uintptr_t)r->extended_data[i].data_ptr, 16);
            found = 1;
        }
    return found;
}

int counter_list_add(counter_list *l, const char *spec)
{
    const char *s1 = strchr(spec, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
    if (l->count == MAX_COUNTERS || !s1 || !s2 || s1 == spec || s2 == s1 + 1 || !s2[1] ||
        strchr(s2 + 1, '/') || s1 - spec >= 128 || s2 - s1 > 128 || strlen(s2 + 1) >= 128) {
        fprintf(stderr, "petw: --counter wants PROVIDER/EVENT/FIELD (at most %d): '%s'\n",
                MAX_COUNTERS, spec);
        return -1;
    }
    counter_spec *c = &l->items[l->count++];
    memcpy(c->provider, spec, (size_t)(s1 - spec));
    c->provider[s1 - spec] = 0;
    memcpy(c->event, s1 + 1, (size_t)(s2 - s1 - 1));
    c->event[s2 - s1 - 1] = 0;
    strcpy(c->field, s2 + 1);
    c->text = spec;
    return 0;
}

int counter_value(const counter_spec *c, const char *provider, const petw_decoded_event *ev,
                  double *value)
{
    if (!ev || !ev->event_name || strcmp(c->provider, provider) != 0 ||
        strcmp(c->event, ev->event_name) != 0)
        return 0;
    for (uint32_t k = 0; k < ev->top_count; k++) {
        const petw_field *f = &ev->fields[k];
        if (!f->name || strcmp(f->name, c->field) != 0)
            continue;
        switch (f->kind) {
        case PETW_VALUE_INT:
            *value = (double)f->v.i;
            return 1;
        case PETW_VALUE_UINT:
        case PETW_VALUE_HEX:
        case PETW_VALUE_BOOL:
            *value = (double)f->v.u;
            return 1;
        case PETW_VALUE_FLOAT:
            *value = f->v.f;
            return 1;
        default:
            return 0;
        }
    }
    return 0;
}
