/* SPDX-License-Identifier: MIT */
/* registry.h - what the processes of one user share: the session registry
 * and the control messages. docs/shared-memory.md specifies both layouts.
 *
 * Allowed dependencies: common/, platform/.
 *
 * The registry is one file in the runtime directory, mapped by every
 * process that registers a provider or controls a shared session. Only
 * session hosts write it, under lock PETW__REG_LOCK_WRITE; everybody else
 * reads it as a sequence lock on `generation`, which is also the futex
 * word that wakes providers when something changed. A host holds lock
 * PETW__REG_LOCK_SLOT(slot) for as long as it lives, so a slot whose lock
 * nobody holds belongs to a dead host and is taken back.
 */
#ifndef PETW_XPROC_H
#define PETW_XPROC_H

#include <stdatomic.h>

#include "../common/common.h"
#include "../common/filter.h"
#include "../platform/platform.h"

#define PETW__REG_MAGIC 0x52575450u /* "PTWR" */
#define PETW__REG_VERSION 2u
#define PETW__REG_ENABLES 1024u
#define PETW__REG_FILE "registry-v2"
#define PETW__REG_LOCK_WRITE 0u
#define PETW__REG_LOCK_SLOT(slot) (1u + (slot))

enum { PETW__REG_FREE = 0, PETW__REG_RUNNING = 1, PETW__REG_STOPPING = 2 };

typedef struct petw__reg_session {
    uint32_t state; /* PETW__REG_* */
    uint32_t gen;   /* bumped each time the slot is taken; never 0 while used */
    uint32_t host_pid;
    uint32_t log_file_mode;
    char name[PETW_MAX_NAME];
} petw__reg_session;

/* One (GUID, session) pair; a GUID has at most
 * PETW_MAX_SESSIONS_PER_PROVIDER of them. */
typedef struct petw__reg_entry {
    uint64_t guid[2];
    uint32_t slot_plus1; /* 0: a free entry */
    uint32_t session_gen;
    uint32_t level;
    /* 0: no filter; else filters[this entry's index] holds it, written
     * with this tag (a value no earlier write of the entry had). */
    uint32_t filter_tag;
    /* Bumped by each CAPTURE_STATE request: a provider process that sees
     * it change runs its enable callbacks with CAPTURE_STATE. */
    uint32_t capture;
    uint32_t reserved;
    uint64_t match_any, match_all;
} petw__reg_entry;

typedef struct petw__registry {
    uint32_t magic, version, size, reserved;
    /* Sequence lock and futex word: odd while a host writes. */
    _Atomic uint32_t generation;
    uint32_t pad[15];
    petw__reg_session sessions[PETW_MAX_SESSIONS];
    petw__reg_entry enables[PETW__REG_ENABLES];
    /* Version 2: the event filters and enable properties of enables[i]. */
    petw__enable_filter filters[PETW__REG_ENABLES];
} petw__registry;

/* The process's mapping of the registry (created when missing), read-only
 * unless `writable` (session hosts). One of each per process, kept until
 * exit. Returns 0, or what the runtime directory or the file refused. */
int petw__reg_open(int writable, petw__registry **out, intptr_t *fd);

/* The running sessions as seen now (a consistent copy): slots whose host
 * is alive. Fills up to PETW_MAX_SESSIONS entries; state FREE elsewhere. */
void petw__reg_snapshot_sessions(const petw__registry *reg, intptr_t fd, petw__reg_session *out);
/* A consistent copy of the enable table. */
void petw__reg_snapshot_enables(const petw__registry *reg, petw__reg_entry *out);
/* The filter of enable entry `index` as the copy `expect` (from a
 * snapshot) saw it: 0, PETW_EBUSY when the entry changed since (the
 * registry's generation moved too: sync again), PETW_ECORRUPT when the
 * filter fails petw__filter_check (shared memory is untrusted). */
int petw__reg_read_filter(const petw__registry *reg, uint32_t index, const petw__reg_entry *expect,
                          petw__enable_filter *out);
/* Finds a running session by name: 0 or PETW_ENOTFOUND. */
int petw__reg_find(const petw__registry *reg, intptr_t fd, const char *name, uint32_t *slot,
                   uint32_t *gen, uint32_t *host_pid);
/* The registry's generation (a futex word for petw__futex_wait). */
uint32_t petw__reg_generation(const petw__registry *reg);

/* ---- writers (session hosts), each under the write lock it takes ---- */
/* Takes a slot for `name` (refusing a name in use with PETW_EEXIST, the
 * 65th session with PETW_ELIMIT), reaping slots of dead hosts; takes the
 * slot's lock on `fd` before publishing it. */
int petw__reg_claim(petw__registry *reg, intptr_t fd, const char *name, uint32_t pid, uint32_t mode,
                    uint32_t *slot, uint32_t *gen);
/* Enables (or updates) `guid` for the session, with `filter` (NULL or
 * empty: none; checked by the caller); PETW_ELIMIT when 8 other sessions
 * enable it or the table is full. */
int petw__reg_enable(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2],
                     uint8_t level, uint64_t any, uint64_t all, const petw__enable_filter *filter);
/* PETW_ENOTFOUND when the session does not enable it. */
int petw__reg_capture(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2]);
/* PETW_ENOTFOUND when the session does not enable it. */
int petw__reg_disable(petw__registry *reg, intptr_t fd, uint32_t slot, const uint64_t guid[2]);
/* Marks the session stopping and drops its enables (providers detach). */
void petw__reg_stopping(petw__registry *reg, intptr_t fd, uint32_t slot);
/* Frees the slot and drops its lock. */
void petw__reg_release(petw__registry *reg, intptr_t fd, uint32_t slot);

/* ---- control messages ----
 * A frame is a header then `size` payload bytes, both little-endian, on a
 * Unix stream socket. Handles ride with a frame's first byte. */
#define PETW__MSG_MAGIC 0x4D575450u /* "PTWM" */
#define PETW__MSG_VERSION 4u
#define PETW__MSG_MAX (16u << 20) + 4096u /* the largest payload: a 16 MB buffer */

enum {
    PETW__MSG_START = 1, /* controller -> new host: petw__msg_start */
    PETW__MSG_STARTED,   /* host -> controller: petw__msg_reply */
    PETW__MSG_HELLO,     /* provider -> host: petw__msg_hello */
    PETW__MSG_POOL,      /* host -> provider: petw__msg_pool + {pool, wake} */
    PETW__MSG_DETACHED,  /* provider -> host: writes to this session ended */
    PETW__MSG_CONTROL,   /* controller -> host: petw__msg_control */
    PETW__MSG_REPLY,     /* host -> controller: petw__msg_reply */
    PETW__MSG_CONSUME,   /* consumer -> host: no payload */
    PETW__MSG_RT_HEADER, /* host -> consumer: the session's header buffer */
    PETW__MSG_RT_BUFFER, /* host -> consumer: one buffer */
    PETW__MSG_RT_END,    /* host -> consumer: the session stopped */
    PETW__MSG_RT_ACK,    /* consumer -> host: uint32_t, buffers it finished */
    PETW__MSG_RT_BYE,    /* consumer -> host: it closed its trace (no payload) */
    PETW__MSG_TYPE_COUNT
};

typedef struct petw__msg_header {
    uint32_t magic;
    uint16_t version;
    uint16_t type;
    uint32_t size;
    uint32_t reserved;
} petw__msg_header;

typedef struct petw__msg_start {
    char name[PETW_MAX_NAME];
    char file_path[PETW_MAX_NAME]; /* "" for none */
    uint32_t buffer_size_kb, minimum_buffers, maximum_buffers, flush_timer_ms;
    uint32_t log_file_mode, maximum_file_size_kb, clock, flags;
    int32_t zstd_level;
    uint32_t loss_policy, block_timeout_ms, real_time_buffers;
    uint32_t system_flags, system_stack_flags, profile_interval_100ns, system_target_pid;
} petw__msg_start;

typedef struct petw__msg_hello {
    uint32_t pid;
    uint32_t cpu_count;
} petw__msg_hello;

typedef struct petw__msg_pool {
    int32_t status;
    uint32_t session_gen;
    uint32_t buffer_size, buffer_count, cpu_count, clock, policy, block_timeout_ms;
    uint64_t bytes;
} petw__msg_pool;

enum {
    PETW__OP_QUERY = 1,
    PETW__OP_FLUSH,
    PETW__OP_UPDATE,
    PETW__OP_STOP,
    PETW__OP_ENABLE,
    PETW__OP_DISABLE,
    PETW__OP_CAPTURE,
    PETW__OP_SET_FLAGS,
    PETW__OP_SNAPSHOT,     /* path: BUFFERING sessions */
    PETW__OP_SWITCH_FILE,  /* path */
    PETW__OP_SET_STACKS,   /* value1: a system session's PETW_SYSTEM_* with stacks */
    PETW__OP_SET_INTERVAL, /* value1: a system session's sample interval (100 ns) */
    PETW__OP_SET_GROUPS,   /* value1: PETW_SYSTEM_* groups; any session becomes a system one */
    PETW__OP_COUNT
};

typedef struct petw__msg_control {
    uint32_t op; /* PETW__OP_* */
    uint32_t session_gen;
    uint64_t guid[2];
    uint32_t level;
    uint32_t value1; /* UPDATE: flush timer ms; SET_FLAGS: the flags */
    uint32_t value2; /* UPDATE: maximum buffers */
    uint32_t reserved;
    uint64_t match_any, match_all;
    char path[PETW_MAX_NAME];   /* SNAPSHOT, SWITCH_FILE */
    petw__enable_filter filter; /* ENABLE (version 2); all zero otherwise */
} petw__msg_control;

/* petw__msg_reply (it carries petw_session_stats) is in host/host_internal.h. */

/* Sends one frame (header + payload, handles with it). */
int petw__msg_send(intptr_t fd, uint16_t type, const void *payload, uint32_t size,
                   const intptr_t *handles, uint32_t count, int timeout_ms);
/* Receives one frame's header and checks it: magic, version, a known type,
 * and a size within `max` (else PETW_ECORRUPT; the connection is then
 * unusable). Handles that came are returned as in petw__ipc_recv. */
int petw__msg_recv_header(intptr_t fd, petw__msg_header *h, uint32_t max, intptr_t *handles,
                          uint32_t *count, int timeout_ms);
/* Receives a frame whose payload must be exactly `size` bytes of `type`:
 * PETW_ECORRUPT otherwise. */
int petw__msg_recv_fixed(intptr_t fd, uint16_t type, void *payload, uint32_t size,
                         intptr_t *handles, uint32_t *count, int timeout_ms);
/* Checks a decoded payload from an untrusted peer: NUL-terminated strings,
 * known operations. 0 or PETW_ECORRUPT. */
int petw__msg_check_start(const petw__msg_start *m);
int petw__msg_check_control(const petw__msg_control *m);
/* The socket path of slot `slot` in the runtime directory. */
int petw__xproc_socket_path(uint32_t slot, char *out, size_t size);

/* ---- the provider directory (procdir.c) ----
 * Each process that registers providers keeps a file "providers-<pid>" in
 * the runtime directory listing them (GUID and, where its traits give one,
 * name), replaced as a whole when the list changes. A reader trusts a file
 * only while process <pid> runs and started when the file says; other
 * files are stale (a crash left them) and removed. The file comes from
 * another process: readers check it as untrusted input. */
#define PETW__PROCDIR_PREFIX "providers-"
#define PETW__PROCDIR_MAGIC 0x44575450u /* "PTWD" */
#define PETW__PROCDIR_VERSION 1u
#define PETW__PROC_NAME 240    /* bytes of a name, NUL included */
#define PETW__PROCDIR_MAX 4096 /* entries of one file (PETW_MAX_PROVIDERS) */

typedef struct petw__proc_entry {
    uint64_t guid[2];
    char name[PETW__PROC_NAME]; /* UTF-8; "" when unknown */
} petw__proc_entry;

typedef struct petw__procdir_header {
    uint32_t magic, version;
    uint32_t entry_size; /* sizeof(petw__proc_entry) */
    uint32_t count;
    uint32_t pid, reserved;
    uint64_t start_time; /* petw__process_start_time of pid */
} petw__procdir_header;

/* Checks an encoded file and points at its entries: 0 or PETW_ECORRUPT.
 * Names are NUL-terminated afterwards (the last byte is forced to 0). */
int petw__procdir_decode(uint8_t *data, size_t size, petw__procdir_header *h,
                         petw__proc_entry **entries);
/* Writes this process's file with `n` entries (0: removes it). */
int petw__procdir_publish(const petw__proc_entry *e, uint32_t n);
/* Calls fn for each live process's list (pid 0: every process; else that
 * one); fn returns non-zero to stop. Stale files are removed. */
int petw__procdir_each(uint32_t pid,
                       int (*fn)(uint32_t pid, const petw__proc_entry *e, uint32_t n, void *ctx),
                       void *ctx);

#endif
