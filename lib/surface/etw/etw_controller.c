/* SPDX-License-Identifier: MIT */
/* etw_controller.c - StartTrace, ControlTrace and friends, QueryAllTraces,
 * TraceSetInformation and TraceQueryInformation (EnableTraceEx2:
 * etw_enable.c). */
#include <stdatomic.h>
#include <stdlib.h>

#include "../../base/classes/kernel_class.h"
#include "../../control/controller/controller.h"
#include "etw_internal.h"

_Static_assert(sizeof(WNODE_HEADER) == 48, "WNODE_HEADER");
/* LogFileMode is passed to the native API as it is: the bits must agree. */
_Static_assert(EVENT_TRACE_FILE_MODE_SEQUENTIAL == PETW_MODE_SEQUENTIAL &&
                   EVENT_TRACE_FILE_MODE_CIRCULAR == PETW_MODE_CIRCULAR &&
                   EVENT_TRACE_FILE_MODE_APPEND == PETW_MODE_APPEND &&
                   EVENT_TRACE_FILE_MODE_NEWFILE == PETW_MODE_NEWFILE &&
                   EVENT_TRACE_FILE_MODE_PREALLOCATE == PETW_MODE_PREALLOCATE &&
                   EVENT_TRACE_REAL_TIME_MODE == PETW_MODE_REAL_TIME &&
                   EVENT_TRACE_BUFFERING_MODE == PETW_MODE_BUFFERING &&
                   EVENT_TRACE_COMPRESSED_MODE == PETW_MODE_COMPRESSED &&
                   EVENT_TRACE_PRIVATE_LOGGER_MODE == PETW_MODE_PRIVATE_LOGGER &&
                   EVENT_TRACE_PRIVATE_IN_PROC == PETW_MODE_PRIVATE_IN_PROC &&
                   EVENT_TRACE_USE_PAGED_MEMORY == PETW_MODE_USE_PAGED_MEMORY &&
                   EVENT_TRACE_INDEPENDENT_SESSION_MODE == PETW_MODE_INDEPENDENT_SESSION,
               "EVENT_TRACE_*_MODE and PETW_MODE_*");
_Static_assert(MAX_EVENT_DATA_DESCRIPTORS == PETW_MAX_DATA_DESCRIPTORS, "descriptor limit");
_Static_assert(sizeof(void *) != 8 || sizeof(EVENT_TRACE_PROPERTIES) == 120,
               "EVENT_TRACE_PROPERTIES");

/* The names inside EVENT_TRACE_PROPERTIES (at LoggerNameOffset and
 * LogFileNameOffset) are WCHAR strings for the W functions and ANSI code
 * page strings for the A functions, as on Windows: `ansi` says which. */

/* Copies the NUL-terminated string at `offset` inside the properties block
 * into UTF-8. 0 offset: empty. Fails when it is out of range or not
 * terminated inside Wnode.BufferSize. */
static int props_string(const EVENT_TRACE_PROPERTIES *p, ULONG offset, char *out, size_t size,
                        int ansi)
{
    out[0] = 0;
    if (offset == 0)
        return 0;
    if (offset < sizeof(*p) || offset >= p->Wnode.BufferSize || (!ansi && offset % sizeof(WCHAR)))
        return PETW_EINVAL;
    if (ansi) {
        const char *a = (const char *)p + offset;
        if (!memchr(a, 0, p->Wnode.BufferSize - offset))
            return PETW_EINVAL;
        return petw__ansi_to_utf8_fit(a, out, size);
    }
    const WCHAR *s = (const WCHAR *)((const char *)p + offset);
    size_t room = (p->Wnode.BufferSize - offset) / sizeof(WCHAR), i;
    for (i = 0; i < room && s[i]; i++) {
    }
    if (i == room)
        return PETW_EINVAL;
    return petw__wcs_to_utf8_fit(s, out, size);
}

/* Writes a UTF-8 name at `offset` when it fits (a wide one cut to fit
 * otherwise; an ANSI one not at all). */
static int props_put_string(EVENT_TRACE_PROPERTIES *p, ULONG offset, const char *utf8, int ansi)
{
    if (offset == 0)
        return 0;
    if (offset < sizeof(*p) || offset >= p->Wnode.BufferSize || (!ansi && offset % sizeof(WCHAR)))
        return PETW_EBADLENGTH;
    if (ansi)
        return petw__utf8_to_ansi_fit(utf8, (char *)p + offset, p->Wnode.BufferSize - offset) == 0
                   ? 0
                   : PETW_EBADLENGTH;
    size_t room = (p->Wnode.BufferSize - offset) / sizeof(WCHAR);
    WCHAR *dst = (WCHAR *)((char *)p + offset);
    size_t n = petw__utf8_to_wcs(utf8, dst, room);
    return n + 1 >= room && strlen(utf8) > n ? PETW_EBADLENGTH : 0;
}

static void fill_props(EVENT_TRACE_PROPERTIES *p, petw_session_handle h,
                       const petw_session_stats *st, int ansi)
{
    p->Wnode.HistoricalContext = h;
    p->Wnode.ClientContext = st->clock;
    p->BufferSize = st->buffer_size_kb;
    p->MinimumBuffers = st->minimum_buffers;
    p->MaximumBuffers = st->maximum_buffers;
    p->LogFileMode = st->log_file_mode | (p->LogFileMode & EVENT_TRACE_USE_KBYTES_FOR_SIZE);
    p->MaximumFileSize = (p->LogFileMode & EVENT_TRACE_USE_KBYTES_FOR_SIZE)
                             ? st->maximum_file_size_kb
                             : st->maximum_file_size_kb / 1024u;
    p->EnableFlags = st->enable_flags;
    p->FlushTimer = (st->flush_timer_ms + 999) / 1000;
    p->NumberOfBuffers = st->number_of_buffers;
    p->FreeBuffers = st->free_buffers;
    p->EventsLost = st->events_lost;
    p->BuffersWritten = st->buffers_written;
    p->LogBuffersLost = st->log_buffers_lost;
    p->RealTimeBuffersLost = st->real_time_buffers_lost;
    p->LoggerThreadId = NULL;
    props_put_string(p, p->LoggerNameOffset, st->name, ansi);
    /* A session without a file leaves the caller's file name alone (it may
     * name the next snapshot). */
    if (p->LogFileNameOffset && st->file_path[0])
        props_put_string(p, p->LogFileNameOffset, st->file_path, ansi);
}

/* Sessions are shared between processes, as ETW's are, unless private
 * (EVENT_TRACE_PRIVATE_LOGGER_MODE, PRIVATE_IN_PROC: in-process, as on
 * Windows) or PETW_INPROC_SESSIONS=1 asks for in-process ones. The same in
 * petw's own Windows build (PETW_USE_NATIVE_ETW uses the system's ETW
 * instead of petw). */
static uint32_t transport_for(uint32_t mode)
{
    const char *v = getenv("PETW_INPROC_SESSIONS");
    if ((v && v[0] && v[0] != '0') ||
        (mode & (PETW_MODE_PRIVATE_LOGGER | PETW_MODE_PRIVATE_IN_PROC)))
        return PETW_TRANSPORT_IN_PROCESS;
    return PETW_TRANSPORT_HOST;
}

/* EnableFlags 0 on the NT Kernel Logger: tracelog's defaults (process,
 * thread, disk and TCP/IP), of which petw records process and thread. */
#define DEFAULT_KERNEL_FLAGS (EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD)

/* TraceSampledProfileIntervalInfo: machine-wide on Windows, here this
 * process's setting for the system sessions it starts (and, set on one,
 * that session's). 0 reads it; 10000 (1 ms) until set. */
static _Atomic uint32_t profile_interval = 10000;
uint32_t petw__etw_profile_interval(uint32_t set)
{
    /* relaxed: a setting read when a session starts */
    if (set)
        atomic_store_explicit(&profile_interval, set, memory_order_relaxed);
    return atomic_load_explicit(&profile_interval, memory_order_relaxed);
}

/* `name` is UTF-8; `name_bytes` is what the caller's own form of it takes
 * with its NUL (in WCHARs or ANSI chars). */
static ULONG start_trace(PTRACEHANDLE handle, const char *name, PEVENT_TRACE_PROPERTIES p,
                         size_t name_bytes, int ansi)
{
    if (!handle || !p || !name || !name[0])
        return ERROR_INVALID_PARAMETER;
    if (p->Wnode.BufferSize < sizeof(*p))
        return ERROR_BAD_LENGTH;
    /* ETW copies the name to LoggerNameOffset: there must be room. */
    if (p->LoggerNameOffset && (p->LoggerNameOffset < sizeof(*p) ||
                                (uint64_t)p->LoggerNameOffset + name_bytes > p->Wnode.BufferSize))
        return ERROR_BAD_LENGTH;
    /* The NT Kernel Logger (by name or GUID) records EnableFlags' groups
     * through the system provider; a system logger does when it names
     * some (else it is an ordinary session for providers, as on Windows 8
     * and later). */
    int kernel = strcmp(name, KERNEL_LOGGER_NAMEA) == 0 ||
                 memcmp(&p->Wnode.Guid, &SystemTraceControlGuid, sizeof(GUID)) == 0;
    uint32_t system_flags = p->EnableFlags;
    if (kernel && system_flags == 0)
        system_flags = DEFAULT_KERNEL_FLAGS;
    if (!kernel && !(p->LogFileMode & EVENT_TRACE_SYSTEM_LOGGER_MODE))
        system_flags = 0;
    char path[PETW_MAX_NAME];
    int rc = props_string(p, p->LogFileNameOffset, path, sizeof(path), ansi);
    if (rc != 0)
        return petw__etw_status(rc);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = name;
    c.file_path = path[0] ? path : NULL;
    c.buffer_size_kb = p->BufferSize;
    c.minimum_buffers = p->MinimumBuffers;
    c.maximum_buffers = p->MaximumBuffers;
    c.flush_timer_ms = p->FlushTimer * 1000u;
    c.clock = p->Wnode.ClientContext;
    c.log_file_mode =
        p->LogFileMode & ~(ULONG)(EVENT_TRACE_COMPRESSED_MODE | EVENT_TRACE_USE_KBYTES_FOR_SIZE |
                                  EVENT_TRACE_SYSTEM_LOGGER_MODE);
    c.system_flags = system_flags;
    c.profile_interval_100ns = petw__etw_profile_interval(0);
    c.maximum_file_size_kb = (p->LogFileMode & EVENT_TRACE_USE_KBYTES_FOR_SIZE)
                                 ? p->MaximumFileSize
                                 : p->MaximumFileSize * 1024u;
    /* EVENT_TRACE_COMPRESSED_MODE asks for compression: petw gives its own
     * (zstd + checksum), flagged so no reader mistakes it for Windows'. */
    if (p->LogFileMode & EVENT_TRACE_COMPRESSED_MODE)
        c.flags = PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM;
    c.transport = transport_for(c.log_file_mode);
    /* Not under the control lock: a host's start may wait for this
     * process's providers. */
    petw_session_handle h = 0;
    rc = petw_session_start(&c, &h);
    petw_session_stats st;
    if (rc == 0 && petw_session_query(h, &st) == 0)
        fill_props(p, h, &st, ansi);
    if (rc == 0)
        *handle = h;
    return petw__etw_status(rc);
}

ULONG WMIAPI StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties)
{
    char name[PETW_MAX_NAME];
    if (!InstanceName)
        return ERROR_INVALID_PARAMETER;
    if (petw__wcs_to_utf8_fit(InstanceName, name, sizeof(name)) != 0)
        return ERROR_BAD_PATHNAME;
    return start_trace(TraceHandle, name, Properties, (wcslen(InstanceName) + 1) * sizeof(WCHAR),
                       0);
}

/* An A function's name in UTF-8: ERROR_BAD_PATHNAME when too long, as the
 * W functions', ERROR_INVALID_PARAMETER when it does not convert. */
static ULONG ansi_name(LPCSTR ansi, char *out, size_t size)
{
    out[0] = 0;
    if (!ansi)
        return ERROR_SUCCESS;
    int rc = petw__ansi_to_utf8_fit(ansi, out, size);
    return rc == 0                   ? ERROR_SUCCESS
           : rc == PETW_ENAMETOOLONG ? ERROR_BAD_PATHNAME
                                     : ERROR_INVALID_PARAMETER;
}

ULONG WMIAPI StartTraceA(PTRACEHANDLE TraceHandle, LPCSTR InstanceName,
                         PEVENT_TRACE_PROPERTIES Properties)
{
    char name[PETW_MAX_NAME];
    if (!InstanceName)
        return ERROR_INVALID_PARAMETER;
    ULONG status = ansi_name(InstanceName, name, sizeof(name));
    if (status != ERROR_SUCCESS)
        return status;
    return start_trace(TraceHandle, name, Properties, strlen(InstanceName) + 1, 1);
}

/* ControlTrace, on a session of either transport: one call per step, made
 * without the control lock (a shared session's stop waits for this
 * process's providers to detach, which takes the lock on the agent's
 * thread; an in-process one takes it itself). */
static ULONG control_trace(TRACEHANDLE h, const char *name, PEVENT_TRACE_PROPERTIES p, ULONG code,
                           int ansi)
{
    if (!p)
        return ERROR_INVALID_PARAMETER;
    if (p->Wnode.BufferSize < sizeof(*p))
        return ERROR_BAD_LENGTH;
    if (h == 0 && (!name || !name[0]))
        return ERROR_INVALID_PARAMETER;
    petw_session_stats st;
    char path[PETW_MAX_NAME];
    int rc = props_string(p, p->LogFileNameOffset, path, sizeof(path), ansi);
    if (rc == 0 && h == 0)
        rc = petw_session_find(name, &h);
    if (rc == 0)
        rc = petw_session_query(h, &st);
    if (rc == 0) {
        switch (code) {
        case EVENT_TRACE_CONTROL_QUERY:
            break;
        case EVENT_TRACE_CONTROL_STOP:
            rc = petw_session_stop(h, &st);
            /* Stopped, but some buffers failed to reach the file (the disk
             * full, or another write error): stopped all the same, its final
             * figures count them (LogBuffersLost, EventsLost). FLUSH says
             * why: ERROR_DISK_FULL or ERROR_WRITE_FAULT. */
            if (rc == PETW_EIO || rc == PETW_ENOSPC)
                rc = 0;
            break;
        case EVENT_TRACE_CONTROL_FLUSH:
            /* petw: FLUSH on a buffering session whose properties name a log
             * file writes a snapshot there (without stopping or draining). */
            if ((st.log_file_mode & PETW_MODE_BUFFERING) && path[0])
                rc = petw_session_snapshot(h, path);
            else
                rc = petw_session_flush(h, NULL);
            if (rc == 0)
                rc = petw_session_query(h, &st);
            break;
        case EVENT_TRACE_CONTROL_UPDATE:
            if (path[0] && strcmp(path, st.file_path) != 0)
                rc = petw_session_switch_file(h, path);
            if (rc == 0)
                rc = petw_session_update(h, p->FlushTimer * 1000u, p->MaximumBuffers);
            if (rc == 0)
                rc = petw__controller_set_enable_flags(h, p->EnableFlags);
            if (rc == 0)
                rc = petw_session_query(h, &st);
            break;
        case EVENT_TRACE_CONTROL_INCREMENT_FILE:
        case EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME:
            rc = PETW_ENOTSUP;
            break;
        default:
            rc = PETW_EINVAL;
            break;
        }
    }
    if (rc == 0)
        fill_props(p, h, &st, ansi);
    return petw__etw_status(rc);
}

/* A wide logger name in UTF-8; a name that does not fit matches nothing. */
#define WIDE_NAME(var, w)                                                                          \
    char var[PETW_MAX_NAME];                                                                       \
    var[0] = 0;                                                                                    \
    if ((w) && petw__wcs_to_utf8_fit((w), var, sizeof(var)) != 0)                                  \
    return ERROR_BAD_PATHNAME

ULONG WMIAPI ControlTraceW(TRACEHANDLE h, LPCWSTR InstanceName, PEVENT_TRACE_PROPERTIES p,
                           ULONG code)
{
    WIDE_NAME(name, InstanceName);
    return control_trace(h, name, p, code, 0);
}
ULONG WMIAPI ControlTraceA(TRACEHANDLE h, LPCSTR InstanceName, PEVENT_TRACE_PROPERTIES p,
                           ULONG code)
{
    char name[PETW_MAX_NAME];
    ULONG status = ansi_name(InstanceName, name, sizeof(name));
    if (status != ERROR_SUCCESS)
        return status;
    return control_trace(h, name, p, code, 1);
}
ULONG WMIAPI StopTraceW(TRACEHANDLE h, LPCWSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceW(h, n, p, EVENT_TRACE_CONTROL_STOP);
}
ULONG WMIAPI StopTraceA(TRACEHANDLE h, LPCSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceA(h, n, p, EVENT_TRACE_CONTROL_STOP);
}
ULONG WMIAPI QueryTraceW(TRACEHANDLE h, LPCWSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceW(h, n, p, EVENT_TRACE_CONTROL_QUERY);
}
ULONG WMIAPI QueryTraceA(TRACEHANDLE h, LPCSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceA(h, n, p, EVENT_TRACE_CONTROL_QUERY);
}
ULONG WMIAPI FlushTraceW(TRACEHANDLE h, LPCWSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceW(h, n, p, EVENT_TRACE_CONTROL_FLUSH);
}
ULONG WMIAPI FlushTraceA(TRACEHANDLE h, LPCSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceA(h, n, p, EVENT_TRACE_CONTROL_FLUSH);
}
ULONG WMIAPI UpdateTraceW(TRACEHANDLE h, LPCWSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceW(h, n, p, EVENT_TRACE_CONTROL_UPDATE);
}
ULONG WMIAPI UpdateTraceA(TRACEHANDLE h, LPCSTR n, PEVENT_TRACE_PROPERTIES p)
{
    return ControlTraceA(h, n, p, EVENT_TRACE_CONTROL_UPDATE);
}

static ULONG query_all(PEVENT_TRACE_PROPERTIES *array, ULONG count, PULONG logger_count, int ansi)
{
    uint32_t n = 0;
    if (!logger_count || (count && !array) || count > MAXLOGGERS)
        return ERROR_INVALID_PARAMETER;
    for (ULONG i = 0; i < count; i++)
        if (!array[i] || array[i]->Wnode.BufferSize < sizeof(EVENT_TRACE_PROPERTIES))
            return ERROR_INVALID_PARAMETER;
    /* This process's sessions, then every shared session of this user. */
    petw_session_handle handles[2 * PETW_MAX_SESSIONS];
    int rc = petw_session_list(handles, 2 * PETW_MAX_SESSIONS, &n);
    if (rc != 0)
        return petw__etw_status(rc); /* the runtime directory cannot be used */
    if (n > 2 * PETW_MAX_SESSIONS)
        n = 2 * PETW_MAX_SESSIONS;
    uint32_t filled = 0, running = 0;
    for (uint32_t i = 0; i < n; i++) {
        petw_session_stats st;
        if (petw_session_query(handles[i], &st) != 0)
            continue; /* it stopped meanwhile */
        if (filled < count)
            fill_props(array[filled++], handles[i], &st, ansi);
        running++;
    }
    *logger_count = filled;
    return running > count ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *a, ULONG c, PULONG n)
{
    return query_all(a, c, n, 0);
}
ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *a, ULONG c, PULONG n)
{
    return query_all(a, c, n, 1);
}

/* ---- TraceSetInformation / TraceQueryInformation: the system provider's
 * classes. Every other class is ERROR_NOT_SUPPORTED. ---- */

/* TraceSystemTraceEnableFlagsInfo's buffer: the kernel's group mask
 * (PERFINFO_GROUPMASK, 8 ULONGs), whose first ULONG holds the
 * EVENT_TRACE_FLAG_* groups; the other seven name groups EnableFlags
 * cannot (worker threads, handles, PMC samples...), none recorded here. */
#define GROUP_MASKS 8

static int query_flags(TRACEHANDLE h, uint32_t *flags)
{
    petw_session_stats st;
    int rc = petw_session_query(h, &st);
    *flags = rc == 0 ? st.enable_flags : 0;
    return rc;
}

ULONG WMIAPI TraceSetInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                 PVOID TraceInformation, ULONG InformationLength)
{
    switch ((int)InformationClass) {
    case TraceSampledProfileIntervalInfo: {
        if (!TraceInformation)
            return ERROR_INVALID_PARAMETER;
        if (InformationLength < sizeof(TRACE_PROFILE_INTERVAL))
            return ERROR_BAD_LENGTH;
        const TRACE_PROFILE_INTERVAL *pi = TraceInformation;
        if (pi->Source != 0) /* ProfileTime only: no hardware counter sources */
            return ERROR_NOT_SUPPORTED;
        if (pi->Interval == 0)
            return ERROR_INVALID_PARAMETER;
        uint32_t interval = pi->Interval;
        petw__etw_profile_interval(interval);
        return SessionHandle
                   ? petw__etw_status(petw__controller_set_system(SessionHandle, NULL, &interval))
                   : ERROR_SUCCESS;
    }
    case TraceStackTracingInfo: {
        /* CLASSIC_EVENT_IDs whose events get stacks: petw walks stacks for
         * CPU samples (PerfInfo SampledProfile), context switches (Thread
         * CSwitch: the stack of the thread switched in) and wake-ups
         * (Thread ReadyThread: the readying thread's); a list naming none
         * of those cannot be honoured. An empty list turns stacks off. */
        if (InformationLength % sizeof(CLASSIC_EVENT_ID) ||
            (InformationLength && !TraceInformation))
            return ERROR_INVALID_PARAMETER;
        const CLASSIC_EVENT_ID *ids = TraceInformation;
        uint32_t n = InformationLength / sizeof(CLASSIC_EVENT_ID), stacks = 0;
        for (uint32_t k = 0; k < n; k++) {
            int perfinfo =
                memcmp(&ids[k].EventGuid, PETW__KC_GUID(PETW__KC_PERFINFO), sizeof(GUID)) == 0;
            int thread =
                memcmp(&ids[k].EventGuid, PETW__KC_GUID(PETW__KC_THREAD), sizeof(GUID)) == 0;
            if (perfinfo && ids[k].Type == PETW__OP_PERFINFO_SAMPLED_PROFILE)
                stacks |= PETW_SYSTEM_PROFILE;
            else if (thread && ids[k].Type == PETW__OP_THREAD_CSWITCH)
                stacks |= PETW_SYSTEM_CSWITCH;
            else if (thread && ids[k].Type == PETW__OP_THREAD_READY)
                stacks |= PETW_SYSTEM_DISPATCHER;
        }
        if (n && !stacks)
            return ERROR_NOT_SUPPORTED;
        return petw__etw_status(petw__controller_set_system(SessionHandle, &stacks, NULL));
    }
    case TraceSystemTraceEnableFlagsInfo: {
        /* The groups a session records from now on; any session becomes a
         * system session this way (Windows takes it from the NT Kernel
         * Logger and system loggers). All zero stops the groups. Groups
         * petw has no source for are left out, as at StartTrace; a mask
         * naming only such groups is ERROR_NOT_SUPPORTED. */
        if (!TraceInformation)
            return ERROR_INVALID_PARAMETER;
        if (InformationLength < sizeof(ULONG) || InformationLength % sizeof(ULONG))
            return ERROR_BAD_LENGTH;
        const ULONG *masks = TraceInformation;
        uint32_t n = InformationLength / sizeof(ULONG), any = 0;
        for (uint32_t k = 0; k < n; k++)
            any |= masks[k];
        uint32_t flags = masks[0];
        if (any && !(flags & PETW_SYSTEM_SUPPORTED))
            return ERROR_NOT_SUPPORTED;
        int rc = petw__controller_set_system_groups(SessionHandle, flags);
        return petw__etw_status(rc == PETW_ENOTFOUND ? PETW_EINVAL : rc);
    }
    default:
        (void)SessionHandle;
        return ERROR_NOT_SUPPORTED;
    }
}

ULONG WMIAPI TraceQueryInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
                                   PVOID TraceInformation, ULONG InformationLength,
                                   PULONG ReturnLength)
{
    if ((int)InformationClass == TraceSystemTraceEnableFlagsInfo) {
        /* The group mask: the groups recorded in its first ULONG. */
        if (ReturnLength)
            *ReturnLength = GROUP_MASKS * sizeof(ULONG);
        if (!TraceInformation || InformationLength < GROUP_MASKS * sizeof(ULONG))
            return ERROR_BAD_LENGTH;
        uint32_t flags;
        int rc = query_flags(SessionHandle, &flags);
        if (rc != 0)
            return petw__etw_status(rc == PETW_ENOTFOUND ? PETW_EINVAL : rc);
        ULONG *masks = TraceInformation;
        memset(masks, 0, GROUP_MASKS * sizeof(ULONG));
        masks[0] = flags;
        return ERROR_SUCCESS;
    }
    if ((int)InformationClass != TraceSampledProfileIntervalInfo)
        return ERROR_NOT_SUPPORTED;
    if (ReturnLength)
        *ReturnLength = sizeof(TRACE_PROFILE_INTERVAL);
    if (!TraceInformation || InformationLength < sizeof(TRACE_PROFILE_INTERVAL))
        return ERROR_BAD_LENGTH;
    TRACE_PROFILE_INTERVAL *pi = TraceInformation;
    if (pi->Source != 0)
        return ERROR_NOT_SUPPORTED;
    pi->Interval = petw__etw_profile_interval(0);
    return ERROR_SUCCESS;
}
