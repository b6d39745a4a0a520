/* SPDX-License-Identifier: MIT */
/* petw/analysis.h - where the time went: a trace's CPU samples and context
 * switches as a model of processes, threads, images and stacks, with each
 * distinct address symbolized once; the views and exports of `petw report`
 * and `petw convert` read this model.
 *
 * The pipeline (docs/analysis.md): read the trace's events in time order
 * (consume) -> model: processes, threads, images (Image events and their
 * identity: Petw-Symbols' ImageId, KernelSymbol), samples paired with their
 * StackWalk events and aggregated by distinct stack, per-thread switch
 * times -> symbolize each distinct location (petw_symbolizer: elfutils'
 * libdwfl) -> view or export. Memory grows with the distinct stacks,
 * locations, threads and images, not with the number of events.
 *
 * Works on petw's traces and on Windows' (WPR, xperf, PerfView: 32- and
 * 64-bit): frames without symbols read `module+0xOFFSET` (ELF: the file
 * offset) or, for Windows images, `module!+0xRVA`.
 *
 * Built where elfutils' libdw is (Linux); petw_analysis_available() says
 * whether this build symbolizes. Thread safety: one thread per object.
 */
#ifndef PETW_ANALYSIS_H
#define PETW_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Symbolizer: ELF files by path and build-id, with libdwfl ---- */

typedef struct petw_symbolizer petw_symbolizer;

typedef struct petw_symbolizer_config {
    /* Directories to search besides the recorded path and
     * /usr/lib/debug: DIR/.build-id/xx/rest(.debug) and DIR/NAME. */
    const char *const *dirs;
    uint32_t dir_count;
    int no_inline;   /* 1: the function alone, no inlined frames */
    int no_demangle; /* 1: names as in the symbol table */
    uint32_t reserved[8];
} petw_symbolizer_config;

void petw_symbolizer_config_init(petw_symbolizer_config *config);

/* One frame of source: the function (demangled), its file and line
 * (NULL and 0 when there is no line information). */
typedef struct petw_source_line {
    const char *function;
    const char *file;
    uint32_t line;
} petw_source_line;

/* Returns 0, PETW_EINVAL, PETW_ENOMEM, or PETW_ENOTSUP when this build has
 * no symbolizer (no libdw). */
int petw_symbolizer_new(const petw_symbolizer_config *config, petw_symbolizer **out);
void petw_symbolizer_free(petw_symbolizer *s);

/* Symbolizes the code at `offset` in the image file `path` (ELF: the file
 * offset, that is the address less the image's base as Image events give
 * it). The file is the first of: `path` when its build-id is `build_id`
 * (any file at `path` when build_id_size is 0), the debug directories'
 * .build-id entries, the config's dirs; its DWARF comes from the same file
 * or a separate debug file (by build-id or debuglink, and through
 * debuginfod only when DEBUGINFOD_URLS is set). Each file is opened once.
 * Fills up to `max` lines, innermost first (inlined functions, then the
 * function that holds them); *count is 0 when nothing is known (no file,
 * another build, no symbol there): never a wrong name. Strings live until
 * petw_symbolizer_free(). Returns 0, PETW_EINVAL or PETW_ENOMEM. */
int petw_symbolizer_lookup(petw_symbolizer *s, const char *path, const uint8_t *build_id,
                           uint32_t build_id_size, uint64_t offset, petw_source_line *lines,
                           uint32_t max, uint32_t *count);

/* ---- The model of a trace ---- */

typedef struct petw_profile petw_profile;

/* What the model saw, event by event, for exporters that stream a
 * timeline (petw_profile_hooks). Times are FILETIMEs; CPU is the buffer's
 * processor. */
typedef struct petw_profile_switch { /* CSwitch: a CPU went from old to new */
    int64_t time;
    uint32_t cpu;
    uint32_t old_tid, old_pid, new_tid, new_pid; /* tid 0: the idle thread */
    int8_t old_priority, new_priority;
    uint8_t old_state;   /* KTHREAD_STATE: 1 Ready and 7 DeferredReady are runnable */
    uint8_t wait_reason; /* KWAIT_REASON of a thread that blocked (Linux: 0 or 32) */
} petw_profile_switch;

typedef struct petw_profile_wakeup { /* ReadyThread: `by` made `tid` runnable */
    int64_t time;
    uint32_t cpu;
    uint32_t tid, pid, by_tid, by_pid;
} petw_profile_wakeup;

typedef struct petw_profile_sample { /* a CPU sample the model counted */
    int64_t time;
    uint32_t cpu;
    uint32_t tid, pid;
    uint32_t stack; /* its distinct stack: petw_profile_stack_at() of the model */
} petw_profile_sample;

/* The kinds of file operation (petw_profile_file.ops[]). */
enum {
    PETW_FILE_OP_CREATE,  /* Create: an open */
    PETW_FILE_OP_READ,    /* Read */
    PETW_FILE_OP_WRITE,   /* Write */
    PETW_FILE_OP_CLOSE,   /* Close (the file object released) */
    PETW_FILE_OP_FLUSH,   /* Flush */
    PETW_FILE_OP_SETINFO, /* SetInfo (a truncate), QueryInfo, FSControl */
    PETW_FILE_OP_DELETE,  /* Delete */
    PETW_FILE_OP_RENAME,  /* Rename */
    PETW_FILE_OP_OTHER,   /* DirEnum, DirNotify */
    PETW_FILE_OP_CLEANUP, /* Cleanup (the last handle closed) */
    PETW_FILE_OP_KINDS
};

/* The file I/O of one process on one file (the file's name at the time of
 * each operation: a renamed file is two rows). On Windows traces, the disk
 * I/O that DiskIo's FileObject (the file's FileKey) lays at the file's
 * door, by the DiskIo event's process (the issuing thread's, else the
 * header's: often System for the lazy writer); every DiskIo Read and Write
 * is in one row, so the rows' disk bytes sum to the DiskIo total. */
typedef struct petw_profile_file {
    const char *name; /* the path the trace gives, or "" when no event named the file */
    uint32_t pid;     /* its process (UINT32_MAX: not known) */
    uint64_t ops[PETW_FILE_OP_KINDS];
    uint64_t read_bytes, write_bytes; /* moved (OperationEnd's ExtraInfo, else the size asked) */
    uint64_t time_total, time_max;    /* 100 ns units: each operation to its OperationEnd */
    uint64_t disk_reads, disk_writes, disk_read_bytes, disk_write_bytes;
} petw_profile_file;

/* One file operation, as the model counts it (petw_profile_hooks.file_io). */
typedef struct petw_profile_file_io {
    int64_t start, end; /* end == start when it never ended */
    uint32_t pid, tid;
    int kind;         /* PETW_FILE_OP_* */
    const char *name; /* the file's name then ("" if not yet known) */
    uint64_t key;     /* the file's key (FileKey; 0: none): petw_profile_file_name() */
    uint64_t offset, bytes;
    uint32_t status; /* NtStatus */
} petw_profile_file_io;

typedef struct petw_profile_disk_io { /* DiskIo Read or Write, when it completed */
    int64_t time;
    uint32_t disk, pid, tid; /* pid, tid: the issuing thread's, when the event names it */
    int write;
    uint64_t bytes, offset;
    uint64_t latency; /* 100 ns units (HighResResponseTime) */
} petw_profile_disk_io;

/* A page fault (PageFault's TransitionFault 10, DemandZeroFault 11,
 * CopyOnWrite 12, GuardPageFault 13, HardPageFault 14, AccessViolation 15)
 * or a hard fault's read (HardFault 32). */
typedef struct petw_profile_fault {
    int64_t time; /* a HardFault: its read's end */
    uint32_t pid, tid;
    uint8_t opcode;
    uint64_t address;
    uint64_t duration; /* HardFault: 100 ns units from the fault's start (0: not known) */
    const char *file;  /* HardFault: the file read ("" when the trace names none) */
    uint64_t offset;   /* HardFault: where in the file */
} petw_profile_fault;

/* A VirtualAlloc or VirtualFree (Linux: mmap, munmap, brk, mremap). */
typedef struct petw_profile_vm {
    int64_t time;
    uint32_t pid, tid; /* pid: the process whose memory it is */
    int free;          /* 1: VirtualFree */
    uint64_t base, size;
    uint32_t flags;     /* MEM_* */
    int64_t mapped_now; /* the process's bytes mapped less unmapped after it (the trace's) */
} petw_profile_vm;
/* A TcpIp or UdpIp event (Windows' and petw's, v2), as the model read it. */
enum {
    PETW_PROFILE_NET_SEND = 1,
    PETW_PROFILE_NET_RECV,
    PETW_PROFILE_NET_CONNECT,
    PETW_PROFILE_NET_ACCEPT,
    PETW_PROFILE_NET_DISCONNECT,
    PETW_PROFILE_NET_RETRANSMIT,
    PETW_PROFILE_NET_RECONNECT,
};
typedef struct petw_profile_net_op {
    int64_t time;
    uint32_t pid;                     /* the event's PID field: the socket's process */
    uint32_t tid;                     /* the record's thread (UINT32_MAX or 0 when it names none) */
    uint8_t op;                       /* PETW_PROFILE_NET_* */
    uint8_t protocol;                 /* 6 TCP, 17 UDP */
    uint8_t family;                   /* 4 or 6 */
    uint32_t bytes;                   /* the event's size */
    uint8_t local[16], remote[16];    /* saddr and daddr, network order (IPv4: 4 bytes) */
    uint16_t local_port, remote_port; /* sport and dport */
    uint64_t connid;                  /* the connection's (socket's) identity, or 0 */
} petw_profile_net_op;

/* Called as the model reads, in time order, on the reading thread (each
 * may be NULL). `process` and `thread` see a process or thread start
 * (opcode 1 or 3) and end (2) once the model took it in; `event` sees every
 * record that is not one the model reads itself (provider events, and
 * kernel events it skips, such as Thread SetName). A
 * sample is reported when its stack arrives (or the thread's next sample or
 * the end comes first), so its time may be a little behind the others'. */
typedef struct petw_profile_hooks {
    void (*process)(void *context, const petw_profile *p, uint32_t pid, int opcode, int64_t time);
    void (*thread)(void *context, uint32_t tid, uint32_t pid, int opcode, int64_t time);
    void (*cswitch)(void *context, const petw_profile_switch *s);
    void (*wakeup)(void *context, const petw_profile_wakeup *w);
    void (*sample)(void *context, const petw_profile_sample *s);
    void (*disk_io)(void *context, const petw_profile_disk_io *d);
    void (*event)(void *context, const petw_event_record *r);
    void (*fault)(void *context, const petw_profile_fault *f);
    void (*vm)(void *context, const petw_profile_vm *v);
    void (*file_io)(void *context, const petw_profile_file_io *f);
    void (*net)(void *context, const petw_profile_net_op *o); /* TcpIp and UdpIp */
} petw_profile_hooks;

typedef struct petw_profile_config {
    uint32_t pid;             /* 0: every process */
    uint32_t tid;             /* 0: every thread */
    const char *process_name; /* NULL: any; else processes of this name alone */
    int64_t start_time;       /* FILETIMEs bounding the samples and switches; 0: none */
    int64_t end_time;
    int no_symbols;                    /* 1: no symbolization (module+offset frames) */
    petw_symbolizer_config symbolizer; /* used unless no_symbols */
    /* NULL: the model's own decoder; else events are decoded with this one
     * (the caller's manifests name their events), while reading only; the
     * model does not free it. */
    petw_decoder *decoder;
    /* NULL: none; else called as the model reads: `sample` for the
     * samples the model counts (after the filters), the others for every
     * record whatever the filters. Two reads of the same files with the same filters
     * number their stacks alike, so an exporter can read once for the
     * symbols and again, with no_symbols, for the timeline. */
    const petw_profile_hooks *hooks;
    void *hooks_context;
    uint32_t reserved[8];
} petw_profile_config;

void petw_profile_config_init(petw_profile_config *config);

typedef struct petw_profile_process {
    uint32_t pid, parent_pid;
    const char *name;         /* the image name (Linux: comm), "" when not seen; PID 0's is
                               * "Idle" unless the trace names it */
    const char *command_line; /* "" when not known */
    int64_t start_time;       /* FILETIME; 0: before the trace */
    int64_t end_time;         /* FILETIME; 0: still running at its end */
    uint64_t samples;         /* CPU samples of its threads (after the filters) */
} petw_profile_process;

typedef struct petw_profile_thread {
    uint32_t tid, pid;
    uint64_t samples;
    /* From CSwitch and ReadyThread (100 ns units, within the time bounds). */
    uint64_t running, ready, waiting; /* on a CPU; runnable; blocked */
    uint64_t switches_in;             /* times it went on a CPU */
    uint64_t preempted;               /* times it left a CPU still runnable */
    uint64_t readied;                 /* times another thread made it runnable */
    uint32_t top_reader_tid;          /* the thread that readied it most (0: none) */
    uint64_t top_reader_count;
    uint64_t wait_reasons[40]; /* switches out by KWAIT_REASON (Linux: 0 or 32) */
} petw_profile_thread;

/* A distinct code location: an address in an image (or none known). */
typedef struct petw_profile_location {
    uint64_t address;   /* as recorded (the first process's) */
    uint64_t offset;    /* in its image: the address less the image's base */
    const char *module; /* the image file's name ("libc.so.6"), "[kernel]" or "[unknown]" */
    const char *path;   /* the image's path as recorded, or "" */
    int kernel;         /* a kernel address */
    /* After symbolization: innermost first; lines[line_count - 1] is the
     * function holding the inlined ones. 0: not known. */
    uint32_t line_count;
    const petw_source_line *lines;
    const char *name; /* what to show for the function: lines' last, else "module+0xOFFSET" */
} petw_profile_location;

/* A distinct stack of one thread and how many samples had it. A stack
 * recorded at a context switch or a ReadyThread alone has no samples. */
typedef struct petw_profile_stack {
    uint32_t pid, tid;
    uint64_t samples;
    uint32_t frame_count;
    const uint32_t *frames; /* location indexes, innermost (the sampled address) first */
    uint64_t offcpu;        /* 100 ns units its thread spent blocked in it (CSwitch stacks) */
} petw_profile_stack;

/* Off-CPU time (CSwitch and ReadyThread, with their stacks when the trace
 * has them: StackWalk events after CSwitch, the stack the thread switched
 * in had blocked with, and after ReadyThread, the readying thread's), as
 * WPA's CPU Usage (Precise) counts it: the waits of one thread that
 * blocked in one stack and were readied by one thread with one stack. A
 * wait is counted when its thread switches back in (within the time
 * bounds, after the filters); a thread that left its CPU still runnable
 * (preempted) did not wait. */
typedef struct petw_profile_offcpu {
    uint32_t pid, tid;
    uint32_t stack;                /* where it blocked: petw_profile_stack_at(), or UINT32_MAX */
    uint32_t ready_pid, ready_tid; /* the readying thread (0: none seen, such as a timer) */
    uint32_t ready_stack;          /* the readying thread's stack, or UINT32_MAX */
    uint64_t waits;
    uint64_t waiting;     /* 100 ns units: from leaving the CPU to being readied */
    uint64_t ready;       /* 100 ns units: from being readied to running again */
    uint64_t waiting_max; /* the longest wait's */
} petw_profile_offcpu;

/* Disk I/O of one process (DiskIo Read and Write, by the issuing thread's
 * process when the event names it). */
typedef struct petw_profile_disk {
    uint32_t pid;
    uint64_t reads, writes, read_bytes, write_bytes;
    uint64_t response_total, response_max; /* 100 ns units (HighResResponseTime) */
} petw_profile_disk;

/* Memory of one process (the PageFault class): its faults, soft (a page
 * already in memory or zero-filled: transition, demand zero, copy on write,
 * guard page) and hard (HardPageFault, or HardFault where the trace has only
 * those), the hard faults' reads and their time, and what the process
 * mapped and unmapped (VirtualAlloc and VirtualFree sizes, whatever their
 * flags: on Windows a range reserved then committed counts twice), and the
 * highest its mapped less unmapped bytes reached in the trace. */
typedef struct petw_profile_memory {
    uint32_t pid;
    uint64_t soft_faults, hard_faults;
    uint64_t transition, demand_zero, copy_on_write, guard_page, access_violation;
    uint64_t hard_reads, hard_read_bytes;    /* HardFault events, their ByteCount */
    uint64_t hard_time_total, hard_time_max; /* 100 ns units (a read's start known) */
    uint64_t allocs, frees, mapped_bytes, unmapped_bytes;
    int64_t net, peak; /* mapped less unmapped: at the end, at most */
} petw_profile_memory;

/* Hard faults of one process in one file (HardFault: the FileObject's name
 * from FileIo's Name, FileCreate or FileRundown events; "" when none). */
typedef struct petw_profile_memory_file {
    const char *file;
    uint32_t pid;
    uint64_t hard_faults, bytes;
    uint64_t time_total, time_max; /* 100 ns units */
    uint64_t object;               /* the HardFaults' FileObject (the first one's) */
} petw_profile_memory_file;
/* Network traffic of one connection of one process (TcpIp and UdpIp:
 * one endpoint, by protocol, addresses and ports; a socket whose
 * addresses the trace does not give, all zero, by its connid). */
typedef struct petw_profile_net_connection {
    uint32_t pid;
    uint8_t protocol, family; /* 6 TCP or 17 UDP; 4 or 6 */
    uint8_t local[16], remote[16];
    uint16_t local_port, remote_port;
    uint64_t connid; /* 0 unless the addresses are unknown */
    uint64_t sends, send_bytes, receives, receive_bytes, retransmits;
    uint64_t connects, accepts, disconnects;
    int64_t first, last;    /* FILETIMEs of its first and last event */
    int64_t opened, closed; /* its (last) Connect or Accept, Disconnect; 0: not in the trace */
} petw_profile_net_connection;

/* One kind of event (provider, event id or TraceLogging name, opcode,
 * version) and how many the trace held; for Start/Stop pairs (opcodes 1
 * and 2 of one task, or of one TraceLogging event name; by activity ID,
 * else by thread; classic events are not paired), their durations. */
typedef struct petw_profile_event_kind {
    const char *provider; /* its name, or its GUID as text */
    const char *name;     /* the event's name, or "" */
    petw_guid provider_id;
    uint16_t id, task;
    uint8_t opcode, version;
    uint64_t count;
    int64_t first, last;                     /* FILETIMEs */
    uint64_t pairs;                          /* Start/Stop pairs (counted on the Stop) */
    uint64_t pair_total, pair_min, pair_max; /* 100 ns units */
} petw_profile_event_kind;

/* Reads `count` (<= 64) traces merged in time order into a model and
 * symbolizes its locations. Returns 0, PETW_EINVAL, PETW_ENOENT, PETW_EIO,
 * PETW_ECORRUPT, PETW_ENOMEM (as petw_trace_open and petw_trace_process). */
int petw_profile_read(const char *const *paths, uint32_t count, const petw_profile_config *config,
                      petw_profile **out);
/* As petw_profile_read() for one trace already in memory (copied). */
int petw_profile_read_memory(const void *data, size_t size, const petw_profile_config *config,
                             petw_profile **out);
void petw_profile_free(petw_profile *p);

/* The sampling interval in 100 ns units (the trace's, else 10000 = 1 ms). */
uint32_t petw_profile_interval(const petw_profile *p);
/* The first and last event times (FILETIME). */
void petw_profile_bounds(const petw_profile *p, int64_t *first, int64_t *last);
/* Events and buffers the traces' writers lost (summed over the files). */
void petw_profile_lost(const petw_profile *p, uint64_t *events, uint64_t *buffers);
/* Samples in the model (after the filters), and the samples with a stack. */
uint64_t petw_profile_samples(const petw_profile *p);
/* The samples whose stack was cut short: a frame-pointer walk (Linux's
 * user stacks) that reached a caller in no mapping, as code built without
 * frame pointers leaves (a return address read from a string), ends there,
 * as perf ends it; the stack keeps its frames up to that one. Windows'
 * stacks (walked with unwind data) are never cut. */
uint64_t petw_profile_truncated(const petw_profile *p);

uint32_t petw_profile_process_count(const petw_profile *p);
const petw_profile_process *petw_profile_process_at(const petw_profile *p, uint32_t index);
/* The process `pid` (the last of that id), or NULL. */
const petw_profile_process *petw_profile_process_find(const petw_profile *p, uint32_t pid);
uint32_t petw_profile_thread_count(const petw_profile *p);
const petw_profile_thread *petw_profile_thread_at(const petw_profile *p, uint32_t index);
uint32_t petw_profile_location_count(const petw_profile *p);
const petw_profile_location *petw_profile_location_at(const petw_profile *p, uint32_t index);
uint32_t petw_profile_stack_count(const petw_profile *p);
const petw_profile_stack *petw_profile_stack_at(const petw_profile *p, uint32_t index);

uint32_t petw_profile_offcpu_count(const petw_profile *p);
const petw_profile_offcpu *petw_profile_offcpu_at(const petw_profile *p, uint32_t index);
uint32_t petw_profile_disk_count(const petw_profile *p);
const petw_profile_disk *petw_profile_disk_at(const petw_profile *p, uint32_t index);
uint32_t petw_profile_memory_count(const petw_profile *p);
const petw_profile_memory *petw_profile_memory_at(const petw_profile *p, uint32_t index);
uint32_t petw_profile_memory_file_count(const petw_profile *p);
const petw_profile_memory_file *petw_profile_memory_file_at(const petw_profile *p, uint32_t index);
/* PageFault records the model skipped: too short for their layout, or a
 * VirtualAlloc/VirtualFree size that is no region's (not whole 4 KB pages,
 * or more than the address space). */
uint64_t petw_profile_memory_skipped(const petw_profile *p);
/* File I/O (the FileIo class) by file and process, as WPA's File I/O and
 * "Disk Usage by file" tables count it; rows in no particular order. Each
 * operation is counted when its OperationEnd comes (matched by IrpPtr;
 * one that never ends is counted at the trace's end without a time). */
uint32_t petw_profile_file_count(const petw_profile *p);
const petw_profile_file *petw_profile_file_at(const petw_profile *p, uint32_t index);
/* FileIo records the model skipped as malformed (too short, a name that is
 * not UTF-16), and operations whose OperationEnd never came. */
/* The last name the trace gives file `key` (petw_profile_file_io.key),
 * or NULL: a model read to the end names what a hook saw unnamed. */
const char *petw_profile_file_name(const petw_profile *p, uint64_t key);
uint64_t petw_profile_file_skipped(const petw_profile *p);
uint64_t petw_profile_file_unended(const petw_profile *p);
uint32_t petw_profile_net_count(const petw_profile *p);
const petw_profile_net_connection *petw_profile_net_at(const petw_profile *p, uint32_t index);
/* TcpIp and UdpIp records the model skipped: shorter than their layout,
 * or of a version it does not read. */
uint64_t petw_profile_net_skipped(const petw_profile *p);
uint32_t petw_profile_event_kind_count(const petw_profile *p);
const petw_profile_event_kind *petw_profile_event_kind_at(const petw_profile *p, uint32_t index);

/* Whether the model pairs `r` as the Start (returns 1) or the Stop (2) of
 * a Start/Stop pair: opcodes 1 and 2 of an event with a task, or of a
 * TraceLogging event (paired by its name); classic events never are. 0:
 * neither. Pairs match by provider, task (or name) and activity ID, else
 * thread: a Start and its Stop get the same *key (when key is not NULL). */
int petw_profile_event_pairs(const petw_event_record *r, uint64_t *key);

/* 1 when this build symbolizes (it has libdw), else 0. */
int petw_analysis_available(void);

#ifdef __cplusplus
}
#endif

#endif /* PETW_ANALYSIS_H */
