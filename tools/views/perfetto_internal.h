/* SPDX-License-Identifier: MIT */
/* perfetto_internal.h - what the two halves of `petw convert --to perfetto`
 * share: the writer's state, the track numbering and the packet helpers.
 * export_perfetto.c writes the system (tracks, scheduling, samples,
 * statistics); export_perfetto_events.c the providers' events, counters
 * and disk I/O; export_perfetto_packets.c the packet frame, the output and
 * the process and thread descriptors both use. Field numbers are Perfetto's published ones
 * (protos/perfetto/trace/...), named at each use. */
#ifndef PERFETTO_INTERNAL_H
#define PERFETTO_INTERNAL_H

#include "../output/output_proto.h"
#include "analysis_tool.h"

/* Packet sequences (TracePacket.trusted_packet_sequence_id). */
enum { SEQ_TRACKS = 1, SEQ_SAMPLES = 2, SEQ_SCHED = 3 };

/* Track uuids: the kind in the top byte. */
#define TRACK_PROCESS(pid) (1ull << 56 | (uint64_t)(pid))
#define TRACK_THREAD(tid) (2ull << 56 | (uint64_t)(tid))
#define TRACK_DISK(disk, lane) (3ull << 56 | (uint64_t)(disk) << 8 | (lane))
#define TRACK_ACTIVITY(hash) (4ull << 56 | ((hash)&0xFFFFFFFFFFFFFFull))
#define TRACK_COUNTER(index) (5ull << 56 | (uint64_t)(index))
#define TRACK_MEMORY(pid) (6ull << 56 | (uint64_t)(pid))

/* A set of 32-bit ids (the processes and threads described so far). */
typedef struct id_set {
    uint32_t *slots; /* id + 1; 0 empty */
    uint32_t cap, count;
} id_set;
/* 1 when `id` was added now, 0 when it was there, -1 out of memory. */
int id_set_add(id_set *s, uint32_t id);

#define MAX_DISK_LANES 32

typedef struct disk_lanes {      /* overlapping I/O of one disk on lanes that nest */
    int64_t end[MAX_DISK_LANES]; /* FILETIME each lane is busy until */
    uint32_t described;          /* bit k: lane k's track was written */
} disk_lanes;

typedef struct pending_start { /* a Start waiting for its Stop */
    uint64_t key;              /* petw_profile_event_pairs' key; 0 empty, 1 gone */
    int64_t time;
    uint32_t tid, pid;
    char *body; /* its TrackEvent's fields but type and track */
    size_t len;
} pending_start;
#define MAX_PENDING_STARTS (1u << 20) /* more open at once: shown as instants */

typedef struct perfetto {
    FILE *out;
    sbuf b; /* packets not yet written */
    int error;
    const petw_profile *model; /* the first read's, with symbols */
    petw_decoder *decoder;
    const perfetto_args *args;
    id_set processes, threads;
    sbuf *cpus; /* one EtwTraceEventBundle being filled per CPU */
    uint32_t cpu_count;
    disk_lanes *disks;
    uint32_t disk_count;
    uint32_t counters_described; /* bit k: counter k's track was written */
    int no_thread_described;
    sbuf scratch, body;
    pending_start *starts; /* open addressing */
    uint32_t start_cap, start_used, start_count;
    uint64_t switches, wakeups, samples, events, slices, disk_ios, counter_values, file_ios;
    id_set memory_tracks; /* the processes whose mapped-bytes track was written */
    uint64_t faults, memory_values;
    uint64_t net_ops; /* TcpIp and UdpIp events */
} perfetto;

/* FILETIME to the trace's nanoseconds (Unix time). */
static inline uint64_t perfetto_ns(int64_t filetime)
{
    int64_t unix100 = filetime - 116444736000000000ll;
    return unix100 > 0 ? (uint64_t)unix100 * 100 : 0;
}

/* Starts a TracePacket on `seq` (with its timestamp unless 0); returns
 * what perfetto_packet_end takes. */
size_t perfetto_packet_begin(perfetto *x, uint32_t seq, int64_t filetime);
/* Ends it, and writes out what is buffered past a threshold. */
void perfetto_packet_end(perfetto *x, size_t at);
/* Writes out what is buffered (x->error set when that fails). */
void perfetto_flush(perfetto *x);
/* The process's track, described on first use. */
void perfetto_describe_process(perfetto *x, uint32_t pid);
/* The thread's and its process's tracks, described on first use (and
 * again when `name` is given: the thread's name). */
void perfetto_describe_thread(perfetto *x, uint32_t tid, uint32_t pid, const char *name);

/* export_perfetto_events.c: the providers' events as slices, instants,
 * flows and counters; disk I/O on per-disk tracks. */
void perfetto_on_event(void *context, const petw_event_record *r);
void perfetto_on_disk_io(void *context, const petw_profile_disk_io *d);
void perfetto_on_file_io(void *context, const petw_profile_file_io *f);
/* TcpIp and UdpIp events as instants on their thread's track. */
void perfetto_on_net(void *context, const petw_profile_net_op *o);
/* Writes the Starts never stopped (as instants) and frees what is held. */
void perfetto_events_end(perfetto *x);

/* export_perfetto_memory.c: faults as instants on their thread's track,
 * each process's mapped bytes as a counter track. */
void perfetto_on_fault(void *context, const petw_profile_fault *f);
void perfetto_on_vm(void *context, const petw_profile_vm *v);

#endif
