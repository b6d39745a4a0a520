/* SPDX-License-Identifier: MIT */
/* output_chrome.h - what the two halves of the Chrome trace writer share:
 * output_chrome.c writes the records of providers (slices, instants, flows,
 * counters) and the trace's frame; output_chrome_kernel.c the kernel
 * records' timeline (process and thread names, a track per CPU, samples
 * with their stacks). */
#ifndef OUTPUT_CHROME_H
#define OUTPUT_CHROME_H

#include <stdlib.h>
#include <string.h>

#include "../tool.h"
#include "output.h"

#define MAX_PROCESSES 4096
#define NO_PROCESS UINT32_MAX        /* kernel records without a process (PERFINFO) */
#define CPU_PROCESS (UINT32_MAX - 1) /* the CPUs' tracks: tid is the CPU */
#define MAX_PENDING_SAMPLES 256      /* samples waiting for their stack */
#define STACK_WAIT 100000            /* 10 ms (FILETIME): a sample's stack comes sooner */

/* What kernel records taught about an ID: a thread's process, or a
 * process's image name. */
typedef struct id_entry {
    uint32_t id, used;
    uint32_t pid;   /* threads: its process */
    char *name;     /* processes: ImageFileName */
    int64_t mapped; /* memory: the process's VirtualAlloc less VirtualFree bytes */
} id_entry;

typedef struct id_map {
    id_entry *e;
    size_t count, cap; /* cap: 0 or a power of two */
} id_map;

/* A SampledProfile record written but for its end, until the StackWalk of
 * its thread comes (or cannot come any more). */
typedef struct pending_sample {
    uint32_t tid;
    int64_t time; /* the record's FILETIME */
    char *json;   /* the record from '{' to its last argument */
} pending_sample;

typedef struct open_slice {
    uint32_t pid, tid;
    char *name;
} open_slice;

typedef struct chrome_state {
    int64_t origin; /* FILETIME of the first record: ts 0 */
    int started;
    double last_ts;
    open_slice *open; /* B slices still open, oldest first */
    size_t open_count, open_cap;
    uint32_t pids[MAX_PROCESSES];
    size_t pid_count;
    /* Kernel records. */
    id_map threads, processes;
    id_map memory;        /* processes with VirtualAlloc or VirtualFree records */
    uint8_t *cpu_running; /* per CPU: 1 while a thread's slice is open */
    size_t cpu_count;     /* CPUs seen (cpu_running's size) */
    pending_sample pending[MAX_PENDING_SAMPLES];
    size_t pending_count;
    sbuf scratch;
} chrome_state;

/* What one record becomes. */
typedef struct slice {
    const char *ph;
    const char *name;    /* the event's name, `fallback`, or `owned` */
    char *owned;         /* an E's name, taken over from its B */
    char fallback[64];   /* provider/task N or provider/id */
    const petw_guid *id; /* an async slice's ID, or NULL */
} slice;

/* 1 for a provider's Start or Stop (opcode 1 or 2; not a kernel record). */
int chrome_start_stop(const petw_event_record *r);
/* A metadata record (M): `what` ("process_name", "thread_name",
 * "thread_sort_index", "process_labels") of a process or thread, with a
 * text or a number. */
void chrome_metadata(output *o, const char *what, uint32_t pid, uint32_t tid, const char *text,
                     uint64_t number);
/* 1 when `pid` has its name record; else notes that it gets one now. */
int chrome_process_named(chrome_state *c, uint32_t pid);
/* A name record for a process seen for the first time. */
void chrome_name_process(output *o, chrome_state *c, uint32_t pid);
void chrome_put_ts(sbuf *b, double ts);
/* The event's name, or its provider and task or event ID. */
void chrome_name_slice(slice *s, const petw_event_record *r, const petw_decoded_event *ev);

/* output_chrome_kernel.c: renders a kernel record its own way; returns 1
 * when done, 0 to show it as any other record. */
int chrome_kernel_event(output *o, chrome_state *c, const petw_event_record *r,
                        const petw_decoded_event *ev);
/* At the end: pending samples written, CPUs' slices closed. */
void chrome_kernel_end(output *o, chrome_state *c);
void chrome_kernel_free(chrome_state *c);

#endif
