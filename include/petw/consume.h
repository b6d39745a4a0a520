/* SPDX-License-Identifier: MIT */
/* petw/consume.h - reading traces: open files, merge them, deliver events.
 *
 * A trace is one ETL file (written by petw or by Windows). Processing one or
 * more traces delivers every event record in timestamp order across all CPUs'
 * buffers and all files (a k-way merge), the session's own header record
 * first, as ETW's ProcessTrace does.
 *
 * Thread safety: a petw_trace is used by one thread at a time.
 */
#ifndef PETW_CONSUME_H
#define PETW_CONSUME_H

#include <stdint.h>

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct petw_trace petw_trace;

/* Totals of what a trace held and what was skipped. */
typedef struct petw_trace_stats {
    uint64_t buffers_read;    /* buffers parsed, header buffer included */
    uint64_t buffers_corrupt; /* buffers skipped as corrupt */
    uint64_t events_read;     /* records delivered */
    uint64_t bytes_truncated; /* bytes of a final, incomplete buffer */
} petw_trace_stats;

#define PETW_TRACE_RAW_TIMESTAMP 0x1u /* keep the session clock's raw ticks */

typedef void (*petw_event_callback)(petw_event_record *record, void *context);
/* Called after each buffer's last event; return 0 to stop processing. */
typedef int (*petw_buffer_callback)(petw_trace *trace, void *context);
/* Called for each corrupt buffer that is skipped. */
typedef void (*petw_corrupt_callback)(petw_trace *trace, uint64_t buffer_index,
                                      uint64_t file_offset, const char *what, void *context);

typedef struct petw_trace_config {
    uint32_t flags;                   /* PETW_TRACE_* */
    petw_event_callback on_event;     /* required */
    petw_buffer_callback on_buffer;   /* optional */
    petw_corrupt_callback on_corrupt; /* optional */
    void *context;                    /* given to every callback, and record->user_context */
    uint32_t reserved[8];
} petw_trace_config;

void petw_trace_config_init(petw_trace_config *config);

/* Opens and validates an ETL file (UTF-8 path). The file is read whole.
 * Returns 0, PETW_EINVAL, PETW_ENOENT, PETW_EACCES, PETW_EIO, PETW_ENOMEM,
 * or PETW_ECORRUPT when the file holds no valid header buffer. */
int petw_trace_open(const char *path, const petw_trace_config *config, petw_trace **out);

/* As petw_trace_open() for a trace already in memory (copied: the caller
 * may free `data` when this returns). Same errors, but no file errors. */
int petw_trace_open_memory(const void *data, size_t size, const petw_trace_config *config,
                           petw_trace **out);

/* Opens a live consumer of a running session started with
 * PETW_MODE_REAL_TIME, named `logger_name`. petw_trace_process() then
 * delivers each buffer's events as the session flushes it (within about its
 * flush timer), and returns when the session stops. A consumer that falls
 * behind loses whole buffers, counted in the session's
 * real_time_buffers_lost; the writers never wait for it.
 * Returns 0, PETW_ENOTFOUND (no such session), PETW_EINVAL (not a real-time
 * session), PETW_ELIMIT (8 consumers already) or PETW_ENOMEM. */
int petw_trace_open_realtime(const char *logger_name, const petw_trace_config *config,
                             petw_trace **out);

/* A live trace's buffers as they arrive, before their events are
 * delivered: `buffer` holds `size` bytes as an ETL file holds a buffer.
 * The first call gives the header buffer (what a log file of the session
 * would start with), so that the buffers given, one after the other, make
 * an ETL file that petw_trace_open reads. Return 0 to stop processing
 * (petw_trace_process returns PETW_ECANCELED), 1 to have the buffer's
 * events delivered, 2 not to (the buffer still counts as read). */
typedef int (*petw_raw_buffer_callback)(petw_trace *trace, const void *buffer, uint32_t size,
                                        void *context);

/* Sets the raw buffer callback of the live trace `trace` (NULL: none),
 * before petw_trace_process. A consumer that keeps the buffers themselves
 * (to decode them later, say) spends no time decoding while the session
 * writes. Returns 0, or PETW_EINVAL (NULL, not a live trace, or processed
 * already). */
int petw_trace_set_raw_callback(petw_trace *trace, petw_raw_buffer_callback callback);

/* Sets the idle callback of the live trace `trace` (NULL: none), before
 * petw_trace_process: called on the thread processing the trace while no
 * buffer comes, about every 100 ms, so that a consumer can do what it
 * does after a time (send what it gathered, say) without a thread of its
 * own. Return 0 to stop processing (PETW_ECANCELED), 1 to go on. Returns
 * 0, or PETW_EINVAL (NULL, not a live trace, or processed already). */
int petw_trace_set_idle_callback(petw_trace *trace, petw_buffer_callback callback);

/* A live trace of a shared session (petw/shared.h) tells the session it
 * has a buffer once the buffer's events were delivered (the buffer
 * callback returned): the session keeps each buffer until then, and hands
 * those not acknowledged to the session's next consumer when this process
 * goes (killed, say) or closes the trace (a consumer opened once
 * petw_trace_close returned gets them). After petw_trace_defer_acks, a buffer is
 * acknowledged only once the consumer says so with petw_trace_ack: one
 * that keeps the events elsewhere (sends them to a server in batches,
 * say) acknowledges them once they are kept there, and loses nothing if
 * killed before. The session keeps at most its real-time queue's buffers
 * for a consumer (its configuration's real_time_buffers, by default its
 * maximum_buffers, plus 64): what it
 * cannot keep while acknowledgements wait is lost and counted in its
 * real_time_buffers_lost, as for a consumer too slow; acknowledge at
 * least every few dozen buffers. A session of this process keeps nothing
 * for its consumers: acknowledgements change nothing there. Call before
 * petw_trace_process. Returns 0, or PETW_EINVAL (NULL, not a live trace,
 * or processed already). */
int petw_trace_defer_acks(petw_trace *trace);

/* The live trace's position: how many of the session's buffers it has
 * taken so far (the one being delivered included), from 0. 0 for a trace
 * that is not live. */
uint64_t petw_trace_position(const petw_trace *trace);

/* After petw_trace_defer_acks: acknowledges the session's first
 * `position` buffers (a petw_trace_position value): those already
 * finished at once, the others (the buffer being delivered) once their
 * events are delivered. Acknowledging a position already acknowledged
 * does nothing. Call on the thread processing the trace (from its
 * callbacks) or after petw_trace_process returned, before
 * petw_trace_close. Returns 0, or PETW_EINVAL (NULL, not a live trace,
 * acks not deferred, or a position past petw_trace_position). */
int petw_trace_ack(petw_trace *trace, uint64_t position);

/* Asks a petw_trace_process() running on `trace` (from another thread) to
 * return PETW_ECANCELED soon. */
void petw_trace_cancel(petw_trace *trace);

/* The file's decoded header. */
const petw_logfile_info *petw_trace_info(const petw_trace *trace);

/* Totals so far. */
void petw_trace_stats_get(const petw_trace *trace, petw_trace_stats *stats);

/* The context given at open time. */
void *petw_trace_context(const petw_trace *trace);

/* Delivers the events of `count` (<= 64) traces merged in timestamp order
 * (a live trace must be processed alone: its buffers are delivered as they
 * arrive, each buffer's events in timestamp order).
 * start_time/end_time are FILETIMEs bounding what is delivered (0: no bound);
 * the header records are always delivered. A trace can be processed once.
 * Returns 0, PETW_EINVAL (NULL, more than 64 traces, a trace processed
 * already, a live trace with others), PETW_ENOMEM, or PETW_ECANCELED when a
 * buffer callback or petw_trace_cancel() stopped it. */
int petw_trace_process(petw_trace **traces, uint32_t count, int64_t start_time, int64_t end_time);

/* Frees the trace. NULL is fine. On a real-time consumer of a shared
 * session it returns once the session took back the buffers it did not
 * acknowledge (at most a few seconds if the session host does not
 * answer): a consumer opened right after gets them first. */
void petw_trace_close(petw_trace *trace);

/* Converts a raw session timestamp of `trace` to FILETIME. */
int64_t petw_trace_timestamp_to_filetime(const petw_trace *trace, int64_t timestamp);

/* The name of the NT Kernel Logger's classic event class whose GUID is
 * `provider` ("Process", "Thread", "Image", "DiskIo", "FileIo", "TcpIp",
 * "UdpIp", "Registry", "PageFault", "PerfInfo", "SystemConfig",
 * "StackWalk", "ALPC"), "EventTrace" for a file's header records, or NULL
 * for any other provider. Kernel records are delivered with their class's
 * GUID as the provider. */
const char *petw_kernel_class_name(const petw_guid *provider);
/* The GUID of the kernel event class `name` (one of the names above, exact
 * case): 0, or PETW_ENOTFOUND. */
int petw_kernel_class_guid(const char *name, petw_guid *out);

#ifdef __cplusplus
}
#endif
#endif /* PETW_CONSUME_H */
