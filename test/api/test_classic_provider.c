/* SPDX-License-Identifier: MIT */
/* The classic (MOF) provider API as pre-Vista code uses it, and the
 * EventCallback consumer that reads it: RegisterTraceGuids, the
 * WMI_ENABLE_EVENTS request with GetTraceLoggerHandle, GetTraceEnableFlags
 * and GetTraceEnableLevel, TraceEvent with an inline payload and with
 * MOF_FIELDs (event class GUID as the record's provider, Class.Type/Level/
 * Version), TraceMessage, WMI_DISABLE_EVENTS, UnregisterTraceGuids; read
 * back with EventRecordCallback and with the pre-Vista EventCallback; and
 * the errors (bad handles, malformed headers, TraceEventInstance). */
#include "test_util.h"

/* {8e3b1c2d-4a5f-4b6c-9d7e-0f1a2b3c4d5e}: the control GUID. */
static const GUID ControlGuid = {
    0x8e3b1c2d, 0x4a5f, 0x4b6c, {0x9d, 0x7e, 0x0f, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e}};
/* {8e3b1c2d-4a5f-4b6c-9d7e-0f1a2b3c4d5f}: the event class TraceEvent names. */
static const GUID EventClassGuid = {
    0x8e3b1c2d, 0x4a5f, 0x4b6c, {0x9d, 0x7e, 0x0f, 0x1a, 0x2b, 0x3c, 0x4d, 0x5f}};
/* {8e3b1c2d-4a5f-4b6c-9d7e-0f1a2b3c4d60}: WPP messages. */
static const GUID MessageGuid = {
    0x8e3b1c2d, 0x4a5f, 0x4b6c, {0x9d, 0x7e, 0x0f, 0x1a, 0x2b, 0x3c, 0x4d, 0x60}};

static TRACEHANDLE g_logger;
static ULONG g_flags;
static UCHAR g_level;
static int g_enables, g_disables;

static ULONG WINAPI control_callback(WMIDPREQUESTCODE code, PVOID context, ULONG *size,
                                     PVOID buffer)
{
    (void)size;
    CHECK(context == &g_logger);
    if (code == WMI_ENABLE_EVENTS) {
        g_logger = GetTraceLoggerHandle(buffer);
        CHECK(g_logger != (TRACEHANDLE)INVALID_HANDLE_VALUE);
        g_flags = GetTraceEnableFlags(g_logger);
        g_level = GetTraceEnableLevel(g_logger);
        g_enables++;
    } else if (code == WMI_DISABLE_EVENTS) {
        g_logger = 0;
        g_disables++;
    }
    return ERROR_SUCCESS;
}

/* What TraceEvent callers pass: the header, then the payload inline. */
typedef struct inline_event {
    EVENT_TRACE_HEADER header;
    ULONG value;
    char text[8];
} inline_event;

typedef struct mof_event {
    EVENT_TRACE_HEADER header;
    MOF_FIELD fields[2];
} mof_event;

typedef struct seen {
    int classic, message, header;
    ULONG values[2];
    UCHAR types[2], levels[2];
    USHORT versions[2];
    char texts[2][16];
    USHORT message_id;
    char message_text[16];
} seen;

static void note_classic(seen *s, const GUID *g, UCHAR type, UCHAR level, USHORT version,
                         const void *data, ULONG size)
{
    if (!memcmp(g, &EventClassGuid, sizeof(GUID)) && s->classic < 2) {
        CHECK_EQ(size, 12);
        memcpy(&s->values[s->classic], data, 4);
        memcpy(s->texts[s->classic], (const char *)data + 4, 8);
        s->types[s->classic] = type;
        s->levels[s->classic] = level;
        s->versions[s->classic] = version;
        s->classic++;
    }
}

static void WINAPI on_record(PEVENT_RECORD r)
{
    seen *s = r->UserContext;
    const EVENT_HEADER *h = &r->EventHeader;
    if (!memcmp(&h->ProviderId, &EventClassGuid, sizeof(GUID))) {
        CHECK(h->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER);
        note_classic(s, &h->ProviderId, h->EventDescriptor.Opcode, h->EventDescriptor.Level,
                     h->EventDescriptor.Version, r->UserData, r->UserDataLength);
    } else if (!memcmp(&h->ProviderId, &MessageGuid, sizeof(GUID))) {
        CHECK(h->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE);
        s->message_id = h->EventDescriptor.Id;
        CHECK(r->UserDataLength < sizeof(s->message_text));
        memcpy(s->message_text, r->UserData, r->UserDataLength);
        s->message++;
    }
}

/* EventCallback has no context parameter. */
static seen g_trace_seen;

static void WINAPI on_trace(PEVENT_TRACE e)
{
    seen *s = &g_trace_seen;
    CHECK_EQ(e->Header.Size, sizeof(EVENT_TRACE_HEADER) + e->MofLength);
    if (!memcmp(&e->Header.Guid, &EventTraceGuid, sizeof(GUID)) && e->Header.Class.Type == 0) {
        CHECK_EQ(s->classic, 0); /* the log file's header event comes first */
        s->header++;
        return;
    }
    note_classic(s, &e->Header.Guid, e->Header.Class.Type, e->Header.Class.Level,
                 e->Header.Class.Version, e->MofData, e->MofLength);
}

static void read_back(const char *path, int record_form, seen *s)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (LPSTR)path;
    if (record_form) {
        lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
        lf.EventRecordCallback = on_record;
        lf.Context = s;
    } else {
        lf.EventCallback = on_trace;
    }
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CHECK_EQ(CloseTrace(h), ERROR_SUCCESS);
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "classic.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE session;
    CHECK_EQ(StartTraceA(&session, "petw-test-classic", &tp.p), ERROR_SUCCESS);

    TRACE_GUID_REGISTRATION reg = {&EventClassGuid, NULL};
    TRACEHANDLE registration;
    CHECK_EQ(RegisterTraceGuidsA(NULL, NULL, &ControlGuid, 1, &reg, NULL, NULL, &registration),
             ERROR_INVALID_PARAMETER);
    CHECK_EQ(RegisterTraceGuidsA(control_callback, &g_logger, &ControlGuid, 1, &reg, NULL, NULL,
                                 &registration),
             ERROR_SUCCESS);
    CHECK(reg.RegHandle != NULL);
    CHECK_EQ(g_enables, 0);

    /* The session enables the control GUID: WMI_ENABLE_EVENTS. */
    CHECK_EQ(EnableTraceEx2(session, &ControlGuid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0x5, 0, 0,
                            NULL),
             ERROR_SUCCESS);
    CHECK_EQ(g_enables, 1);
    CHECK_EQ(g_flags, 0x5);
    CHECK_EQ(g_level, 4);

    inline_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.header.Size = (USHORT)(offsetof(inline_event, text) + sizeof(ev.text)); /* no padding */
    ev.header.Flags = WNODE_FLAG_TRACED_GUID;
    ev.header.Guid = EventClassGuid;
    ev.header.Class.Type = 11;
    ev.header.Class.Level = 3;
    ev.header.Class.Version = 2;
    ev.value = 1234;
    memcpy(ev.text, "inline!", 8);
    CHECK_EQ(TraceEvent(g_logger, &ev.header), ERROR_SUCCESS);

    ULONG value = 5678;
    mof_event mev;
    memset(&mev, 0, sizeof(mev));
    mev.header.Size = sizeof(mev);
    mev.header.Flags = WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR;
    mev.header.Guid = EventClassGuid;
    mev.header.Class.Type = 12;
    mev.header.Class.Level = 2;
    mev.fields[0].DataPtr = (ULONG64)(uintptr_t)&value;
    mev.fields[0].Length = 4;
    mev.fields[1].DataPtr = (ULONG64)(uintptr_t) "by-mof!";
    mev.fields[1].Length = 8;
    CHECK_EQ(TraceEvent(g_logger, &mev.header), ERROR_SUCCESS);

    CHECK_EQ(TraceMessage(g_logger, TRACE_MESSAGE_GUID | TRACE_MESSAGE_TIMESTAMP, &MessageGuid, 17,
                          "wpp", (size_t)3, "-msg", (size_t)5, NULL),
             ERROR_SUCCESS);

    /* Errors: no header, a Size below the header, a bad handle, too many
     * MOF fields, instances. */
    CHECK_EQ(TraceEvent(g_logger, NULL), ERROR_INVALID_PARAMETER);
    ev.header.Size = sizeof(EVENT_TRACE_HEADER) - 1;
    CHECK_EQ(TraceEvent(g_logger, &ev.header), ERROR_INVALID_PARAMETER);
    ev.header.Size = (USHORT)(offsetof(inline_event, text) + sizeof(ev.text));
    CHECK_EQ(TraceEvent(12345, &ev.header), ERROR_INVALID_HANDLE);
    mev.header.Size = (USHORT)(sizeof(EVENT_TRACE_HEADER) + 17 * sizeof(MOF_FIELD));
    CHECK_EQ(TraceEvent(g_logger, &mev.header), ERROR_INVALID_PARAMETER);
    CHECK_EQ(TraceEventInstance(g_logger, (PEVENT_INSTANCE_HEADER)&ev, NULL, NULL),
             ERROR_NOT_SUPPORTED);
    WNODE_HEADER junk;
    memset(&junk, 0, sizeof(junk));
    CHECK(GetTraceLoggerHandle(&junk) == (TRACEHANDLE)INVALID_HANDLE_VALUE);
    CHECK_EQ(GetLastError(), ERROR_INVALID_HANDLE);

    /* Disabling: WMI_DISABLE_EVENTS. */
    TRACEHANDLE logger = g_logger;
    CHECK_EQ(EnableTraceEx2(session, &ControlGuid, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0,
                            NULL),
             ERROR_SUCCESS);
    CHECK_EQ(g_disables, 1);
    CHECK_EQ(g_logger, 0);
    CHECK_EQ(UnregisterTraceGuids(registration), ERROR_SUCCESS);
    CHECK_EQ(UnregisterTraceGuids(registration), ERROR_INVALID_PARAMETER);
    CHECK_EQ(TraceEvent(logger, &ev.header), ERROR_INVALID_HANDLE);
    CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);

    static seen rec;
    read_back(path, 1, &rec);
    CHECK_EQ(rec.classic, 2);
    CHECK_EQ(rec.values[0], 1234);
    CHECK_EQ(rec.values[1], 5678);
    CHECK(!strcmp(rec.texts[0], "inline!"));
    CHECK(!strcmp(rec.texts[1], "by-mof!"));
    CHECK_EQ(rec.types[0], 11);
    CHECK_EQ(rec.levels[0], 3);
    CHECK_EQ(rec.versions[0], 2);
    CHECK_EQ(rec.types[1], 12);
    CHECK_EQ(rec.levels[1], 2);
    CHECK_EQ(rec.message, 1);
    CHECK_EQ(rec.message_id, 17);
    CHECK(!strcmp(rec.message_text, "wpp-msg"));

    read_back(path, 0, &g_trace_seen); /* the pre-Vista EventCallback form */
    CHECK_EQ(g_trace_seen.header, 1);
    CHECK_EQ(g_trace_seen.classic, 2);
    CHECK_EQ(g_trace_seen.values[1], 5678);
    CHECK_EQ(g_trace_seen.types[0], 11);
    CHECK_EQ(g_trace_seen.levels[0], 3);
    CHECK_EQ(g_trace_seen.versions[0], 2);
    CHECK(!strcmp(g_trace_seen.texts[1], "by-mof!"));
    remove(path);
    printf("classic_provider: RegisterTraceGuids, TraceEvent, TraceMessage, EventCallback\n");
    return 0;
}
