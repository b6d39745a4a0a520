/* SPDX-License-Identifier: MIT */
/* etw_consumer.c - OpenTrace, ProcessTrace, CloseTrace. */
#include <stdlib.h>

#include "etw_internal.h"

_Static_assert(sizeof(EVENT_HEADER) == sizeof(petw_event_header), "EVENT_HEADER");
_Static_assert(sizeof(EVENT_RECORD) == sizeof(petw_event_record), "EVENT_RECORD");
_Static_assert(offsetof(EVENT_RECORD, UserData) == offsetof(petw_event_record, user_data),
               "UserData");
_Static_assert(offsetof(EVENT_RECORD, UserContext) == offsetof(petw_event_record, user_context),
               "UserContext");
_Static_assert(sizeof(EVENT_HEADER_EXTENDED_DATA_ITEM) == sizeof(petw_extended_item), "EXT_ITEM");
_Static_assert(sizeof(ETW_BUFFER_CONTEXT) == sizeof(petw_buffer_context), "ETW_BUFFER_CONTEXT");

#define MAX_OPEN 256

/* An open_trace slot: free, being opened (claimed, file I/O under way
 * without the lock), or open. */
enum { SLOT_FREE, SLOT_OPENING, SLOT_OPEN };

typedef struct open_trace {
    uint32_t gen;
    int state;
    int processing;    /* inside ProcessTrace */
    int close_pending; /* CloseTrace came during ProcessTrace */
    petw_trace *trace;
    int wide;
    /* Our copy of the caller's EVENT_TRACE_LOGFILE, which processing uses
     * (and hands to BufferCallback), as ETW does: callers may pass a
     * stack-local one to OpenTrace and call ProcessTrace after it is gone. */
    EVENT_TRACE_LOGFILEW copyw;
    EVENT_TRACE_LOGFILEA copya;
    PEVENT_TRACE_LOGFILEW logw;
    PEVENT_TRACE_LOGFILEA loga;
    WCHAR logger_name[PETW_MAX_NAME];
    WCHAR file_name[PETW_MAX_NAME];
} open_trace;

static open_trace opens[MAX_OPEN];

/* The pre-Vista form of an event (EventCallback, without
 * PROCESS_TRACE_MODE_EVENT_RECORD): the classic header's fields from the
 * record's, the payload as MofData. */
static void deliver_event_trace(const petw_event_record *rec, PEVENT_CALLBACK cb)
{
    EVENT_TRACE e;
    memset(&e, 0, sizeof(e));
    const petw_event_header *h = &rec->header;
    uint32_t size = (uint32_t)sizeof(EVENT_TRACE_HEADER) + rec->user_data_length;
    e.Header.Size = (USHORT)(size > 0xFFFF ? 0xFFFF : size);
    e.Header.Class.Type = h->descriptor.opcode;
    e.Header.Class.Level = h->descriptor.level;
    e.Header.Class.Version = h->descriptor.version;
    e.Header.ThreadId = h->thread_id;
    e.Header.ProcessId = h->process_id;
    e.Header.TimeStamp.QuadPart = h->timestamp;
    memcpy(&e.Header.Guid, &h->provider_id, sizeof(GUID));
    e.Header.KernelTime = h->cpu.times.kernel_time;
    e.Header.UserTime = h->cpu.times.user_time;
    e.MofData = rec->user_data;
    e.MofLength = rec->user_data_length;
    memcpy(&e.BufferContext, &rec->buffer_context, sizeof(e.BufferContext));
    cb(&e);
}

static void on_event(petw_event_record *rec, void *ctx)
{
    open_trace *o = ctx;
    ULONG mode = o->wide ? o->logw->ProcessTraceMode : o->loga->ProcessTraceMode;
    rec->user_context = o->wide ? o->logw->Context : o->loga->Context;
    if (!(mode & PROCESS_TRACE_MODE_EVENT_RECORD)) {
        PEVENT_CALLBACK cb = o->wide ? o->logw->EventCallback : o->loga->EventCallback;
        if (cb)
            deliver_event_trace(rec, cb);
        return;
    }
    PEVENT_RECORD_CALLBACK cb =
        o->wide ? o->logw->EventRecordCallback : o->loga->EventRecordCallback;
    if (cb)
        cb((PEVENT_RECORD)rec);
}

static int on_buffer(petw_trace *t, void *ctx)
{
    open_trace *o = ctx;
    (void)t;
    if (o->wide) {
        o->logw->BuffersRead++;
        return o->logw->BufferCallback ? (int)o->logw->BufferCallback(o->logw) : 1;
    }
    o->loga->BuffersRead++;
    return o->loga->BufferCallback ? (int)o->loga->BufferCallback(o->loga) : 1;
}

static void fill_header(TRACE_LOGFILE_HEADER *h, open_trace *o, const petw_logfile_info *i)
{
    memset(h, 0, sizeof(*h));
    h->BufferSize = i->buffer_size;
    h->Version = i->version;
    h->ProviderVersion = i->provider_version;
    h->NumberOfProcessors = i->number_of_processors;
    h->EndTime.QuadPart = i->end_time;
    h->TimerResolution = i->timer_resolution;
    h->MaximumFileSize = i->maximum_file_size;
    h->LogFileMode = i->log_file_mode;
    h->BuffersWritten = i->buffers_written;
    h->StartBuffers = i->start_buffers;
    h->PointerSize = i->pointer_size;
    h->EventsLost = i->events_lost;
    h->CpuSpeedInMHz = i->cpu_speed_mhz;
    petw__utf8_to_wcs(i->logger_name, o->logger_name, PETW_MAX_NAME);
    petw__utf8_to_wcs(i->log_file_name, o->file_name, PETW_MAX_NAME);
    h->LoggerName = o->logger_name;
    h->LogFileName = o->file_name;
    h->BootTime.QuadPart = i->boot_time;
    h->PerfFreq.QuadPart = i->perf_freq;
    h->StartTime.QuadPart = i->start_time;
    h->ReservedFlags = i->reserved_flags;
    h->BuffersLost = i->buffers_lost;
}

static TRACEHANDLE open_failed(DWORD error)
{
    SetLastError(error);
    return INVALID_PROCESSTRACE_HANDLE;
}

/* The ETW view of an opened trace: the caller's EVENT_TRACE_LOGFILE gets
 * the file's header. */
static void fill_logfile(open_trace *o)
{
    const petw_logfile_info *info = petw_trace_info(o->trace);
    TRACE_LOGFILE_HEADER *h = o->wide ? &o->logw->LogfileHeader : &o->loga->LogfileHeader;
    fill_header(h, o, info);
    if (o->wide) {
        o->logw->BuffersRead = 0;
        o->logw->BufferSize = info->buffer_size;
        o->logw->EventsLost = info->events_lost;
        o->logw->IsKernelTrace = 0;
    } else {
        o->loga->BuffersRead = 0;
        o->loga->BufferSize = info->buffer_size;
        o->loga->EventsLost = info->events_lost;
        o->loga->IsKernelTrace = 0;
    }
}

/* The slot is claimed under the control lock, the file opened (and
 * scanned) outside it: reading a trace never holds up EventRegister or a
 * controller. */
static TRACEHANDLE open_common(const char *path, ULONG mode, int wide, void *logfile)
{
    int realtime = (mode & PROCESS_TRACE_MODE_REAL_TIME) != 0;
    if (!path || !path[0])
        return open_failed(ERROR_INVALID_PARAMETER);
    petw__control_lock();
    uint32_t i;
    for (i = 0; i < MAX_OPEN && opens[i].state != SLOT_FREE; i++) {
    }
    if (i < MAX_OPEN)
        opens[i].state = SLOT_OPENING;
    petw__control_unlock();
    if (i == MAX_OPEN)
        return open_failed(ERROR_NO_SYSTEM_RESOURCES);
    open_trace *o = &opens[i];
    o->wide = wide;
    o->logw = wide ? logfile : NULL;
    o->loga = wide ? NULL : logfile;
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.flags = (mode & PROCESS_TRACE_MODE_RAW_TIMESTAMP) ? PETW_TRACE_RAW_TIMESTAMP : 0;
    cfg.on_event = on_event;
    cfg.on_buffer = on_buffer;
    cfg.context = o;
    /* Real time: `path` is the LoggerName of a running session, of this
     * process or shared. */
    int rc = realtime ? petw_trace_open_realtime(path, &cfg, &o->trace)
                      : petw_trace_open(path, &cfg, &o->trace);
    if (rc == 0) {
        fill_logfile(o); /* the caller's structure tells what was opened */
        if (wide) {
            o->copyw = *o->logw;
            o->logw = &o->copyw;
        } else {
            o->copya = *o->loga;
            o->loga = &o->copya;
        }
    }
    petw__control_lock();
    o->processing = o->close_pending = 0;
    o->state = rc == 0 ? SLOT_OPEN : SLOT_FREE;
    o->gen = o->gen + 1 ? o->gen + 1 : 1;
    TRACEHANDLE handle = petw__handle_make(o->gen, i);
    petw__control_unlock();
    if (rc)
        return open_failed(rc == PETW_EINVAL && realtime ? ERROR_INVALID_PARAMETER
                                                         : petw__etw_status(rc));
    SetLastError(ERROR_SUCCESS);
    return handle;
}

TRACEHANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile)
{
    char path[PETW_MAX_NAME];
    if (!Logfile) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return INVALID_PROCESSTRACE_HANDLE;
    }
    path[0] = 0;
    const WCHAR *name = (Logfile->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME)
                            ? Logfile->LoggerName
                            : Logfile->LogFileName;
    if (name && petw__wcs_to_utf8_fit(name, path, sizeof(path)) != 0) {
        SetLastError(ERROR_BAD_PATHNAME);
        return INVALID_PROCESSTRACE_HANDLE;
    }
    return open_common(path, Logfile->ProcessTraceMode, 1, Logfile);
}

/* EVENT_TRACE_LOGFILEA's names are in the ANSI code page. */
TRACEHANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile)
{
    char path[PETW_MAX_NAME];
    if (!Logfile) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return INVALID_PROCESSTRACE_HANDLE;
    }
    path[0] = 0;
    const char *name = (Logfile->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME)
                           ? Logfile->LoggerName
                           : Logfile->LogFileName;
    int rc = name ? petw__ansi_to_utf8_fit(name, path, sizeof(path)) : 0;
    if (rc != 0) {
        SetLastError(rc == PETW_ENAMETOOLONG ? ERROR_BAD_PATHNAME : ERROR_INVALID_PARAMETER);
        return INVALID_PROCESSTRACE_HANDLE;
    }
    return open_common(path, Logfile->ProcessTraceMode, 0, Logfile);
}

static open_trace *lookup(TRACEHANDLE h)
{
    uint32_t i = petw__handle_slot(h);
    if (i >= MAX_OPEN || opens[i].state != SLOT_OPEN || opens[i].gen != petw__handle_generation(h))
        return NULL;
    return &opens[i];
}

ULONG WMIAPI ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                          LPFILETIME EndTime)
{
    petw_trace *traces[64];
    open_trace *os[64];
    if (!HandleArray || HandleCount == 0 || HandleCount > 64)
        return ERROR_INVALID_PARAMETER;
    petw__control_lock();
    for (ULONG i = 0; i < HandleCount; i++) {
        open_trace *o = lookup(HandleArray[i]);
        if (!o || o->processing || o->close_pending) {
            petw__control_unlock();
            return ERROR_INVALID_HANDLE;
        }
        for (ULONG j = 0; j < i; j++) {
            if (os[j] == o) { /* the same trace twice */
                petw__control_unlock();
                return ERROR_INVALID_PARAMETER;
            }
        }
        traces[i] = o->trace;
        os[i] = o;
    }
    for (ULONG i = 0; i < HandleCount; i++)
        os[i]->processing = 1;
    petw__control_unlock();
    int64_t start =
        StartTime
            ? (int64_t)(((uint64_t)StartTime->dwHighDateTime << 32) | StartTime->dwLowDateTime)
            : 0;
    int64_t end =
        EndTime ? (int64_t)(((uint64_t)EndTime->dwHighDateTime << 32) | EndTime->dwLowDateTime) : 0;
    int rc = petw_trace_process(traces, HandleCount, start, end);
    petw__control_lock();
    for (ULONG i = 0; i < HandleCount; i++) {
        os[i]->processing = 0;
        if (os[i]->close_pending) { /* CloseTrace ran meanwhile: finish it */
            petw_trace_close(os[i]->trace);
            os[i]->trace = NULL;
            os[i]->state = SLOT_FREE;
            os[i]->close_pending = 0;
        }
    }
    petw__control_unlock();
    return petw__etw_status(rc);
}

ULONG WMIAPI CloseTrace(TRACEHANDLE TraceHandle)
{
    petw__control_lock();
    open_trace *o = lookup(TraceHandle);
    if (!o || o->close_pending) {
        petw__control_unlock();
        return ERROR_INVALID_HANDLE;
    }
    if (o->processing) {
        /* As ETW: ProcessTrace returns soon, and the handle goes then. */
        o->close_pending = 1;
        petw_trace_cancel(o->trace);
        petw__control_unlock();
        return ERROR_CTX_CLOSE_PENDING;
    }
    petw_trace_close(o->trace);
    o->trace = NULL;
    o->state = SLOT_FREE;
    petw__control_unlock();
    return ERROR_SUCCESS;
}
