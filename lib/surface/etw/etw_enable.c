/* SPDX-License-Identifier: MIT */
/* etw_enable.c - EnableTraceEx2, EnableTraceEx and EnableTrace: providers
 * enabled in a session, with ENABLE_TRACE_PARAMETERS' event filters and
 * enable properties. */
#include <stdlib.h>

#include "../../control/controller/controller.h"
#include "etw_internal.h"

_Static_assert(EVENT_ENABLE_PROPERTY_SID == PETW__PROP_SID &&
                   EVENT_ENABLE_PROPERTY_TS_ID == PETW__PROP_TS_ID &&
                   EVENT_ENABLE_PROPERTY_STACK_TRACE == PETW__PROP_STACK_TRACE &&
                   EVENT_ENABLE_PROPERTY_PROCESS_START_KEY == PETW__PROP_PROCESS_START_KEY &&
                   EVENT_ENABLE_PROPERTY_EVENT_KEY == PETW__PROP_EVENT_KEY,
               "EVENT_ENABLE_PROPERTY_* and PETW__PROP_*");
_Static_assert(MAX_EVENT_FILTER_EVENT_ID_COUNT == PETW__FILTER_IDS &&
                   MAX_EVENT_FILTER_PID_COUNT == PETW__FILTER_PIDS,
               "filter limits");

/* One EVENT_FILTER_TYPE_EVENT_ID descriptor's EVENT_FILTER_EVENT_ID. */
static ULONG parse_event_ids(const EVENT_FILTER_DESCRIPTOR *d, petw__enable_filter *f)
{
    const size_t head = offsetof(EVENT_FILTER_EVENT_ID, Events);
    if (d->Size < head || d->Size > MAX_EVENT_FILTER_DATA_SIZE)
        return ERROR_INVALID_PARAMETER;
    const EVENT_FILTER_EVENT_ID *ids = (const EVENT_FILTER_EVENT_ID *)(uintptr_t)d->Ptr;
    if (ids->Count == 0 || ids->Count > MAX_EVENT_FILTER_EVENT_ID_COUNT ||
        d->Size < head + ids->Count * sizeof(USHORT))
        return ERROR_INVALID_PARAMETER;
    f->flags |= PETW__FILTER_EVENT_ID;
    f->id_filter_in = ids->FilterIn ? 1 : 0;
    f->id_count = ids->Count;
    memcpy(f->ids, ids->Events, ids->Count * sizeof(USHORT));
    return ERROR_SUCCESS;
}

static ULONG parse_pids(const EVENT_FILTER_DESCRIPTOR *d, petw__enable_filter *f)
{
    if (d->Size == 0 || d->Size % sizeof(ULONG) ||
        d->Size / sizeof(ULONG) > MAX_EVENT_FILTER_PID_COUNT)
        return ERROR_INVALID_PARAMETER;
    f->flags |= PETW__FILTER_PID;
    f->pid_count = d->Size / sizeof(ULONG);
    memcpy(f->pids, (const void *)(uintptr_t)d->Ptr, d->Size);
    return ERROR_SUCCESS;
}

/* A wide, NUL-terminated, ';'-separated list of file names. */
static ULONG parse_exe_names(const EVENT_FILTER_DESCRIPTOR *d, petw__enable_filter *f)
{
    if (d->Size < 2 * sizeof(WCHAR) || d->Size > MAX_EVENT_FILTER_DATA_SIZE ||
        d->Size % sizeof(WCHAR))
        return ERROR_INVALID_PARAMETER;
    const WCHAR *w = (const WCHAR *)(uintptr_t)d->Ptr;
    size_t n = d->Size / sizeof(WCHAR), len;
    for (len = 0; len < n && w[len]; len++) {
    }
    if (len == n || len == 0)
        return ERROR_INVALID_PARAMETER; /* not terminated within Size, or empty */
    if (petw__wcs_to_utf8_fit(w, f->exe, sizeof(f->exe)) != 0)
        return ERROR_INVALID_PARAMETER;
    f->flags |= PETW__FILTER_EXE;
    return ERROR_SUCCESS;
}

/* EVENT_FILTER_EVENT_NAME: NameCount NUL-terminated UTF-8 names. */
static ULONG parse_event_names(const EVENT_FILTER_DESCRIPTOR *d, petw__enable_filter *f)
{
    const size_t head = offsetof(EVENT_FILTER_EVENT_NAME, Names);
    if (d->Size <= head || d->Size > MAX_EVENT_FILTER_DATA_SIZE)
        return ERROR_INVALID_PARAMETER;
    const EVENT_FILTER_EVENT_NAME *n = (const EVENT_FILTER_EVENT_NAME *)(uintptr_t)d->Ptr;
    const char *names = (const char *)n->Names, *end = (const char *)n + d->Size, *p = names;
    if (n->NameCount == 0)
        return ERROR_INVALID_PARAMETER;
    for (USHORT i = 0; i < n->NameCount; i++) {
        const char *nul = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
        if (!nul || nul == p)
            return ERROR_INVALID_PARAMETER; /* not terminated within Size, or empty */
        p = nul + 1;
    }
    size_t bytes = (size_t)(p - names);
    if (bytes > sizeof(f->names))
        return ERROR_INVALID_PARAMETER;
    f->flags |= PETW__FILTER_EVENT_NAME;
    f->name_level = n->Level;
    f->name_filter_in = n->FilterIn ? 1 : 0;
    f->name_count = n->NameCount;
    f->name_bytes = (uint32_t)bytes;
    f->name_any = n->MatchAnyKeyword;
    f->name_all = n->MatchAllKeyword;
    memcpy(f->names, names, bytes);
    return ERROR_SUCCESS;
}

/* ENABLE_TRACE_PARAMETERS' filters and properties into `f` (zeroed here):
 * ERROR_INVALID_PARAMETER for a malformed one (or two of a type),
 * ERROR_NOT_SUPPORTED for one petw does not implement. */
static ULONG parse_params(const ENABLE_TRACE_PARAMETERS *p, petw__enable_filter *f)
{
    memset(f, 0, sizeof(*f));
    if (!p)
        return ERROR_SUCCESS;
    if (p->Version != ENABLE_TRACE_PARAMETERS_VERSION &&
        p->Version != ENABLE_TRACE_PARAMETERS_VERSION_2)
        return ERROR_INVALID_PARAMETER;
    if (p->FilterDescCount > MAX_EVENT_FILTERS_COUNT ||
        (p->FilterDescCount && !p->EnableFilterDesc))
        return ERROR_INVALID_PARAMETER;
    ULONG seen = 0, rc = ERROR_SUCCESS;
    for (ULONG i = 0; i < p->FilterDescCount && rc == ERROR_SUCCESS; i++) {
        const EVENT_FILTER_DESCRIPTOR *d = &p->EnableFilterDesc[i];
        ULONG bit;
        switch (d->Type) {
        case EVENT_FILTER_TYPE_EVENT_ID:
            bit = 1;
            break;
        case EVENT_FILTER_TYPE_PID:
            bit = 2;
            break;
        case EVENT_FILTER_TYPE_EXECUTABLE_NAME:
            bit = 4;
            break;
        case EVENT_FILTER_TYPE_EVENT_NAME:
            bit = 8;
            break;
        case EVENT_FILTER_TYPE_NONE:
            return ERROR_INVALID_PARAMETER;
        default:
            /* Schematized, payload, stack walk, package, container and
             * system filters: not implemented. */
            return ERROR_NOT_SUPPORTED;
        }
        if ((seen & bit) || (d->Size && !d->Ptr))
            return ERROR_INVALID_PARAMETER; /* one descriptor per type */
        seen |= bit;
        rc = bit == 1   ? parse_event_ids(d, f)
             : bit == 2 ? parse_pids(d, f)
             : bit == 4 ? parse_exe_names(d, f)
                        : parse_event_names(d, f);
    }
    if (rc != ERROR_SUCCESS)
        return rc;
    if (p->EnableProperty & ~(ULONG)PETW__PROP_ALL)
        return ERROR_NOT_SUPPORTED; /* PSM_KEY, keyword 0, silos, provider groups... */
    f->properties = p->EnableProperty;
    return ERROR_SUCCESS;
}

static ULONG enable_trace(TRACEHANDLE TraceHandle, const petw_guid *g, ULONG ControlCode,
                          UCHAR Level, ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                          const petw__enable_filter *f);

ULONG WMIAPI EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode,
                            UCHAR Level, ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                            ULONG Timeout, PENABLE_TRACE_PARAMETERS EnableParameters)
{
    (void)Timeout;
    if (!ProviderId || TraceHandle == 0)
        return ERROR_INVALID_PARAMETER;
    /* Filters and properties petw does not implement are refused rather
     * than enabled without. */
    petw__enable_filter f;
    ULONG status = parse_params(EnableParameters, &f);
    if (status != ERROR_SUCCESS)
        return status;
    return enable_trace(TraceHandle, (const petw_guid *)ProviderId, ControlCode, Level,
                        MatchAnyKeyword, MatchAllKeyword, &f);
}

static ULONG enable_trace(TRACEHANDLE TraceHandle, const petw_guid *g, ULONG ControlCode,
                          UCHAR Level, ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                          const petw__enable_filter *f)
{
    int rc;
    switch (ControlCode) {
    case EVENT_CONTROL_CODE_ENABLE_PROVIDER:
        rc = petw__controller_enable(TraceHandle, g, Level, MatchAnyKeyword, MatchAllKeyword, f);
        break;
    case EVENT_CONTROL_CODE_DISABLE_PROVIDER:
        rc = petw_session_disable_provider(TraceHandle, g);
        if (rc == PETW_ENOTFOUND && petw_session_query(TraceHandle, NULL) == 0)
            rc = 0; /* disabling what is not enabled is not an error */
        break;
    case EVENT_CONTROL_CODE_CAPTURE_STATE:
        rc = petw_session_capture_state(TraceHandle, g);
        break;
    default:
        return ERROR_INVALID_PARAMETER;
    }
    /* A handle that names no running session (stopped, stale, made up):
     * ERROR_INVALID_PARAMETER, as EnableTraceEx2 documents for a bad
     * TraceHandle, not ControlTrace's ERROR_WMI_INSTANCE_NOT_FOUND. */
    if (rc == PETW_ENOTFOUND && petw_session_query(TraceHandle, NULL) != 0)
        return ERROR_INVALID_PARAMETER;
    return petw__etw_status(rc);
}

ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId, TRACEHANDLE TraceHandle,
                           ULONG IsEnabled, UCHAR Level, ULONGLONG MatchAnyKeyword,
                           ULONGLONG MatchAllKeyword, ULONG EnableProperty,
                           PEVENT_FILTER_DESCRIPTOR EnableFilterDesc)
{
    if (!ProviderId || IsEnabled > 1)
        return ERROR_INVALID_PARAMETER;
    if (SourceId && memcmp(SourceId, ProviderId, sizeof(GUID)) != 0)
        return ERROR_NOT_SUPPORTED; /* enabling on behalf of another source */
    ENABLE_TRACE_PARAMETERS params;
    memset(&params, 0, sizeof(params));
    params.Version = ENABLE_TRACE_PARAMETERS_VERSION;
    params.EnableProperty = EnableProperty;
    params.EnableFilterDesc = EnableFilterDesc;
    params.FilterDescCount = EnableFilterDesc ? 1 : 0;
    return EnableTraceEx2(TraceHandle, ProviderId,
                          IsEnabled ? EVENT_CONTROL_CODE_ENABLE_PROVIDER
                                    : EVENT_CONTROL_CODE_DISABLE_PROVIDER,
                          Level, MatchAnyKeyword, MatchAllKeyword, 0, &params);
}

ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel, LPCGUID ControlGuid,
                         TRACEHANDLE TraceHandle)
{
    if (!ControlGuid || Enable > 1 || EnableLevel > 255)
        return ERROR_INVALID_PARAMETER;
    return EnableTraceEx2(TraceHandle, ControlGuid,
                          Enable ? EVENT_CONTROL_CODE_ENABLE_PROVIDER
                                 : EVENT_CONTROL_CODE_DISABLE_PROVIDER,
                          (UCHAR)EnableLevel, EnableFlag, 0, 0, NULL);
}
