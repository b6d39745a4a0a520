/* SPDX-License-Identifier: MIT */
/* EnableTraceEx2's event filters on in-process sessions: event IDs (in and
 * out, per session), PID and executable-name filters (this process in or
 * out: enabled or not at all), TraceLogging event names (in and out, only
 * for the filter's level and keywords), and what is refused: filter types
 * petw does not implement (ERROR_NOT_SUPPORTED), malformed descriptors
 * (ERROR_INVALID_PARAMETER), and the same through EnableTraceEx. */
#include <wchar.h>

#include "../../lib/base/common/filter.h"
#include "test_util.h"
#include <TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(g_tl, "Petw.Test.EventNames",
                             (0xf1170004, 0x1b0d, 0x4f4c, 0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e,
                              4));
static const GUID tl_guid = {
    0xf1170004, 0x1b0d, 0x4f4c, {0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 4}};

#ifdef _WIN32
#define THIS_PID ((ULONG)GetCurrentProcessId())
/* The executable's file name there is test_enable_filters.exe. */
static const int exe_expect[] = {0, 0, 1, 0, 0};
#else
#include <unistd.h>
#define THIS_PID ((ULONG)getpid())
static const int exe_expect[] = {1, 1, 0, 0, 0};
#endif

static const GUID prov = {
    0xf1170001, 0x1b0d, 0x4f4c, {0x9c, 0x11, 0x2a, 0x3b, 0x4c, 0x5d, 0x6e, 1}};

static int enables_seen, callbacks_seen;

static void WINAPI enable_cb(LPCGUID src, ULONG on, UCHAR level, ULONGLONG any, ULONGLONG all,
                             PEVENT_FILTER_DESCRIPTOR f, PVOID ctx)
{
    (void)src, (void)level, (void)any, (void)all, (void)f, (void)ctx;
    callbacks_seen++;
    if (on == EVENT_CONTROL_CODE_ENABLE_PROVIDER)
        enables_seen++;
}

static TRACEHANDLE start(const char *name, const char *file)
{
    test_props tp;
    test_props_init(&tp, file);
    TRACEHANDLE h = 0;
    CHECK_EQ(StartTraceA(&h, name, &tp.p), ERROR_SUCCESS);
    return h;
}

static void stop(TRACEHANDLE h)
{
    test_props tp;
    test_props_init(&tp, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
}

static ULONG enable_with(TRACEHANDLE h, EVENT_FILTER_DESCRIPTOR *d, ULONG n, ULONG props)
{
    ENABLE_TRACE_PARAMETERS p;
    memset(&p, 0, sizeof(p));
    p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    p.EnableProperty = props;
    p.EnableFilterDesc = d;
    p.FilterDescCount = n;
    return EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p);
}

/* An EVENT_FILTER_EVENT_ID with room for `count` IDs. */
typedef struct id_filter {
    EVENT_FILTER_EVENT_ID f;
    USHORT more[70];
} id_filter;

static EVENT_FILTER_DESCRIPTOR id_desc(id_filter *buf, BOOLEAN in, const USHORT *ids, USHORT n)
{
    memset(buf, 0, sizeof(*buf));
    buf->f.FilterIn = in;
    buf->f.Count = n;
    memcpy(buf->f.Events, ids, n * sizeof(USHORT));
    EVENT_FILTER_DESCRIPTOR d;
    d.Ptr = (ULONGLONG)(uintptr_t)buf;
    d.Size = (ULONG)(offsetof(EVENT_FILTER_EVENT_ID, Events) + n * sizeof(USHORT));
    d.Type = EVENT_FILTER_TYPE_EVENT_ID;
    return d;
}

/* Writes events with IDs 1..5, each carrying its ID. */
static void write_ids(REGHANDLE reg)
{
    for (USHORT id = 1; id <= 5; id++) {
        EVENT_DESCRIPTOR d = {id, 0, 0, 4, 0, 0, 0};
        uint32_t v = id;
        EVENT_DATA_DESCRIPTOR dd;
        EventDataDescCreate(&dd, &v, 4);
        CHECK_EQ(EventWrite(reg, &d, 1, &dd), ERROR_SUCCESS);
    }
}

/* The IDs of the events in `path`, as a bit mask (bit id). */
static uint32_t ids_in(const char *path)
{
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    uint32_t mask = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (memcmp(&l.ev[i].header.provider_id, &prov, sizeof(prov)) != 0)
            continue;
        CHECK_EQ(test_seq(&l.ev[i]), l.ev[i].header.descriptor.id);
        CHECK((mask & (1u << l.ev[i].header.descriptor.id)) == 0); /* once each */
        mask |= 1u << l.ev[i].header.descriptor.id;
    }
    test_events_free(&l);
    return mask;
}

/* The u32 tags of the TraceLogging events in `path`, as a bit mask. */
static uint32_t tl_tags(const char *path)
{
    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    uint32_t mask = 0;
    for (size_t i = 0; i < l.count; i++) {
        if (memcmp(&l.ev[i].header.provider_id, &tl_guid, sizeof(tl_guid)) != 0)
            continue;
        CHECK_EQ(l.ev[i].length, 4);
        uint32_t k = test_seq(&l.ev[i]);
        CHECK(k < 32 && (mask & (1u << k)) == 0);
        mask |= 1u << k;
    }
    test_events_free(&l);
    return mask;
}

/* The form filters take in control messages and the shared registry is
 * checked as untrusted input: each corruption is refused. */
static void untrusted_filters(void)
{
    static petw__enable_filter ok, f;
    memset(&ok, 0, sizeof(ok));
    CHECK_EQ(petw__filter_check(&ok), 0);
    ok.properties = PETW__PROP_SID | PETW__PROP_STACK_TRACE;
    ok.flags = PETW__FILTER_ALL;
    ok.id_count = 2;
    ok.id_filter_in = 1;
    ok.ids[0] = 3;
    ok.ids[1] = 9;
    ok.pid_count = 1;
    ok.pids[0] = 42;
    memcpy(ok.exe, "a;b", 4);
    ok.name_count = 2;
    ok.name_bytes = 5;
    memcpy(ok.names, "x\0yz", 5);
    CHECK_EQ(petw__filter_check(&ok), 0);
    CHECK(petw__filter_id_pass(&ok, 9) && !petw__filter_id_pass(&ok, 4));
    CHECK(petw__filter_admits_process(&ok, 42, "B") && !petw__filter_admits_process(&ok, 43, "b") &&
          !petw__filter_admits_process(&ok, 42, "c"));
#define BAD(stmt)                                                                                  \
    do {                                                                                           \
        f = ok;                                                                                    \
        stmt;                                                                                      \
        CHECK_EQ(petw__filter_check(&f), PETW_ECORRUPT);                                           \
    } while (0)
    BAD(f.properties |= 0x8);               /* PSM_KEY: not one petw applies */
    BAD(f.flags |= 0x100);                  /* unknown filter */
    BAD(f.id_count = 65);                   /* over MAX_EVENT_FILTER_EVENT_ID_COUNT */
    BAD(f.id_count = 0);                    /* flag without IDs */
    BAD(f.ids[5] = 1);                      /* a byte past the IDs */
    BAD(f.id_filter_in = 2);                /* not a boolean */
    BAD(f.pid_count = 9);                   /* over MAX_EVENT_FILTER_PID_COUNT */
    BAD(f.pids[3] = 7);                     /* past the PIDs */
    BAD(memset(f.exe, 'a', sizeof(f.exe))); /* no NUL */
    BAD(f.exe[10] = 'x');                   /* a byte after the NUL */
    BAD(f.flags &= ~PETW__FILTER_EXE);      /* names without the flag */
    BAD(f.name_bytes = 4);                  /* the last name cut */
    BAD(f.name_count = 3);                  /* more names than NULs */
    BAD(f.name_bytes = 4000);               /* past the array */
    BAD(f.names[100] = 'q');                /* past the names */
    BAD(f.reserved[1] = 1);
#undef BAD
}

static void refused(TRACEHANDLE h)
{
    id_filter buf;
    static const USHORT two[] = {2, 4};
    EVENT_FILTER_DESCRIPTOR d[3];

    /* Not implemented: ERROR_NOT_SUPPORTED, nothing enabled. */
    static const ULONG unsupported[] = {
        EVENT_FILTER_TYPE_SCHEMATIZED,    EVENT_FILTER_TYPE_PAYLOAD,
        EVENT_FILTER_TYPE_TRACEHANDLE,    EVENT_FILTER_TYPE_STACKWALK,
        EVENT_FILTER_TYPE_STACKWALK_NAME, EVENT_FILTER_TYPE_PACKAGE_ID,
        EVENT_FILTER_TYPE_CONTAINER,      EVENT_FILTER_TYPE_SYSTEM_FLAGS};
    uint8_t blob[64] = {0};
    for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
        d[0].Ptr = (ULONGLONG)(uintptr_t)blob;
        d[0].Size = sizeof(blob);
        d[0].Type = unsupported[i];
        CHECK_EQ(enable_with(h, d, 1, 0), ERROR_NOT_SUPPORTED);
    }
    static const ULONG bad_props[] = {EVENT_ENABLE_PROPERTY_PSM_KEY,
                                      EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0,
                                      EVENT_ENABLE_PROPERTY_PROVIDER_GROUP,
                                      EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0,
                                      EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE,
                                      EVENT_ENABLE_PROPERTY_ENABLE_SILOS,
                                      EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING,
                                      0x80000000u};
    for (size_t i = 0; i < sizeof(bad_props) / sizeof(bad_props[0]); i++)
        CHECK_EQ(enable_with(h, NULL, 0, bad_props[i] | EVENT_ENABLE_PROPERTY_SID),
                 ERROR_NOT_SUPPORTED);

    /* Malformed: ERROR_INVALID_PARAMETER. */
    CHECK_EQ(enable_with(h, NULL, 1, 0), ERROR_INVALID_PARAMETER); /* count without array */
    d[0] = id_desc(&buf, TRUE, two, 2);
    d[1] = d[0];
    CHECK_EQ(enable_with(h, d, 2, 0), ERROR_INVALID_PARAMETER); /* one per type */
    d[0] = id_desc(&buf, TRUE, two, 0);
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* no IDs */
    d[0] = id_desc(&buf, TRUE, two, 2);
    d[0].Size -= 1;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* Size short of Count */
    USHORT many[65];
    for (int i = 0; i < 65; i++)
        many[i] = (USHORT)i;
    d[0] = id_desc(&buf, TRUE, many, 65);
    CHECK_EQ(enable_with(h, d, 1, 0),
             ERROR_INVALID_PARAMETER); /* > MAX_EVENT_FILTER_EVENT_ID_COUNT */
    d[0] = id_desc(&buf, TRUE, two, 2);
    d[0].Ptr = 0;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER);
    ULONG pids[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    d[0] =
        (EVENT_FILTER_DESCRIPTOR){(ULONGLONG)(uintptr_t)pids, sizeof(pids), EVENT_FILTER_TYPE_PID};
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* > MAX_EVENT_FILTER_PID_COUNT */
    d[0].Size = 6;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* not whole PIDs */
    d[0].Size = 0;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER);
    WCHAR exe[4] = {L'a', L'b', L'c', L'd'};
    d[0] = (EVENT_FILTER_DESCRIPTOR){(ULONGLONG)(uintptr_t)exe, sizeof(exe),
                                     EVENT_FILTER_TYPE_EXECUTABLE_NAME};
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* not terminated */
    d[0].Type = EVENT_FILTER_TYPE_NONE;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER);
    /* Event names: none, not terminated, an empty one. */
    struct {
        EVENT_FILTER_EVENT_NAME n;
        char more[32];
    } nf;
    memset(&nf, 0, sizeof(nf));
    d[0] = (EVENT_FILTER_DESCRIPTOR){(ULONGLONG)(uintptr_t)&nf,
                                     (ULONG)(offsetof(EVENT_FILTER_EVENT_NAME, Names) + 4),
                                     EVENT_FILTER_TYPE_EVENT_NAME};
    memcpy(nf.n.Names, "abcd", 4);
    nf.n.NameCount = 0;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER);
    nf.n.NameCount = 1;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* no NUL within Size */
    nf.n.Names[0] = 0;
    CHECK_EQ(enable_with(h, d, 1, 0), ERROR_INVALID_PARAMETER); /* "" */
    ENABLE_TRACE_PARAMETERS p;
    memset(&p, 0, sizeof(p));
    p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    p.FilterDescCount = MAX_EVENT_FILTERS_COUNT + 1;
    p.EnableFilterDesc = d;
    CHECK_EQ(EnableTraceEx2(h, &prov, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p),
             ERROR_INVALID_PARAMETER);

    /* EnableTraceEx, the older form, passes its one descriptor the same way. */
    d[0].Ptr = (ULONGLONG)(uintptr_t)blob;
    d[0].Size = sizeof(blob);
    d[0].Type = EVENT_FILTER_TYPE_PAYLOAD;
    CHECK_EQ(EnableTraceEx(&prov, NULL, h, 1, 5, 0, 0, 0, d), ERROR_NOT_SUPPORTED);
    CHECK_EQ(EnableTraceEx(&prov, NULL, h, 1, 5, 0, 0, EVENT_ENABLE_PROPERTY_PSM_KEY, NULL),
             ERROR_NOT_SUPPORTED);
    d[0] = id_desc(&buf, TRUE, two, 0);
    CHECK_EQ(EnableTraceEx(&prov, NULL, h, 1, 5, 0, 0, 0, d), ERROR_INVALID_PARAMETER);
}

int main(void)
{
    char path[3][512];
    test_path(path[0], sizeof(path[0]), "filters-0.etl");
    test_path(path[1], sizeof(path[1]), "filters-1.etl");
    test_path(path[2], sizeof(path[2]), "filters-2.etl");
    REGHANDLE reg;
    CHECK_EQ(EventRegister(&prov, enable_cb, NULL, &reg), ERROR_SUCCESS);

    untrusted_filters();

    /* Refusals enable nothing. */
    TRACEHANDLE h = start("petw-test-filters-refused", NULL);
    refused(h);
    CHECK_EQ(enables_seen, 0);
    CHECK(!EventProviderEnabled(reg, 0, 0));
    stop(h);

    /* Event IDs: in {2, 4} on one session, out {2, 4} on another, none on
     * a third; each gets its own selection of the same writes. */
    static const USHORT two[] = {2, 4};
    id_filter b0, b1;
    EVENT_FILTER_DESCRIPTOR din = id_desc(&b0, TRUE, two, 2), dout = id_desc(&b1, FALSE, two, 2);
    TRACEHANDLE s0 = start("petw-test-filters-in", path[0]);
    TRACEHANDLE s1 = start("petw-test-filters-out", path[1]);
    TRACEHANDLE s2 = start("petw-test-filters-none", path[2]);
    CHECK_EQ(enable_with(s0, &din, 1, 0), ERROR_SUCCESS);
    CHECK_EQ(enable_with(s1, &dout, 1, 0), ERROR_SUCCESS);
    CHECK_EQ(enable_with(s2, NULL, 0, 0), ERROR_SUCCESS);
    write_ids(reg);
    /* Re-enabling without the filter drops it. */
    CHECK_EQ(enable_with(s0, NULL, 0, 0), ERROR_SUCCESS);
    EVENT_DESCRIPTOR d6 = {6, 0, 0, 4, 0, 0, 0};
    uint32_t six = 6;
    EVENT_DATA_DESCRIPTOR dd;
    EventDataDescCreate(&dd, &six, 4);
    CHECK_EQ(EventWrite(reg, &d6, 1, &dd), ERROR_SUCCESS);
    stop(s0);
    stop(s1);
    stop(s2);
    CHECK_EQ(ids_in(path[0]), (1u << 2) | (1u << 4) | (1u << 6));
    CHECK_EQ(ids_in(path[1]), (1u << 1) | (1u << 3) | (1u << 5) | (1u << 6));
    CHECK_EQ(ids_in(path[2]), 0x7Eu);

    /* PID filter: this process listed (among others) enables it here; a
     * list without it enables nothing here (no callback, not enabled). */
    ULONG pids[3] = {1, THIS_PID, 7};
    EVENT_FILTER_DESCRIPTOR dp = {(ULONGLONG)(uintptr_t)pids, sizeof(pids), EVENT_FILTER_TYPE_PID};
    enables_seen = 0;
    s0 = start("petw-test-filters-pid", path[0]);
    CHECK_EQ(enable_with(s0, &dp, 1, 0), ERROR_SUCCESS);
    CHECK_EQ(enables_seen, 1);
    CHECK(EventProviderEnabled(reg, 4, 0));
    write_ids(reg);
    stop(s0);
    CHECK_EQ(ids_in(path[0]), 0x3Eu);
    pids[1] = pids[0];
    callbacks_seen = 0;
    s0 = start("petw-test-filters-pid-out", path[0]);
    CHECK_EQ(enable_with(s0, &dp, 1, 0), ERROR_SUCCESS);
    CHECK(!EventProviderEnabled(reg, 4, 0));
    write_ids(reg);
    stop(s0);
    CHECK_EQ(callbacks_seen, 0); /* neither enabled nor disabled here */
    CHECK_EQ(ids_in(path[0]), 0);

    /* Executable names: ours, in other case and among others, with blanks. */
    static const WCHAR *lists[] = {L"other.exe; TEST_Enable_Filters ;x", L"test_enable_filters",
                                   L"Test_Enable_Filters.exe;test_enable_filters.EXE",
                                   L"test_enable_filter", L"other;another"};
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        EVENT_FILTER_DESCRIPTOR de = {(ULONGLONG)(uintptr_t)lists[i],
                                      (ULONG)((wcslen(lists[i]) + 1) * sizeof(WCHAR)),
                                      EVENT_FILTER_TYPE_EXECUTABLE_NAME};
        s0 = start("petw-test-filters-exe", path[0]);
        CHECK_EQ(enable_with(s0, &de, 1, 0), ERROR_SUCCESS);
        write_ids(reg);
        stop(s0);
        uint32_t got = ids_in(path[0]);
        int want = exe_expect[i];
        if (got != (want ? 0x3Eu : 0u))
            fprintf(stderr, "exe list %zu: got %#x\n", i, (unsigned)got);
        CHECK_EQ(got, want ? 0x3Eu : 0u);
    }

    /* PID and event ID filters together, through EnableTraceEx (one
     * descriptor: the event IDs). */
    s0 = start("petw-test-filters-ex", path[0]);
    din = id_desc(&b0, TRUE, two, 1);
    CHECK_EQ(EnableTraceEx(&prov, NULL, s0, 1, 5, 0, 0, 0, &din), ERROR_SUCCESS);
    write_ids(reg);
    stop(s0);
    CHECK_EQ(ids_in(path[0]), 1u << 2);

    CHECK_EQ(EventUnregister(reg), ERROR_SUCCESS);

    /* Event names (TraceLogging): session 0 keeps "Alpha" and "Gamma" among
     * the level-4 events of keyword 0x1 (other events pass); session 1 drops
     * "Alpha" at every level and keyword. */
    CHECK(SUCCEEDED(TraceLoggingRegister(g_tl)));
    struct {
        EVENT_FILTER_EVENT_NAME n;
        char more[32];
    } names0, names1;
    memset(&names0, 0, sizeof(names0));
    memset(&names1, 0, sizeof(names1));
    names0.n.Level = 4;
    names0.n.MatchAnyKeyword = 0x1;
    names0.n.FilterIn = TRUE;
    names0.n.NameCount = 2;
    memcpy(names0.n.Names, "Alpha\0Gamma", 12);
    names1.n.FilterIn = FALSE;
    names1.n.NameCount = 1;
    memcpy(names1.n.Names, "Alpha", 6);
    EVENT_FILTER_DESCRIPTOR dn0 = {(ULONGLONG)(uintptr_t)&names0,
                                   (ULONG)(offsetof(EVENT_FILTER_EVENT_NAME, Names) + 12),
                                   EVENT_FILTER_TYPE_EVENT_NAME};
    EVENT_FILTER_DESCRIPTOR dn1 = {(ULONGLONG)(uintptr_t)&names1,
                                   (ULONG)(offsetof(EVENT_FILTER_EVENT_NAME, Names) + 6),
                                   EVENT_FILTER_TYPE_EVENT_NAME};
    s0 = start("petw-test-filters-names-in", path[0]);
    s1 = start("petw-test-filters-names-out", path[1]);
    ENABLE_TRACE_PARAMETERS ep;
    memset(&ep, 0, sizeof(ep));
    ep.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    ep.EnableFilterDesc = &dn0;
    ep.FilterDescCount = 1;
    CHECK_EQ(EnableTraceEx2(s0, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_SUCCESS);
    ep.EnableFilterDesc = &dn1;
    CHECK_EQ(EnableTraceEx2(s1, &tl_guid, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &ep),
             ERROR_SUCCESS);
    /* Tagged by their u32 field: bit k. */
    TraceLoggingWrite(g_tl, "Alpha", TraceLoggingLevel(4), TraceLoggingKeyword(0x1),
                      TraceLoggingUInt32(1u, "k"));
    TraceLoggingWrite(g_tl, "Beta", TraceLoggingLevel(4), TraceLoggingKeyword(0x1),
                      TraceLoggingUInt32(2u, "k"));
    TraceLoggingWrite(g_tl, "Gamma", TraceLoggingLevel(4), TraceLoggingKeyword(0x3),
                      TraceLoggingUInt32(3u, "k"));
    TraceLoggingWrite(g_tl, "Beta", TraceLoggingLevel(4), TraceLoggingKeyword(0x2),
                      TraceLoggingUInt32(4u, "k")); /* not the filter's keyword: passes */
    TraceLoggingWrite(g_tl, "Beta", TraceLoggingLevel(5), TraceLoggingKeyword(0x1),
                      TraceLoggingUInt32(5u, "k")); /* not the filter's level: passes */
    TraceLoggingWrite(g_tl, "Alpha", TraceLoggingLevel(2), TraceLoggingKeyword(0x8),
                      TraceLoggingUInt32(6u, "k"));
    stop(s0);
    stop(s1);
    TraceLoggingUnregister(g_tl);
    CHECK_EQ(tl_tags(path[0]), (1u << 1) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 6));
    CHECK_EQ(tl_tags(path[1]), (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5));

    for (int i = 0; i < 3; i++)
        remove(path[i]);
    printf("enable filters: ok\n");
    return 0;
}
