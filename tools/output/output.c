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
