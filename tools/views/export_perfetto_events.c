/* SPDX-License-Identifier: MIT */
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
#include "perfetto_internal.h"

#define TRACK_NO_THREAD (6ull << 56)
#define MAX_DISKS 256

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
static void annotate(perfetto *x, sbuf *b, const petw_decoded_event *ev, const petw_field *f)
{
    size_t at = proto_begin(b, 4);
    proto_field_string(b, 10, f->name ? f->name : "");
    if (f->label)
        proto_field_string(b, 6, f->label);
    else if (f->kind == PETW_VALUE_BOOL)
        proto_field_varint(b, 2, f->v.u != 0);
    else if (f->kind == PETW_VALUE_UINT || f->kind == PETW_VALUE_HEX)
        proto_field_varint(b, 3, f->v.u);
    else if (f->kind == PETW_VALUE_INT)
        proto_field_int(b, 4, f->v.i);
    else if (f->kind == PETW_VALUE_FLOAT)
        proto_field_double(b, 5, f->v.f);
    else if (f->kind == PETW_VALUE_STRING)
        proto_field_string(b, 6, f->v.s);
    else {
        x->scratch.len = 0;
        json_value(&x->scratch, ev, f);
        proto_field_bytes(b, 9, x->scratch.data, x->scratch.len);
    }
    proto_end(b, at);
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

/* The event's thread's track (described on first use), or the track of
 * events without a thread. */
static uint64_t thread_track(perfetto *x, uint32_t tid, uint32_t pid)
{
    if (tid == UINT32_MAX) {
        if (!x->no_thread_described) {
            describe_track(x, TRACK_NO_THREAD, 0, "events without a thread", 0);
            x->no_thread_described = 1;
        }
        return TRACK_NO_THREAD;
    }
    perfetto_describe_thread(x, tid, pid == UINT32_MAX ? 0 : pid, NULL);
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
static void flows(sbuf *b, const petw_event_record *r, int pair)
{
    petw_guid related;
    if (!guid_zero(&r->header.activity_id))
        proto_field_fixed64(b, 47, guid_hash(&r->header.activity_id));
    if (pair == 1 && record_related(r, &related) && !guid_zero(&related))
        proto_field_fixed64(b, 47, guid_hash(&related));
}

/* ---- Starts waiting for their Stops ---- */

/* A TrackEvent (11) of `type` on `track` at `time`, its other fields
 * (`body`, `len` bytes) already encoded. */
static void track_event(perfetto *x, int64_t time, int type, uint64_t track, const char *body,
                        size_t len)
{
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, time);
    size_t te = proto_begin(&x->b, 11);
    proto_field_varint(&x->b, 9, (uint64_t)type);
    proto_field_varint(&x->b, 11, track);
    sbuf_put(&x->b, body, len);
    proto_end(&x->b, te);
    perfetto_packet_end(x, at);
}

#define EMPTY 0
#define GONE 1 /* a tombstone */

static uint32_t start_home(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* Rebuilds the table with room for twice the Starts held (tombstones go). */
static int start_rehash(perfetto *x)
{
    uint32_t cap = 256;
    while (cap < 4 * (x->start_count + 1))
        cap *= 2;
    pending_start *t = calloc(cap, sizeof(*t));
    if (!t)
        return -1;
    for (uint32_t k = 0; k < x->start_cap; k++) {
        if (x->starts[k].key <= GONE)
            continue;
        uint32_t j = start_home(x->starts[k].key, cap);
        while (t[j].key)
            j = (j + 1) & (cap - 1);
        t[j] = x->starts[k];
    }
    free(x->starts);
    x->starts = t;
    x->start_cap = cap;
    x->start_used = x->start_count;
    return 0;
}

/* The pending Start of `key` (keys 0 and 1 are moved out of the way), or,
 * with `create`, a new entry for it (a tombstone on its way reused); NULL
 * when there is neither. */
static pending_start *start_find(perfetto *x, uint64_t key, int create)
{
    if (key <= GONE)
        key += 2;
    if (create && 2 * (x->start_used + 1) > x->start_cap && start_rehash(x) != 0)
        return NULL;
    if (!x->start_cap)
        return NULL;
    pending_start *free_slot = NULL;
    uint32_t j = start_home(key, x->start_cap);
    for (; x->starts[j].key != EMPTY; j = (j + 1) & (x->start_cap - 1)) {
        if (x->starts[j].key == key)
            return &x->starts[j];
        if (x->starts[j].key == GONE && !free_slot)
            free_slot = &x->starts[j];
    }
    if (!create)
        return NULL;
    if (!free_slot) {
        free_slot = &x->starts[j];
        x->start_used++;
    }
    free_slot->key = key;
    x->start_count++;
    return free_slot;
}

static void start_drop(perfetto *x, pending_start *e)
{
    free(e->body);
    e->body = NULL;
    e->key = GONE;
    x->start_count--;
}

/* A Start that never met its Stop: an instant on its thread's track. */
static void start_unpaired(perfetto *x, pending_start *e)
{
    track_event(x, e->time, 3, thread_track(x, e->tid, e->pid), e->body, e->len);
    start_drop(x, e);
}

/* Holds a Start (its encoded body) until its Stop says where it goes. */
static void start_hold(perfetto *x, uint64_t key, const petw_event_record *r, const sbuf *body)
{
    pending_start *e = start_find(x, key, 0);
    if (e)
        start_unpaired(x, e); /* a second Start before a Stop */
    e = x->start_count < MAX_PENDING_STARTS ? start_find(x, key, 1) : NULL;
    char *copy = e ? malloc(body->len + 1) : NULL;
    if (!copy) {
        if (e)
            start_drop(x, e);
        track_event(x, r->header.timestamp, 3,
                    thread_track(x, r->header.thread_id, r->header.process_id), body->data,
                    body->len);
        return;
    }
    memcpy(copy, body->data, body->len);
    *e = (pending_start){
        e->key, r->header.timestamp, r->header.thread_id, r->header.process_id, copy, body->len};
}

/* A Stop: its Start's slice on the thread's track when both came from one
 * thread, else on the activity's track (under the Start's process), as a
 * BEGIN at the Start's time and an END now; an instant when no Start is
 * held. */
static void stop(perfetto *x, uint64_t key, const petw_event_record *r, const char *name,
                 const sbuf *body)
{
    const petw_event_header *h = &r->header;
    pending_start *e = start_find(x, key, 0);
    if (!e) {
        track_event(x, h->timestamp, 3, thread_track(x, h->thread_id, h->process_id), body->data,
                    body->len);
        return;
    }
    uint64_t track;
    if (e->tid == h->thread_id) {
        track = thread_track(x, e->tid, e->pid);
    } else {
        track = TRACK_ACTIVITY(guid_hash(&h->activity_id));
        if (e->pid && e->pid != UINT32_MAX)
            perfetto_describe_process(x, e->pid);
        uint32_t pid = e->pid == UINT32_MAX ? 0 : e->pid;
        describe_track(x, track, pid ? TRACK_PROCESS(pid) : 0, name, 0);
    }
    track_event(x, e->time, 1, track, e->body, e->len);
    track_event(x, h->timestamp, 2, track, body->data, body->len);
    start_drop(x, e);
    x->slices++;
}

void perfetto_events_end(perfetto *x)
{
    for (uint32_t k = 0; k < x->start_cap; k++)
        if (x->starts[k].key > GONE)
            start_unpaired(x, &x->starts[k]);
    free(x->starts);
    sbuf_free(&x->body);
}

void perfetto_on_event(void *context, const petw_event_record *r)
{
    perfetto *x = context;
    const petw_decoded_event *ev = NULL;
    if (petw_decode(x->decoder, r, &ev) != 0)
        ev = NULL;
    const char *kernel_class = petw_kernel_class_name(&r->header.provider_id);
    if (ev && ev->event_name && !strcmp(ev->event_name, "SetName") && kernel_class &&
        !strcmp(kernel_class, "Thread")) {
        thread_name(x, ev); /* Thread SetName: the thread's name */
        return;
    }
    char guid[37], id[32];
    const char *provider = provider_name(r, ev, guid);
    snprintf(id, sizeof(id), "event %u", r->header.descriptor.id);
    const char *name = ev && ev->event_name ? ev->event_name : id;
    uint64_t key = 0;
    int pair = petw_profile_event_pairs(r, &key);
    const char *slice = pair && ev && ev->task_name ? ev->task_name : name;
    sbuf *b = &x->body;
    b->len = 0;
    proto_field_string(b, 22, provider); /* categories */
    if (pair != 2)
        proto_field_string(b, 23, slice); /* name */
    flows(b, r, pair);
    for (uint32_t k = 0; ev && k < ev->top_count; k++)
        annotate(x, b, ev, &ev->fields[k]);
    if (b->failed)
        x->error = 1;
    if (pair == 1)
        start_hold(x, key, r, b);
    else if (pair == 2)
        stop(x, key, r, slice, b);
    else
        track_event(x, r->header.timestamp, 3,
                    thread_track(x, r->header.thread_id, r->header.process_id), b->data, b->len);
    x->events++;
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

/* File I/O: each operation a slice on its thread's track, from its start
 * to its OperationEnd, named by its kind, with the file, bytes, offset and
 * NtStatus as annotations. */
void perfetto_on_file_io(void *context, const petw_profile_file_io *f)
{
    static const char *const kinds[PETW_FILE_OP_KINDS] = {"Create", "Read",    "Write",  "Close",
                                                          "Flush",  "SetInfo", "Delete", "Rename",
                                                          "Other",  "Cleanup"};
    perfetto *x = context;
    uint64_t track = thread_track(x, f->tid, f->pid);
    for (int end = 0; end < 2; end++) {
        size_t at = perfetto_packet_begin(x, SEQ_TRACKS, end ? f->end : f->start);
        size_t te = proto_begin(&x->b, 11);
        proto_field_varint(&x->b, 9, end ? 2 : 1);
        proto_field_varint(&x->b, 11, track);
        if (!end) {
            proto_field_string(&x->b, 22, "FileIo");
            char name[32];
            snprintf(name, sizeof(name), "File %s",
                     f->kind >= 0 && f->kind < PETW_FILE_OP_KINDS ? kinds[f->kind] : "?");
            proto_field_string(&x->b, 23, name);
            size_t a = proto_begin(&x->b, 4);
            proto_field_string(&x->b, 10, "file");
            const char *later = f->name[0] ? NULL : petw_profile_file_name(x->model, f->key);
            proto_field_string(&x->b, 6, later ? later : f->name);
            proto_end(&x->b, a);
            struct {
                const char *name;
                uint64_t v;
            } u[] = {{"bytes", f->bytes}, {"offset", f->offset}, {"status", f->status}};
            for (size_t k = 0; k < sizeof(u) / sizeof(u[0]); k++) {
                a = proto_begin(&x->b, 4);
                proto_field_string(&x->b, 10, u[k].name);
                proto_field_varint(&x->b, 3, u[k].v);
                proto_end(&x->b, a);
            }
        }
        proto_end(&x->b, te);
        perfetto_packet_end(x, at);
    }
    x->file_ios++;
}

/* ---- Network (TcpIp, UdpIp) ---- */

static void net_endpoint(char *out, size_t size, int family, const uint8_t *a, uint16_t port)
{
    if (family == 6) {
        /* Hex words, the first longest zero run (two or more) as "::". */
        unsigned w[8];
        int gap = -1, gap_len = 1;
        for (int i = 0; i < 8; i++)
            w[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
        for (int i = 0; i < 8;) {
            int len = 0;
            while (i + len < 8 && w[i + len] == 0)
                len++;
            if (len > gap_len)
                gap = i, gap_len = len;
            i += len ? len : 1;
        }
        size_t at = (size_t)snprintf(out, size, "[");
        for (int i = 0; i < 8 && at < size;) {
            if (i == gap) {
                i += gap_len;
                at += (size_t)snprintf(out + at, size - at, "%s", i == 8 ? "::" : ":");
                continue;
            }
            at += (size_t)snprintf(out + at, size - at, "%s%x", i > 0 ? ":" : "", w[i]);
            i++;
        }
        if (at < size)
            snprintf(out + at, size - at, "]:%u", port);
    } else {
        snprintf(out, size, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3], port);
    }
}

/* A send, receive, connect, accept, disconnect or retransmit: an instant
 * on its thread's track ("TCP Send", ...), with its process, bytes and
 * both endpoints as annotations. */
void perfetto_on_net(void *context, const petw_profile_net_op *o)
{
    static const char *const names[] = {"",       "Send",       "Recv",       "Connect",
                                        "Accept", "Disconnect", "Retransmit", "Reconnect"};
    perfetto *x = context;
    char name[32], local[64], remote[64];
    snprintf(name, sizeof(name), "%s %s", o->protocol == 17 ? "UDP" : "TCP",
             o->op < sizeof(names) / sizeof(names[0]) ? names[o->op] : "?");
    net_endpoint(local, sizeof(local), o->family, o->local, o->local_port);
    net_endpoint(remote, sizeof(remote), o->family, o->remote, o->remote_port);
    sbuf *b = &x->body;
    b->len = 0;
    proto_field_string(b, 22, o->protocol == 17 ? "UdpIp" : "TcpIp"); /* categories */
    proto_field_string(b, 23, name);
    struct {
        const char *name;
        uint64_t v;
    } u[] = {{"pid", o->pid}, {"bytes", o->bytes}, {"connid", o->connid}};
    for (size_t k = 0; k < sizeof(u) / sizeof(u[0]); k++) {
        size_t at = proto_begin(b, 4);
        proto_field_string(b, 10, u[k].name);
        proto_field_varint(b, 3, u[k].v);
        proto_end(b, at);
    }
    const char *s[][2] = {{"local", local}, {"remote", remote}};
    for (size_t k = 0; k < 2; k++) {
        size_t at = proto_begin(b, 4);
        proto_field_string(b, 10, s[k][0]);
        proto_field_string(b, 6, s[k][1]);
        proto_end(b, at);
    }
    if (b->failed)
        x->error = 1;
    /* Windows logs some from a DPC (no thread): the socket's process
     * then, on the track of events without a thread. */
    uint32_t tid = o->tid == 0 && o->pid != 0 ? UINT32_MAX : o->tid;
    track_event(x, o->time, 3, thread_track(x, tid, o->pid), b->data, b->len);
    x->net_ops++;
}
