/* SPDX-License-Identifier: MIT */
/* export_perfetto_memory.c - the PageFault class in the Perfetto export:
 * each fault an instant on its thread's track (TrackEvent TYPE_INSTANT,
 * named as its event: DemandZeroFault, HardFault..., with the address and,
 * for a hard fault's read, the file, offset and duration as debug
 * annotations), and each process's bytes mapped less unmapped
 * (VirtualAlloc and VirtualFree) as a counter track under its process. */
#include <inttypes.h>

#include "perfetto_internal.h"

static const char *fault_name(uint8_t opcode)
{
    switch (opcode) {
    case 10:
        return "TransitionFault";
    case 11:
        return "DemandZeroFault";
    case 12:
        return "CopyOnWrite";
    case 13:
        return "GuardPageFault";
    case 14:
        return "HardPageFault";
    case 15:
        return "AccessViolation";
    default:
        return "HardFault";
    }
}

/* DebugAnnotation (TrackEvent field 4): name (10), then uint (3) or string (6). */
static void note_uint(perfetto *x, const char *name, uint64_t v)
{
    size_t at = proto_begin(&x->b, 4);
    proto_field_string(&x->b, 10, name);
    proto_field_varint(&x->b, 3, v);
    proto_end(&x->b, at);
}

void perfetto_on_fault(void *context, const petw_profile_fault *f)
{
    perfetto *x = context;
    perfetto_describe_thread(x, f->tid, f->pid == UINT32_MAX ? 0 : f->pid, NULL);
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, f->time);
    size_t te = proto_begin(&x->b, 11);
    proto_field_varint(&x->b, 9, 3); /* TYPE_INSTANT */
    proto_field_varint(&x->b, 11, TRACK_THREAD(f->tid));
    proto_field_string(&x->b, 22, "PageFault");
    proto_field_string(&x->b, 23, fault_name(f->opcode));
    note_uint(x, "VirtualAddress", f->address);
    if (f->opcode == 32) {
        size_t a = proto_begin(&x->b, 4);
        proto_field_string(&x->b, 10, "File");
        proto_field_string(&x->b, 6, f->file ? f->file : "");
        proto_end(&x->b, a);
        note_uint(x, "ReadOffset", f->offset);
        note_uint(x, "DurationNs", f->duration * 100);
    }
    proto_end(&x->b, te);
    perfetto_packet_end(x, at);
    x->faults++;
}

void perfetto_on_vm(void *context, const petw_profile_vm *v)
{
    perfetto *x = context;
    uint64_t track = TRACK_MEMORY(v->pid);
    int fresh = id_set_add(&x->memory_tracks, v->pid);
    if (fresh < 0) {
        x->error = 1;
        return;
    }
    if (fresh) {
        perfetto_describe_process(x, v->pid);
        /* TrackDescriptor: uuid (1), parent_uuid (5), name (2), counter (8). */
        size_t at = perfetto_packet_begin(x, SEQ_TRACKS, 0);
        size_t td = proto_begin(&x->b, 60);
        proto_field_varint(&x->b, 1, track);
        proto_field_varint(&x->b, 5, TRACK_PROCESS(v->pid));
        proto_field_string(&x->b, 2, "Mapped bytes (VirtualAlloc - VirtualFree)");
        size_t c = proto_begin(&x->b, 8);
        proto_end(&x->b, c);
        proto_end(&x->b, td);
        perfetto_packet_end(x, at);
    }
    size_t at = perfetto_packet_begin(x, SEQ_TRACKS, v->time);
    size_t te = proto_begin(&x->b, 11);
    proto_field_varint(&x->b, 9, 4); /* TYPE_COUNTER */
    proto_field_varint(&x->b, 11, track);
    proto_field_double(&x->b, 44, (double)v->mapped_now); /* double_counter_value */
    proto_end(&x->b, te);
    perfetto_packet_end(x, at);
    x->memory_values++;
}
