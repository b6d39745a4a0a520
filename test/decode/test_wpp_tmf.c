/* SPDX-License-Identifier: MIT */
/* WPP messages decode from the TMF file tracepdb writes, as Microsoft's
 * WppDumper sample reads them: a provider registers with RegisterTraceGuids
 * and writes TraceMessage records (message GUID and number, then its
 * arguments), and a consumer of the file asks TdhGetProperty, with
 * TDH_CONTEXT_WPP_TMFFILE naming the TMF, for FormattedString, GuidName,
 * FunctionName, LevelName, FlagsName, GuidTypeName, TraceGuid and the
 * arguments by name. The native decoder (petw_decoder_add_tmf) gives the same
 * text, and without the TMF the messages stay undecoded (ERROR_NOT_FOUND). */
#include <tdh.h>

#include "test_util.h"

/* {7c1e5a30-2b4d-4f6e-8a9b-0c1d2e3f4a5b}: the TMF's message GUID. */
static const GUID WppMessages = {
    0x7c1e5a30, 0x2b4d, 0x4f6e, {0x8a, 0x9b, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5b}};
static const GUID WppControl = {
    0x7c1e5a30, 0x2b4d, 0x4f6e, {0x8a, 0x9b, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5c}};

static TRACEHANDLE g_logger;

static ULONG WINAPI control_callback(WMIDPREQUESTCODE code, PVOID context, ULONG *size,
                                     PVOID buffer)
{
    (void)context, (void)size;
    g_logger = code == WMI_ENABLE_EVENTS ? GetTraceLoggerHandle(buffer) : 0;
    return ERROR_SUCCESS;
}

typedef struct consumer {
    TDH_CONTEXT ctx[2];
    ULONG ctx_count;
    int messages;
    WCHAR text[3][128];
    WCHAR function[128], level[64], flags[64], type_name[64], guid_name[64];
    GUID trace_guid;
    int32_t retries;
    ULONG missing;
} consumer;

static ULONG get(PEVENT_RECORD e, consumer *c, const WCHAR *name, void *out, ULONG cap)
{
    PROPERTY_DATA_DESCRIPTOR d;
    memset(&d, 0, sizeof(d));
    d.PropertyName = (ULONGLONG)(uintptr_t)name;
    d.ArrayIndex = 0xFFFFFFFFu;
    ULONG size = 0;
    ULONG rc = TdhGetPropertySize(e, c->ctx_count, c->ctx, 1, &d, &size);
    if (rc != ERROR_SUCCESS)
        return rc;
    CHECK(size <= cap);
    return TdhGetProperty(e, c->ctx_count, c->ctx, 1, &d, cap, (PBYTE)out);
}

static VOID WINAPI on_event(PEVENT_RECORD e)
{
    consumer *c = e->UserContext;
    if (!(e->EventHeader.Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE))
        return;
    int i = c->messages++;
    if (i >= 3)
        return;
    WCHAR text[128];
    ULONG rc = get(e, c, L"FormattedString", text, sizeof(text));
    if (rc != ERROR_SUCCESS) {
        c->missing = rc;
        return;
    }
    wcscpy(c->text[i], text);
    if (i == 0) {
        CHECK_EQ(get(e, c, L"FunctionName", c->function, sizeof(c->function)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"LevelName", c->level, sizeof(c->level)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"FlagsName", c->flags, sizeof(c->flags)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"GuidTypeName", c->type_name, sizeof(c->type_name)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"GuidName", c->guid_name, sizeof(c->guid_name)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"TraceGuid", &c->trace_guid, sizeof(GUID)), ERROR_SUCCESS);
        CHECK_EQ(get(e, c, L"retries", &c->retries, sizeof(c->retries)), ERROR_SUCCESS);
        SYSTEMTIME st;
        CHECK_EQ(get(e, c, L"SystemTime", &st, sizeof(st)), ERROR_SUCCESS);
        CHECK(st.wYear >= 2020);
    }
}

static void consume(const char *path, consumer *c)
{
    EVENT_TRACE_LOGFILEA lf;
    memset(&lf, 0, sizeof(lf));
    lf.LogFileName = (LPSTR)path;
    lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    lf.EventRecordCallback = on_event;
    lf.Context = c;
    TRACEHANDLE h = OpenTraceA(&lf);
    CHECK(h != INVALID_PROCESSTRACE_HANDLE);
    CHECK_EQ(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS);
    CloseTrace(h);
}

typedef struct native {
    petw_decoder *d;
    int n;
    char text[3][128];
} native;

static void on_native(petw_event_record *r, void *ctx)
{
    native *nv = ctx;
    const petw_decoded_event *ev;
    if (!(r->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE) || nv->n >= 3)
        return;
    CHECK_EQ(petw_decode(nv->d, r, &ev), 0);
    CHECK(ev->message);
    snprintf(nv->text[nv->n++], 128, "%s/%s %s", ev->provider_name, ev->event_name, ev->message);
}

int main(int argc, char **argv)
{
    const char *data = getenv("PETW_TEST_DATA");
    char tmf[1024], path[512];
    snprintf(tmf, sizeof(tmf), "%s/wpp_demo.tmf", data ? data : "test/data");
    if (argc > 1) /* tool_wpp.sh keeps the file for `petw dump --tmf` */
        snprintf(path, sizeof(path), "%s", argv[1]);
    else
        test_path(path, sizeof(path), "wpp_tmf.etl");

    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE session;
    CHECK_EQ(StartTraceA(&session, "petw-test-wpp", &tp.p), ERROR_SUCCESS);
    TRACE_GUID_REGISTRATION reg = {&WppControl, NULL};
    TRACEHANDLE registration;
    CHECK_EQ(RegisterTraceGuidsA(control_callback, NULL, &WppControl, 1, &reg, NULL, NULL,
                                 &registration),
             ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(session, &WppControl, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0xff, 0, 0,
                            NULL),
             ERROR_SUCCESS);
    CHECK(g_logger != 0);
    /* What WPP's generated macros pass: the flags, the message GUID and
     * number, each argument's address and size, a NULL at the end. */
    const ULONG wpp_flags = TRACE_MESSAGE_SEQUENCE | TRACE_MESSAGE_GUID | TRACE_MESSAGE_SYSTEMINFO |
                            TRACE_MESSAGE_TIMESTAMP;
    int32_t retries = -3;
    void *handle = (void *)(uintptr_t)0xABCD1234u;
    CHECK_EQ(TraceMessage(g_logger, wpp_flags, &WppMessages, 10, "disk0", (size_t)6, &retries,
                          sizeof(retries), &handle, sizeof(handle), NULL),
             ERROR_SUCCESS);
    uint32_t status = 0xC0000034u, ok = 1;
    static const uint8_t path16[] = {'C', 0, ':', 0, '\\', 0, 'x', 0, 0, 0};
    CHECK_EQ(TraceMessage(g_logger, wpp_flags, &WppMessages, 11, &status, sizeof(status), path16,
                          sizeof(path16), &ok, sizeof(ok), NULL),
             ERROR_SUCCESS);
    CHECK_EQ(TraceMessage(g_logger, wpp_flags, &WppMessages, 12, NULL), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(session, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(UnregisterTraceGuids(registration), ERROR_SUCCESS);

    /* Without the TMF: nothing to decode them with. */
    static consumer none;
    consume(path, &none);
    CHECK_EQ(none.messages, 3);
    CHECK_EQ(none.missing, ERROR_NOT_FOUND);

    /* WppDumper's contexts: the TMF file (a wide path) and the pointer size. */
    static consumer c;
    WCHAR wtmf[1024];
    mbstowcs(wtmf, tmf, 1023);
    c.ctx[0].ParameterValue = (ULONGLONG)(uintptr_t)wtmf;
    c.ctx[0].ParameterType = TDH_CONTEXT_WPP_TMFFILE;
    c.ctx[1].ParameterValue = sizeof(void *);
    c.ctx[1].ParameterType = TDH_CONTEXT_POINTERSIZE;
    c.ctx_count = 2;
    consume(path, &c);
    CHECK_EQ(c.messages, 3);
    CHECK_EQ(c.missing, 0);
    if (wcscmp(c.text[0], L"Opened disk0 with -3 retries, handle 00000000ABCD1234") ||
        wcscmp(c.text[1], L"Status C0000034 for C:\\x: true") ||
        wcscmp(c.text[2], L"No arguments, 100% done")) {
        fprintf(stderr, "got: [%ls] [%ls] [%ls]\n", c.text[0], c.text[1], c.text[2]);
        return 1;
    }
    CHECK(!wcscmp(c.function, L"OpenThing"));
    CHECK(!wcscmp(c.level, L"TRACE_LEVEL_INFORMATION"));
    CHECK(!wcscmp(c.flags, L"WPPDEMO_IO"));
    CHECK(!wcscmp(c.type_name, L"wppdemo_c42"));
    CHECK(!wcscmp(c.guid_name, L"WppDemo"));
    CHECK(IsEqualGUID(&c.trace_guid, &WppMessages));
    CHECK_EQ(c.retries, -3);

    /* The native decoder, as `petw dump --tmf` uses it. */
    static native nv;
    CHECK_EQ(petw_decoder_new(&nv.d), 0);
    CHECK_EQ(petw_decoder_add_tmf(nv.d, tmf), 0);
    petw_trace_config cfg;
    petw_trace_config_init(&cfg);
    cfg.on_event = on_native;
    cfg.context = &nv;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &cfg, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    CHECK_EQ(nv.n, 3);
    CHECK(!strcmp(nv.text[1], "WppDemo/wppdemo_c57 Status C0000034 for C:\\x: true"));
    /* A file that is not TMF is refused with the line. */
    CHECK_EQ(petw_decoder_add_tmf_text(nv.d, "#typev x 1 \"a\"\n", 15), PETW_ECORRUPT);
    CHECK(strstr(petw_decoder_error(nv.d), "line 1") != NULL);
    petw_decoder_free(nv.d);
    if (argc <= 1)
        remove(path);
    return 0;
}
