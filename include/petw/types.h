/* SPDX-License-Identifier: MIT */
/* petw/types.h - value types shared by every part of the native API.
 *
 * The structs here have exactly the layout of their ETW counterparts
 * (GUID, EVENT_DESCRIPTOR, EVENT_DATA_DESCRIPTOR, EVENT_HEADER, EVENT_RECORD,
 * ...), so the ETW-compatible headers in <petw/etw/> are thin typedef'd views
 * of the same bytes; the library checks this with static assertions.
 */
#ifndef PETW_TYPES_H
#define PETW_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A GUID in its in-memory (little-endian fields) form; 16 bytes. */
typedef struct petw_guid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} petw_guid;

/* Identity and filtering attributes of one event; 16 bytes (EVENT_DESCRIPTOR). */
typedef struct petw_event_descriptor {
    uint16_t id;
    uint8_t version;
    uint8_t channel;
    uint8_t level;
    uint8_t opcode;
    uint16_t task;
    uint64_t keyword;
} petw_event_descriptor;

/* One piece of an event's payload; 16 bytes (EVENT_DATA_DESCRIPTOR).
 * `ptr` is the address as an integer so the layout is the same for 32- and
 * 64-bit code. `type` is 0 for payload (the metadata types are reserved for
 * TraceLogging). */
typedef struct petw_data_descriptor {
    uint64_t ptr;
    uint32_t size;
    uint8_t type;
    uint8_t reserved1;
    uint16_t reserved2;
} petw_data_descriptor;

/* Event header as delivered to consumers; 80 bytes (EVENT_HEADER). */
typedef struct petw_event_header {
    uint16_t size;
    uint16_t header_type;
    uint16_t flags;
    uint16_t event_property;
    uint32_t thread_id;
    uint32_t process_id;
    int64_t timestamp;
    petw_guid provider_id;
    petw_event_descriptor descriptor;
    union {
        struct {
            uint32_t kernel_time;
            uint32_t user_time;
        } times;
        uint64_t processor_time;
    } cpu;
    petw_guid activity_id;
} petw_event_header;

/* EVENT_HEADER_FLAG_* values. */
#define PETW_EVENT_HEADER_FLAG_EXTENDED_INFO 0x0001
#define PETW_EVENT_HEADER_FLAG_PRIVATE_SESSION 0x0002
#define PETW_EVENT_HEADER_FLAG_STRING_ONLY 0x0004
#define PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE 0x0008
#define PETW_EVENT_HEADER_FLAG_NO_CPUTIME 0x0010
#define PETW_EVENT_HEADER_FLAG_32_BIT_HEADER 0x0020
#define PETW_EVENT_HEADER_FLAG_64_BIT_HEADER 0x0040
#define PETW_EVENT_HEADER_FLAG_DECODE_GUID 0x0080
#define PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER 0x0100
#define PETW_EVENT_HEADER_FLAG_PROCESSOR_INDEX 0x0200

/* Processor and session of the buffer an event came from (ETW_BUFFER_CONTEXT). */
typedef struct petw_buffer_context {
    union {
        struct {
            uint8_t processor_number;
            uint8_t alignment;
        } p;
        uint16_t processor_index;
    } u;
    uint16_t logger_id;
} petw_buffer_context;

/* One extended-data item of an event (EVENT_HEADER_EXTENDED_DATA_ITEM). */
typedef struct petw_extended_item {
    uint16_t reserved1;
    uint16_t ext_type;
    uint16_t linkage; /* bit 0 in ETW's bit-field; petw leaves it 0 */
    uint16_t data_size;
    uint64_t data_ptr;
} petw_extended_item;

#define PETW_EXT_TYPE_RELATED_ACTIVITYID 1
/* Items the enable properties of a session add (ETW's EVENT_HEADER_EXT_TYPE_*;
 * docs/format.md gives their data): */
#define PETW_EXT_TYPE_SID 2           /* the writing user's SID (binary) */
#define PETW_EXT_TYPE_TS_ID 3         /* u32: the writer's terminal session */
#define PETW_EXT_TYPE_STACK_TRACE64 6 /* u64 MatchId, then u64 return addresses */
#define PETW_EXT_TYPE_EVENT_KEY 10    /* u64: a hash naming the event */
#define PETW_EXT_TYPE_EVENT_SCHEMA_TL 11
#define PETW_EXT_TYPE_PROV_TRAITS 12
#define PETW_EXT_TYPE_PROCESS_START_KEY 13 /* u64: unique per process start */

/* An event as delivered to a consumer callback (EVENT_RECORD). Every pointer
 * points into the reader's memory and is valid only during the callback. */
typedef struct petw_event_record {
    petw_event_header header;
    petw_buffer_context buffer_context;
    uint16_t extended_data_count;
    uint16_t user_data_length;
    petw_extended_item *extended_data;
    void *user_data;
    void *user_context;
} petw_event_record;

/* ---- The shared vocabulary: limits, clocks, modes and flags that every
 * module (and every file petw writes) speaks. Higher headers use these;
 * nothing here depends on a session, a ring or a file. ---- */

#define PETW_MAX_SESSIONS 64 /* running sessions per process */
#define PETW_MAX_SESSIONS_PER_PROVIDER 8
#define PETW_MAX_NAME 1024 /* bytes of a UTF-8 logger name or file path, NUL included */

/* Session clocks (Wnode.ClientContext; TRACE_LOGFILE_HEADER.ReservedFlags). */
#define PETW_CLOCK_QPC 1    /* monotonic counter, 1 ns ticks (PerfFreq 10^9) */
#define PETW_CLOCK_SYSTEM 2 /* wall clock as FILETIME, 100 ns ticks */
#define PETW_CLOCK_CYCLES 3 /* CPU cycle counter where one exists, else as QPC */

/* Log file modes (EVENT_TRACE_FILE_MODE_* and EVENT_TRACE_*_MODE values). */
#define PETW_MODE_SEQUENTIAL 0x00000001u  /* append buffers to the file */
#define PETW_MODE_CIRCULAR 0x00000002u    /* file capped; oldest buffers overwritten */
#define PETW_MODE_APPEND 0x00000004u      /* with SEQUENTIAL: continue an existing file */
#define PETW_MODE_NEWFILE 0x00000008u     /* a new file (name with %d) at each cap */
#define PETW_MODE_PREALLOCATE 0x00000020u /* reserve the cap on disk up front */
#define PETW_MODE_REAL_TIME 0x00000100u   /* deliver to live consumers */
#define PETW_MODE_BUFFERING 0x00000400u   /* memory only; oldest overwritten; snapshots */
#define PETW_MODE_COMPRESSED 0x04000000u  /* Windows: buffers XPRESS-compressed (read only) */
/* Accepted for ETW code and recorded; every petw session is private to its
 * process today, and memory is never paged. */
#define PETW_MODE_PRIVATE_LOGGER 0x00000800u
#define PETW_MODE_PRIVATE_IN_PROC 0x00020000u
#define PETW_MODE_USE_PAGED_MEMORY 0x01000000u
#define PETW_MODE_INDEPENDENT_SESSION 0x08000000u

/* The system provider's event groups (petw_session_config.system_flags):
 * the NT Kernel Logger's EVENT_TRACE_FLAG_* values. */
#define PETW_SYSTEM_PROCESS 0x00000001u    /* Process start/end, DCStart rundown */
#define PETW_SYSTEM_THREAD 0x00000002u     /* Thread start/end, DCStart rundown */
#define PETW_SYSTEM_IMAGE_LOAD 0x00000004u /* Image load (executable mappings), DCStart */
#define PETW_SYSTEM_CSWITCH 0x00000010u    /* Thread CSwitch */
#define PETW_SYSTEM_DISK_IO 0x00000100u    /* DiskIo read/write completions (block layer) */
#define PETW_SYSTEM_DISPATCHER 0x00000800u /* Thread ReadyThread (wake-ups) */
/* PageFault faults (EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS): every fault's
 * address and program counter (Linux: minor faults, and hard ones) */
#define PETW_SYSTEM_PAGE_FAULTS 0x00001000u
/* PageFault HardFault (EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS): a fault that
 * read its page, with the file, offset and duration */
#define PETW_SYSTEM_HARD_FAULTS 0x00002000u
/* PageFault VirtualAlloc/VirtualFree (EVENT_TRACE_FLAG_VIRTUAL_ALLOC): Linux's
 * mmap, munmap, brk and mremap */
#define PETW_SYSTEM_VIRTUAL_ALLOC 0x00004000u
#define PETW_SYSTEM_PROFILE 0x01000000u /* PerfInfo SampledProfile (CPU samples) */
/* FileIo: every file operation with its OperationEnd, and the FileName
 * events (Linux: a BPF program on the file system calls). */
#define PETW_SYSTEM_FILE_IO 0x02000000u
/* FileIo's operations are logged at their start (FILE_IO_INIT); with
 * FILE_IO, petw logs them so already: the same events. */
#define PETW_SYSTEM_FILE_IO_INIT 0x04000000u
/* DiskIo's file names (DISK_FILE_IO: the FileName events): with FILE_IO. */
#define PETW_SYSTEM_DISK_FILE_IO 0x00000200u
/* TcpIp and UdpIp: send, receive, connect, accept, disconnect, retransmit
 * (EVENT_TRACE_FLAG_NETWORK_TCPIP); docs/kernel-events.md says what each
 * kernel gives. */
#define PETW_SYSTEM_NETWORK_TCPIP 0x00010000u
#define PETW_SYSTEM_SUPPORTED                                                                      \
    (PETW_SYSTEM_PROCESS | PETW_SYSTEM_THREAD | PETW_SYSTEM_IMAGE_LOAD | PETW_SYSTEM_CSWITCH |     \
     PETW_SYSTEM_DISK_IO | PETW_SYSTEM_DISPATCHER | PETW_SYSTEM_PROFILE |                          \
     PETW_SYSTEM_PAGE_FAULTS | PETW_SYSTEM_HARD_FAULTS | PETW_SYSTEM_VIRTUAL_ALLOC |               \
     PETW_SYSTEM_FILE_IO | PETW_SYSTEM_FILE_IO_INIT | PETW_SYSTEM_DISK_FILE_IO |                   \
     PETW_SYSTEM_NETWORK_TCPIP)

/* What the OS left out of a system session (petw_session_stats). */
#define PETW_SYSTEM_LIMIT_USER_ONLY 0x1u /* no kernel code in samples and stacks */
/* CSwitch stacks were asked, the OS gives none (Linux: no sched_switch tracepoint) */
#define PETW_SYSTEM_LIMIT_NO_SWITCH_STACKS 0x2u
/* Page faults were asked, the OS gives no page-fault events (Linux: perf's
 * software events refused): no faults, no hard faults */
#define PETW_SYSTEM_LIMIT_NO_FAULTS 0x4u
/* Virtual memory was asked, the OS gives no record of its calls (Linux: no
 * syscalls:sys_enter/exit_mmap, munmap, brk, mremap tracepoints) */
#define PETW_SYSTEM_LIMIT_NO_VIRTUAL_ALLOC 0x8u
/* Hard faults are recorded without their start (InitialTime is their end) */
#define PETW_SYSTEM_LIMIT_NO_FAULT_TIMES 0x10u
/* File I/O was asked, the OS gives none (no BPF in the build or the
 * kernel, or not the rights: root or CAP_BPF with CAP_PERFMON) */
#define PETW_SYSTEM_LIMIT_NO_FILE_IO 0x20u
/* Network (PETW_SYSTEM_NETWORK_TCPIP) recorded in part. No TCP Send and
 * Recv (Linux before 6.3: no sock_send_length and sock_recv_length
 * tracepoints), nor UDP's without BPF. */
#define PETW_SYSTEM_LIMIT_NET_NO_BYTES 0x40u
/* No Connect, Accept, Disconnect, and TCP sends without their addresses
 * (no inet_sock_set_state tracepoint). */
#define PETW_SYSTEM_LIMIT_NET_NO_CONNECTIONS 0x80u
/* No Retransmit (no tcp_retransmit_skb tracepoint). */
#define PETW_SYSTEM_LIMIT_NET_NO_RETRANSMITS 0x100u
/* UDP datagrams without their addresses and ports (no tracepoint carries
 * them; the BPF program that reads them could not be loaded). */
#define PETW_SYSTEM_LIMIT_NET_NO_UDP_ADDRESSES 0x200u
/* Dispatcher was asked, the OS gives no record of wake-ups (Linux: no
 * sched:sched_waking tracepoint, or not to this user) */
#define PETW_SYSTEM_LIMIT_NO_DISPATCHER 0x400u
/* Disk I/O was asked, the OS gives none (Linux: no block:block_rq_issue
 * and block_rq_complete tracepoints, or not to this user) */
#define PETW_SYSTEM_LIMIT_NO_DISK_IO 0x800u
/* Network was asked, the OS gives none of it (Linux: no sock or tcp
 * tracepoint, or not to this user) */
#define PETW_SYSTEM_LIMIT_NO_NETWORK 0x1000u
/* The OS keeps its tracepoints from this user (Linux: tracefs is there
 * and not readable by the user): the reason of the NO_ bits above that
 * need tracepoints */
#define PETW_SYSTEM_LIMIT_TRACEPOINTS_DENIED 0x2000u

/* What a writer does when every buffer is in use. */
#define PETW_LOSS_DROP_NEWEST 0      /* lose the new event and count it (ETW's behaviour) */
#define PETW_LOSS_OVERWRITE_OLDEST 1 /* reuse the oldest kept buffer (BUFFERING's) */
#define PETW_LOSS_BLOCK 2            /* petw: wait up to block_timeout_ms, then drop */

/* petw's file extensions: petw_session_config.flags, and
 * petw_logfile_info.petw_flags of a file that uses them. (On disk each
 * buffer header carries its own encoding of these; lib/base/format/ translates.) */
#define PETW_SESSION_ZSTD 0x1u     /* zstd-compress each buffer in the file */
#define PETW_SESSION_CHECKSUM 0x2u /* xxHash64 of each buffer in its header */
/* In petw_logfile_info.petw_flags only: the session's clock read the CPU's
 * time-stamp counter (an invariant TSC), its frequency measured. */
#define PETW_FILE_CLOCK_TSC 0x100u

/* Receives each full buffer of a session without a file, on the flusher
 * thread. `buffer` is a complete ETL buffer of `size` bytes. */
typedef void (*petw_buffer_sink)(void *context, const void *buffer, uint32_t size);

/* What a trace file's header says (TRACE_LOGFILE_HEADER, decoded). */
typedef struct petw_logfile_info {
    uint32_t buffer_size;
    uint32_t version;          /* bytes major, minor, sub, subminor from low to high */
    uint32_t provider_version; /* OS build on Windows */
    uint32_t number_of_processors;
    int64_t end_time; /* FILETIME */
    uint32_t timer_resolution;
    uint32_t maximum_file_size;
    uint32_t log_file_mode; /* PETW_MODE_* */
    uint32_t buffers_written;
    uint32_t start_buffers;
    uint32_t pointer_size;
    uint32_t events_lost;
    uint32_t cpu_speed_mhz;
    int64_t boot_time;
    int64_t perf_freq;
    int64_t start_time;      /* FILETIME */
    uint32_t reserved_flags; /* the clock: PETW_CLOCK_* */
    uint32_t buffers_lost;
    int64_t start_timestamp;   /* raw timestamp of the header record */
    uint32_t petw_flags;       /* PETW_SESSION_* extensions the file uses */
    const uint8_t *raw_header; /* the TRACE_LOGFILE_HEADER bytes as on disk */
    uint32_t raw_header_size;
    char logger_name[PETW_MAX_NAME];   /* UTF-8 */
    char log_file_name[PETW_MAX_NAME]; /* UTF-8 */
} petw_logfile_info;

/* Handles given to callers (providers, sessions, open traces) are
 * (generation << 32) | (slot + 1), never pointers, so a stale handle fails
 * its generation check instead of touching freed memory; 0 is never valid.
 * These three are the only place the encoding is spelled out. */
static inline uint64_t petw__handle_make(uint32_t generation, uint32_t slot)
{
    return ((uint64_t)generation << 32) | (slot + 1u);
}
/* The slot; UINT32_MAX for handle 0 (callers bound-check it). */
static inline uint32_t petw__handle_slot(uint64_t handle)
{
    return (uint32_t)handle - 1u;
}
static inline uint32_t petw__handle_generation(uint64_t handle)
{
    return (uint32_t)(handle >> 32);
}

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", with or without braces.
 * Returns 0 or PETW_EINVAL. */
int petw_guid_parse(const char *text, petw_guid *out);

/* Writes the lowercase text form (36 chars + NUL) into `out` (>= 37 bytes). */
void petw_guid_format(const petw_guid *guid, char out[37]);

/* 1 when both GUIDs are equal, else 0. */
int petw_guid_equal(const petw_guid *a, const petw_guid *b);

/* Derives a provider GUID from a provider name (UTF-8) the way EventSource
 * and TraceLogging tooling do (SHA-1 of a fixed namespace and the
 * upper-cased UTF-16BE name, as a version-5 GUID), so providers known only
 * by name can be enabled: petw_guid_from_name("MySource") is
 * a61ea624-4944-55fc-c2a8-37838829438d. Case-insensitive for ASCII and
 * Latin-1 letters; other characters are hashed as they are.
 * Returns 0, PETW_EINVAL (NULL or empty name) or PETW_ENOMEM. */
int petw_guid_from_name(const char *name, petw_guid *out);

#ifdef __cplusplus
}
#endif
#endif /* PETW_TYPES_H */
