/* SPDX-License-Identifier: MIT */
/* ring.h - per-CPU buffers: the reserve/commit fast path (inline) and the
 * pool of fixed-size buffers behind it.
 *
 * Allowed dependencies: common/, platform/. The ring knows nothing about
 * providers, files or the flusher; it tells its owner "buffer ready" through
 * a callback.
 *
 * Objects and their lifetimes
 *   petw__ring      one per session slot, never freed (static table), so a
 *                   writer racing a stop never touches freed memory there.
 *   petw__ring_cpu  one cache line per CPU, allocated with the ring, never
 *                   freed. Its `word` packs {gen:16, buffer:16, offset:32}:
 *                   which buffer this CPU writes into and how far it is
 *                   reserved. gen is the session generation of the slot.
 *   petw__pool      one allocation per running session: the header below,
 *                   per-buffer control words, links and metadata, then the
 *                   buffers. Everything inside is addressed by index or
 *                   offset (position-independent, ready for shared memory).
 *
 * A buffer's control word packs {final:22, records:20, committed:22}
 * (PETW__CTRL_*). `committed` starts at the header size and grows by each
 * writer's record size on commit, `records` by one, in the same add;
 * `final` is 0 while the buffer is current and becomes its reserved size
 * when some thread closes it. Whoever brings committed == final (the closer
 * or the last committer, exactly one of them) delivers the buffer, whose
 * record count is then exact without reading a record. See docs/design.md
 * for the full memory-ordering argument.
 */
#ifndef PETW_RING_H
#define PETW_RING_H

#include <stdatomic.h>

#include "../../base/common/common.h"
#include "../../base/platform/platform.h"

/* ThreadSanitizer sees one process. A shared pool's buffer goes from the
 * writers that commit into it (and the one that delivers it), through the
 * session host (another process: its close, take, copy, zeroing and free
 * push are invisible here), to the writer that pops it free again; the
 * chain is real (release commit and push, the host's acquire and release,
 * the pop's acquire), but TSan sees no edge and reports the two writers'
 * stores into the buffer as a race. These annotations, on the buffer's
 * metadata, give it the edge; they compile to nothing elsewhere. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PETW__TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(PETW__TSAN)
#define PETW__TSAN 1
#endif
#ifdef PETW__TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define PETW__TSAN_RELEASE(addr) __tsan_release(addr)
#define PETW__TSAN_ACQUIRE(addr) __tsan_acquire(addr)
#else
#define PETW__TSAN_RELEASE(addr) ((void)(addr))
#define PETW__TSAN_ACQUIRE(addr) ((void)(addr))
#endif

#define PETW__BUFFER_HEADER_SIZE 0x48u
/* How far ahead of a reserved record the writer prefetches (bytes). */
#define PETW__PREFETCH_AHEAD 1024u

#define PETW__BUF_NONE 0xFFFFu /* CPU has no current buffer; a writer opens one */
#define PETW__BUF_DEAD 0xFFFEu /* session stopping: nobody opens a buffer again */
#define PETW__MAX_POOL_BUFFERS 0xFFF0u

/* A buffer's control word: committed bytes in bits 0-21, records in
 * 22-41, final bytes in 42-63. Buffers are smaller than 4 MB
 * (petw__pool_plan checks), and a record takes 16 bytes or more, so no
 * field carries into the next. */
#define PETW__CTRL_MAX_BUFFER ((1u << 22) - 8u)
#define PETW__CTRL_COMMITTED(c) ((uint32_t)(c)&0x3FFFFFu)
#define PETW__CTRL_RECORDS(c) ((uint32_t)((c) >> 22) & 0xFFFFFu)
#define PETW__CTRL_FINAL(c) ((uint32_t)((c) >> 42))
/* What one committed record of `size` bytes adds; what closing at `final` adds. */
#define PETW__CTRL_RECORD(size) ((uint64_t)(size) | ((uint64_t)1 << 22))
#define PETW__CTRL_CLOSE(final) ((uint64_t)(final) << 42)

#define PETW__WORD(gen, buf, off)                                                                  \
    (((uint64_t)(uint16_t)(gen) << 48) | ((uint64_t)(uint16_t)(buf) << 32) | (uint32_t)(off))
#define PETW__WORD_GEN(w) ((uint16_t)((w) >> 48))
#define PETW__WORD_BUF(w) ((uint16_t)((w) >> 32))
#define PETW__WORD_OFF(w) ((uint32_t)(w))

/* Buffer metadata flags (become WMI_BUFFER_HEADER.BufferFlag bits). */
#define PETW__BUFMETA_EVENTS_LOST 0x2u

/* Counters a writer bumps when it loses or overwrites events. A shared
 * pool carries its own (the session host reads them, even after the
 * writer died). */
typedef struct petw__ring_counters {
    _Atomic uint32_t events_lost;
    /* Set when an event is lost; the flusher takes it and marks the next
     * buffer it writes with the ETL "events lost" flag. */
    _Atomic uint32_t lost_pending;
    /* Buffering: records in retained buffers a writer recycled. */
    _Atomic uint64_t events_overwritten;
    /* Buffering: the newest sealed timestamp among recycled buffers: every
     * event at or before it may be gone, every later one is still in the
     * pool (or, shared, already taken by the host). */
    _Atomic int64_t overwrite_horizon;
} petw__ring_counters;

#define PETW__POOL_MAGIC 0x4C4F4F50u /* "POOL" */
#define PETW__POOL_VERSION 3u        /* 3: record counts in the control words */

typedef struct petw__pool {
    /* Shared pools only (a session host's pool in a provider process; see
     * docs/shared-memory.md): identity, the CPU words and the counters live
     * in the pool, so the host can close buffers and count losses. */
    uint32_t magic;        /* PETW__POOL_MAGIC */
    uint32_t version;      /* PETW__POOL_VERSION */
    uint32_t cpu_count;    /* petw__ring_cpu[cpu_count] at cpu_offset; 0 in a local pool */
    uint32_t header_bytes; /* sizeof(petw__pool) of the writer, checked by the host */
    uint64_t cpu_offset;
    uint64_t total_bytes;     /* the whole object */
    uint32_t buffer_size;     /* bytes per buffer, header included */
    uint32_t buffer_limit;    /* buffers the arrays and the address space are sized for */
    uint64_t reserved_bytes;  /* address space reserved for the pool */
    uint64_t ctrl_offset;     /* {final, records, committed} per buffer, one cache line each, so
                               * two CPUs committing to their own buffers never
                               * share a line */
    uint64_t link_offset;     /* _Atomic uint32_t[buffer_limit]: next index + 1 */
    uint64_t meta_offset;     /* petw__buffer_meta[buffer_limit] */
    uint64_t retained_offset; /* petw__retained_slot[buffer_limit]: the retained queue */
    uint64_t data_offset;     /* buffers, each buffer_size bytes, page aligned */
    /* Buffers that exist (committed memory); grows, never shrinks. */
    _Atomic uint32_t buffer_count;
    /* Free stack: {tag:32, index + 1:32}; the tag defeats ABA. */
    _Atomic uint64_t free_head PETW__ALIGNED(PETW__CACHE_LINE);
    _Atomic uint32_t free_count;
    /* Ready stack (index + 1), pushed by deliverers, emptied whole by the
     * flusher with one exchange, so it needs no tag. */
    _Atomic uint32_t ready_head PETW__ALIGNED(PETW__CACHE_LINE);
    /* Retained queue (buffering mode): completed buffers, oldest at head;
     * the delivering writer appends, a writer short of buffers takes the
     * oldest. A bounded multi-producer multi-consumer queue (Vyukov's): each
     * slot's sequence number says whether it is free or filled for a
     * position, and both counters only grow, so there is no ABA. */
    _Atomic uint64_t retained_head PETW__ALIGNED(PETW__CACHE_LINE);
    _Atomic uint64_t retained_tail PETW__ALIGNED(PETW__CACHE_LINE);
    petw__ring_counters counters PETW__ALIGNED(PETW__CACHE_LINE); /* shared pools */
} petw__pool;

/* Where everything of a pool lies, computed from its four sizes alone. A
 * session host keeps its own copy and never trusts the offsets a shared
 * pool's header says. */
typedef struct petw__pool_geometry {
    uint32_t buffer_size, buffer_count, buffer_limit, cpu_count;
    uint64_t ctrl, link, meta, retained, cpu, data;
    uint64_t commit_bytes;  /* header to the end of buffer_count buffers */
    uint64_t reserve_bytes; /* header to the end of buffer_limit buffers */
} petw__pool_geometry;

/* Computes a geometry; PETW_EINVAL when the sizes are out of range. */
int petw__pool_plan(uint32_t buffer_size, uint32_t buffer_count, uint32_t buffer_limit,
                    uint32_t cpu_count, petw__pool_geometry *g);
/* Formats zeroed memory of g->commit_bytes as a pool: header, control
 * words, every buffer on the free stack, CPU words DEAD (a writer's
 * process opens them with petw__ring_attach_shared). */
void petw__pool_format(petw__pool *pool, const petw__pool_geometry *g);

typedef struct petw__retained_slot {
    _Atomic uint64_t sequence;
    _Atomic uint32_t buffer;
    uint32_t reserved;
} petw__retained_slot;

typedef struct petw__buffer_meta {
    /* Relaxed atomics: a snapshot may read them while a recycler rewrites
     * them (the generation check then discards what it read). */
    _Atomic uint16_t cpu;
    _Atomic uint16_t flags; /* PETW__BUFMETA_* */
    uint32_t records;       /* set when sealed */
    /* Session clock when the buffer completed (its last commit): later than
     * every record in it, since records read the clock before committing. */
    _Atomic int64_t sealed_timestamp;
    /* Bumped before a retained buffer is reused, so a concurrent snapshot
     * copy can tell it read a buffer that changed under it. */
    _Atomic uint32_t generation;
    /* Times the buffer was opened on a CPU, and times it was delivered: use
     * number u is delivered when deliveries reaches u (a flush or snapshot
     * waits for that). A late increment from use u - 1 can never satisfy a
     * wait for use u. */
    _Atomic uint32_t uses;
    _Atomic uint32_t deliveries;
} petw__buffer_meta;

typedef struct petw__ring_cpu {
    _Atomic uint64_t word;
} PETW__ALIGNED(PETW__CACHE_LINE) petw__ring_cpu;

/* The ring's client callbacks (LTTng-UST's client config): what the ring
 * must know of its owner and of the records in its buffers, without
 * including either. */
struct petw__ring;
/* A buffer was pushed on the ready stack. Called after the deliverer left
 * the pool: it must not read the ring's fields (the slot may restart). */
typedef void (*petw__ring_ready_fn)(struct petw__ring *ring);
/* Number of records in the first `used` bytes of a buffer. */
typedef uint32_t (*petw__ring_count_fn)(const uint8_t *buffer, uint32_t used);

typedef struct petw__ring {
    _Atomic(petw__pool *) pool; /* valid while any CPU word carries this gen */
    uint32_t cpu_count;
    /* The CPU words: the ring's own array, or a shared pool's. Never freed
     * (a shared pool is abandoned, never unmapped), so a writer of an older
     * generation may still read through a stale pointer; acquire loads pair
     * with the release store that switches it. */
    _Atomic(petw__ring_cpu *) cpus;
    petw__ring_cpu *own_cpus;
    /* Where the slow path counts losses: &own_counters, or a shared pool's
     * (set before the generation is published, read only by writers of it). */
    petw__ring_counters *counters;
    petw__ring_counters own_counters;
    /* buffer_size - header: the largest record that fits. Atomic (relaxed)
     * because a writer stalled since the previous session may read it while
     * the next session's start writes it; its value then does not matter
     * (its CAS fails on the new generation). */
    _Atomic uint32_t capacity;
    _Atomic uint16_t gen;
    /* Writers inside the slow path; stop waits for 0 after marking every
     * CPU word DEAD (see petw__ring_kill). */
    _Atomic uint32_t slow_refs PETW__ALIGNED(PETW__CACHE_LINE);
    /* Writers inside petw__ring_deliver (once per buffer): the pool is freed
     * only after it drops to 0 (petw__ring_release waits). */
    _Atomic uint32_t delivering;
    uint32_t policy;                   /* PETW_LOSS_*: what a writer does when no buffer is free */
    uint32_t block_timeout_us;         /* with PETW_LOSS_BLOCK */
    petw__ring_ready_fn on_ready;      /* client: a buffer is ready */
    petw__ring_count_fn count_records; /* client: records in an imported buffer */
    void *owner;
    /* The pool's first buffer, its first control word and its buffer
     * size, set with `pool` (before the generation's release) from the
     * geometry the ring started or attached with, and read by writers
     * after a successful reserve, as `clock` is: one multiply to a record
     * or its control word, with no load from the pool's header. */
    uint8_t *data;
    uint8_t *ctrl;
    uint32_t buffer_size;
    /* The session's clock (PETW_CLOCK_*), read by writers after a
     * successful reserve, which orders it after the session's start. */
    uint32_t clock;
    /* 1 when that clock reads the TSC (petw__clock_is_measured), so a writer
     * reads it without choosing among the clocks; set by publish() from
     * `clock`, before the generation's release. */
    uint32_t clock_tsc;
    uint16_t logger_id;
} petw__ring;

/* The session's clock now (a writer: after its reserve, see above). */
static PETW__ALWAYS_INLINE int64_t petw__ring_clock(const petw__ring *ring)
{
    return PETW__LIKELY(ring->clock_tsc) ? petw__clock_read(PETW_CLOCK_CYCLES)
                                         : petw__clock_read(ring->clock);
}

/* The rings of the PETW_MAX_SESSIONS session slots; never freed. Writers
 * reach a ring by slot number from a provider's enable entry. */
#define PETW__MAX_RINGS PETW_MAX_SESSIONS
extern petw__ring petw__ring_table[PETW__MAX_RINGS];

typedef struct petw__reservation {
    petw__pool *pool;
    uint8_t *record;        /* where the record goes */
    _Atomic uint64_t *ctrl; /* the buffer's control word */
    uint32_t buffer;
    uint32_t size; /* aligned size reserved */
} petw__reservation;

#define PETW__RING_GONE 1 /* the session stopped or was replaced: skip it */

/* Reserve/commit are always a matched pair on success. */

#define PETW__CTRL_STRIDE PETW__CACHE_LINE
static inline petw__retained_slot *petw__pool_retained(petw__pool *p)
{
    return (petw__retained_slot *)((char *)p + p->retained_offset);
}
static inline _Atomic uint64_t *petw__pool_ctrl(petw__pool *p, uint32_t buffer)
{
    return (_Atomic uint64_t *)((char *)p + p->ctrl_offset + (uint64_t)buffer * PETW__CTRL_STRIDE);
}
static inline _Atomic uint32_t *petw__pool_link(petw__pool *p)
{
    return (_Atomic uint32_t *)((char *)p + p->link_offset);
}
static inline petw__buffer_meta *petw__pool_meta(petw__pool *p)
{
    return (petw__buffer_meta *)((char *)p + p->meta_offset);
}
static inline uint8_t *petw__pool_buffer(petw__pool *p, uint32_t index)
{
    return (uint8_t *)p + p->data_offset + (uint64_t)index * p->buffer_size;
}

/* Ring slots (control lock): takes a free one (initializing the table the
 * first time) or gives it back. PETW_ELIMIT when all are taken. */
int petw__ring_claim(uint32_t cpu_count, uint32_t *slot);
void petw__ring_unclaim(uint32_t slot);

/* Ring lifetime (control thread). */
int petw__ring_init(petw__ring *ring, uint32_t cpu_count);
/* Allocates the pool (address space for `buffer_limit` buffers, memory
 * for `buffer_count`), sets the ring's policy fields from its arguments, and
 * publishes a new generation; returns it via *gen. */
int petw__ring_start(petw__ring *ring, uint32_t buffer_size, uint32_t buffer_count,
                     uint32_t buffer_limit, uint16_t *gen);
/* Points the ring at a shared pool a session host made (its CPU words and
 * counters included) and publishes a new generation in its CPU words. The
 * caller checked the pool. Undo with petw__ring_kill, then
 * petw__ring_detach_shared. */
int petw__ring_attach_shared(petw__ring *ring, petw__pool *pool, uint16_t *gen);
/* Back to the ring's own CPU words and counters (control thread, after
 * petw__ring_kill); the shared pool is the caller's to abandon. */
void petw__ring_detach_shared(petw__ring *ring);
/* Adds buffers up to `buffer_count` (<= buffer_limit) while writers run. */
int petw__ring_grow(petw__ring *ring, uint32_t buffer_count);
/* Frees the pool once every buffer is back on the free stack, after the
 * last writer still inside petw__ring_deliver has left it. */
void petw__ring_release(petw__ring *ring);

/* Retained queue: take the oldest (PETW__BUF_NONE when empty); the caller
 * owns it then. The overwritten-events count and horizon are updated. */
uint32_t petw__ring_take_oldest(petw__ring *ring, petw__pool *pool);
/* Snapshot side: the retained buffer at queue position `pos`, waiting while
 * a writer is still publishing it; PETW__BUF_NONE when it was taken. */
uint32_t petw__ring_retained_at(petw__pool *pool, uint64_t pos);
/* Copies a retained buffer for a snapshot, with its used size and CPU;
 * returns 0 when the copy is consistent (not recycled meanwhile). */
int petw__ring_copy_retained(petw__pool *pool, uint32_t buffer, uint8_t *out, uint32_t *used,
                             uint16_t *cpu);

/* Out-of-line slow path: open a buffer on this CPU (closing a full one). */
int petw__ring_reserve_slow(petw__ring *ring, uint16_t gen, uint32_t cpu, uint32_t size,
                            petw__reservation *res);
/* Delivers a completed buffer to the ready stack and wakes the owner. */
void petw__ring_deliver(petw__ring *ring, petw__pool *pool, uint32_t buffer);

/* Closes the CPU's current buffer if it holds records (flush timer, flush).
 * With `kill`, marks the CPU DEAD instead, so no buffer opens again. */
void petw__ring_close_cpu(petw__ring *ring, uint32_t cpu, int kill);
/* Kills every CPU and waits for writers in the slow path to leave. */
void petw__ring_kill(petw__ring *ring);

/* Adds a complete buffer made elsewhere (a session host's import from a
 * shared pool): `used` bytes at `data`, header included, written by `cpu`,
 * completed at `sealed` on the session's clock (0: now; a buffering ring
 * keeps it for its overwrite horizon, which must not cover the records of
 * buffers imported later). Takes a free buffer (or, buffering, the
 * oldest), copies, and delivers it as a writer would. PETW_ENOBUFS when no
 * buffer is free (nothing changed: try later). */
int petw__ring_import(petw__ring *ring, const uint8_t *data, uint32_t used, uint16_t cpu,
                      int64_t sealed);

/* A session host's side of a shared pool, with the host's own geometry;
 * every index read from the pool is checked (see ring_host.c). */
uint8_t *petw__pool_host_buffer(petw__pool *p, const petw__pool_geometry *g, uint32_t b);
/* Pops the ready stack, oldest first; at most g->buffer_count entries. */
uint32_t petw__pool_host_take_ready(petw__pool *p, const petw__pool_geometry *g, uint32_t *out);
/* Buffering pools: takes up to `max` retained buffers off the queue,
 * oldest first (a writer short of buffers competes for the same head).
 * They are the host's then, as taken ready ones are. */
uint32_t petw__pool_host_take_retained(petw__pool *p, const petw__pool_geometry *g, uint32_t *out,
                                       uint32_t max);
/* A buffer's `final` (0 while current); *committed its committed bytes
 * (the writer's word: untrusted). */
uint32_t petw__pool_host_used(petw__pool *p, const petw__pool_geometry *g, uint32_t b,
                              uint32_t *committed);
/* Zeroes a buffer and returns it to the writer's free stack. */
void petw__pool_host_free(petw__pool *p, const petw__pool_geometry *g, uint32_t b);
/* Closes CPU `cpu`'s buffer when it holds records (*closed: which). Returns
 * it when the host must deliver it itself (every writer had committed),
 * else PETW__BUF_NONE (its last committer will deliver it). */
uint32_t petw__pool_host_close_cpu(petw__pool *p, const petw__pool_geometry *g, uint32_t cpu,
                                   uint32_t *closed);
/* After the writer died: the buffer CPU `cpu` wrote into and how far. */
uint32_t petw__pool_host_cpu_buffer(petw__pool *p, const petw__pool_geometry *g, uint32_t cpu,
                                    uint32_t *offset);
/* After the writer died: sets is_free[b] for every buffer on the free stack. */
void petw__pool_host_mark_free(petw__pool *p, const petw__pool_geometry *g, uint8_t *is_free);
/* When a buffering pool's writer completed buffer b (its sealed timestamp;
 * untrusted: it bounds only this writer's own events in a snapshot). */
int64_t petw__pool_host_sealed(petw__pool *p, const petw__pool_geometry *g, uint32_t b);
/* The CPU that wrote buffer b (b < g->buffer_count), as the writer says. */
uint16_t petw__pool_host_cpu_of(petw__pool *p, const petw__pool_geometry *g, uint32_t b);
/* How often buffer b (b < g->buffer_count) was opened on a CPU, and how
 * often delivered, as the writers say (untrusted: used only to bound a
 * wait). Use number u is delivered once deliveries reaches u. */
void petw__pool_host_uses(petw__pool *p, const petw__pool_geometry *g, uint32_t b, uint32_t *uses,
                          uint32_t *deliveries);
/* The writer's lost-event count (untrusted: a count, used as one). */
uint32_t petw__pool_host_lost(petw__pool *p);
/* The writers' overwritten-events count and overwrite horizon (buffering;
 * untrusted, used as a count and a bound on the host's own snapshot). */
uint64_t petw__pool_host_overwritten(petw__pool *p);
int64_t petw__pool_host_horizon(petw__pool *p);
/* Raises the ring's overwrite horizon to `to` (a session host folding in a
 * provider pool's). */
void petw__ring_raise_horizon(petw__ring *ring, int64_t to);

/* Pops every ready buffer, oldest first, into `out` (room for all buffers);
 * returns how many. Flusher thread only. */
uint32_t petw__ring_take_ready(petw__ring *ring, uint32_t *out);
/* Reserved size of a delivered buffer (its `final`). */
uint32_t petw__ring_buffer_used(petw__pool *pool, uint32_t buffer);
/* Records in a delivered buffer (counted by the commits, not read). */
uint32_t petw__ring_buffer_records(petw__pool *pool, uint32_t buffer);
/* Returns a written buffer to the free stack. */
void petw__ring_free_buffer(petw__pool *pool, uint32_t buffer);

#define PETW__RING_SLOW 2 /* petw__ring_reserve_try: the slow path is needed */

/* The fast path's CAS on CPU `cpu`'s word: 0 with *res filled,
 * PETW__RING_GONE, or PETW__RING_SLOW when the CPU has no open buffer or
 * this one is full (nothing changed: petw__ring_reserve_slow's turn). */
static PETW__ALWAYS_INLINE int petw__ring_reserve_cas(petw__ring *ring, uint16_t gen, uint32_t cpu,
                                                      uint32_t size, petw__reservation *res)
{
    if (PETW__UNLIKELY(cpu >= ring->cpu_count))
        cpu %= ring->cpu_count;
    /* acquire: pairs with petw__ring_attach_shared's release store. */
    petw__ring_cpu *c = &atomic_load_explicit(&ring->cpus, memory_order_acquire)[cpu];
    /* acquire: pairs with the release CAS that published this word (in
     * petw__ring_reserve_slow or petw__ring_start), so the ring's capacity
     * and the buffer's init are visible. */
    uint64_t w = atomic_load_explicit(&c->word, memory_order_acquire);
    for (;;) {
        uint32_t buf = PETW__WORD_BUF(w), off = PETW__WORD_OFF(w);
        if (PETW__UNLIKELY(PETW__WORD_GEN(w) != gen))
            return PETW__RING_GONE;
        if (PETW__UNLIKELY(buf >= PETW__BUF_DEAD ||
                           off + size >
                               atomic_load_explicit(&ring->capacity, memory_order_relaxed) +
                                   PETW__BUFFER_HEADER_SIZE))
            return PETW__RING_SLOW;
        /* acquire on success: same pairing as the load above. The CAS is on
         * this CPU's line only; another thread on the same CPU (or one that
         * migrated) simply retries. */
        if (atomic_compare_exchange_weak_explicit(&c->word, &w, w + size, memory_order_acquire,
                                                  memory_order_acquire)) {
            /* The buffer cannot be delivered (nor the pool freed) before we
             * commit, because committed < final until then. */
            res->pool = atomic_load_explicit(&ring->pool, memory_order_relaxed);
            res->buffer = buf;
            res->size = size;
            res->record = ring->data + (uint64_t)buf * ring->buffer_size + off;
            res->ctrl = (_Atomic uint64_t *)(ring->ctrl + (uint64_t)buf * PETW__CTRL_STRIDE);
            /* Write-prefetch the lines a few records ahead: the commit's
             * locked RMW waits for this record's stores, so a cold line
             * there (a recycled buffer) would cost a whole memory latency
             * per event. Two lines, so records longer than a line leave
             * none out. */
            petw__prefetch_write(res->record + PETW__PREFETCH_AHEAD);
            petw__prefetch_write(res->record + PETW__PREFETCH_AHEAD + PETW__CACHE_LINE);
            return 0;
        }
    }
}

/* Reserves `size` bytes (a multiple of 8, <= capacity) on CPU `cpu`'s
 * buffer: the calling CPU's (petw__ring_reserve), or any CPU's (the system
 * provider writes each CPU's events into that CPU's buffer). Returns 0 with
 * *res filled, PETW__RING_GONE, or PETW_ENOBUFS (event lost and counted).
 * Lock-free: a CAS on that CPU's word, which any number of threads may
 * race on; the thread may migrate afterwards, the reservation stays valid. */
static PETW__ALWAYS_INLINE int petw__ring_reserve_on(petw__ring *ring, uint16_t gen, uint32_t cpu,
                                                     uint32_t size, petw__reservation *res)
{
    int rc = petw__ring_reserve_cas(ring, gen, cpu, size, res);
    if (PETW__LIKELY(rc != PETW__RING_SLOW))
        return rc;
    /* Through a copy: *res, whose address never leaves the caller's
     * inlined code, stays in registers on the fast path. */
    petw__reservation slow;
    rc = petw__ring_reserve_slow(ring, gen, cpu, size, &slow);
    if (rc == 0)
        *res = slow;
    return rc;
}

/* petw__ring_reserve without any call: 0 with *res filled,
 * PETW__RING_GONE, or PETW__RING_SLOW (nothing reserved) when the CPU
 * number is not one load away or the slow path is needed; the caller then
 * takes its own slow path, which calls petw__ring_reserve. A caller with
 * nothing live across a call in its fast path keeps it in registers. */
static PETW__ALWAYS_INLINE int petw__ring_reserve_try(petw__ring *ring, uint16_t gen, uint32_t size,
                                                      petw__reservation *res)
{
    uint32_t cpu;
    if (PETW__UNLIKELY(!petw__cpu_current_fast(&cpu)))
        return PETW__RING_SLOW;
    return petw__ring_reserve_cas(ring, gen, cpu, size, res);
}

static PETW__ALWAYS_INLINE int petw__ring_reserve(petw__ring *ring, uint16_t gen, uint32_t size,
                                                  petw__reservation *res)
{
    return petw__ring_reserve_on(ring, gen, petw__cpu_current(), size, res);
}

/* Publishes a reserved record. release: orders the record's bytes before
 * the commit count that the deliverer (and through the ready stack, the
 * flusher) reads; acquire: the last committer delivers and must see the
 * other writers' records (release sequence on the control word). This is
 * the writer's last access to the pool unless it delivers. */
static PETW__ALWAYS_INLINE void petw__ring_commit(petw__ring *ring, const petw__reservation *res)
{
    /* acq_rel: release publishes our record to whoever delivers the buffer;
     * acquire, for when we deliver: pairs with the other writers' commits on
     * this control word (a release sequence). */
    PETW__TSAN_RELEASE(&petw__pool_meta(res->pool)[res->buffer]); /* see its definition */
    uint64_t old =
        atomic_fetch_add_explicit(res->ctrl, PETW__CTRL_RECORD(res->size), memory_order_acq_rel);
    uint32_t final = PETW__CTRL_FINAL(old);
    if (PETW__UNLIKELY(final != 0 && PETW__CTRL_COMMITTED(old) + res->size == final))
        petw__ring_deliver(ring, res->pool, res->buffer);
}

#endif /* PETW_RING_H */
