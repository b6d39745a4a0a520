/* SPDX-License-Identifier: MIT */
/* etw_classic.c - the classic (MOF) provider API: RegisterTraceGuids,
 * UnregisterTraceGuids, GetTraceLoggerHandle, GetTraceEnableFlags/Level,
 * TraceEvent, TraceMessage(Va); TraceEventInstance is refused.
 *
 * A registration is a native provider (ControlGuid) plus the WMI-style
 * request callback; its handle serves as both the registration handle and
 * the logger handle the callback's WNODE_HEADER carries. TraceEvent and
 * TraceMessage write through petw_event_write_classic, so a classic event
 * takes the same path as any other (per-CPU buffers, session filtering).
 */
#include <stdarg.h>

#include "etw_internal.h"

typedef struct classic_reg {
    WMIDPREQUEST request;
    PVOID context;
    GUID control;
    petw_provider_handle provider;
    uint32_t gen; /* of this slot: handles carry it */
    int in_use;
    /* The last enable's settings (written by the enable callback, under
     * the control lock; read by the provider's own calls). */
    ULONG flags;
    UCHAR level;
} classic_reg;

static classic_reg classics[PETW_MAX_PROVIDERS];

/* The live registration a handle names, or NULL. */
static classic_reg *reg_of(TRACEHANDLE h)
{
    uint32_t slot = petw__handle_slot(h), gen = petw__handle_generation(h);
    if (slot >= PETW_MAX_PROVIDERS || gen == 0)
        return NULL;
    classic_reg *r = &classics[slot];
    return r->in_use && r->gen == gen ? r : NULL;
}

static TRACEHANDLE handle_of(const classic_reg *r)
{
    return petw__handle_make(r->gen, (uint32_t)(r - classics));
}

/* The native enable callback: WMI_ENABLE_EVENTS / WMI_DISABLE_EVENTS with
 * a WNODE_HEADER naming the logger handle. */
static void on_enable(const petw_guid *source, uint32_t code, uint8_t level, uint64_t any,
                      uint64_t all, void *filter, void *ctx)
{
    (void)source, (void)all, (void)filter;
    classic_reg *r = ctx;
    if (code != 0 && code != 1)
        return; /* capture state: classic providers have no such request */
    if (code == 1)
        r->flags = (ULONG)any, r->level = level;
    WNODE_HEADER w;
    memset(&w, 0, sizeof(w));
    w.BufferSize = sizeof(w);
    w.HistoricalContext = handle_of(r);
    w.Guid = r->control;
    w.Flags = WNODE_FLAG_TRACED_GUID;
    ULONG size = sizeof(w);
    if (r->request)
        r->request(code == 1 ? WMI_ENABLE_EVENTS : WMI_DISABLE_EVENTS, r->context, &size, &w);
}

static ULONG register_guids(WMIDPREQUEST request, PVOID context, LPCGUID control, ULONG count,
                            PTRACE_GUID_REGISTRATION regs, PTRACEHANDLE out)
{
    if (!request || !control || !out || (count && !regs))
        return ERROR_INVALID_PARAMETER;
    *out = 0;
    petw__library_init();
    petw__control_lock();
    uint32_t i;
    for (i = 0; i < PETW_MAX_PROVIDERS && classics[i].in_use; i++) {
    }
    if (i == PETW_MAX_PROVIDERS) {
        petw__control_unlock();
        return ERROR_NO_SYSTEM_RESOURCES;
    }
    classic_reg *r = &classics[i];
    r->request = request;
    r->context = context;
    r->control = *control;
    r->flags = 0;
    r->level = 0;
    r->gen = r->gen + 1 ? r->gen + 1 : 1;
    r->in_use = 1;
    /* A session that already enables ControlGuid calls on_enable from
     * here, as Windows calls RequestAddress during registration. */
    int rc = petw_provider_register((const petw_guid *)control, on_enable, r, &r->provider);
    if (rc) {
        r->in_use = 0;
    } else {
        *out = handle_of(r);
        for (ULONG k = 0; k < count; k++)
            regs[k].RegHandle = (HANDLE)(uintptr_t)*out;
    }
    petw__control_unlock();
    return petw__etw_status(rc);
}

ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, PVOID RequestContext,
                                 LPCGUID ControlGuid, ULONG GuidCount,
                                 PTRACE_GUID_REGISTRATION TraceGuidReg, LPCWSTR MofImagePath,
                                 LPCWSTR MofResourceName, PTRACEHANDLE RegistrationHandle)
{
    (void)MofImagePath, (void)MofResourceName; /* MOF resources: unused, as on Vista and later */
    return register_guids(RequestAddress, RequestContext, ControlGuid, GuidCount, TraceGuidReg,
                          RegistrationHandle);
}

ULONG WMIAPI RegisterTraceGuidsA(WMIDPREQUEST RequestAddress, PVOID RequestContext,
                                 LPCGUID ControlGuid, ULONG GuidCount,
                                 PTRACE_GUID_REGISTRATION TraceGuidReg, LPCSTR MofImagePath,
                                 LPCSTR MofResourceName, PTRACEHANDLE RegistrationHandle)
{
    (void)MofImagePath, (void)MofResourceName;
    return register_guids(RequestAddress, RequestContext, ControlGuid, GuidCount, TraceGuidReg,
                          RegistrationHandle);
}

ULONG WMIAPI UnregisterTraceGuids(TRACEHANDLE RegistrationHandle)
{
    petw__control_lock();
    classic_reg *r = reg_of(RegistrationHandle);
    ULONG status = ERROR_INVALID_PARAMETER;
    if (r) {
        status = petw__etw_status(petw_provider_unregister(r->provider));
        r->in_use = 0;
        r->request = NULL;
    }
    petw__control_unlock();
    return status;
}

TRACEHANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer)
{
    const WNODE_HEADER *w = Buffer;
    petw__control_lock();
    classic_reg *r = w ? reg_of(w->HistoricalContext) : NULL;
    petw__control_unlock();
    if (!r) {
        SetLastError(ERROR_INVALID_HANDLE);
        return (TRACEHANDLE)INVALID_HANDLE_VALUE;
    }
    return w->HistoricalContext;
}

ULONG WMIAPI GetTraceEnableFlags(TRACEHANDLE TraceHandle)
{
    petw__control_lock();
    classic_reg *r = reg_of(TraceHandle);
    ULONG flags = r ? r->flags : 0;
    petw__control_unlock();
    SetLastError(r ? ERROR_SUCCESS : ERROR_INVALID_HANDLE);
    return flags;
}

UCHAR WMIAPI GetTraceEnableLevel(TRACEHANDLE TraceHandle)
{
    petw__control_lock();
    classic_reg *r = reg_of(TraceHandle);
    UCHAR level = r ? r->level : 0;
    petw__control_unlock();
    SetLastError(r ? ERROR_SUCCESS : ERROR_INVALID_HANDLE);
    return level;
}

/* The native provider a logger handle writes through (0 if none). The
 * handle stays usable after a racing unregister: the engine then refuses
 * it (its generation changed). */
static petw_provider_handle provider_of(TRACEHANDLE h)
{
    uint32_t slot = petw__handle_slot(h), gen = petw__handle_generation(h);
    if (slot >= PETW_MAX_PROVIDERS || gen == 0)
        return 0;
    petw__control_lock();
    classic_reg *r = reg_of(h);
    petw_provider_handle p = r ? r->provider : 0;
    petw__control_unlock();
    return p;
}

ULONG WMIAPI TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace)
{
    if (!EventTrace || EventTrace->Size < sizeof(EVENT_TRACE_HEADER))
        return ERROR_INVALID_PARAMETER;
    petw_provider_handle p = provider_of(TraceHandle);
    if (!p)
        return ERROR_INVALID_HANDLE;
    petw_event_descriptor d = {0,
                               (uint8_t)EventTrace->Class.Version,
                               0,
                               EventTrace->Class.Level,
                               EventTrace->Class.Type,
                               0,
                               0};
    const GUID *cls = (EventTrace->Flags & WNODE_FLAG_USE_GUID_PTR)
                          ? (const GUID *)(uintptr_t)EventTrace->GuidPtr
                          : &EventTrace->Guid;
    if (!cls)
        return ERROR_INVALID_PARAMETER;
    petw_data_descriptor data[MAX_MOF_FIELDS];
    uint32_t n = 0;
    size_t rest = EventTrace->Size - sizeof(EVENT_TRACE_HEADER);
    const uint8_t *after = (const uint8_t *)(EventTrace + 1);
    if (EventTrace->Flags & WNODE_FLAG_USE_MOF_PTR) {
        if (rest % sizeof(MOF_FIELD) || rest / sizeof(MOF_FIELD) > MAX_MOF_FIELDS)
            return ERROR_INVALID_PARAMETER;
        const MOF_FIELD *m = (const MOF_FIELD *)after;
        for (n = 0; n < rest / sizeof(MOF_FIELD); n++) {
            memset(&data[n], 0, sizeof(data[n]));
            data[n].ptr = m[n].DataPtr;
            data[n].size = m[n].Length;
        }
    } else if (rest) {
        memset(&data[0], 0, sizeof(data[0]));
        data[0].ptr = (uint64_t)(uintptr_t)after;
        data[0].size = (uint32_t)rest;
        n = 1;
    }
    return petw__etw_status(
        petw_event_write_classic(p, (const petw_guid *)cls, &d, 0, n, n ? data : NULL));
}

ULONG WMIAPI TraceEventInstance(TRACEHANDLE TraceHandle, PEVENT_INSTANCE_HEADER EventTrace,
                                PEVENT_INSTANCE_INFO InstInfo, PEVENT_INSTANCE_INFO ParentInstInfo)
{
    (void)TraceHandle, (void)EventTrace, (void)InstInfo, (void)ParentInstInfo;
    return ERROR_NOT_SUPPORTED; /* instance IDs have no place in petw's records */
}

ULONG WMIAPI TraceMessageVa(TRACEHANDLE LoggerHandle, ULONG MessageFlags, LPCGUID MessageGuid,
                            USHORT MessageNumber, va_list MessageArgList)
{
    (void)MessageFlags; /* the record always has the GUID, time stamp, thread and process */
    if (!MessageGuid)
        return ERROR_INVALID_PARAMETER;
    petw_provider_handle p = provider_of(LoggerHandle);
    if (!p)
        return ERROR_INVALID_HANDLE;
    petw_data_descriptor data[PETW_MAX_DATA_DESCRIPTORS];
    uint32_t n = 0;
    uint64_t total = 0;
    for (;;) {
        const void *ptr = va_arg(MessageArgList, const void *);
        if (!ptr)
            break;
        size_t len = va_arg(MessageArgList, size_t);
        if (n == PETW_MAX_DATA_DESCRIPTORS)
            return ERROR_INVALID_PARAMETER;
        total += len;
        memset(&data[n], 0, sizeof(data[n]));
        data[n].ptr = (uint64_t)(uintptr_t)ptr;
        data[n].size = (uint32_t)len;
        n++;
    }
    if (total > TRACE_MESSAGE_MAXIMUM_SIZE)
        return ERROR_BUFFER_OVERFLOW;
    petw_event_descriptor d = {MessageNumber, 0, 0, 0, 0, 0, 0};
    return petw__etw_status(petw_event_write_classic(p, (const petw_guid *)MessageGuid, &d,
                                                     PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE, n,
                                                     n ? data : NULL));
}

ULONG WMIAPI TraceMessage(TRACEHANDLE LoggerHandle, ULONG MessageFlags, LPCGUID MessageGuid,
                          USHORT MessageNumber, ...)
{
    va_list ap;
    va_start(ap, MessageNumber);
    ULONG rc = TraceMessageVa(LoggerHandle, MessageFlags, MessageGuid, MessageNumber, ap);
    va_end(ap);
    return rc;
}
