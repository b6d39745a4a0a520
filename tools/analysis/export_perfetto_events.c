/* export_perfetto_events.c - the providers' events and the disks in a
 * Perfetto trace, as TrackEvents (TracePacket.track_event, 11) on sequence
 * 1: a Start and its Stop (petw_profile_event_pairs: the model's own
 * pairing) as a slice on its activity's track (one per activity ID, under
 * its process) or, without an activity, on its thread's track, where
 * Start/Stop pairs nest; activity and related activity IDs as flows
 * (flow_ids, 47) linking each activity's events across threads and
 * processes; every other event as an instant; the decoded fields as debug
 * annotations (4); the fields --counter names as counter tracks. Disk I/O:
 * a slice per request, from its issue (completion less its response time)
 * to its completion, on lanes of its disk's track so overlapping requests
 * nest. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../output/output.h"
#include "export_perfetto.h"

#define TRACK_NO_THREAD (6ull << 56)
#define MAX_DISKS 256

static const petw_guid ThreadGuid = {
    0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};

static uint64_t guid_hash(const petw_guid *g)
{
    const uint8_t *b = (const uint8_t *)g;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < 16; k++)
        h = (h ^ b[k]) * 0x100000001b3ull;
    return h;
}

static int guid_zero(const petw_guid *g)
{
    static const petw_guid none;
    return petw_guid_equal(g, &none);
}

/* A plain track: TrackDescriptor uuid (1), parent_uuid (5), name (2). */
static void describe_track(perfetto *x, uint64_t uuid, uint64_t parent, const char *name,
                           int counter)
{
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
    size_t td = proto_begin(&x->b, 60);
    proto_field_varint(&x->b, 1, uuid);
    if (parent)
        proto_field_varint(&x->b, 5, parent);
    proto_field_string(&x->b, 2, name);
    if (counter) { /* counter: CounterDescriptor (8), empty: plain values */
        size_t c = proto_begin(&x->b, 8);
        proto_end(&x->b, c);
    }
    proto_end(&x->b, td);
    perfetto_packet_end(x, at);
}

/* A decoded field as a DebugAnnotation: name (10), then bool (2), uint
 * (3), int (4), double (5), string (6) or, for the rest, its JSON (9). */
static void annotate(perfetto *x, const petw_decoded_event *ev, const petw_field *f)
{
    size_t at = proto_begin(&x->b, 4);
    proto_field_string(&x->b, 10, f->name ? f->name : "");
    if (f->label)
        proto_field_string(&x->b, 6, f->label);
    else if (f->kind == PETW_VALUE_BOOL)
        proto_field_varint(&x->b, 2, f->v.u != 0);
    else if (f->kind == PETW_VALUE_UINT || f->kind == PETW_VALUE_HEX)
        proto_field_varint(&x->b, 3, f->v.u);
    else if (f->kind == PETW_VALUE_INT)
        proto_field_int(&x->b, 4, f->v.i);
    else if (f->kind == PETW_VALUE_FLOAT)
        proto_field_double(&x->b, 5, f->v.f);
    else if (f->kind == PETW_VALUE_STRING)
        proto_field_string(&x->b, 6, f->v.s);
    else {
        x->scratch.len = 0;
        json_value(&x->scratch, ev, f);
        proto_field_bytes(&x->b, 9, x->scratch.data, x->scratch.len);
    }
    proto_end(&x->b, at);
}

/* The --counter fields this event holds, as values on their tracks
 * (TrackEvent type TYPE_COUNTER (4), double_counter_value (44)). */
static void counters(perfetto *x, const petw_event_record *r, const petw_decoded_event *ev,
                     const char *provider)
{
    const counter_list *l = &x->args->counters;
    for (uint32_t k = 0; k < l->count; k++) {
        double v;
        if (!counter_value(&l->items[k], provider, ev, &v))
            continue;
        if (!(x->counters_described & 1u << k)) {
            describe_track(x, TRACK_COUNTER(k), 0, l->items[k].text, 1);
            x->counters_described |= 1u << k;
        }
        size_t at = perfetto_packet_begin(x, SEQ_TRACKS, r->header.timestamp);
        size_t te = proto_begin(&x->b, 11);
        proto_field_varint(&x->b, 9, 4);
        proto_field_varint(&x->b, 11, TRACK_COUNTER(k));
        proto_field_double(&x->b, 44, v);
        proto_end(&x->b, te);
        perfetto_packet_end(x, at);
        x->counter_values++;
    }
}

/* The track an event goes on: its activity's for a Start/Stop with an
 * activity ID, else its thread's (else one for events with no thread). */
static uint64_t event_track(perfetto *x, const petw_event_record *r, int pair, const char *name)
{
    uint32_t tid = r->header.thread_id, pid = r->header.process_id;
    if (pid == UINT32_MAX)
        pid = 0;
    if (pair && !guid_zero(&r->header.activity_id)) {
        uint64_t track = TRACK_ACTIVITY(guid_hash(&r->header.activity_id));
        if (tid != UINT32_MAX)
            perfetto_describe_thread(x, tid, pid, NULL); /* and its process */
        else if (pid)
            perfetto_describe_process(x, pid);
        if (pair == 1) /* described again at each Start: the same content, no state kept */
            describe_track(x, track, pid ? TRACK_PROCESS(pid) : 0, name, 0);
        return track;
    }
    if (tid == UINT32_MAX) {
        if (!x->no_thread_described) {
            describe_track(x, TRACK_NO_THREAD, 0, "events without a thread", 0);
            x->no_thread_described = 1;
        }
        return TRACK_NO_THREAD;
    }
    perfetto_describe_thread(x, tid, pid, NULL);
    return TRACK_THREAD(tid);
}

static void thread_name(perfetto *x, const petw_decoded_event *ev)
{
    uint32_t pid = 0, tid = 0;
    const char *name = NULL;
    for (uint32_t k = 0; k < ev->top_count; k++) {
        const petw_field *f = &ev->fields[k];
        if (!f->name)
            continue;
        if (!strcmp(f->name, "ProcessId") && f->kind == PETW_VALUE_UINT)
            pid = (uint32_t)f->v.u;
        else if (!strcmp(f->name, "ThreadId") && f->kind == PETW_VALUE_UINT)
            tid = (uint32_t)f->v.u;
        else if (!strcmp(f->name, "ThreadName") && f->kind == PETW_VALUE_STRING)
            name = f->v.s;
    }
    if (tid && name && name[0])
        perfetto_describe_thread(x, tid, pid, name);
}

/* The provider's name for --counter and the category: its traits' or
 * manifest's name, a kernel class's, else its GUID. */
static const char *provider_name(const petw_event_record *r, const petw_decoded_event *ev,
                                 char guid[37])
{
    if (ev && ev->provider_name)
        return ev->provider_name;
    const char *kernel = petw_kernel_class_name(&r->header.provider_id);
    if (kernel)
        return kernel;
    petw_guid_format(&r->header.provider_id, guid);
    return guid;
}

/* flow_ids (47): the activity's, and on a Start its related (parent)
 * activity's, so the flow runs from the parent into the child. */
static void flows(perfetto *x, const petw_event_record *r, int pair)
{
    petw_guid related;
    if (!guid_zero(&r->header.activity_id))
        proto_field_fixed64(&x->b, 47, guid_hash(&r->header.activity_id));
    if (pair == 1 && record_related(r, &related) && !guid_zero(&related))
        proto_field_fixed64(&x->b, 47, guid_hash(&related));
}

void perfetto_on_event(void *context, const petw_event_record *r)
{
    perfetto *x = context;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(x->decoder, r, &ev) != 0)
        ev = NULL;
    if (ev && r->header.descriptor.opcode == 72 &&
        petw_guid_equal(&r->header.provider_id, &ThreadGuid)) {
        thread_name(x, ev); /* Thread SetName: the thread's name */
        return;
    }
    char guid[37], id[32];
    const char *provider = provider_name(r, ev, guid);
    snprintf(id, sizeof(id), "event %u", r->header.descriptor.id);
    const char *name = ev && ev->event_name ? ev->event_name : id;
    int pair = petw_profile_event_pairs(r);
    const char *slice = pair && ev && ev->task_name ? ev->task_name : name;
    uint64_t track = event_track(x, r, pair, slice);
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, r->header.timestamp);
    size_t te = proto_begin(&x->b, 11);
    proto_field_varint(&x->b, 9, pair == 1 ? 1 : pair == 2 ? 2 : 3); /* BEGIN, END, INSTANT */
    proto_field_varint(&x->b, 11, track);
    proto_field_string(&x->b, 22, provider); /* categories */
    if (pair != 2)
        proto_field_string(&x->b, 23, slice); /* name */
    flows(x, r, pair);
    for (uint32_t k = 0; ev && k < ev->top_count; k++)
        annotate(x, ev, &ev->fields[k]);
    proto_end(&x->b, te);
    perfetto_packet_end(x, at);
    x->events++;
    x->slices += pair == 1;
    if (ev && x->args->counters.count)
        counters(x, r, ev, provider);
}

/* ---- Disk I/O ---- */

static void disk_annotations(perfetto *x, const petw_profile_disk_io *d)
{
    const petw_profile_process *pr = petw_profile_process_find(x->model, d->pid);
    struct {
        const char *name;
        uint64_t v;
    } u[] = {{"pid", d->pid},
             {"tid", d->tid},
             {"bytes", d->bytes},
             {"offset", d->offset},
             {"latency_us", d->latency / 10}};
    for (size_t k = 0; k < sizeof(u) / sizeof(u[0]); k++) {
        size_t at = proto_begin(&x->b, 4);
        proto_field_string(&x->b, 10, u[k].name);
        proto_field_varint(&x->b, 3, u[k].v);
        proto_end(&x->b, at);
    }
    if (pr && pr->name[0]) {
        size_t at = proto_begin(&x->b, 4);
        proto_field_string(&x->b, 10, "process");
        proto_field_string(&x->b, 6, pr->name);
        proto_end(&x->b, at);
    }
}

/* The lane of disk `disk` free at `begin` (described on first use), or
 * the last lane when all are busy. */
static uint32_t disk_lane(perfetto *x, uint32_t disk, int64_t begin, int64_t end)
{
    if (disk >= x->disk_count) {
        disk_lanes *d = realloc(x->disks, (disk + 1) * sizeof(*d));
        if (!d) {
            x->error = 1;
            return UINT32_MAX;
        }
        memset(d + x->disk_count, 0, (disk + 1 - x->disk_count) * sizeof(*d));
        x->disks = d;
        x->disk_count = disk + 1;
    }
    disk_lanes *l = &x->disks[disk];
    uint32_t lane = 0;
    while (lane < MAX_DISK_LANES - 1 && l->end[lane] > begin)
        lane++;
    l->end[lane] = end;
    if (!(l->described & 1u << lane)) {
        char name[48];
        if (!l->described) {
            snprintf(name, sizeof(name), "Disk %" PRIu32, disk);
            describe_track(x, TRACK_DISK(disk, 255), 0, name, 0);
        }
        snprintf(name, sizeof(name), "Disk %" PRIu32 " I/O %" PRIu32, disk, lane + 1);
        describe_track(x, TRACK_DISK(disk, lane), TRACK_DISK(disk, 255), name, 0);
        l->described |= 1u << lane;
    }
    return lane;
}

void perfetto_on_disk_io(void *context, const petw_profile_disk_io *d)
{
    perfetto *x = context;
    int64_t begin = d->time - (int64_t)d->latency;
    uint32_t lane = d->disk < MAX_DISKS ? disk_lane(x, d->disk, begin, d->time) : UINT32_MAX;
    if (lane == UINT32_MAX)
        return;
    for (int end = 0; end < 2; end++) {
        size_t at = perfetto_packet_begin(x, SEQ_TRACKS, end ? d->time : begin);
        size_t te = proto_begin(&x->b, 11);
        proto_field_varint(&x->b, 9, end ? 2 : 1);
        proto_field_varint(&x->b, 11, TRACK_DISK(d->disk, lane));
        if (!end) {
            proto_field_string(&x->b, 22, "DiskIo");
            proto_field_string(&x->b, 23, d->write ? "Write" : "Read");
            disk_annotations(x, d);
        }
        proto_end(&x->b, te);
        perfetto_packet_end(x, at);
    }
    x->disk_ios++;
}
