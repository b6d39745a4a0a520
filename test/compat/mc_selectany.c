/* SPDX-License-Identifier: MIT */
/* An mc.exe -um header's provider plumbing, as mc.exe writes it (the pattern,
 * not a copy): the enable bits declared
 * `EXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN ULONG <P>EnableBits[1];`
 * with no initializer, a selectany provider context pointing at them,
 * registration through MCGEN_EVENTREGISTER with a control callback that sets
 * and clears bits through the context, EventEnabled<Event>() through
 * _mcgen_EVENT_BIT_SET on the array's name, and template functions taking
 * `unsigned __int64`. MSVC gives the array zero-filled storage; petw must
 * not let the callback write through address 0. Built as C and as C++. */
#include <windows.h>
#include <evntprov.h>
#include <evntrace.h>
#include <evntcons.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif
typedef struct _DEMO_TRACE_CONTEXT {
    TRACEHANDLE RegistrationHandle;
    TRACEHANDLE Logger;
    ULONGLONG MatchAnyKeyword;
    ULONGLONG MatchAllKeyword;
    ULONG Flags;
    ULONG IsEnabled;
    UCHAR Level;
    UCHAR Reserve;
    USHORT EnableBitsCount;
    PULONG EnableBitMask;
    const ULONGLONG *EnableKeyWords;
    const UCHAR *EnableLevel;
} DEMO_TRACE_CONTEXT, *PDEMO_TRACE_CONTEXT;
#ifdef __cplusplus
}
#endif

EXTERN_C __declspec(selectany) const GUID DemoProvider = {
    0x6d6d6d6d, 0x1, 0x2, {0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa}};
EXTERN_C __declspec(selectany) const EVENT_DESCRIPTOR DemoAlloc = {0x64, 0x1, 0x0, 0x4,
                                                                   0x0,  0x0, 0x0};
EXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN ULONG DemoEnableBits[1];
EXTERN_C __declspec(selectany) const ULONGLONG DemoKeywords[1] = {0x0};
EXTERN_C __declspec(selectany) const unsigned char DemoLevels[1] = {4};
EXTERN_C __declspec(selectany) DEMO_TRACE_CONTEXT DemoContext = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, DemoEnableBits, DemoKeywords, DemoLevels};

static int callbacks;

/* What mc's control callback does with the context it registered. */
static VOID NTAPI DemoControlCallback(LPCGUID SourceId, ULONG ControlCode, UCHAR Level,
                                      ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                                      PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext)
{
    PDEMO_TRACE_CONTEXT Ctx = (PDEMO_TRACE_CONTEXT)CallbackContext;
    (void)SourceId, (void)MatchAllKeyword, (void)FilterData;
    callbacks++;
    if (ControlCode == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
        Ctx->Level = Level;
        Ctx->MatchAnyKeyword = MatchAnyKeyword;
        Ctx->IsEnabled = 1;
        for (USHORT Ix = 0; Ix < Ctx->EnableBitsCount; Ix++)
            if (Level == 0 || Ctx->EnableLevel[Ix] <= Level)
                Ctx->EnableBitMask[Ix >> 5] |= 1u << (Ix % 32);
    } else if (ControlCode == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
        Ctx->IsEnabled = 0;
        memset(Ctx->EnableBitMask, 0, (((Ctx->EnableBitsCount - 1) / 32) + 1) * sizeof(ULONG));
    }
}

#define EventEnabledDemoAlloc() _mcgen_EVENT_BIT_SET(DemoEnableBits, 0)

static ULONG DemoTemplate(PDEMO_TRACE_CONTEXT Context, PCEVENT_DESCRIPTOR Descriptor,
                          const unsigned __int64 _Arg0, const unsigned __int64 _Arg1)
{
    EVENT_DATA_DESCRIPTOR d[2];
    EventDataDescCreate(&d[0], &_Arg0, sizeof(const unsigned __int64));
    EventDataDescCreate(&d[1], &_Arg1, sizeof(const unsigned __int64));
    return EventWriteTransfer(Context->RegistrationHandle, Descriptor, NULL, NULL, 2, d);
}

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static ULONG events;
static VOID WINAPI on_event(PEVENT_RECORD r)
{
    if (memcmp(&r->EventHeader.ProviderId, &DemoProvider, sizeof(GUID)) == 0 &&
        r->UserDataLength == 16)
        events++;
}

int main(void)
{
    CHECK(sizeof(unsigned __int64) == 8);
    CHECK(MCGEN_EVENTREGISTER(&DemoProvider, DemoControlCallback, &DemoContext,
                              &DemoContext.RegistrationHandle) == ERROR_SUCCESS);
    CHECK(!EventEnabledDemoAlloc() || DemoEnableBits == NULL);

    struct {
        EVENT_TRACE_PROPERTIES p;
        char names[1024];
    } props;
    memset(&props, 0, sizeof(props));
    props.p.Wnode.BufferSize = sizeof(props);
    props.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    props.p.Wnode.ClientContext = 1;
    props.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
    props.p.LoggerNameOffset = sizeof(props.p);
    props.p.LogFileNameOffset = sizeof(props.p) + 512;
    char *path = (char *)&props + props.p.LogFileNameOffset;
    const char *dir = getenv("TMPDIR");
    snprintf(path, 512, "%s/petw_mc_selectany_%d.etl", dir ? dir : "/tmp", (int)getpid());
    TRACEHANDLE s = 0;
    CHECK(StartTraceA(&s, "petw-test-mc-selectany", &props.p) == ERROR_SUCCESS);
    CHECK(EnableTraceEx2(s, &DemoProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL) ==
          ERROR_SUCCESS);
    CHECK(callbacks == 1);
    CHECK(DemoContext.IsEnabled == 1);
    CHECK(DemoContext.EnableBitMask != NULL && (DemoContext.EnableBitMask[0] & 1) == 1);
    CHECK(EventEnabledDemoAlloc());
    for (int i = 0; i < 2; i++)
        if (EventEnabledDemoAlloc())
            CHECK(DemoTemplate(&DemoContext, &DemoAlloc, 0x1000u + (unsigned)i, 64) ==
                  ERROR_SUCCESS);
    CHECK(EnableTraceEx2(s, &DemoProvider, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, 0, NULL) ==
          ERROR_SUCCESS);
    CHECK(callbacks == 2 && DemoContext.IsEnabled == 0 && DemoContext.EnableBitMask[0] == 0);
    CHECK(ControlTraceA(s, NULL, &props.p, EVENT_TRACE_CONTROL_STOP) == ERROR_SUCCESS);

    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK(ProcessTrace(&h, 1, NULL, NULL) == ERROR_SUCCESS);
    CloseTrace(h);
    remove(path);
    CHECK(events == 2);

    /* Registering again reuses the bits. */
    PULONG bits = DemoContext.EnableBitMask;
    CHECK(EventUnregister(DemoContext.RegistrationHandle) == ERROR_SUCCESS);
    CHECK(MCGEN_EVENTREGISTER(&DemoProvider, DemoControlCallback, &DemoContext,
                              &DemoContext.RegistrationHandle) == ERROR_SUCCESS);
    CHECK(DemoContext.EnableBitMask == bits);
    CHECK(EventUnregister(DemoContext.RegistrationHandle) == ERROR_SUCCESS);
    return 0;
}
