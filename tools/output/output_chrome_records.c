/* SPDX-License-Identifier: MIT */
/* output_chrome_records.c - the records both halves of the Chrome export
 * write (output_chrome.h): metadata (M) naming processes and threads, a
 * slice's name, times; output_chrome.c (providers' records) and
 * output_chrome_kernel.c (the kernel's timeline) call these, and not each
 * other. */
#include "output_chrome.h"

int chrome_start_stop(const petw_event_record *r)
{
    uint8_t op = r->header.descriptor.opcode;
    return (op == 1 || op == 2) && !(r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER);
}

/* The event's name, or its provider and task (a start/stop pair shares its
 * task, not its event ID) or event ID. */
void chrome_name_slice(slice *s, const petw_event_record *r, const petw_decoded_event *ev)
{
    const petw_event_header *h = &r->header;
    char id[37];
    if (ev && ev->has_schema && ev->event_name && ev->event_name[0]) {
        s->name = ev->event_name;
        /* Kernel records: the class and the event type ("Thread/CSwitch"). */
        if ((h->flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) && ev->provider_name) {
            snprintf(s->fallback, sizeof(s->fallback), "%s/%s", ev->provider_name, ev->event_name);
            s->name = s->fallback;
        }
        return;
    }
    const char *provider = known_provider_name(&h->provider_id);
    if (!provider) {
        petw_guid_format(&h->provider_id, id);
        provider = id;
    }
    if (chrome_start_stop(r))
        snprintf(s->fallback, sizeof(s->fallback), "%s/task %u", provider, h->descriptor.task);
    else
        snprintf(s->fallback, sizeof(s->fallback), "%s/%u", provider, h->descriptor.id);
    s->name = s->fallback;
}

/* A metadata record (M): `what` ("process_name", "thread_name",
 * "thread_sort_index") of a process or thread, with a text or a number. */
void chrome_metadata(output *o, const char *what, uint32_t pid, uint32_t tid, const char *text,
                     uint64_t number)
{
    sbuf *b = &o->line;
    if (o->records++)
        sbuf_puts(b, ",\n");
    sbuf_puts(b, "{\"ph\":\"M\",\"name\":\"");
    sbuf_puts(b, what);
    sbuf_puts(b, "\",\"pid\":");
    sbuf_u64(b, pid);
    sbuf_puts(b, ",\"tid\":");
    sbuf_u64(b, tid);
    sbuf_puts(b, !text                            ? ",\"args\":{\"sort_index\":"
                 : strcmp(what, "process_labels") ? ",\"args\":{\"name\":"
                                                  : ",\"args\":{\"labels\":");
    if (text)
        json_string(b, text);
    else
        sbuf_u64(b, number);
    sbuf_puts(b, "}}");
}

/* 1 when `pid` has its name record; else notes that it gets one now. */
int chrome_process_named(chrome_state *c, uint32_t pid)
{
    for (size_t i = 0; i < c->pid_count; i++)
        if (c->pids[i] == pid)
            return 1;
    if (c->pid_count == MAX_PROCESSES)
        return 1; /* no room: no more name records */
    c->pids[c->pid_count++] = pid;
    return 0;
}

/* A name record for a process seen for the first time. */
void chrome_name_process(output *o, chrome_state *c, uint32_t pid)
{
    char text[32];
    if (chrome_process_named(c, pid))
        return;
    if (pid == NO_PROCESS) {
        chrome_metadata(o, "process_name", pid, 0, "kernel (no process)", 0);
        return;
    }
    snprintf(text, sizeof(text), "process %u", pid);
    chrome_metadata(o, "process_name", pid, 0, text, 0);
}

void chrome_put_ts(sbuf *b, double ts)
{
    char num[48];
    snprintf(num, sizeof(num), "%.1f", ts);
    sbuf_puts(b, num);
}
