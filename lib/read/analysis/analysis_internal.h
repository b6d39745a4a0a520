/* SPDX-License-Identifier: MIT */
/* analysis_internal.h - what the analysis module's files share.
 *
 * Allowed dependencies: common/, classes/, consume/, decode/, pdb/, platform/, libdw, libcurl,
 * libmspack.
 */
#ifndef PETW_ANALYSIS_INTERNAL_H
#define PETW_ANALYSIS_INTERNAL_H

#include "../../base/common/common.h"
#include "petw/analysis.h"
#include "petw/decode.h"

/* Growable arrays: `*items` holds at least `need` items of `size` bytes
 * (capacity doubled from 64). 0 or PETW_ENOMEM (the old array kept). */
int petw__grow(void **items, uint32_t *cap, uint32_t need, size_t size);

/* A u64 -> u32 hash map (open addressing, linear probing, never shrinks):
 * a key stays once put (its value may be put again). PETW__MAP_NONE is not
 * a value. */
#define PETW__MAP_NONE UINT32_MAX
typedef struct petw__map {
    uint64_t *keys;
    uint32_t *values; /* PETW__MAP_NONE: empty */
    uint32_t cap, count;
} petw__map;

/* A 64-bit finalizer (MurmurHash3's): keys spread over the table. */
uint64_t petw__mix(uint64_t k);
/* `key`'s value, or PETW__MAP_NONE. */
uint32_t petw__map_get(const petw__map *m, uint64_t key);
/* 0, or PETW_ENOMEM. */
int petw__map_put(petw__map *m, uint64_t key, uint32_t value);
void petw__map_free(petw__map *m);

/* Cached stacks (Windows 8 and later: "stack caching", as WPR and PerfView
 * record by default). A sample's stack comes as up to two keys, a StackKey-
 * Kernel and a StackKeyUser event naming a cache entry, and each key's
 * frames come later, when the entry leaves the cache (KeyDelete) or at the
 * trace's end (KeyRundown); a key is then free for another stack. Samples
 * are held, counted by (process, thread, keys), until their keys are
 * defined; memory grows with the distinct combinations waiting, not with
 * the samples. */
typedef struct petw__stackkeys petw__stackkeys;
/* A resolved stack: the kernel part's frames then the user part's
 * (innermost first), `count` samples of it; with their times and CPUs, in
 * the order they came, when those were kept (else NULL). */
typedef void (*petw__stackkey_emit)(void *context, uint32_t pid, uint32_t tid,
                                    const uint64_t *frames, uint32_t n, uint32_t count,
                                    const int64_t *times, const uint32_t *cpus);
/* One sample of `pid`/`tid` at `ip`, `time` and `cpu`, whose stack is
 * kernel key `kkey` and user key `ukey` (0: that part is absent); its time
 * and CPU are kept when `keep_times` (memory then grows with the samples
 * waiting). 0 or PETW_ENOMEM. */
int petw__stackkeys_reference(petw__stackkeys **s, uint32_t pid, uint32_t tid, uint64_t ip,
                              uint64_t kkey, uint64_t ukey, int64_t time, uint32_t cpu,
                              int keep_times);
/* Key `key` is `frames` (innermost first): the samples waiting on it take
 * them, and those whose keys are all defined go to `emit`. 0 or
 * PETW_ENOMEM. */
int petw__stackkeys_define(petw__stackkeys *s, uint64_t key, const uint64_t *frames, uint32_t n,
                           petw__stackkey_emit emit, void *context);
/* The trace ended: samples still waiting go to `emit` with the parts that
 * were defined (their sampled address alone when none was). */
void petw__stackkeys_finish(petw__stackkeys *s, petw__stackkey_emit emit, void *context);
void petw__stackkeys_free(petw__stackkeys *s);

/* Interned strings: each distinct text stored once, alive until freed. */
typedef struct petw__strings {
    char **slots; /* open addressing */
    uint32_t cap, count;
} petw__strings;

/* `s` interned (NULL when memory runs out). */
const char *petw__strings_intern(petw__strings *t, const char *s);
/* `symbol` demangled (C++ and Rust's legacy mangling, when `demangle`),
 * interned. */
const char *petw__strings_demangle(petw__strings *t, const char *symbol, int demangle);
void petw__strings_free(petw__strings *t);

/* Windows images' PDBs (pdb_match.c), found by their identity under the
 * config's symbol directories (DIR/NAME and the symbol store's
 * DIR/NAME/GUIDAGE/NAME), each identity searched once. Fills up to `max`
 * lines for `rva` (names interned in `strings`); *count 0 when there is
 * no such PDB or no symbol there. 0 or PETW_ENOMEM. */
typedef struct petw__pdbs petw__pdbs;
int petw__pdbs_lookup(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const petw_guid *guid, uint32_t age, const char *name, uint32_t rva,
                      petw__strings *strings, petw_source_line *lines, uint32_t max,
                      uint32_t *count);
void petw__pdbs_free(petw__pdbs *pdbs);
/* The name of the code at `rva` of a Windows image that has no PDB, from
 * the export table of the image itself (pdb_match.c), found as the PDBs
 * are (store layout DIR/name/STAMPSIZE/name, the time stamp's 8 hex digits
 * then the size in hex, or DIR/name) and used only when its PE time stamp
 * and SizeOfImage are `time_stamp` and `image_size` (the trace's ImageID).
 * Writes "Export+0xOFFSET" (or "Export") into `out`: 1 when named, else 0. */
int petw__pdbs_export(petw__pdbs **pdbs, const petw_symbolizer_config *config,
                      const char *image_path, uint32_t time_stamp, uint32_t image_size,
                      uint32_t rva, char *out, size_t out_size);

/* pe_exports.c: a PE image's named exports (forwarders left out). Opens
 * `path` and gives its header's time stamp and SizeOfImage: 0, or
 * PETW_ENOENT, PETW_ECORRUPT (not a PE image, or damaged: `why` says
 * which), PETW_ENOMEM. */
typedef struct petw__pe_exports petw__pe_exports;
int petw__pe_exports_open(const char *path, uint32_t *time_stamp, uint32_t *image_size,
                          petw__pe_exports **out, char *why, size_t why_size);
/* The export at or before `rva` in the same section, and *offset its
 * distance; NULL when none. */
const char *petw__pe_exports_lookup(const petw__pe_exports *e, uint32_t rva, uint32_t *offset);
void petw__pe_exports_free(petw__pe_exports *e);

/* symsrv.c: a symbol server's file, asked only because the symbol path
 * names the server. Fetches server/name/key/name (key: the GUID's 32 hex
 * digits and the age in hex), or on 404 the compressed name.pd_ expanded,
 * into cache/name/key/name, whose path fills `out`. 0; PETW_ENOENT when the
 * server has neither, PETW_EIO when it cannot be reached or answers
 * otherwise, PETW_ENAMETOOLONG, or the cache directory's error: each said
 * in one line on stderr. PETW_ENOTSUP (said by no one) in a build without
 * libcurl. Never checks the file: the caller does, by GUID and age. */
int petw__symsrv_fetch(const char *server, const char *cache, const char *name, const char *key,
                       char *out, size_t size);

/* ---- The profile model (profile*.c): petw_profile's tables and state ----
 * profile.c reads the trace and dispatches each event; profile_tables.c
 * keeps the processes, threads, image files and locations;
 * profile_stacks.c the CPU samples and their stacks; profile_sched.c the
 * switch and wait timing and the off-CPU waits; profile_events.c disk I/O
 * and every event kind; profile_clr.c the code the trace names (.NET
 * methods and modules, JIT and kernel symbols); profile_symbols.c names
 * each distinct location once at the end. */

#define PETW__PROFILE_MAX_FRAMES 256 /* frames of a stack kept at most */

typedef struct petw__image_file {
    const char *path, *module;
    uint8_t build_id[20];
    uint32_t build_id_size;
    int windows;          /* a Windows path: frames read module!+0xRVA */
    const char *pdb_name; /* its DbgID_RSDS (NULL: none): the PDB's name, GUID, age */
    petw_guid pdb_guid;
    uint32_t pdb_age;
    uint32_t pe_stamp, pe_size; /* its PE header's, from ImageID (pe_known) */
    int pe_known;
} petw__image_file;

typedef struct petw__mapped {
    uint64_t base, end;
    uint32_t file;
} petw__mapped;

typedef struct petw__process_state {
    int started;          /* a Start or DCStart was seen */
    petw__mapped *images; /* in load order: searched newest first */
    uint32_t image_count, image_cap;
} petw__process_state;

typedef struct petw__thread_state {
    int has_pending;
    uint64_t pending_ip;
    uint32_t pending_pid, pending_cpu;
    int64_t pending_time;
    uint64_t pending_key[2]; /* its cached stack's kernel and user keys */
    int keyed;               /* on keyed_threads */
    /* Switch accounting (FILETIME units). */
    int64_t since; /* when the current state began; 0: not known */
    int state;     /* 0 unknown, 1 running, 2 ready, 3 waiting */
    uint32_t readers[4], reader_counts[4];
    /* Off-CPU: the StackWalk that follows a thread's event is that event's
     * (STACK_FOR_*): its sample's, its switch in's (where it had blocked)
     * or, as a waker, its ReadyThread's. */
    int stack_for;
    int64_t blocked_at, readied_at; /* FILETIMEs of its wait; 0: none */
    uint32_t ready_by, ready_stack; /* who readied it and with which stack (PETW__MAP_NONE) */
    uint32_t woke;                  /* as a waker: the thread it readied last (PETW__MAP_NONE) */
    int has_wait;                   /* a switch in whose stack is awaited */
    int64_t wait_time;
    uint64_t wait_waiting, wait_ready;
    uint32_t wait_by, wait_by_stack;
} petw__thread_state;

enum {
    PETW__STACK_FOR_NONE,
    PETW__STACK_FOR_SAMPLE,
    PETW__STACK_FOR_SWITCH,
    PETW__STACK_FOR_READY
};

typedef struct petw__kernel_symbol {
    uint64_t start, size;
    const char *name, *module;
    uint32_t pid;       /* JIT symbols: their process; kernel symbols: 0 */
    uint64_t module_id; /* .NET methods: their module's ModuleID, named at the end */
} petw__kernel_symbol;

typedef struct petw__profile_files petw__profile_files;

struct petw_profile {
    petw_profile_config c;
    petw__strings strings;
    petw_decoder *decoder;
    petw_symbolizer *symbolizer;
    petw__pdbs *pdbs; /* Windows images' PDBs, opened as their frames are named */
    int error;
    int64_t first, last;
    uint32_t interval;
    uint64_t samples;
    uint64_t truncated; /* samples whose frame-pointer walk was cut (petw__profile_cut_walks) */
    uint64_t events_lost, buffers_lost;
    const petw_profile_hooks *hooks; /* never NULL: the config's, or none */

    petw_profile_process *processes;
    petw__process_state *pstate;
    uint32_t process_count, process_cap;
    petw__map process_by_pid;

    petw_profile_thread *threads;
    petw__thread_state *tstate;
    uint32_t thread_count, thread_cap;
    petw__map thread_by_tid;

    petw__image_file *files;
    uint32_t file_count, file_cap;
    petw__map file_by_key; /* hash of path and build-id */

    petw_profile_location *locations;
    uint32_t *location_file; /* each location's image file, or PETW__MAP_NONE */
    uint32_t *location_pid;  /* and the process it was first seen in */
    uint32_t location_count, location_cap, location_side_cap;
    petw__map location_by_key;  /* (file, offset) */
    petw__map location_by_addr; /* (pid, address): the image search done once */

    petw_profile_stack *stacks;
    uint32_t stack_count, stack_cap;
    petw__map stack_by_hash;
    uint32_t *frames;
    uint32_t frame_count, frame_cap;

    petw_profile_offcpu *offcpu;
    uint32_t offcpu_count, offcpu_cap;
    petw__map offcpu_by_hash;

    petw__profile_files *fileio; /* profile_file.c's tables, when the trace has FileIo */
    petw_profile_disk *disks;
    uint32_t disk_count, disk_cap;
    petw__map disk_by_pid;
    double disk_ticks_per_100ns; /* HighResResponseTime's clock */

    petw_profile_memory *mems; /* profile_memory.c */
    uint32_t mem_count, mem_cap;
    petw__map mem_by_pid;
    petw_profile_memory_file *mem_files;
    uint32_t mem_file_count, mem_file_cap;
    petw__map mem_file_by_key;     /* (pid, interned name) */
    petw__map file_name_by_object; /* FileObject -> index into file_names */
    const char **file_names;
    uint32_t file_name_count, file_name_cap;
    uint64_t mem_skipped;
    const struct petw_trace *mem_trace; /* HardFault's InitialTime: this trace's clock */
    petw_profile_net_connection *nets;
    uint32_t net_count, net_cap;
    petw__map net_by_key; /* hash of the connection's key */
    uint64_t net_skipped;

    petw_profile_event_kind *kinds;
    uint32_t kind_count, kind_cap;
    petw__map kind_by_key;
    petw__map pending_start; /* (kind, task, activity or thread) -> index into starts */
    int64_t *starts;
    uint32_t start_count, start_cap;

    petw__kernel_symbol *ksyms;
    uint32_t ksym_count, ksym_cap;
    petw__stackkeys *stackkeys; /* samples waiting for their cached stacks */
    uint32_t *keyed_threads;    /* threads whose pending sample has a key */
    uint32_t keyed_count, keyed_cap;
    int ptr4;                  /* the current record's pointers are 4 bytes */
    petw__kernel_symbol *jits; /* from JitSymbol and .NET method events: by process, then address */
    uint32_t jit_count, jit_cap;
    petw__kernel_symbol *clr_modules; /* .NET modules: pid, ModuleID (as start) and name */
    uint32_t clr_module_count, clr_module_cap;
    petw_source_line *lines;
    uint32_t line_count, line_cap;
};

/* profile_tables.c: the model's tables. Each sets p->error on ENOMEM. */
/* `s` interned ("" when memory runs out). */
const char *petw__profile_intern(petw_profile *p, const char *s);
/* Process `pid`'s index, added when `create`; PETW__MAP_NONE if none. */
uint32_t petw__profile_process_index(petw_profile *p, uint32_t pid, int create);
/* Thread `tid`'s index (added when new; `pid` PETW__MAP_NONE: not known). */
uint32_t petw__profile_thread_index(petw_profile *p, uint32_t tid, uint32_t pid);
/* FNV-1a of `n` bytes, continuing from `h`. */
uint64_t petw__profile_hash_bytes(uint64_t h, const void *data, size_t n);
/* A path's last component (after its last '/' or '\\'). */
const char *petw__profile_base_name(const char *path);
/* The image file with `path` and build-id `id`, added when new. */
uint32_t petw__profile_file_index(petw_profile *p, const char *path, const uint8_t *id,
                                  uint32_t id_size);
/* A decoded event's top-level field `name` (NULL), as a number (0) or a
 * string (""). */
const petw_field *petw__profile_field(const petw_decoded_event *ev, const char *name);
uint64_t petw__profile_field_u(const petw_decoded_event *ev, const char *name);
const char *petw__profile_field_s(const petw_decoded_event *ev, const char *name);
/* Image `file` mapped at [base, base + size) in process `pid`. */
void petw__profile_image_add(petw_profile *p, uint32_t pid, uint64_t base, uint64_t size,
                             uint32_t file);
/* The location of `address` in process `pid`. */
uint32_t petw__profile_location_of(petw_profile *p, uint32_t pid, uint64_t address, int ptr4);
/* The record's CPU. */
uint32_t petw__profile_cpu_of(const petw_event_record *r);
/* Whether the config's process filter and time range keep it. */
int petw__profile_pid_wanted(petw_profile *p, uint32_t pid);
int petw__profile_in_time(const petw_profile *p, int64_t t);
/* Process, Image and KernelTraceControl's ImageID and DbgID_RSDS events. */
void petw__profile_on_process(petw_profile *p, const petw_event_record *r, int opcode);
void petw__profile_on_image(petw_profile *p, const petw_event_record *r, int opcode);
void petw__profile_on_image_id(petw_profile *p, const petw_event_record *r);
void petw__profile_on_rsds(petw_profile *p, const petw_event_record *r);

/* profile_stacks.c: CPU samples and their stacks. */
/* The distinct stack of thread `tid` with `n` frames (innermost first),
 * added with no samples when new; PETW__MAP_NONE when it has no frame. */
uint32_t petw__profile_stack_of(petw_profile *p, uint32_t tid, uint32_t pid, const uint64_t *frames,
                                uint32_t n, int ptr4);
/* A cached stack resolved (petw__stackkeys' emit). */
void petw__profile_add_keyed(void *context, uint32_t pid, uint32_t tid, const uint64_t *frames,
                             uint32_t n, uint32_t count, const int64_t *times,
                             const uint32_t *cpus);
/* The process thread `tid` is known in (0: none). */
uint32_t petw__profile_pid_of_thread(petw_profile *p, uint32_t tid);
/* Thread t's sample, with no stack yet, is counted: alone, or waiting for
 * its cached stack's keys. */
void petw__profile_flush_pending(petw_profile *p, uint32_t t, int ptr4);
/* SampledProfile, StackWalk's Stack, StackKey* and KeyDelete/KeyRundown. */
void petw__profile_on_sample(petw_profile *p, const petw_event_record *r, int ptr4);
void petw__profile_on_stack(petw_profile *p, const petw_event_record *r, int ptr4);
void petw__profile_on_stack_key(petw_profile *p, const petw_event_record *r, int user, int ptr4);
void petw__profile_on_stack_key_def(petw_profile *p, const petw_event_record *r, int ptr4);

/* profile_sched.c: switches, waits and off-CPU time. */
/* Thread t's awaited switch in, counted with `stack` (PETW__MAP_NONE: none). */
void petw__profile_add_offcpu(petw_profile *p, uint32_t t, uint32_t stack);
/* The StackWalk after thread t's switch in or after its ReadyThread. */
void petw__profile_on_switch_stack(petw_profile *p, const petw_event_record *r, uint32_t t,
                                   uint32_t pid, int ptr4);
/* Switch accounting: time in the state thread t leaves at `now`. */
void petw__profile_leave_state(petw_profile *p, uint32_t t, int64_t now);
/* CSwitch, ReadyThread, and Thread Start, End, DCStart. */
void petw__profile_on_cswitch(petw_profile *p, const petw_event_record *r);
void petw__profile_on_ready(petw_profile *p, const petw_event_record *r);
void petw__profile_on_thread(petw_profile *p, const petw_event_record *r, int opcode);

/* profile_events.c: DiskIo Read and Write; every event, by kind. */
void petw__profile_on_disk(petw_profile *p, const petw_event_record *r, int write, int ptr4);
/* profile_file.c: FileIo events; DiskIo's bytes for the file `key` (its
 * FileObject field); the end (operations never ended counted, rows by
 * name); freeing. */
void petw__profile_on_file(petw_profile *p, const petw_event_record *r, int opcode, int ptr4);
void petw__profile_on_disk_file(petw_profile *p, uint64_t key, uint32_t pid, int write,
                                uint64_t bytes);
void petw__profile_files_finish(petw_profile *p);
void petw__profile_files_free(petw_profile *p);
void petw__profile_on_any_event(petw_profile *p, const petw_event_record *r);

/* profile_memory.c: PageFault (faults, HardFault, VirtualAlloc and
 * VirtualFree) by process and by file; FileIo's names of FileObjects. */
void petw__profile_on_page_fault(petw_profile *p, const petw_event_record *r, int ptr4);
void petw__profile_on_file_name(petw_profile *p, const petw_event_record *r, int ptr4);
/* After the trace: hard-fault rows of files named only later, named. */
void petw__profile_memory_finish(petw_profile *p);
void petw__profile_memory_free(petw_profile *p);
/* profile_net.c: TcpIp and UdpIp events (`udp` for UdpIp's). */
void petw__profile_on_net(petw_profile *p, const petw_event_record *r, int udp, int ptr4);

/* profile_clr.c: the .NET runtime's method and module events, petw's
 * symbol events (ImageId, JitSymbol, KernelSymbol); at the end, each .NET
 * method's module named. */
void petw__profile_on_clr(petw_profile *p, const petw_event_record *r, int rundown);
void petw__profile_on_symbols(petw_profile *p, const petw_event_record *r);
void petw__profile_name_clr_modules(petw_profile *p);

/* profile_symbols.c: each distinct location named once; Linux's
 * frame-pointer walks cut at their first caller in no mapping. */
void petw__profile_symbolize(petw_profile *p);
void petw__profile_cut_walks(petw_profile *p);

#endif /* PETW_ANALYSIS_INTERNAL_H */
