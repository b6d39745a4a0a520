/* SPDX-License-Identifier: MIT */
/* export_perfetto_packets.c - what the Perfetto export's two writers (the
 * timeline in export_perfetto.c, the providers' events in
 * export_perfetto_events.c) both write through (perfetto_internal.h): the
 * packet frame and its buffered output, the set of ids described already,
 * and the process and thread descriptors. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_internal.h"

#define FLUSH_AT (1u << 20) /* bytes of packets buffered before a write */

int id_set_add(id_set *s, uint32_t id)
{
    if (2 * (s->count + 1) > s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 1024;
        uint32_t *slots = calloc(cap, sizeof(*slots));
        if (!slots)
            return -1;
        for (uint32_t k = 0; k < s->cap; k++) {
            uint32_t j = s->slots[k] * 0x9E3779B1u & (cap - 1);
            while (s->slots[k] && slots[j])
                j = (j + 1) & (cap - 1);
            if (s->slots[k])
                slots[j] = s->slots[k];
        }
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    uint32_t key = id + 1, j = key * 0x9E3779B1u & (s->cap - 1);
    for (; s->slots[j]; j = (j + 1) & (s->cap - 1))
        if (s->slots[j] == key)
            return 0;
    s->slots[j] = key;
    s->count++;
    return 1;
}

void perfetto_flush(perfetto *x)
{
    if (x->b.failed)
        x->error = 1;
    if (x->b.len && fwrite(x->b.data, 1, x->b.len, x->out) != x->b.len)
        x->error = 1;
    x->b.len = 0;
}

size_t perfetto_packet_begin(perfetto *x, uint32_t seq, int64_t filetime)
{
    size_t at = proto_begin(&x->b, 1); /* Trace.packet */
    if (filetime)
        proto_field_varint(&x->b, 8, perfetto_ns(filetime)); /* timestamp */
    proto_field_varint(&x->b, 10, seq);                      /* trusted_packet_sequence_id */
    return at;
}

void perfetto_packet_end(perfetto *x, size_t at)
{
    proto_end(&x->b, at);
    if (x->b.len >= FLUSH_AT)
        perfetto_flush(x);
}

/* ---- Tracks: TrackDescriptor (60) with ProcessDescriptor (3) or
 * ThreadDescriptor (4) ---- */

static void describe_process(perfetto *x, uint32_t pid)
{
    const petw_profile_process *pr = petw_profile_process_find(x->model, pid);
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
    size_t td = proto_begin(&x->b, 60);
    proto_field_varint(&x->b, 1, TRACK_PROCESS(pid)); /* uuid */
    size_t pd = proto_begin(&x->b, 3);
    proto_field_int(&x->b, 1, (int32_t)pid); /* pid */
    if (pr && pr->command_line[0])
        proto_field_string(&x->b, 2, pr->command_line); /* cmdline */
    if (pr && pr->name[0])
        proto_field_string(&x->b, 6, pr->name); /* process_name */
    if (pr && pr->start_time)
        proto_field_int(&x->b, 7, (int64_t)perfetto_ns(pr->start_time)); /* start_timestamp_ns */
    proto_end(&x->b, pd);
    proto_end(&x->b, td);
    perfetto_packet_end(x, at);
}

void perfetto_describe_process(perfetto *x, uint32_t pid)
{
    int fresh = id_set_add(&x->processes, pid);
    if (fresh < 0)
        x->error = 1;
    if (fresh > 0)
        describe_process(x, pid);
}

void perfetto_describe_thread(perfetto *x, uint32_t tid, uint32_t pid, const char *name)
{
    if (pid == UINT32_MAX)
        pid = 0;
    int fresh = id_set_add(&x->threads, tid);
    if (fresh < 0)
        x->error = 1;
    if (fresh <= 0 && !name)
        return;
    if (pid)
        perfetto_describe_process(x, pid);
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
    size_t td = proto_begin(&x->b, 60);
    proto_field_varint(&x->b, 1, TRACK_THREAD(tid)); /* uuid */
    if (pid)
        proto_field_varint(&x->b, 5, TRACK_PROCESS(pid)); /* parent_uuid */
    size_t th = proto_begin(&x->b, 4);
    proto_field_int(&x->b, 1, (int32_t)pid); /* pid */
    proto_field_int(&x->b, 2, tid);          /* tid */
    if (name && name[0])
        proto_field_string(&x->b, 5, name); /* thread_name */
    proto_end(&x->b, th);
    proto_end(&x->b, td);
    perfetto_packet_end(x, at);
}
