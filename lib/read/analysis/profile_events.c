/* SPDX-License-Identifier: MIT */
/* profile_events.c - disk I/O by process (DiskIo Read and Write, their
 * response times), and every event counted by kind, with the time between
 * an activity's Start and Stop.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "analysis_internal.h"
#include "petw/consume.h"
#include "petw/decode.h"

/* DiskIo Read/Write v2+: DiskNumber, IrpFlags, TransferSize, Reserved,
 * ByteOffset, FileObject, Irp, HighResResponseTime, IssuingThreadId (v3). */
void petw__profile_on_disk(petw_profile *p, const petw_event_record *r, int write, int ptr4)
{
    const uint8_t *d = r->user_data;
    uint32_t ps = ptr4 ? 4 : 8, at_time = 24 + 2 * ps;
    if (r->user_data_length < at_time + 8)
        return;
    uint32_t pid = r->header.process_id, tid = r->header.thread_id;
    if (r->user_data_length >= at_time + 12) {
        tid = petw__rd32(d + at_time + 8);
        uint32_t t = petw__map_get(&p->thread_by_tid, tid);
        if (t != PETW__MAP_NONE && p->threads[t].pid)
            pid = p->threads[t].pid;
    }
    uint64_t bytes = petw__rd32(d + 8);
    /* An absurd response time (a clock slower than 100 ns, a hostile
     * record) stops at the largest count, never past it (undefined). */
    double response = (double)petw__rd64(d + at_time) / p->disk_ticks_per_100ns;
    uint64_t t100 = response < 1.8e19 ? (uint64_t)response : UINT64_MAX;
    if (p->hooks->disk_io) {
        petw_profile_disk_io e = {r->header.timestamp, petw__rd32(d), pid, tid, write, bytes,
                                  petw__rd64(d + 16),  t100};
        p->hooks->disk_io(p->c.hooks_context, &e);
    }
    if (pid == UINT32_MAX || !petw__profile_pid_wanted(p, pid) ||
        !petw__profile_in_time(p, r->header.timestamp))
        return;
    /* By file: FileObject (a FileKey on Windows 8 and later, which the
     * FileName events name; 0: no file, such as metadata or paging). */
    petw__profile_on_disk_file(p, ptr4 ? petw__rd32(d + 24) : petw__rd64(d + 24), pid, write,
                               bytes);
    uint32_t k = petw__map_get(&p->disk_by_pid, pid);
    if (k == PETW__MAP_NONE) {
        if (petw__grow((void **)&p->disks, &p->disk_cap, p->disk_count + 1, sizeof(*p->disks)) ||
            petw__map_put(&p->disk_by_pid, pid, p->disk_count)) {
            p->error = PETW_ENOMEM;
            return;
        }
        k = p->disk_count++;
        memset(&p->disks[k], 0, sizeof(p->disks[k]));
        p->disks[k].pid = pid;
    }
    petw_profile_disk *e = &p->disks[k];
    if (write) {
        e->writes++;
        e->write_bytes += bytes;
    } else {
        e->reads++;
        e->read_bytes += bytes;
    }
    e->response_total += t100;
    if (t100 > e->response_max)
        e->response_max = t100;
}

/* A TraceLogging event's name: in its schema (u16 size, tags, name). */
static const char *tl_name(const petw_event_record *r, size_t *len)
{
    for (uint16_t k = 0; k < r->extended_data_count; k++) {
        const petw_extended_item *x = &r->extended_data[k];
        if (x->ext_type != PETW_EXT_TYPE_EVENT_SCHEMA_TL || x->data_size < 4)
            continue;
        const uint8_t *b = (const uint8_t *)(uintptr_t)x->data_ptr;
        uint32_t at = 2;
        while (at < x->data_size && (b[at] & 0x80)) /* tags: 7 bits a byte, chained */
            at++;
        at++;
        if (at >= x->data_size)
            return NULL;
        const void *nul = memchr(b + at, 0, x->data_size - at);
        if (!nul)
            return NULL;
        *len = (size_t)((const uint8_t *)nul - (b + at));
        return (const char *)b + at;
    }
    return NULL;
}

int petw_profile_event_pairs(const petw_event_record *r, uint64_t *key)
{
    const petw_event_descriptor *dd = &r->header.descriptor;
    size_t nlen = 0;
    if ((dd->opcode != 1 && dd->opcode != 2) ||
        (r->header.flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER))
        return 0; /* classic events' Start and End are not an activity's */
    const char *tl = tl_name(r, &nlen);
    if (!dd->task && !tl)
        return 0;
    /* Start/Stop: of one task (TraceLogging: of one event name), by the
     * activity, else by the thread. */
    static const petw_guid none;
    uint64_t k = petw__profile_hash_bytes(0xcbf29ce484222325ull, &r->header.provider_id, 16);
    k = tl ? petw__profile_hash_bytes(k, tl, nlen) : petw__profile_hash_bytes(k, &dd->task, 2);
    k = petw_guid_equal(&r->header.activity_id, &none)
            ? petw__profile_hash_bytes(k, &r->header.thread_id, 4)
            : petw__profile_hash_bytes(k, &r->header.activity_id, 16);
    if (key)
        *key = k;
    return dd->opcode;
}

/* Names a new kind from the decoder (once per kind): its provider's name
 * (else the kernel class's, else its GUID) and its event's. */
static void name_kind(petw_profile *p, petw_profile_event_kind *e, const petw_event_record *r)
{
    const petw_decoded_event *ev = NULL;
    char guid[40];
    snprintf(guid, sizeof(guid), "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             e->provider_id.data1, e->provider_id.data2, e->provider_id.data3,
             e->provider_id.data4[0], e->provider_id.data4[1], e->provider_id.data4[2],
             e->provider_id.data4[3], e->provider_id.data4[4], e->provider_id.data4[5],
             e->provider_id.data4[6], e->provider_id.data4[7]);
    const char *kernel = petw_kernel_class_name(&e->provider_id);
    int ok = petw_decode(p->decoder, r, &ev) == 0;
    e->provider = petw__profile_intern(p, ok && ev->provider_name ? ev->provider_name
                                          : kernel                ? kernel
                                                                  : guid);
    e->name = petw__profile_intern(p, ok && ev->event_name ? ev->event_name : "");
}

/* The row of r's kind (provider, id, opcode, version; TraceLogging: and
 * name), added when new; PETW__MAP_NONE on ENOMEM. */
static uint32_t kind_of(petw_profile *p, const petw_event_record *r)
{
    const petw_event_descriptor *dd = &r->header.descriptor;
    size_t nlen = 0;
    const char *tl = tl_name(r, &nlen);
    uint64_t key =
        petw__mix(petw__profile_hash_bytes(0xcbf29ce484222325ull, &r->header.provider_id, 16) ^
                  ((uint64_t)dd->id << 32 | (uint64_t)dd->opcode << 16 | dd->version));
    if (tl)
        key = petw__mix(petw__profile_hash_bytes(key, tl, nlen));
    uint32_t k = PETW__MAP_NONE;
    for (;; key++) {
        k = petw__map_get(&p->kind_by_key, key);
        if (k == PETW__MAP_NONE)
            break;
        petw_profile_event_kind *e = &p->kinds[k];
        if (petw_guid_equal(&e->provider_id, &r->header.provider_id) && e->id == dd->id &&
            e->opcode == dd->opcode && e->version == dd->version &&
            (!tl || (strlen(e->name) == nlen && !memcmp(e->name, tl, nlen))))
            break;
    }
    if (k == PETW__MAP_NONE) {
        if (petw__grow((void **)&p->kinds, &p->kind_cap, p->kind_count + 1, sizeof(*p->kinds)) ||
            petw__map_put(&p->kind_by_key, key, p->kind_count)) {
            p->error = PETW_ENOMEM;
            return PETW__MAP_NONE;
        }
        k = p->kind_count++;
        petw_profile_event_kind *e = &p->kinds[k];
        memset(e, 0, sizeof(*e));
        e->provider_id = r->header.provider_id;
        e->id = dd->id;
        e->task = dd->task;
        e->opcode = dd->opcode;
        e->version = dd->version;
        e->first = r->header.timestamp;
        name_kind(p, e, r);
    }
    return k;
}

void petw__profile_on_any_event(petw_profile *p, const petw_event_record *r)
{
    const petw_event_descriptor *dd = &r->header.descriptor;
    uint32_t k = kind_of(p, r);
    if (k == PETW__MAP_NONE)
        return;
    petw_profile_event_kind *e = &p->kinds[k];
    e->count++;
    e->last = r->header.timestamp;
    uint64_t pk;
    if (!petw_profile_event_pairs(r, &pk))
        return;
    if (dd->opcode == 1) {
        uint32_t slot = petw__map_get(&p->pending_start, pk);
        if (slot == PETW__MAP_NONE) {
            if (petw__grow((void **)&p->starts, &p->start_cap, p->start_count + 1,
                           sizeof(*p->starts)) ||
                petw__map_put(&p->pending_start, pk, p->start_count)) {
                p->error = PETW_ENOMEM;
                return;
            }
            slot = p->start_count++;
        }
        p->starts[slot] = r->header.timestamp;
        return;
    }
    uint32_t slot = petw__map_get(&p->pending_start, pk);
    if (slot == PETW__MAP_NONE || !p->starts[slot])
        return;
    uint64_t d = r->header.timestamp > p->starts[slot]
                     ? (uint64_t)(r->header.timestamp - p->starts[slot])
                     : 0;
    p->starts[slot] = 0; /* a slot is reused by the key's next Start */
    e->pairs++;
    e->pair_total += d;
    if (e->pairs == 1 || d < e->pair_min)
        e->pair_min = d;
    if (d > e->pair_max)
        e->pair_max = d;
}
