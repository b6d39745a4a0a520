/* SPDX-License-Identifier: MIT */
/* Classic kernel records decode by their class's documented layout: the
 * file's EventTrace header (petw's own files, and Windows' powershell.etl
 * when the samples are there), Thread CSwitch, Image Load, Process (with a
 * SID and without) and StackWalk (0, 1 and 5 frames) with 32- and 64-bit
 * pointers, and one record each of DiskIo, FileIo, TcpIp (IPv4, and IPv6 with
 * its addresses as text), UdpIp, Registry,
 * PageFault, PerfInfo ISR/DPC, ALPC and SystemConfig. The records Windows 8 to 11
 * add (new_layouts), in both pointer sizes: KernelTraceControl's ImageID events
 * (FileVersion v0, None, DbgID_NB10, DbgPPDB, DbgEmbeddedPPDB), Process v5,
 * Thread SetName, Image KernelBase, PerfInfo's interval and Mark, EventTrace
 * LastDroppedTimes, SystemConfig v3 CPU and IRQ, PnP v5 with filters, NumaNode
 * and ProcessorGroup (pointer-sized masks), SystemConfigEx's network interface.
 * A record shorter than its layout is an error for that event; an opcode or
 * version the table lacks stays raw. */
#include <sys/stat.h>

#include "test_util.h"

static const petw_field *top(const petw_decoded_event *ev, const char *name)
{
    for (uint32_t i = 0; i < ev->top_count; i++)
        if (!strcmp(ev->fields[i].name, name))
            return &ev->fields[i];
    fprintf(stderr, "no field %s\n", name);
    exit(1);
}

static int decode_guid(petw_decoder *d, const petw_guid *provider, uint8_t opcode, uint8_t version,
                       int is32, const void *payload, size_t n, const petw_decoded_event **ev)
{
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                (is32 ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                      : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
    r.header.provider_id = *provider;
    r.header.descriptor.opcode = opcode;
    r.header.descriptor.version = version;
    r.user_data = (void *)(uintptr_t)payload;
    r.user_data_length = (uint16_t)n;
    return petw_decode(d, &r, ev);
}

static int decode_classic(petw_decoder *d, const char *cls, uint8_t opcode, uint8_t version,
                          int is32, const void *payload, size_t n, const petw_decoded_event **ev)
{
    petw_guid g;
    CHECK_EQ(petw_kernel_class_guid(cls, &g), 0);
    return decode_guid(d, &g, opcode, version, is32, payload, n, ev);
}

typedef struct header_seen {
    petw_decoder *d;
    int headers;
    char session[64];
    uint64_t processors, cpu_speed, pointer_size;
} header_seen;

static void on_event(petw_event_record *r, void *ctx)
{
    header_seen *h = ctx;
    const petw_decoded_event *ev;
    const char *cls = petw_kernel_class_name(&r->header.provider_id);
    if (!cls || strcmp(cls, "EventTrace") != 0 || r->header.descriptor.opcode != 0)
        return;
    CHECK_EQ(petw_decode(h->d, r, &ev), 0);
    CHECK(ev->has_schema);
    CHECK_EQ(strcmp(ev->provider_name, "EventTrace"), 0);
    CHECK_EQ(strcmp(ev->event_name, "Header"), 0);
    snprintf(h->session, sizeof(h->session), "%s", top(ev, "SessionNameString")->v.s);
    h->processors = top(ev, "NumberOfProcessors")->v.u;
    h->cpu_speed = top(ev, "CPUSpeed")->v.u;
    h->pointer_size = top(ev, "PointerSize")->v.u;
    CHECK_EQ(top(ev, "StartTime")->kind, PETW_VALUE_FILETIME);
    CHECK(top(ev, "BootTime")->v.i <= top(ev, "StartTime")->v.i);
    h->headers++;
}

static void read_header(const char *path, header_seen *h)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.on_event = on_event;
    c.context = h;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
}

/* A little-endian payload builder. */
typedef struct buf {
    uint8_t b[2048];
    size_t n;
    int ps; /* pointer size */
} buf;

static void put(buf *b, uint64_t v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        b->b[b->n++] = (uint8_t)(v >> (8 * k));
}
static void put_ptr(buf *b, uint64_t v)
{
    put(b, v, (size_t)b->ps);
}
static void put_ansi(buf *b, const char *s)
{
    memcpy(b->b + b->n, s, strlen(s) + 1);
    b->n += strlen(s) + 1;
}
static void put_wide(buf *b, const char *s)
{
    for (size_t k = 0; k <= strlen(s); k++)
        put(b, (uint8_t)s[k], 2);
}
/* A TOKEN_USER and SID S-1-5-21-1-2-3-1001. */
static void put_sid(buf *b)
{
    put_ptr(b, 0x1234), put_ptr(b, 0); /* the SID pointer, attributes padded */
    put(b, 1, 1), put(b, 5, 1);        /* revision, 5 sub-authorities */
    put(b, 0, 5), put(b, 5, 1);        /* authority 5 (big-endian, 6 bytes) */
    put(b, 21, 4), put(b, 1, 4), put(b, 2, 4), put(b, 3, 4), put(b, 1001, 4);
}

static int str_is(const petw_field *f, const char *s)
{
    return f->kind == PETW_VALUE_STRING && !strcmp(f->v.s, s);
}

static void put_guid(buf *b, uint32_t first)
{
    put(b, first, 4), put(b, 0x0506, 2), put(b, 0x0708, 2);
    for (int k = 9; k <= 16; k++)
        put(b, (uint64_t)k, 1);
}

/* Element k of an array field. */
static const petw_field *element(const petw_decoded_event *ev, const petw_field *f, uint32_t k)
{
    CHECK_EQ(f->kind, PETW_VALUE_ARRAY);
    CHECK(k < f->count);
    return &ev->fields[f->first + k];
}

/* The records Windows 8 to 11 write that the first table lacked, with 64-bit
 * (ps 8) and 32-bit (ps 4) pointers. */
static void new_layouts(petw_decoder *d, int ps)
{
    static const petw_guid ktc = {
        0xb3e675d7, 0x2554, 0x4f18, {0x83, 0x0b, 0x27, 0x62, 0x73, 0x25, 0x60, 0xde}};
    static const petw_guid config_ex = {
        0x9b79ee91, 0xb5fd, 0x41c0, {0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0}};
    const int is32 = ps == 4;
    const uint64_t base = is32 ? 0x77000000u : 0x7ffb10000000u;
    const petw_decoded_event *ev;

    /* KernelTraceControl FileVersion, version 0 as Windows 8 writes it. */
    buf b = {.ps = ps};
    put(&b, 0x157000, 4), put(&b, 0x5010ae7a, 4);
    const char *const fv[] = {"ntdll.dll",
                              "NT Layer DLL",
                              "6.2.9200.16384 (win8_rtm.120725-1247)",
                              "6.2.9200.16384",
                              "1033",
                              "Windows",
                              "Microsoft Corporation",
                              "6.2.9200.16384",
                              "",
                              ""};
    for (size_t k = 0; k < sizeof(fv) / sizeof(fv[0]); k++)
        put_wide(&b, fv[k]);
    CHECK_EQ(decode_guid(d, &ktc, 64, 0, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "FileVersion"), 0);
    CHECK(str_is(top(ev, "BinFileVersion"), "6.2.9200.16384"));
    CHECK(str_is(top(ev, "CompanyName"), "Microsoft Corporation"));
    CHECK_EQ(top(ev, "ImageSize")->v.u, 0x157000);

    /* None and DbgDeterm: the image base and the process. */
    b = (buf){.ps = ps};
    put_ptr(&b, base), put(&b, 1234, 4);
    CHECK_EQ(b.n, (size_t)ps + 4);
    CHECK_EQ(decode_guid(d, &ktc, 32, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "None"), 0);
    CHECK_EQ(top(ev, "ImageBase")->v.u, base);
    CHECK_EQ(top(ev, "ProcessId")->v.u, 1234);
    CHECK_EQ(decode_guid(d, &ktc, 40, 1, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "DbgDeterm"), 0);
    CHECK_EQ(decode_guid(d, &ktc, 40, 1, is32, b.b, b.n - 1, &ev), PETW_ECORRUPT);

    /* DbgID_NB10: checksum, timestamp and size, then the .dbg file. */
    b = (buf){.ps = ps};
    put_ptr(&b, 0x400000), put(&b, 19500, 4), put(&b, 0x612365, 4), put(&b, 0x681d64c5, 4);
    put(&b, 0x60d000, 4), put_wide(&b, "app.dbg");
    CHECK_EQ(decode_guid(d, &ktc, 34, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "DbgID_NB10"), 0);
    CHECK_EQ(top(ev, "ImageCheckSum")->v.u, 0x612365);
    CHECK_EQ(top(ev, "TimeDateStamp")->v.u, 0x681d64c5);
    CHECK_EQ(top(ev, "ImageSize")->v.u, 0x60d000);
    CHECK(str_is(top(ev, "DbgFileName"), "app.dbg"));

    /* DbgPPDB (a portable PDB's version pair) and DbgEmbeddedPPDB. */
    b = (buf){.ps = ps};
    put_ptr(&b, base), put(&b, 2140, 4), put(&b, 0x88a5a835, 4), put(&b, 0x100, 2);
    put(&b, 0x504d, 2);
    CHECK_EQ(b.n, (size_t)ps + 12);
    CHECK_EQ(decode_guid(d, &ktc, 38, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "DbgPPDB"), 0);
    CHECK_EQ(top(ev, "MinorVersion")->v.u, 0x504d);
    b = (buf){.ps = ps};
    put_ptr(&b, base), put(&b, 15044, 4), put(&b, 0x100, 2), put(&b, 0x100, 2);
    put_guid(&b, 0x35d73f44), put(&b, 1, 4);
    CHECK_EQ(decode_guid(d, &ktc, 39, 1, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "DbgEmbeddedPPDB"), 0);
    CHECK_EQ(top(ev, "GuidSig")->v.guid.data1, 0x35d73f44);
    CHECK_EQ(top(ev, "Age")->v.u, 1);

    /* Process v5 (Defunct): v4's fields, then the creation time. */
    b = (buf){.ps = ps};
    put_ptr(&b, 0xffffa804e2a3b080), put(&b, 4384, 4), put(&b, 1840, 4), put(&b, 0, 4);
    put(&b, 0, 4), put_ptr(&b, 0x40f4ed000), put(&b, 0, 4), put_sid(&b);
    put_ansi(&b, "MpCmdRun.exe"), put_wide(&b, ""), put_wide(&b, ""), put_wide(&b, "");
    put(&b, 0x01d68ae675a14d5full, 8);
    CHECK_EQ(decode_classic(d, "Process", 39, 5, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "Defunct"), 0);
    CHECK_EQ(top(ev, "ProcessId")->v.u, 4384);
    CHECK(str_is(top(ev, "UserSID"), "S-1-5-21-1-2-3-1001"));
    CHECK(str_is(top(ev, "ImageFileName"), "MpCmdRun.exe"));
    CHECK_EQ(top(ev, "CreateTime")->kind, PETW_VALUE_FILETIME);
    CHECK_EQ(top(ev, "CreateTime")->v.i, 0x01d68ae675a14d5f);
    CHECK_EQ(decode_classic(d, "Process", 39, 5, is32, b.b, b.n - 1, &ev), PETW_ECORRUPT);

    /* Thread SetName; Image KernelBase; PerfInfo CollectionStart v3 and Mark. */
    b = (buf){.ps = ps};
    put(&b, 4, 4), put(&b, 19712, 4), put_wide(&b, "WPR rundown");
    CHECK_EQ(decode_classic(d, "Thread", 72, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "SetName"), 0);
    CHECK(str_is(top(ev, "ThreadName"), "WPR rundown"));
    b = (buf){.ps = ps};
    put_ptr(&b, is32 ? 0x82000000u : 0xfffff80021489000u);
    CHECK_EQ(decode_classic(d, "Image", 33, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "KernelBase"), 0);
    CHECK_EQ(top(ev, "ImageBase")->v.u, is32 ? 0x82000000u : 0xfffff80021489000u);
    b = (buf){.ps = ps};
    put(&b, 0, 4), put(&b, 10000, 4), put(&b, 10000, 4), put_wide(&b, "Timer");
    CHECK_EQ(decode_classic(d, "PerfInfo", 73, 3, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "CollectionStart"), 0);
    CHECK(str_is(top(ev, "SourceName"), "Timer"));
    b = (buf){.ps = ps};
    put_ansi(&b, "Wpr_Initiated_Rundown");
    CHECK_EQ(decode_classic(d, "PerfInfo", 34, 0, is32, b.b, b.n, &ev), 0);
    CHECK(str_is(top(ev, "Message"), "Wpr_Initiated_Rundown"));

    /* EventTrace LastDroppedTimes: a count, padding, the times. */
    b = (buf){.ps = ps};
    put(&b, 2, 4), put(&b, 0, 4), put(&b, 111, 8), put(&b, 222, 8);
    CHECK_EQ(decode_classic(d, "EventTrace", 82, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(element(ev, top(ev, "TimeStamp"), 1)->v.u, 222);

    /* SystemConfig CPU v3: v2's fields, then the highest user address to the
     * memory speed (828 bytes with 64-bit pointers, 820 with 32-bit). */
    b = (buf){.ps = ps};
    put(&b, 3494, 4), put(&b, 20, 4), put(&b, 65349, 4), put(&b, 4096, 4), put(&b, 65536, 4);
    memset(b.b + b.n, 0, 780);
    size_t at = b.n;
    put_wide(&b, "MAGNON"), b.n = at + 512 + 268;
    put_ptr(&b, 0xfff), put_ptr(&b, is32 ? 0x7ffeffff : 0x7ffffffeffff);
    put(&b, 9, 2), put(&b, 6, 2), put(&b, 0xb701, 2), put(&b, 1, 1), put(&b, 1, 1);
    put(&b, 2666, 4);
    CHECK_EQ(b.n, is32 ? 820u : 828u);
    CHECK_EQ(decode_classic(d, "SystemConfig", 10, 3, is32, b.b, b.n, &ev), 0);
    CHECK(str_is(top(ev, "ComputerName"), "MAGNON"));
    CHECK_EQ(top(ev, "HighestUserAddress")->v.u, is32 ? 0x7ffeffffu : 0x7ffffffeffffu);
    CHECK_EQ(top(ev, "MemorySpeed")->v.u, 2666);
    CHECK_EQ(decode_classic(d, "SystemConfig", 10, 3, is32, b.b, b.n - 1, &ev), PETW_ECORRUPT);

    /* IRQ v3 (a group before the number); PnP v5 with one upper and two
     * lower filters. */
    b = (buf){.ps = ps};
    put(&b, 0xffffffff, 8), put(&b, 0, 2), put(&b, 0, 2), put(&b, 10, 4), put(&b, 5, 4);
    put_wide(&b, "ACPI");
    CHECK_EQ(decode_classic(d, "SystemConfig", 21, 3, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(top(ev, "IRQNum")->v.u, 10);
    b = (buf){.ps = ps};
    put_guid(&b, 0x4d36e978), put(&b, 1, 4), put(&b, 2, 4), put(&b, 0x180600a, 4), put(&b, 0, 4);
    put_wide(&b, "ACPI\\PNP0501\\1"), put_wide(&b, "Communications Port");
    put_wide(&b, "COM1"), put_wide(&b, "\\Device\\00000042"), put_wide(&b, "Serial");
    put_wide(&b, "serenum"), put_wide(&b, "lower1"), put_wide(&b, "lower2");
    CHECK_EQ(decode_classic(d, "SystemConfig", 22, 5, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "PnP"), 0);
    CHECK(str_is(top(ev, "ServiceName"), "Serial"));
    CHECK(str_is(element(ev, top(ev, "UpperFilters"), 0), "serenum"));
    CHECK(str_is(element(ev, top(ev, "LowerFilters"), 1), "lower2"));
    CHECK_EQ(decode_classic(d, "SystemConfig", 22, 5, is32, b.b, b.n - 14, &ev), PETW_ECORRUPT);

    /* NumaNode: a GROUP_AFFINITY per node (16 bytes, 12 with 32-bit
     * pointers); ProcessorGroup: a pointer-sized mask per group. */
    b = (buf){.ps = ps};
    put(&b, 2, 4), put_ptr(&b, 0xff), put(&b, 0, 2), put(&b, 0, 6), put_ptr(&b, 0xff00);
    put(&b, 1, 2), put(&b, 0, 6);
    CHECK_EQ(b.n, 4u + 2 * ((size_t)ps + 8));
    CHECK_EQ(decode_classic(d, "SystemConfig", 24, 2, is32, b.b, b.n, &ev), 0);
    const petw_field *node = element(ev, top(ev, "NodeMap"), 1);
    CHECK_EQ(ev->fields[node->first].v.u, 0xff00); /* Mask */
    CHECK_EQ(ev->fields[node->first + 1].v.u, 1);  /* Group */
    b = (buf){.ps = ps};
    put(&b, 1, 4), put_ptr(&b, 0xfffff);
    CHECK_EQ(decode_classic(d, "SystemConfig", 26, 2, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(element(ev, top(ev, "Affinity"), 0)->v.u, 0xfffff);

    /* SystemConfigEx 36: a MIB_IF_ROW2 (1352 bytes, no pointers). */
    b = (buf){.ps = ps};
    memset(b.b, 0, 1352);
    put(&b, 0x0006000001000000, 8), put(&b, 24, 4), put_guid(&b, 0xf1f0fa3f);
    at = b.n;
    put_wide(&b, "vEthernet"), b.n = at + 514;
    put_wide(&b, "Hyper-V Virtual Ethernet Adapter"), b.n = at + 1028;
    put(&b, 6, 4), put(&b, 0x005d1500, 4), b.n += 60; /* the addresses */
    put(&b, 1500, 4), put(&b, 6, 4), b.n = 1192;
    put(&b, 10000000000, 8), b.n = 1352;
    CHECK_EQ(decode_guid(d, &config_ex, 36, 0, is32, b.b, b.n, &ev), 0);
    CHECK_EQ(strcmp(ev->event_name, "NetworkInterface"), 0);
    CHECK(str_is(top(ev, "Alias"), "vEthernet"));
    CHECK_EQ(top(ev, "Mtu")->v.u, 1500);
    CHECK_EQ(top(ev, "TransmitLinkSpeed")->v.u, 10000000000);
    CHECK_EQ(top(ev, "OutQLen")->data_offset, 1344);
}

int main(void)
{
    petw_decoder *d;
    const petw_decoded_event *ev;
    CHECK_EQ(petw_decoder_new(&d), 0);

    /* CSwitch v2: 24 bytes. */
    uint8_t cs[24] = {0};
    uint32_t new_tid = 4242, old_tid = 17, wait = 99;
    memcpy(cs, &new_tid, 4);
    memcpy(cs + 4, &old_tid, 4);
    cs[8] = 15;          /* NewThreadPriority */
    cs[9] = (uint8_t)-2; /* OldThreadPriority */
    cs[12] = 6;          /* OldThreadWaitReason */
    memcpy(cs + 16, &wait, 4);
    CHECK_EQ(decode_classic(d, "Thread", 36, 2, 0, cs, sizeof(cs), &ev), 0);
    CHECK_EQ(strcmp(ev->provider_name, "Thread"), 0);
    CHECK_EQ(strcmp(ev->event_name, "CSwitch"), 0);
    CHECK_EQ(ev->top_count, 12);
    CHECK_EQ(top(ev, "NewThreadId")->v.u, 4242);
    CHECK_EQ(top(ev, "OldThreadId")->v.u, 17);
    CHECK_EQ(top(ev, "OldThreadPriority")->v.i, -2);
    CHECK_EQ(top(ev, "OldThreadWaitReason")->v.i, 6);
    CHECK_EQ(top(ev, "NewThreadWaitTime")->v.u, 99);
    CHECK_EQ(decode_classic(d, "Thread", 36, 2, 0, cs, 23, &ev), PETW_ECORRUPT);
    /* An opcode the table lacks: raw bytes. */
    CHECK_EQ(decode_classic(d, "Thread", 99, 2, 0, cs, sizeof(cs), &ev), 0);
    CHECK(!ev->has_schema);

    /* Image Load v3, 64- and 32-bit pointers: the file name follows. */
    for (int is32 = 0; is32 <= 1; is32++) {
        uint8_t img[256];
        size_t ps = is32 ? 4 : 8, n = 0;
        uint64_t base = is32 ? 0x400000u : 0x7ff612340000ull, size = 0x5000;
        uint32_t pid = 1234, zero = 0;
        memcpy(img + n, &base, ps), n += ps;
        memcpy(img + n, &size, ps), n += ps;
        memcpy(img + n, &pid, 4), n += 4;
        memcpy(img + n, &zero, 4), n += 4;   /* ImageCheckSum */
        memcpy(img + n, &zero, 4), n += 4;   /* TimeDateStamp */
        img[n++] = 12;                       /* SignatureLevel */
        img[n++] = 1;                        /* SignatureType */
        memcpy(img + n, &zero, 2), n += 2;   /* Reserved0 */
        memcpy(img + n, &base, ps), n += ps; /* DefaultBase */
        for (int k = 0; k < 4; k++)
            memcpy(img + n, &zero, 4), n += 4; /* Reserved1..4 */
        const char *name = "\\Windows\\a.dll";
        for (size_t k = 0; k <= strlen(name); k++)
            img[n++] = (uint8_t)name[k], img[n++] = 0;
        CHECK_EQ(decode_classic(d, "Image", 10, 3, is32, img, n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Load"), 0);
        CHECK_EQ(top(ev, "ImageBase")->v.u, base);
        CHECK_EQ(top(ev, "ProcessId")->v.u, 1234);
        CHECK_EQ(top(ev, "SignatureLevel")->v.u, 12);
        CHECK_EQ(strcmp(top(ev, "FileName")->v.s, name), 0);
    }

    /* Process v4 (Start), 64- and 32-bit, with a SID; v2 with none. */
    for (int is32 = 0; is32 <= 1; is32++) {
        buf b = {.ps = is32 ? 4 : 8};
        put_ptr(&b, 0xffffa00012345678ull); /* UniqueProcessKey */
        put(&b, 4321, 4), put(&b, 17, 4), put(&b, 1, 4), put(&b, 259, 4);
        put_ptr(&b, 0x1aa000); /* DirectoryTableBase */
        put(&b, 0x2, 4);       /* Flags */
        put_sid(&b);
        put_ansi(&b, "notepad.exe");
        put_wide(&b, "notepad.exe a.txt");
        put_wide(&b, "");
        put_wide(&b, "App");
        CHECK_EQ(decode_classic(d, "Process", 1, 4, is32, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Start"), 0);
        CHECK_EQ(ev->top_count, 12);
        CHECK_EQ(top(ev, "UniqueProcessKey")->v.u, is32 ? 0x12345678u : 0xffffa00012345678ull);
        CHECK_EQ(top(ev, "ProcessId")->v.u, 4321);
        CHECK_EQ(top(ev, "ParentId")->v.u, 17);
        CHECK_EQ(top(ev, "ExitStatus")->v.i, 259);
        CHECK_EQ(top(ev, "DirectoryTableBase")->v.u, 0x1aa000);
        CHECK(str_is(top(ev, "UserSID"), "S-1-5-21-1-2-3-1001"));
        CHECK_EQ(top(ev, "UserSID")->in_type, PETW_IN_SID);
        CHECK_EQ(top(ev, "UserSID")->data_size, 2u * b.ps + 28);
        CHECK(str_is(top(ev, "ImageFileName"), "notepad.exe"));
        CHECK(str_is(top(ev, "CommandLine"), "notepad.exe a.txt"));
        CHECK(str_is(top(ev, "PackageFullName"), ""));
        CHECK(str_is(top(ev, "ApplicationId"), "App"));
        /* Cut inside the SID, or inside its TOKEN_USER: an error. */
        CHECK_EQ(
            decode_classic(d, "Process", 1, 4, is32, b.b, (size_t)b.ps + 24 + 2 * b.ps + 10, &ev),
            PETW_ECORRUPT);
        CHECK_EQ(decode_classic(d, "Process", 1, 4, is32, b.b, (size_t)b.ps + 24 + 6, &ev),
                 PETW_ECORRUPT);

        buf c = {.ps = b.ps};
        put_ptr(&c, 0x10), put(&c, 8, 4), put(&c, 0, 4), put(&c, 0, 4), put(&c, 0, 4);
        put(&c, 0, 4); /* no SID */
        put_ansi(&c, "System");
        put_wide(&c, "");
        CHECK_EQ(decode_classic(d, "Process", 3, 2, is32, c.b, c.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "DCStart"), 0);
        CHECK_EQ(top(ev, "UserSID")->kind, PETW_VALUE_NONE);
        CHECK_EQ(top(ev, "UserSID")->data_size, 4);
        CHECK(str_is(top(ev, "ImageFileName"), "System"));
        CHECK_EQ(decode_classic(d, "Process", 3, 2, is32, c.b, c.n - 1, &ev), PETW_ECORRUPT);
    }

    /* StackWalk: 0, 1 and 5 frames, both pointer sizes; a torn last frame
     * is not one. */
    for (int is32 = 0; is32 <= 1; is32++)
        for (uint32_t frames = 0; frames <= 5; frames += frames ? 4 : 1) {
            buf b = {.ps = is32 ? 4 : 8};
            put(&b, 123456789012ull, 8), put(&b, 4, 4), put(&b, 88, 4);
            for (uint32_t k = 0; k < frames; k++)
                put_ptr(&b, (is32 ? 0x401000u : 0xfffff80000001000ull) + k);
            put(&b, 0xAB, 1);
            CHECK_EQ(decode_classic(d, "StackWalk", 32, 2, is32, b.b, b.n, &ev), 0);
            CHECK_EQ(strcmp(ev->event_name, "Stack"), 0);
            CHECK_EQ(top(ev, "EventTimeStamp")->v.u, 123456789012ull);
            CHECK_EQ(top(ev, "StackProcess")->v.u, 4);
            CHECK_EQ(top(ev, "StackThread")->v.u, 88);
            const petw_field *st = top(ev, "Stack");
            CHECK_EQ(st->kind, PETW_VALUE_ARRAY);
            CHECK_EQ(st->count, frames);
            for (uint32_t k = 0; k < frames; k++)
                CHECK_EQ(ev->fields[st->first + k].v.u,
                         (is32 ? 0x401000u : 0xfffff80000001000ull) + k);
            CHECK_EQ(decode_classic(d, "StackWalk", 32, 2, is32, b.b, 15, &ev), PETW_ECORRUPT);
        }

    /* DiskIo v3 Read, 64-bit. */
    {
        buf b = {.ps = 8};
        put(&b, 1, 4), put(&b, 0x60043, 4), put(&b, 4096, 4), put(&b, 0, 4);
        put(&b, 0x100000, 8), put_ptr(&b, 0xffffc001), put_ptr(&b, 0xffffc002);
        put(&b, 5000, 8), put(&b, 77, 4);
        CHECK_EQ(decode_classic(d, "DiskIo", 10, 3, 0, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Read"), 0);
        CHECK_EQ(top(ev, "TransferSize")->v.u, 4096);
        CHECK_EQ(top(ev, "ByteOffset")->v.i, 0x100000);
        CHECK_EQ(top(ev, "Irp")->v.u, 0xffffc002);
        CHECK_EQ(top(ev, "IssuingThreadId")->v.u, 77);
        CHECK_EQ(decode_classic(d, "DiskIo", 10, 3, 0, b.b, b.n - 1, &ev), PETW_ECORRUPT);
    }

    /* FileIo v3 Create (32-bit) and v2 Read (64-bit). */
    {
        buf b = {.ps = 4};
        put_ptr(&b, 0x8001), put_ptr(&b, 0x8002), put(&b, 99, 4);
        put(&b, 0x1000060, 4), put(&b, 0x80, 4), put(&b, 3, 4);
        put_wide(&b, "\\Device\\HarddiskVolume2\\x.txt");
        CHECK_EQ(decode_classic(d, "FileIo", 64, 3, 1, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Create"), 0);
        CHECK_EQ(top(ev, "FileObject")->v.u, 0x8002);
        CHECK_EQ(top(ev, "TTID")->v.u, 99);
        CHECK(str_is(top(ev, "OpenPath"), "\\Device\\HarddiskVolume2\\x.txt"));

        buf c = {.ps = 8};
        put(&c, 512, 8), put_ptr(&c, 1), put_ptr(&c, 42), put_ptr(&c, 3), put_ptr(&c, 4);
        put(&c, 100, 4), put(&c, 0, 4);
        CHECK_EQ(decode_classic(d, "FileIo", 67, 2, 0, c.b, c.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Read"), 0);
        CHECK_EQ(top(ev, "TTID")->v.u, 42);
        CHECK_EQ(top(ev, "FileKey")->v.u, 4);
        CHECK_EQ(top(ev, "IoSize")->v.u, 100);
    }

    /* TcpIp v2 Send (IPv4, ports in network order), UdpIp v2 Recv. */
    {
        buf b = {.ps = 8};
        put(&b, 600, 4), put(&b, 1460, 4);
        const uint8_t da[4] = {10, 0, 0, 1}, sa[4] = {192, 168, 1, 2};
        memcpy(b.b + b.n, da, 4), b.n += 4;
        memcpy(b.b + b.n, sa, 4), b.n += 4;
        put(&b, 0xBB01, 2), put(&b, 0x3930, 2); /* 443, 12345 */
        put(&b, 1, 4), put(&b, 2, 4), put(&b, 3, 4), put_ptr(&b, 0xc0);
        CHECK_EQ(decode_classic(d, "TcpIp", 10, 2, 0, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Send"), 0);
        CHECK(str_is(top(ev, "daddr"), "10.0.0.1"));
        CHECK(str_is(top(ev, "saddr"), "192.168.1.2"));
        CHECK_EQ(top(ev, "dport")->v.u, 443);
        CHECK_EQ(top(ev, "sport")->v.u, 12345);
        CHECK_EQ(top(ev, "connid")->v.u, 0xc0);
        buf u = {.ps = 4};
        put(&u, 600, 4), put(&u, 53, 4);
        memcpy(u.b + u.n, sa, 4), u.n += 4;
        memcpy(u.b + u.n, da, 4), u.n += 4;
        put(&u, 0x3500, 2), put(&u, 0x3930, 2), put(&u, 0, 4), put_ptr(&u, 0);
        CHECK_EQ(decode_classic(d, "UdpIp", 11, 2, 1, u.b, u.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Recv"), 0);
        CHECK_EQ(top(ev, "dport")->v.u, 53);
        CHECK(str_is(top(ev, "daddr"), "192.168.1.2"));
        /* SendIPV6: the addresses as text, as Windows writes them. */
        buf v = {.ps = 8};
        put(&v, 600, 4), put(&v, 1460, 4);
        const uint8_t d6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};
        const uint8_t s6[16] = {[10] = 0xff, 0xff, 10, 0, 0, 2};
        memcpy(v.b + v.n, d6, 16), v.n += 16;
        memcpy(v.b + v.n, s6, 16), v.n += 16;
        put(&v, 0xBB01, 2), put(&v, 0x3930, 2);
        put(&v, 1, 4), put(&v, 2, 4), put(&v, 3, 4), put_ptr(&v, 0xc0);
        CHECK_EQ(decode_classic(d, "TcpIp", 26, 2, 0, v.b, v.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "SendIPV6"), 0);
        CHECK(str_is(top(ev, "daddr"), "2001:db8::1"));
        CHECK(str_is(top(ev, "saddr"), "::ffff:10.0.0.2"));
        CHECK_EQ(top(ev, "dport")->v.u, 443);
        CHECK_EQ(top(ev, "connid")->v.u, 0xc0);
    }

    /* Registry v2 Open, PageFault v2 HardFault, PerfInfo ISR and DPC, ALPC. */
    {
        buf b = {.ps = 8};
        put(&b, 1000, 8), put(&b, 0xC0000034u, 4), put(&b, 0, 4), put_ptr(&b, 0xffff1);
        put_wide(&b, "\\Registry\\Machine\\Software");
        CHECK_EQ(decode_classic(d, "Registry", 11, 2, 0, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "Open"), 0);
        CHECK_EQ(top(ev, "Status")->v.u, 0xC0000034u);
        CHECK(str_is(top(ev, "KeyName"), "\\Registry\\Machine\\Software"));

        buf h = {.ps = 4};
        put(&h, 5, 8), put(&h, 8192, 8), put_ptr(&h, 0x7000), put_ptr(&h, 0x9000);
        put(&h, 31, 4), put(&h, 4096, 4);
        CHECK_EQ(decode_classic(d, "PageFault", 32, 2, 1, h.b, h.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "HardFault"), 0);
        CHECK_EQ(top(ev, "FileObject")->v.u, 0x9000);
        CHECK_EQ(top(ev, "ByteCount")->v.u, 4096);
        buf f = {.ps = 8};
        put_ptr(&f, 0x7ff0001000ull), put_ptr(&f, 0x7ff0002000ull);
        CHECK_EQ(decode_classic(d, "PageFault", 11, 2, 0, f.b, f.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "DemandZeroFault"), 0);
        CHECK_EQ(top(ev, "ProgramCounter")->v.u, 0x7ff0002000ull);

        buf i = {.ps = 8};
        put(&i, 777, 8), put_ptr(&i, 0xfffff80012345678ull), put(&i, 1, 1), put(&i, 0x91, 2);
        put(&i, 0, 1);
        CHECK_EQ(decode_classic(d, "PerfInfo", 67, 2, 0, i.b, i.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "ISR"), 0);
        CHECK_EQ(top(ev, "Routine")->v.u, 0xfffff80012345678ull);
        CHECK_EQ(top(ev, "Vector")->v.u, 0x91);
        CHECK_EQ(decode_classic(d, "PerfInfo", 68, 2, 0, i.b, 16, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "DPC"), 0);
        CHECK_EQ(top(ev, "InitialTime")->v.u, 777);

        buf a = {.ps = 8};
        put(&a, 1, 4), put_ansi(&a, "\\RPC Control\\lsasspirpc");
        CHECK_EQ(decode_classic(d, "ALPC", 36, 2, 0, a.b, a.n, &ev), 0);
        CHECK(str_is(top(ev, "PortName"), "\\RPC Control\\lsasspirpc"));
        CHECK_EQ(decode_classic(d, "ALPC", 33, 2, 0, a.b, 4, &ev), 0);
        CHECK_EQ(top(ev, "MessageID")->v.u, 1);
        CHECK_EQ(decode_classic(d, "ALPC", 33, 2, 0, a.b, 3, &ev), PETW_ECORRUPT);
    }

    /* SystemConfig v2: LogDisk (fixed-size strings), IRQ, CPU. */
    {
        buf b = {.ps = 8};
        put(&b, 1048576, 8), put(&b, 1ull << 37, 8), put(&b, 0, 4), put(&b, 112, 4);
        put(&b, 3, 4);
        size_t at = b.n;
        put_wide(&b, "C:"), b.n = at + 8, put(&b, 0, 4); /* DriveLetterString[4], Pad1 */
        put(&b, 2, 4), put(&b, 8, 4), put(&b, 512, 4), put(&b, 0, 4);
        put(&b, 1000, 8), put(&b, 2000, 8);
        at = b.n;
        memset(b.b + at, 0, 32);
        put_wide(&b, "NTFS"), b.n = at + 32;
        put(&b, 0, 4), put(&b, 0, 4);
        CHECK_EQ(b.n, 112);
        CHECK_EQ(decode_classic(d, "SystemConfig", 12, 2, 0, b.b, b.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "LogDisk"), 0);
        CHECK(str_is(top(ev, "DriveLetterString"), "C:"));
        CHECK(str_is(top(ev, "FileSystem"), "NTFS"));
        CHECK_EQ(top(ev, "TotalNumberOfClusters")->v.i, 2000);
        CHECK_EQ(decode_classic(d, "SystemConfig", 12, 2, 0, b.b, 111, &ev), PETW_ECORRUPT);
        buf q = {.ps = 8};
        put(&q, 0xF, 8), put(&q, 9, 4), put(&q, 4, 4), put_wide(&q, "ACPI");
        CHECK_EQ(decode_classic(d, "SystemConfig", 21, 2, 0, q.b, q.n, &ev), 0);
        CHECK_EQ(top(ev, "IRQNum")->v.u, 9);
        CHECK(str_is(top(ev, "DeviceDescription"), "ACPI"));
        /* CPU: ComputerName[256] at 20, DomainName[134] at 532, then the
         * pointer-sized HyperThreadingFlag (808 bytes, TraceEvent's). */
        buf c = {.ps = 8};
        put(&c, 2400, 4), put(&c, 8, 4), put(&c, 16384, 4), put(&c, 4096, 4), put(&c, 65536, 4);
        memset(c.b + c.n, 0, 780);
        at = c.n;
        put_wide(&c, "BUILDHOST"), c.n = at + 512;
        put_wide(&c, "CORP"), c.n = at + 512 + 268;
        put_ptr(&c, 0xF0);
        CHECK_EQ(c.n, 808);
        CHECK_EQ(decode_classic(d, "SystemConfig", 10, 2, 0, c.b, c.n, &ev), 0);
        CHECK_EQ(strcmp(ev->event_name, "CPU"), 0);
        CHECK_EQ(top(ev, "NumberOfProcessors")->v.u, 8);
        CHECK_EQ(top(ev, "MemSize")->v.u, 16384);
        CHECK(str_is(top(ev, "ComputerName"), "BUILDHOST"));
        CHECK(str_is(top(ev, "DomainName"), "CORP"));
        CHECK_EQ(top(ev, "HyperThreadingFlag")->v.u, 0xF0);
        CHECK_EQ(decode_classic(d, "SystemConfig", 10, 2, 0, c.b, 807, &ev), PETW_ECORRUPT);
    }

    new_layouts(d, 8);
    new_layouts(d, 4);

    /* The header of a file petw writes. */
    char path[512];
    test_path(path, sizeof(path), "kernel-decode.etl");
    test_props tp;
    test_props_init(&tp, path);
    TRACEHANDLE h = 0;
    CHECK_EQ(StartTraceA(&h, "petw kernel decode", &tp.p), ERROR_SUCCESS);
    CHECK_EQ(ControlTraceA(h, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    static header_seen hs;
    hs.d = d;
    read_header(path, &hs);
    remove(path);
    CHECK_EQ(hs.headers, 1);
    CHECK_EQ(strcmp(hs.session, "petw kernel decode"), 0);
    CHECK(hs.processors > 0 && hs.cpu_speed > 0);
    CHECK_EQ(hs.pointer_size, sizeof(void *));

    /* Windows' header, when the samples are there. */
    const char *dir = getenv("PETW_ETL_SAMPLES");
    struct stat st;
    if (dir && stat(dir, &st) == 0) {
        snprintf(path, sizeof(path), "%s/powershell.etl", dir);
        memset(&hs, 0, sizeof(hs));
        hs.d = d;
        read_header(path, &hs);
        CHECK_EQ(hs.headers, 1);
        CHECK_EQ(strcmp(hs.session, "usermode_trace"), 0);
        CHECK_EQ(hs.processors, 32);
        CHECK_EQ(hs.cpu_speed, 3400);
        CHECK_EQ(hs.pointer_size, 8);
    }
    petw_decoder_free(d);
    printf("kernel_decode: kernel classes (32/64-bit) and EventTrace headers decoded\n");
    return 0;
}
