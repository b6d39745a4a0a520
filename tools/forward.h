/* SPDX-License-Identifier: MIT */
/* forward.h - `petw forward` (cmd_forward.c) and its spool's side
 * (forward_spool.c): the forwarder's state, and what the consumer calls
 * of the spool's side. Built only with libcurl. */
#ifndef FORWARD_H
#define FORWARD_H

#include <stdatomic.h>
#include <stdint.h>

#include "export_clickhouse.h"

typedef struct sender sender;

/* Without --spool, the session's buffers are acknowledged once the
 * inserts carrying their rows landed: at most this many buffers' rows
 * wait in the batch (it is sent then), so that the session, which keeps
 * each buffer until it is acknowledged, has room for the rest (it keeps
 * 64 more than its real-time buffers for a consumer). */
#define FORWARD_ACK_EVERY 32u
#define FORWARD_ACKS_WAITING 8u

/* Buffers up to `position` (petw_trace_position) are the session's to
 * forget once the connection's insert `insert` landed. */
typedef struct forward_ack {
    uint64_t insert, position;
} forward_ack;

typedef struct forwarder {
    exporter *x;
    uint64_t flush_ms;
    int64_t last_flush_ms;
    int64_t send_after_ms; /* --spool: the server failed; try again then */
    /* The session's real-time losses, asked every second while it runs
     * (once it has stopped, it can no longer be asked). */
    petw_session_handle session;
    int64_t asked_ms;
    uint64_t rt_events_lost; /* since the forwarder started */
    uint32_t rt_buffers_lost;
    uint64_t base_events; /* lost before it started */
    uint32_t base_buffers;
    sender *sender; /* --spool: the thread that sends, or NULL */
    /* --spool with a sender: how busy the consumer is (forward_event and
     * forward_buffer measure it), so that the sender holds back while the
     * session writes faster than the consumer could keep up with if the
     * server (on the same machine, say) took CPU time too. */
    int64_t window_ns, busy_ns, idle_ns; /* this window's */
    int64_t buffer_ns, last_end_ns;      /* this buffer's first event; the last one's end */
    int in_buffer;
    _Atomic int64_t hold_until_ms; /* the sender starts no insert before then */
    /* --spool: the session's buffers go to the spool as they come (an ETL
     * file, the header buffer first), decoded when they are sent. */
    int raw;
    uint8_t *header; /* the session's header buffer */
    uint32_t header_size;
    char meta[128]; /* the spool files' converter line: trace_id boot_time header_size */
    /* Without --spool: the live trace, its acknowledgements deferred
     * (petw_trace_defer_acks) until the rows landed. */
    petw_trace *trace;
    int defer;
    forward_ack acks[FORWARD_ACKS_WAITING]; /* oldest first, inserts increasing */
    uint32_t ack_head, ack_count;
    uint64_t acked;      /* the position acknowledged */
    uint64_t flushed_at; /* the position when the batch was last sent */
} forwarder;

/* cmd_forward.c: keeps the session's real-time losses so far. */
void forward_ask_losses(forwarder *f);

/* ---- forward_spool.c ---- */

/* The session's run as a trace_id: a hash of its name, the machine, its
 * start and the boot time, the same for every forwarder of that run, so
 * that rows two forwarders spooled from one buffer land once and the
 * traces row names the run the events carry. */
uint64_t forward_session_run_id(const exporter *x, const petw_logfile_info *li);

int64_t forward_now_ns(void);
int64_t forward_now_ms(void);
/* Starts the thread that sends the spool: 0, or -1 (the consumer then
 * sends itself). */
int forward_sender_start(forwarder *f);
/* Stops it (its inserts in flight stay, for the final send). */
void forward_sender_stop(forwarder *f);
/* After each session buffer (events decoded: no raw callback): its rows
 * to the spool, sealed into a batch when due. */
void forward_spool_buffer(forwarder *f, int64_t now);
/* --spool, while no buffer comes: the open file sealed into a batch
 * once --flush-ms has passed since the last one, and sent. */
void forward_spool_idle(forwarder *f, int64_t now);
/* After a buffer, with a sender: the consumer's busy time, which holds
 * the sender back. */
void forward_measure_busy(forwarder *f);
/* petw_trace_set_raw_callback's callback: the session's buffers to the
 * spool as they are. */
int forward_raw(petw_trace *t, const void *buffer, uint32_t size, void *context);
/* Without --spool, the raw buffer callback: a buffer's events take their
 * seq from its sequence number in the session (times 2^32, plus their
 * place in it), as the spool's converter gives them; its events are then
 * delivered and sent as they come. */
int forward_sequence(petw_trace *t, const void *buffer, uint32_t size, void *context);
/* The spool's converter: a spool file's ETL into the events' Native body. */
int forward_convert_etl(void *context, const char *meta, uint64_t seq, const sbuf *etl, sbuf *out,
                        uint64_t *rows);

#endif /* FORWARD_H */
