/* SPDX-License-Identifier: MIT */
/* make_seeds DIR: writes small synthetic ETL files for the fuzz corpora:
 * plain, with checksums, zstd-compressed, with related activity IDs, from
 * two threads' worth of CPUs, plus a truncated one; TraceLogging events of
 * every field kind (plain and zstd + checksum), so TDH and the decoder have
 * schemas to chew on; and a Windows-style XPRESS-compressed copy of the
 * TraceLogging file (LogFileMode 0x04000000, data buffers flagged 0x40,
 * MS-XCA plain LZ77 payloads, no petw header fields). For the
 * cross-process inputs: control-message frames (a HELLO, a CONTROL QUERY,
 * a START, one with a bad magic) and a shared pool as a provider leaves it
 * (see fuzz_control_messages.c and fuzz_shared_pool.c), and a provider-
 * directory file with two providers, one named (fuzz_provider_dir.c).
 * Recording profiles, with fuzz_profile.c's first byte: a WPR profile (by
 * itself, and with a selector line) and a logman provider file. An
 * instrumentation manifest with a payload (fuzz_manifest.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(_WIN32)
#include <direct.h>
#define make_dir(d) _mkdir(d)
#else
#define make_dir(d) mkdir((d), 0700)
#endif

#include <TraceLoggingProvider.h>
#include <petw/petw.h>

#include "../../lib/write/ring/ring.h"
#include "../../lib/base/registry/registry.h"
#include "../common/pdb_synth.h"
#include "../common/xpress_encode.h"

static const petw_guid seed_provider = {0x5eed5eed, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};

static int record(const char *dir, const char *name, uint32_t flags, uint32_t events, int related)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = name;
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 16;
    c.flags = flags;
    petw_session_handle s;
    petw_provider_handle p;
    if (petw_session_start(&c, &s) || petw_provider_register(&seed_provider, NULL, NULL, &p) ||
        petw_session_enable_provider(s, &seed_provider, 0, 0, 0))
        return 1;
    for (uint32_t i = 0; i < events; i++) {
        uint8_t payload[40];
        memset(payload, (int)i, sizeof(payload));
        petw_data_descriptor d = {(uint64_t)(uintptr_t)payload, 1 + i % 40, 0, 0, 0};
        petw_event_descriptor e = {(uint16_t)i, 1, 2, (uint8_t)(i % 6), 3, 4, 0x8000 + i};
        petw_guid act = {i, 1, 2, {0}};
        petw_event_write(p, &e, &act, related && i % 2 ? &act : NULL, 1, &d);
    }
    petw_provider_unregister(p);
    return petw_session_stop(s, NULL) != 0;
}

TRACELOGGING_DEFINE_PROVIDER(g_seed_tl, "Petw.Fuzz.Seed",
                             (0x5eed7106, 0x1e3b, 0x5c7d, 0x9f, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
                              0xcd));

/* TraceLogging events of every field kind petw writes: scalars, strings,
 * counted strings, binary, GUID, times, arrays, nested structs. */
static void write_tl_events(void)
{
    static const uint8_t bin[5] = {0xde, 0xad, 0xbe, 0xef, 0x00};
    static const int32_t varr[3] = {-1, 0, 1};
    static const uint8_t farr[4] = {1, 2, 3, 4};
    static const double darr[2] = {0.5, -1e300};
    static const uint16_t items[3] = {10, 20, 30};
    GUID g = {0x01234567, 0x89ab, 0xcdef, {1, 2, 3, 4, 5, 6, 7, 8}};
    FILETIME ft = {0x12345678, 0x01d00000};
    SYSTEMTIME st = {2024, 2, 4, 29, 23, 59, 58, 999};
    GUID act = {1, 2, 3, {4}}, rel = {5, 6, 7, {8}};
    for (int i = 0; i < 3; i++) {
        TraceLoggingWrite(
            g_seed_tl, "Scalars", TraceLoggingInt8((int8_t)-8, "i8"), TraceLoggingUInt8(200, "u8"),
            TraceLoggingInt16(-1600, "i16"), TraceLoggingUInt16(60000, "u16"),
            TraceLoggingInt32(-320000 - i, "i32"), TraceLoggingUInt32(4000000000u, "u32"),
            TraceLoggingInt64(-6400000000ll, "i64"),
            TraceLoggingUInt64(18000000000000000000ull, "u64"), TraceLoggingIntPtr(-5, "iptr"),
            TraceLoggingHexInt32(0xdeadbeef, "hex32"),
            TraceLoggingHexUInt64(0x0123456789abcdefull, "hex64"),
            TraceLoggingHexUInt8(0xab, "hex8"), TraceLoggingFloat32(1.5f, "f32"),
            TraceLoggingFloat64(-2.25, "f64"), TraceLoggingBool(TRUE, "bool32"),
            TraceLoggingBoolean(1, "boolean"), TraceLoggingChar('Z', "ch"),
            TraceLoggingWChar(0x3a9, "wch"), TraceLoggingPointer((void *)0x1234, "ptr"),
            TraceLoggingPid(42, "pid"), TraceLoggingTid(43, "tid"),
            TraceLoggingIPv4Address(0x0100007f, "ip"), TraceLoggingPort(0x901f, "port"),
            TraceLoggingWinError(5, "winerr"), TraceLoggingHResult(E_FAIL, "hr"),
            TraceLoggingNTStatus(0xC0000005u, "nt"));
        TraceLoggingWrite(g_seed_tl, "Strings", TraceLoggingString("ansi, \"quoted\"", "ansi"),
                          TraceLoggingUtf8String("h\xc3\xa9llo\n\x01", "utf8"),
                          TraceLoggingWideString(L"wide \U0001F600", "wide"),
                          TraceLoggingString(NULL, "null"),
                          TraceLoggingCountedString("abcdef", 3, "counted"),
                          TraceLoggingCountedWideString(L"abcdef", 4, "cwide"),
                          TraceLoggingBinary(bin, sizeof(bin), "bin"), TraceLoggingGuid(g, "guid"),
                          TraceLoggingFileTime(ft, "ft"), TraceLoggingSystemTime(st, "st"));
        TraceLoggingWrite(g_seed_tl, "Arrays", TraceLoggingInt32Array(varr, 3, "varr"),
                          TraceLoggingUInt8FixedArray(farr, 4, "farr"),
                          TraceLoggingFloat64Array(darr, 2, "darr"),
                          TraceLoggingInt32Array(varr, 0, "empty"), TraceLoggingStruct(2, "outer"),
                          TraceLoggingInt32(7, "a"), TraceLoggingStruct(1, "inner"),
                          TraceLoggingString("deep", "b"), TraceLoggingInt32(9, "after"));
        TraceLoggingWrite(
            g_seed_tl, "Order", TraceLoggingLevel(WINEVENT_LEVEL_ERROR), TraceLoggingKeyword(0x5),
            TraceLoggingOpcode(WINEVENT_OPCODE_START), TraceLoggingInt32(-7, "id"),
            TraceLoggingWideString(L"Ada", "customer"), TraceLoggingUInt16Array(items, 3, "items"),
            TraceLoggingStruct(2, "where"), TraceLoggingUtf8String("Z\xc3\xbcrich", "city"),
            TraceLoggingHexInt32(0x8001, "zip"), TraceLoggingBinary(bin, 4, "blob"));
        TraceLoggingWriteActivity(g_seed_tl, "Activity", &act, &rel, TraceLoggingInt32(i, "x"));
        TraceLoggingWrite(g_seed_tl, "Empty");
    }
}

static int record_tl(const char *dir, const char *name, uint32_t flags)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    petw_session_config c;
    petw_session_config_init(&c);
    c.name = name;
    c.file_path = path;
    c.buffer_size_kb = 4;
    c.minimum_buffers = c.maximum_buffers = 16;
    c.flags = flags;
    petw_session_handle s;
    if (petw_session_start(&c, &s) ||
        petw_session_enable_provider(s, (const petw_guid *)TraceLoggingProviderId(g_seed_tl), 0, 0,
                                     0))
        return 1;
    write_tl_events();
    return petw_session_stop(s, NULL) != 0;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
    p[3] = (uint8_t)(v >> 24);
}

/* A Windows-style XPRESS-compressed copy of an uncompressed petw file: the
 * header buffer as it is with LogFileMode |= EVENT_TRACE_COMPRESSED_MODE;
 * each data buffer as its 0x48-byte header (BufferSize: the bytes stored,
 * SavedOffset: the bytes unpacked, BufferFlag |= 0x40) then MS-XCA plain
 * LZ77 of its records. petw's own header fields (0x38..0x47) are cleared. */
static int xpress_copy(const char *dir, const char *from, const char *to)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, from);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;
    static uint8_t in[1 << 20], out[(1 << 20) * 2];
    size_t n = fread(in, 1, sizeof(in), f);
    fclose(f);
    if (n < 4096)
        return 1;
    uint32_t stride = rd32(in);
    if (stride < 0x48 || stride > n)
        return 1;
    memcpy(out, in, stride);
    memset(out + 0x38, 0, 16);
    uint8_t *mode = out + 0x48 + 0x20 + 0x20; /* SYSTEM header, then LogFileMode */
    wr32(mode, rd32(mode) | 0x04000000u);
    size_t o = stride;
    for (size_t off = stride; off + 0x48 <= n;) {
        uint32_t size = rd32(in + off), used = rd32(in + off + 4);
        if (size < 0x48 || off + size > n || used < 0x48 || used > size)
            return 1;
        memcpy(out + o, in + off, 0x48);
        memset(out + o + 0x38, 0, 16);
        size_t c = test_xpress_encode(in + off + 0x48, used - 0x48, out + o + 0x48);
        wr32(out + o, (uint32_t)(0x48 + c));
        out[o + 0x34] |= 0x40;
        o += 0x48 + c;
        off += size;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, to);
    f = fopen(path, "wb");
    if (!f || fwrite(out, 1, o, f) != o)
        return 1;
    return fclose(f) != 0;
}

static int write_file(const char *dir, const char *name, const void *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* Recording profiles as fuzz_profile.c reads them: a byte for the format
 * and selector, (a selector line,) then the file. */
static int write_profiles(const char *dir)
{
    static const char wprp[] =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<WindowsPerformanceRecorder Version=\"1.0\">\n <Profiles>\n"
        "  <SystemCollector Id=\"SC\" Name=\"NT Kernel Logger\"><Buffers Value=\"8\"/>"
        "</SystemCollector>\n"
        "  <EventCollector Id=\"EC_Base\" Name=\"c\"><BufferSize Value=\"64\"/>"
        "<Buffers Value=\"3\" PercentageOfTotalMemory=\"true\"/></EventCollector>\n"
        "  <EventCollector Id=\"EC\" Name=\"c\" Base=\"EC_Base\"><Buffers Value=\"16\"/>"
        "</EventCollector>\n"
        "  <SystemProvider Id=\"SP0\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords>"
        "<Stacks><Stack Value=\"SampledProfile\"/></Stacks></SystemProvider>\n"
        "  <SystemProvider Id=\"SP\" Base=\"SP0\"><Keywords Operation=\"Add\">"
        "<Keyword Value=\"CSwitch\"/><Keyword Value=\"Registry\"/></Keywords></SystemProvider>\n"
        "  <EventProvider Id=\"A\" Name=\"5eed5eed-0001-0002-0304-05060708090a\" Level=\"4\">"
        "<Keywords><Keyword Value=\"0x10\"/><Keyword Value=\"0x2\"/></Keywords>"
        "<CaptureStateOnStart><Keyword Value=\"0x1\"/></CaptureStateOnStart></EventProvider>\n"
        "  <EventProvider Id=\"B\" Name=\"*Petw.Fuzz.Seed\" Stack=\"true\"/>\n"
        "  <EventProvider Id=\"B2\" Base=\"B\"><Keywords Operation=\"Add\">"
        "<Keyword Value=\"0x8\"/></Keywords></EventProvider>\n"
        "  <Profile Id=\"Trace.Verbose.File\" Name=\"Trace\" DetailLevel=\"Verbose\" "
        "LoggingMode=\"File\" Description=\"d\">\n"
        "   <Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP\"/>"
        "</SystemCollectorId>\n"
        "    <EventCollectorId Value=\"EC\"><EventProviders><EventProviderId Value=\"A\"/>"
        "<EventProviderId Value=\"B2\"/><EventProvider Id=\"C\" Name=\"{5eed0000-0000-0000-"
        "0000-000000000001}\" Level=\"0\"/></EventProviders></EventCollectorId>\n"
        "   </Collectors>\n  </Profile>\n"
        "  <Profile Id=\"Trace.Verbose.Memory\" Name=\"Trace\" DetailLevel=\"Verbose\" "
        "LoggingMode=\"Memory\" Base=\"Trace.Verbose.File\" Description=\"d\"/>\n"
        "  <Profile Id=\"Trace.Light.File\" Name=\"Trace\" DetailLevel=\"Light\" "
        "LoggingMode=\"File\" Base=\"Trace.Verbose.File\" Description=\"d\">\n"
        "   <Collectors Operation=\"Add\"><EventCollectorId Value=\"EC_Base\"><EventProviders>"
        "<EventProviderId Value=\"B\"/></EventProviders></EventCollectorId></Collectors>\n"
        "  </Profile>\n </Profiles>\n</WindowsPerformanceRecorder>\n";
    static const char providers[] = "# providers\n\"Petw Fuzz Seed\" 0x10 4\r\n"
                                    "{5eed5eed-0001-0002-0304-05060708090a} 0xff 0x5\n"
                                    "*Petw.Fuzz.Seed (Names, Here) 255\n; the end\n";
    static const char select[] = "Trace.Verbose.Memory\n";
    char buf[sizeof(wprp) + sizeof(select)];
    buf[0] = 1; /* WPR XML, no selector */
    memcpy(buf + 1, wprp, sizeof(wprp) - 1);
    int rc = write_file(dir, "profile.wprp.bin", buf, sizeof(wprp));
    buf[0] = 1 | 3 << 1; /* WPR XML, the selector on the first line */
    memcpy(buf + 1, select, sizeof(select) - 1);
    memcpy(buf + sizeof(select), wprp, sizeof(wprp) - 1);
    rc |= write_file(dir, "profile-select.wprp.bin", buf, sizeof(select) + sizeof(wprp) - 1);
    buf[0] = 0; /* a provider file */
    memcpy(buf + 1, providers, sizeof(providers) - 1);
    return rc | write_file(dir, "profile-providers.bin", buf, sizeof(providers));
}

/* An instrumentation manifest and a payload as fuzz_manifest.c reads them:
 * u16 XML size, the XML, the payload. Every kind of field layout. */
static int write_manifest(const char *dir)
{
    static const char xml[] =
        "<instrumentationManifest><instrumentation><events>"
        "<provider name='Seed' guid='{5eed5eed-0001-0002-0304-05060708090b}' message='$(string.P)'>"
        "<events><event value='1' template='T' task='K' opcode='O' level='win:Error' "
        "keywords='A' message='$(string.M)'/><event value='2' version='1'/></events>"
        "<tasks><task name='K' value='3'><opcodes><opcode name='O' value='12'/></opcodes>"
        "</task></tasks><keywords><keyword name='A' mask='0x4'/></keywords>"
        "<maps><valueMap name='V'><map value='1' message='$(string.P)'/></valueMap>"
        "<bitMap name='B'><map value='0x2' message='$(string.M)'/></bitMap></maps>"
        "<templates><template tid='T'><data name='s' inType='win:UnicodeString'/>"
        "<data name='n' inType='win:UInt16' map='V'/><data name='a' inType='win:Int32' "
        "count='n'/><data name='f' inType='win:UInt32' map='B'/><data name='t' "
        "inType='win:AnsiString' length='3'/><struct name='p' count='2'><data name='x' "
        "inType='win:Pointer'/><data name='g' inType='win:GUID'/></struct>"
        "<data name='b' inType='win:Binary' length='n'/></template></templates>"
        "</provider></events></instrumentation><localization><resources culture='en-US'>"
        "<stringTable><string id='P' value='seed'/><string id='M' value='%1 %2!u! %%%n%3'/>"
        "</stringTable></resources></localization></instrumentationManifest>";
    /* "hi", n = 1, a = {7}, f = 2, "abc", two {pointer, GUID}, one byte. */
    uint8_t payload[19 + 2 * 24 + 1];
    static const uint8_t head[19] = {'h', 0, 'i', 0, 0, 0, 1,   0,   7,  0,
                                     0,   0, 2,   0, 0, 0, 'a', 'b', 'c'};
    memcpy(payload, head, sizeof(head));
    memset(payload + sizeof(head), 0x5e, sizeof(payload) - sizeof(head));
    uint8_t buf[sizeof(xml) + sizeof(payload) + 2];
    buf[0] = (uint8_t)((sizeof(xml) - 1) & 0xff);
    buf[1] = (uint8_t)((sizeof(xml) - 1) >> 8);
    memcpy(buf + 2, xml, sizeof(xml) - 1);
    memcpy(buf + 2 + sizeof(xml) - 1, payload, sizeof(payload));
    return write_file(dir, "manifest.bin", buf, sizeof(xml) - 1 + sizeof(payload) + 2);
}

/* One control-message frame as a peer sends it: header, then payload. */
static int write_frame(const char *dir, const char *name, uint32_t magic, uint16_t type,
                       const void *payload, uint32_t size)
{
    static uint8_t
        frame[sizeof(petw__msg_header) + (sizeof(petw__msg_start) > sizeof(petw__msg_control)
                                              ? sizeof(petw__msg_start)
                                              : sizeof(petw__msg_control))];
    petw__msg_header h = {magic, PETW__MSG_VERSION, type, size, 0};
    if (size > sizeof(frame) - sizeof(h))
        return 1;
    memcpy(frame, &h, sizeof(h));
    memcpy(frame + sizeof(h), payload, size);
    return write_file(dir, name, frame, sizeof(h) + size);
}

static int write_frames(const char *dir)
{
    petw__msg_hello hello = {4242, 4};
    static petw__msg_control control;
    memset(&control, 0, sizeof(control));
    control.op = PETW__OP_QUERY;
    control.session_gen = 1;
    static petw__msg_start start;
    memset(&start, 0, sizeof(start));
    snprintf(start.name, sizeof(start.name), "fuzz-session");
    snprintf(start.file_path, sizeof(start.file_path), "/tmp/fuzz-session.etl");
    start.buffer_size_kb = 64;
    start.minimum_buffers = 4;
    start.maximum_buffers = 16;
    start.flush_timer_ms = 1000;
    start.zstd_level = 3;
    start.real_time_buffers = 4;
    int rc =
        write_frame(dir, "msg-hello.bin", PETW__MSG_MAGIC, PETW__MSG_HELLO, &hello, sizeof(hello));
    rc |= write_frame(dir, "msg-control.bin", PETW__MSG_MAGIC, PETW__MSG_CONTROL, &control,
                      sizeof(control));
    /* An ENABLE with every filter and property (version 2 messages). */
    control.op = PETW__OP_ENABLE;
    control.level = 5;
    control.filter.properties = PETW__PROP_ALL;
    control.filter.flags = PETW__FILTER_ALL;
    control.filter.id_count = 2;
    control.filter.id_filter_in = 1;
    control.filter.ids[0] = 2;
    control.filter.ids[1] = 7;
    control.filter.pid_count = 1;
    control.filter.pids[0] = 4242;
    snprintf(control.filter.exe, sizeof(control.filter.exe), "fuzz.exe;other");
    control.filter.name_level = 4;
    control.filter.name_filter_in = 1;
    control.filter.name_count = 2;
    control.filter.name_bytes = 12;
    control.filter.name_any = 0x10;
    memcpy(control.filter.names, "Alpha\0Gamma", 12);
    rc |= write_frame(dir, "msg-control-filter.bin", PETW__MSG_MAGIC, PETW__MSG_CONTROL, &control,
                      sizeof(control));
    rc |=
        write_frame(dir, "msg-start.bin", PETW__MSG_MAGIC, PETW__MSG_START, &start, sizeof(start));
    /* A real-time consumer's last frames: an RT_ACK, then RT_BYE (no
     * payload) as it closes its trace. */
    uint8_t consumer[2 * sizeof(petw__msg_header) + sizeof(uint32_t)];
    petw__msg_header ack = {PETW__MSG_MAGIC, PETW__MSG_VERSION, PETW__MSG_RT_ACK, 4, 0};
    petw__msg_header bye = {PETW__MSG_MAGIC, PETW__MSG_VERSION, PETW__MSG_RT_BYE, 0, 0};
    uint32_t acked = 3;
    memcpy(consumer, &ack, sizeof(ack));
    memcpy(consumer + sizeof(ack), &acked, sizeof(acked));
    memcpy(consumer + sizeof(ack) + sizeof(acked), &bye, sizeof(bye));
    rc |= write_file(dir, "msg-rt-ack-bye.bin", consumer, sizeof(consumer));
    rc |= write_frame(dir, "msg-bad-magic.bin", PETW__MSG_MAGIC ^ 0x20u, PETW__MSG_HELLO, &hello,
                      sizeof(hello));
    return rc;
}

/* A record for the pool seed: u16 size, u16 type (0: its writer died
 * before storing it), then a pattern. */
static void pool_record(uint8_t *at, uint16_t size, uint16_t type)
{
    for (uint16_t i = 4; i < size; i++)
        at[i] = (uint8_t)(type * 16 + i);
    at[0] = (uint8_t)size, at[1] = (uint8_t)(size >> 8);
    at[2] = (uint8_t)type, at[3] = (uint8_t)(type >> 8);
}

/* A shared pool as a provider leaves it (fuzz_shared_pool.c's input: the
 * geometry bytes, then the pool): 4 KiB buffers, 4 of them, 2 CPUs.
 * Buffer 0 is ready (two complete records and one with its size but no
 * type); CPU 0 writes into buffer 1 (one record committed, one reserved
 * with no type); buffers 2 and 3 are free; 2 events lost. */
static int write_pool(const char *dir)
{
    const uint8_t geometry[4] = {0, 0, 3, 1}; /* 4096 bytes, 1 + 3 buffers, 1 + 1 CPUs */
    petw__pool_geometry g;
    if (petw__pool_plan(4096, 4, 4, 2, &g) != 0)
        return 1;
    size_t bytes = (size_t)g.commit_bytes;
    uint8_t *raw = calloc(1, sizeof(geometry) + bytes + PETW__CACHE_LINE);
    if (!raw)
        return 1;
    /* The pool at a cache-line boundary, its geometry bytes just before. */
    uint8_t *mem = raw + sizeof(geometry);
    mem += (PETW__CACHE_LINE - (uintptr_t)mem % PETW__CACHE_LINE) % PETW__CACHE_LINE;
    memcpy(mem - sizeof(geometry), geometry, sizeof(geometry));
    petw__pool *p = (petw__pool *)(void *)mem;
    petw__pool_format(p, &g);
    _Atomic uint32_t *link = petw__pool_link(p);
    /* Free: 2 -> 3 (format pushed 3, 2, 1, 0: buffers 0 and 1 are taken). */
    atomic_store(&p->free_head, (uint64_t)6 << 32 | 3u);
    atomic_store(&p->free_count, 2);
    /* Ready: buffer 0 alone. */
    atomic_store(&p->ready_head, 1);
    atomic_store(&link[0], 0);
    uint8_t *b0 = petw__pool_buffer(p, 0);
    uint32_t o = PETW__BUFFER_HEADER_SIZE;
    pool_record(b0 + o, 0x50, 1);
    o += 0x50;
    pool_record(b0 + o, 0x58, 2);
    o += 0x58;
    pool_record(b0 + o, 0x50, 0);
    o += 0x50;
    atomic_store(petw__pool_ctrl(p, 0), PETW__CTRL_CLOSE(o) | (uint64_t)3 << 22 | o);
    /* CPU 0 on buffer 1: committed to 0x98, reserved to 0xe8. */
    uint8_t *b1 = petw__pool_buffer(p, 1);
    pool_record(b1 + PETW__BUFFER_HEADER_SIZE, 0x50, 3);
    pool_record(b1 + PETW__BUFFER_HEADER_SIZE + 0x50, 0x50, 0);
    atomic_store(petw__pool_ctrl(p, 1), PETW__CTRL_RECORD(PETW__BUFFER_HEADER_SIZE + 0x50));
    petw__ring_cpu *cpus = (petw__ring_cpu *)(void *)(mem + g.cpu);
    atomic_store(&cpus[0].word, PETW__WORD(1, 1, PETW__BUFFER_HEADER_SIZE + 0xa0));
    atomic_store(&cpus[1].word, PETW__WORD(1, PETW__BUF_NONE, 0));
    atomic_store(&petw__pool_meta(p)[1].uses, 1);
    atomic_store(&petw__pool_meta(p)[0].uses, 1);
    atomic_store(&p->counters.events_lost, 2);
    int rc = write_file(dir, "pool.bin", mem - sizeof(geometry), sizeof(geometry) + bytes);
    free(raw);
    return rc;
}

/* A provider-directory file: two providers, the first named. */
static int write_provider_dir(const char *dir)
{
    struct {
        petw__procdir_header h;
        petw__proc_entry e[2];
    } f;
    memset(&f, 0, sizeof(f));
    f.h.magic = PETW__PROCDIR_MAGIC;
    f.h.version = PETW__PROCDIR_VERSION;
    f.h.entry_size = sizeof(petw__proc_entry);
    f.h.count = 2;
    f.h.pid = 4242;
    f.h.start_time = 123456;
    memcpy(f.e[0].guid, &seed_provider, sizeof(seed_provider));
    strcpy(f.e[0].name, "Seed.Provider");
    f.e[1].guid[0] = 0x1122334455667788ull;
    return write_file(dir, "provider-dir.bin", &f, sizeof(f));
}

/* Classic kernel records for fuzz_kernel_decode: hook (group, opcode),
 * version, pointer-size flag, payload. */
static int write_kernel_seed(const char *dir, const char *name, const uint8_t head[4],
                             const void *payload, size_t n)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    int bad = fwrite(head, 1, 4, f) != 4 || fwrite(payload, 1, n, f) != n;
    return fclose(f) != 0 || bad;
}

static int write_kernel_seeds(const char *dir)
{
    /* Image Load v3 (64-bit): base, size, pid 7, ..., "a.dll". */
    uint8_t image[56 + 12];
    memset(image, 0, sizeof(image));
    image[8] = 0x10;
    image[16] = 7;
    memcpy(image + 56, "a\0.\0d\0l\0l\0\0", 12);
    static const uint8_t image_head[4] = {0x03, 0x0a, 3, 0};
    /* CSwitch v2: new tid 5, old tid 6, priorities, wait time. */
    static const uint8_t cswitch[24] = {5, 0, 0, 0, 6, 0, 0, 0, 9, 8, 1, 0, 3, 1, 5, 2, 40};
    static const uint8_t cswitch_head[4] = {0x05, 0x24, 2, 0};
    /* SampledProfile v2 (32-bit): ip, tid, count. */
    static const uint8_t sample[12] = {0x78, 0x56, 0x34, 0x12, 9, 0, 0, 0, 1, 0};
    static const uint8_t sample_head[4] = {0x0f, 0x2e, 2, 1};
    /* SystemConfig PnP v5: class GUID, one upper filter, no lower one, status,
     * problem, five strings ("A" and four empty), the filter "f". */
    static const uint8_t pnp[48] = {[16] = 1, [32] = 'A', [44] = 'f'};
    static const uint8_t pnp_head[4] = {0x0c, 0x16, 5, 0};
    /* SystemConfig NumaNode (32-bit): one node, its GROUP_AFFINITY. */
    static const uint8_t numa[4 + 12] = {1, 0, 0, 0, 0xff, 0xff};
    static const uint8_t numa_head[4] = {0x0c, 0x18, 2, 1};
    /* Process v5 (Defunct): v4's fields, no SID, "p", three empty strings,
     * the creation time. */
    static const uint8_t defunct[56] = {[8] = 42, [40] = 'p', [55] = 0x01};
    static const uint8_t defunct_head[4] = {0x03, 0x27, 5, 0};
    /* FileIo Create v3: IrpPtr, FileObject, TTID, options, attributes,
     * share, OpenPath "/a"; Read v3: offset, IrpPtr, FileObject, FileKey,
     * TTID, IoSize, IoFlags; OperationEnd: IrpPtr, ExtraInfo, NtStatus. */
    static const uint8_t fcreate[38] = {[0] = 1, [8] = 0x40, [16] = 9, [32] = '/', [34] = 'a'};
    static const uint8_t fcreate_head[4] = {0x04, 0x40, 3, 0};
    static const uint8_t fread[44] = {[8] = 2, [16] = 0x40, [24] = 0x80, [32] = 9, [36] = 0x10};
    static const uint8_t fread_head[4] = {0x04, 0x43, 3, 0};
    static const uint8_t fend[20] = {[0] = 2, [8] = 0x10};
    static const uint8_t fend_head[4] = {0x04, 0x4c, 3, 0};
    /* PageFault HardFault v2: InitialTime, ReadOffset, VirtualAddress,
     * FileObject, TThreadId 77, ByteCount 4096; VirtualAlloc v2 (32-bit):
     * BaseAddress, RegionSize, ProcessId, Flags; DemandZeroFault v2. */
    static const uint8_t hard[40] = {
        0x10, 0x27, [8] = 0x10, [17] = 0x10, [24] = 0xA0, [32] = 77, [37] = 0x10};
    static const uint8_t hard_head[4] = {0x02, 0x20, 2, 0};
    static const uint8_t valloc[16] = {[2] = 0x40, [5] = 0x10, [8] = 0xD2, [9] = 0x04, [13] = 0x30};
    static const uint8_t valloc_head[4] = {0x02, 0x62, 2, 1};
    static const uint8_t fault[16] = {[1] = 0x10, [2] = 0x20, [9] = 0x10, [12] = 0x40, [13] = 1};
    static const uint8_t fault_head[4] = {0x02, 0x0b, 2, 0};
    /* TcpIp SendIPV6 v2 (64-bit): PID 9, size 400, daddr, saddr (::1),
     * dport 443, sport 50000, times, seqnum, connid. */
    static const uint8_t tcp6[64] = {
        9, [4] = 0x90, 1, [23] = 1, [39] = 1, [40] = 1, 0xbb, 0xc3, 0x50, [56] = 0x40};
    static const uint8_t tcp6_head[4] = {0x06, 26, 2, 0};
    /* UdpIp Recv v2 (32-bit): PID 9, size 50, 224.0.0.251 from 10.0.0.5,
     * ports 5353, seqnum, connid. */
    static const uint8_t udp32[28] = {9, [4] = 50, [8] = 224, 0,    0,    251,  10,
                                      0, 0,        5,         0x14, 0xe9, 0x14, 0xe9};
    static const uint8_t udp32_head[4] = {0x08, 11, 2, 1};
    /* TcpIp Connect v2 cut to 10 bytes (hostile: shorter than its layout). */
    static const uint8_t connect_cut[10] = {9, [8] = 127};
    static const uint8_t connect_head[4] = {0x06, 12, 2, 0};
    return write_kernel_seed(dir, "kernel-file-create.bin", fcreate_head, fcreate,
                             sizeof(fcreate)) |
           write_kernel_seed(dir, "kernel-file-read.bin", fread_head, fread, sizeof(fread)) |
           write_kernel_seed(dir, "kernel-file-end.bin", fend_head, fend, sizeof(fend)) |
           write_kernel_seed(dir, "kernel-image.bin", image_head, image, sizeof(image)) |
           write_kernel_seed(dir, "kernel-cswitch.bin", cswitch_head, cswitch, sizeof(cswitch)) |
           write_kernel_seed(dir, "kernel-sample.bin", sample_head, sample, sizeof(sample)) |
           write_kernel_seed(dir, "kernel-pnp.bin", pnp_head, pnp, sizeof(pnp)) |
           write_kernel_seed(dir, "kernel-numa32.bin", numa_head, numa, sizeof(numa)) |
           write_kernel_seed(dir, "kernel-defunct.bin", defunct_head, defunct, sizeof(defunct)) |
           write_kernel_seed(dir, "kernel-hardfault.bin", hard_head, hard, sizeof(hard)) |
           write_kernel_seed(dir, "kernel-valloc32.bin", valloc_head, valloc, sizeof(valloc)) |
           write_kernel_seed(dir, "kernel-fault.bin", fault_head, fault, sizeof(fault)) |
           write_kernel_seed(dir, "kernel-tcp6-send.bin", tcp6_head, tcp6, sizeof(tcp6)) |
           write_kernel_seed(dir, "kernel-udp32-recv.bin", udp32_head, udp32, sizeof(udp32)) |
           write_kernel_seed(dir, "kernel-tcp-connect-cut.bin", connect_head, connect_cut,
                             sizeof(connect_cut));
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    make_dir(argv[1]);
    if (FAILED(TraceLoggingRegister(g_seed_tl)))
        return 1;
    int rc = record(argv[1], "plain.etl", 0, 60, 0);
    rc |= record(argv[1], "related.etl", 0, 30, 1);
    rc |= record(argv[1], "checksum.etl", PETW_SESSION_CHECKSUM, 60, 1);
    rc |= record(argv[1], "zstd.etl", PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM, 80, 1);
    rc |= record(argv[1], "empty.etl", 0, 0, 0);
    rc |= record_tl(argv[1], "tl.etl", 0);
    rc |= record_tl(argv[1], "tl-zstd.etl", PETW_SESSION_ZSTD | PETW_SESSION_CHECKSUM);
    rc |= xpress_copy(argv[1], "tl.etl", "xpress-windows.etl");
    TraceLoggingUnregister(g_seed_tl);
    rc |= write_frames(argv[1]);
    rc |= write_pool(argv[1]);
    rc |= write_provider_dir(argv[1]);
    rc |= write_profiles(argv[1]);
    rc |= write_manifest(argv[1]);
    rc |= write_kernel_seeds(argv[1]);
    /* A small PDB (fuzz_pdb): a procedure, nested inline sites, lines,
     * the type and ID streams, a public. */
    {
        static uint8_t pdb[PDB_SYNTH_MAX];
        rc |= write_file(argv[1], "pdb-small.pdb", pdb, pdb_synth_build(pdb));
    }
    /* MSVC-decorated names (fuzz_pdb reads its input as one too): templates,
     * back-references, operators, a vftable, RTTI. */
    {
        static const char *const names[] = {
            "?push_back@?$vector@HV?$allocator@H@std@@@std@@QEAAXAEBH@Z",
            "??$f@V?$v@H@@V1@$0?0PEBD$$QEAH@@YAXXZ",
            "??Y?$Widget@H@ns@@QEAAAEAV01@H@Z",
            "??_7D@@6BB@@@",
            "??_R1A@?0A@EA@Widget@@8",
            "??Bfoo@@QEBA_NXZ",
        };
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            char file[32];
            snprintf(file, sizeof(file), "msvc-name-%zu.txt", i);
            rc |= write_file(argv[1], file, names[i], strlen(names[i]));
        }
    }
    /* The decoder's input: traits length, schema length (11 bits), traits,
     * schema, payload (see fuzz_decoder.c). A struct, an array, strings. */
    {
        static const uint8_t traits[] = {0x08, 0x00, 'p', 'r', 'o', 'v', 0, 0};
        static const uint8_t schema[] = {
            0,   0, 0,           'E', 'v', 0, /* size (patched), no tags, "Ev" */
            'a', 0, 0x18 | 0x80, 2,           /* struct a { */
            'b', 0, 0x02,                     /*   ansi b */
            'c', 0, 0x07 | 0x40,              /*   int32[] c } */
            'd', 0, 0x01,                     /* unicode d */
            'g', 0, 0x0f,                     /* guid g */
        };
        uint8_t buf[256];
        size_t n = 0;
        buf[n++] = sizeof(traits);
        buf[n++] = sizeof(schema);
        buf[n++] = 0;
        memcpy(buf + n, traits, sizeof(traits));
        n += sizeof(traits);
        memcpy(buf + n, schema, sizeof(schema));
        buf[n] = sizeof(schema);
        n += sizeof(schema);
        static const uint8_t payload[] = {'h', 'i', 0,   2, 0,  1,  0,  0,  0,  2,  0,
                                          0,   0,   'x', 0, 0,  0,  1,  2,  3,  4,  5,
                                          6,   7,   8,   9, 10, 11, 12, 13, 14, 15, 16};
        memcpy(buf + n, payload, sizeof(payload));
        n += sizeof(payload);
        char path[1024];
        snprintf(path, sizeof(path), "%s/tl-event.bin", argv[1]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, n, f) != n)
            return 1;
        fclose(f);
    }
    /* The same input with no schema: a ManifestData event (one chunk, the
     * whole manifest of fuzz_decoder.c's EventSource provider), then its
     * event 0 (traits length 0) read from the same payload. */
    {
        static const char xml[] =
            "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
            "<instrumentation><events>"
            "<provider name=\"Fuzz-EventSource\" guid=\"{5e5e5e5e-e5e5-4a4a-8b8b-1c1c2d2d3e3e}\">"
            "<maps><valueMap name=\"K\"><map value=\"0x5b\" message=\"$(string.map_K.M)\"/>"
            "</valueMap></maps><events>"
            "<event value=\"0\" version=\"0\" level=\"win:LogAlways\" symbol=\"Env\" "
            "message=\"$(string.event_Env)\" template=\"EnvArgs\"/></events><templates>"
            "<template tid=\"EnvArgs\"><data name=\"format\" inType=\"win:UInt8\"/>"
            "<data name=\"version\" inType=\"win:UInt16\"/>"
            "<data name=\"magic\" inType=\"win:UInt8\" map=\"K\"/>"
            "<data name=\"chunks\" inType=\"win:UInt32\"/>"
            "<data name=\"rest\" inType=\"win:Binary\"/></template></templates>"
            "</provider></events></instrumentation><localization><resources culture=\"en-US\">"
            "<stringTable><string id=\"event_Env\" value=\"%1 %3\"/>"
            "<string id=\"map_K.M\" value=\"magic\"/></stringTable></resources>"
            "</localization></instrumentationManifest>";
        static uint8_t buf[3 + 8 + sizeof(xml)];
        static const uint8_t head[] = {0, 0, 0, 1, 1, 0, 0x5B, 1, 0, 0, 0};
        memcpy(buf, head, sizeof(head));
        memcpy(buf + sizeof(head), xml, sizeof(xml) - 1);
        char path[1024];
        snprintf(path, sizeof(path), "%s/eventsource-manifest.bin", argv[1]);
        FILE *f = fopen(path, "wb");
        if (!f ||
            fwrite(buf, 1, sizeof(head) + sizeof(xml) - 1, f) != sizeof(head) + sizeof(xml) - 1)
            return 1;
        fclose(f);
    }
    /* A valid XPRESS stream (output size first, as fuzz_xpress.c reads it). */
    {
        static uint8_t text[3000], comp[4000];
        for (size_t i = 0; i < sizeof(text); i++)
            text[i] = (uint8_t)("trace event buffer "[i % 19] + (i / 700));
        size_t c = test_xpress_encode(text, sizeof(text), comp + 2);
        comp[0] = (uint8_t)(sizeof(text) >> 8);
        comp[1] = (uint8_t)sizeof(text);
        char path[1024];
        snprintf(path, sizeof(path), "%s/xpress.bin", argv[1]);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(comp, 1, c + 2, f) != c + 2)
            return 1;
        fclose(f);
    }
    /* A truncated copy of plain.etl. */
    char src[1024], dst[1024];
    snprintf(src, sizeof(src), "%s/plain.etl", argv[1]);
    snprintf(dst, sizeof(dst), "%s/truncated.etl", argv[1]);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    if (!in || !out)
        return 1;
    char buf[6000];
    size_t n = fread(buf, 1, sizeof(buf), in);
    fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
    return rc;
}
