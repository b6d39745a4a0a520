/* Classic kernel records decode by their class's documented layout: the
 * file's EventTrace header (petw's own files, and Windows' powershell.etl
 * when the samples are there), Thread CSwitch, Image Load with 32- and
 * 64-bit pointers. A record shorter than its layout is an error for that
 * event; an opcode or version the table lacks stays raw. */
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

static int decode_classic(petw_decoder *d, const char *cls, uint8_t opcode, uint8_t version,
                          int is32, const void *payload, size_t n, const petw_decoded_event **ev)
{
    petw_event_record r;
    memset(&r, 0, sizeof(r));
    r.header.flags = (uint16_t)(PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER |
                                (is32 ? PETW_EVENT_HEADER_FLAG_32_BIT_HEADER
                                      : PETW_EVENT_HEADER_FLAG_64_BIT_HEADER));
    CHECK_EQ(petw_kernel_class_guid(cls, &r.header.provider_id), 0);
    r.header.descriptor.opcode = opcode;
    r.header.descriptor.version = version;
    r.user_data = (void *)(uintptr_t)payload;
    r.user_data_length = (uint16_t)n;
    return petw_decode(d, &r, ev);
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
    printf("kernel_decode: CSwitch, Image Load (32/64-bit) and EventTrace headers decoded\n");
    return 0;
}
