/* SPDX-License-Identifier: MIT */
/* Every record header kind Windows writes, in hand-built files (none of the
 * samples has them all): SYSTEM32 with a PEBS index and PMC counters,
 * PERFINFO64, COMPACT64, classic FULL_HEADER32 and INSTANCE64, EVENT_HEADER32
 * with an extended item, and WPP messages with optional fields; delivered
 * with ETW's flags, the kernel event classes' provider GUIDs, and user data
 * that starts after every header extension. The same records are read from
 * a file with a 32-bit-pointer logfile header too. */
#include "../../lib/base/classes/kernel_class.h"
#include "../../lib/base/format/etl.h"
#include "test_util.h"

#define BUF 4096

static const petw_guid process_guid = {
    0x3d6fa8d0, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const petw_guid perfinfo_guid = {
    0xce1dbfb4, 0x137e, 0x4da6, {0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}};
static const petw_guid thread_guid = {
    0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
static const petw_guid classic_guid = {0xc1a5c1a5, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
static const petw_guid wpp_guid = {0x3b3b3b3b, 1, 2, {3, 4, 5, 6, 7, 8, 9, 11}};

static uint32_t put_record(uint8_t *b, uint32_t at, const uint8_t *rec, uint32_t size)
{
    memcpy(b + at, rec, size);
    memset(b + at + size, 0, PETW__ALIGN8(size) - size);
    return at + PETW__ALIGN8(size);
}

/* The data buffer: one of each kind, timestamps 1000, 1001, ... */
static uint32_t fill_data_buffer(uint8_t *b)
{
    memset(b, 0xFF, BUF);
    uint32_t at = PETW__BH_SIZE;
    uint8_t r[256];

    /* SYSTEM32, Process group (3), opcode 1, PEBS + 2 PMC: header 0x20 + 8 + 16. */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 0x8000 | 0x0200 | 2); /* Version: PEBS, 2 PMCs, version 2 */
    r[2] = PETW__HDR_SYSTEM32, r[3] = 0xC0;
    petw__wr16(r + 4, 0x20 + 24 + 4);
    petw__wr16(r + 6, 0x0301);
    petw__wr32(r + 8, 11), petw__wr32(r + 12, 22);
    petw__wr64(r + 16, 1000);
    memcpy(r + 0x20 + 24, "PROC", 4);
    at = put_record(b, at, r, 0x20 + 24 + 4);

    /* PERFINFO64, PerfInfo group (0x0F), SampledProfile (0x2E). */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 2);
    r[2] = PETW__HDR_PERFINFO64, r[3] = 0xC0;
    petw__wr16(r + 4, 0x10 + 8);
    petw__wr16(r + 6, 0x0F2E);
    petw__wr64(r + 8, 1001);
    memcpy(r + 0x10, "SAMPLE!!", 8);
    at = put_record(b, at, r, 0x10 + 8);

    /* COMPACT64, Thread group (5), CSwitch (36). */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 2);
    r[2] = PETW__HDR_COMPACT64, r[3] = 0xC0;
    petw__wr16(r + 4, 0x18 + 4);
    petw__wr16(r + 6, 0x0524);
    petw__wr32(r + 8, 33), petw__wr32(r + 12, 44);
    petw__wr64(r + 16, 1002);
    memcpy(r + 0x18, "CSW!", 4);
    at = put_record(b, at, r, 0x18 + 4);

    /* FULL_HEADER32: classic EVENT_TRACE_HEADER with a GUID, type 7, level 4. */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 0x30 + 5);
    r[2] = PETW__HDR_FULL32, r[3] = 0xC0;
    r[4] = 7, r[5] = 4;
    petw__wr16(r + 6, 3);
    petw__wr32(r + 8, 55), petw__wr32(r + 12, 66);
    petw__wr64(r + 16, 1003);
    petw__wr_guid(r + 24, &classic_guid);
    memcpy(r + 0x30, "FULL!", 5);
    at = put_record(b, at, r, 0x30 + 5);

    /* INSTANCE64 (EVENT_INSTANCE_GUID_HEADER): header 0x48. */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 0x48 + 3);
    r[2] = PETW__HDR_INSTANCE64, r[3] = 0xC0;
    r[4] = 1;
    petw__wr64(r + 16, 1004);
    petw__wr_guid(r + 24, &classic_guid);
    memcpy(r + 0x48, "INS", 3);
    at = put_record(b, at, r, 0x48 + 3);

    /* EVENT_HEADER32 with a RELATED_ACTIVITYID item. */
    memset(r, 0, sizeof(r));
    petw__wr16(r, 0x50 + 24 + 2);
    r[2] = PETW__HDR_EVENT32, r[3] = 0xC0;
    petw__wr16(r + 4, PETW_EVENT_HEADER_FLAG_EXTENDED_INFO);
    petw__wr64(r + 16, 1005);
    petw__wr_guid(r + 24, &classic_guid);
    petw__wr16(r + 40, 42); /* Id */
    petw__wr16(r + 0x50, 24), petw__wr16(r + 0x52, 1), petw__wr16(r + 0x56, 16);
    memset(r + 0x58, 0xAB, 16);
    memcpy(r + 0x50 + 24, "EV", 2);
    at = put_record(b, at, r, 0x50 + 24 + 2);

    /* WPP message: GUID, timestamp, system info. */
    memset(r, 0, sizeof(r));
    uint32_t msz = 8 + 16 + 8 + 8 + 6;
    petw__wr16(r, (uint16_t)msz);
    r[3] = 0x90;                         /* TRACE_MESSAGE | marker */
    petw__wr16(r + 4, 17);               /* MessageNumber */
    petw__wr16(r + 6, 0x2 | 0x8 | 0x20); /* GUID, TIMESTAMP, SYSTEMINFO */
    petw__wr_guid(r + 8, &wpp_guid);
    petw__wr64(r + 24, 1006);
    petw__wr32(r + 32, 77), petw__wr32(r + 36, 88);
    memcpy(r + 40, "hello!", 6);
    at = put_record(b, at, r, msz);

    petw__wr32(b + PETW__BH_BUFFER_SIZE, BUF);
    petw__wr32(b + PETW__BH_SAVED_OFFSET, at);
    petw__wr32(b + PETW__BH_OFFSET, at);
    petw__wr16(b + PETW__BH_BUFFER_FLAG, PETW__BUFFER_FLAG_FLUSH_MARKER);
    petw__wr16(b + PETW__BH_BUFFER_TYPE, 0);
    b[PETW__BH_PROCESSOR] = 3;
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16);
    return at;
}

/* A 64-bit header buffer from the library's writer; for `pointer_size` 4,
 * rewritten to the 32-bit TRACE_LOGFILE_HEADER layout (and SYSTEM32). */
static void header_buffer(uint8_t *b, int pointer_size)
{
    petw__etl_session_info in;
    memset(&in, 0, sizeof(in));
    in.buffer_size = BUF;
    in.cpu_count = 4;
    in.clock = 1;
    in.perf_freq = 10000000;
    in.start_timestamp = 900;
    in.start_filetime = 133000000000000000LL;
    in.buffers_written = 2;
    in.logger_name = "win";
    in.log_file_name = "C:\\x.etl";
    petw__etl_write_header_buffer(b, &in);
    memset(b + PETW__BH_PETW_CHECKSUM, 0, 16); /* a Windows file has no petw fields */
    if (pointer_size == 8)
        return;
    uint8_t *rec = b + PETW__BH_SIZE, *lh = rec + PETW__SYSTEM_HEADER_SIZE;
    uint8_t copy[0x200];
    memcpy(copy, lh, sizeof(copy));
    /* 0x38/0x3C pointers, TimeZone at 0x40, then everything 8 earlier. */
    memmove(lh + 0x40, copy + 0x48, 0x118 - 0x48 + 0x30);
    petw__wr32(lh + PETW__LH_POINTER_SIZE, 4);
    rec[2] = PETW__HDR_SYSTEM32;
    petw__wr16(rec + 4, (uint16_t)(petw__rd16(rec + 4) - 8));
}

typedef struct got {
    int n;
    petw_event_record r[16];
    uint8_t data[16][64];
} got;

static void collect(petw_event_record *r, void *ctx)
{
    got *g = ctx;
    if (g->n < 16) {
        g->r[g->n] = *r;
        memcpy(g->data[g->n], r->user_data, r->user_data_length < 64 ? r->user_data_length : 64);
        g->n++;
    }
}

static void check_file(const char *path, int pointer_size)
{
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.flags = PETW_TRACE_RAW_TIMESTAMP;
    c.on_event = collect;
    static got g;
    memset(&g, 0, sizeof(g));
    c.context = &g;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ((int)petw_trace_info(t)->pointer_size, pointer_size);
    CHECK(strcmp(petw_trace_info(t)->logger_name, "win") == 0);
    CHECK_EQ(petw_trace_info(t)->perf_freq, 10000000);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_stats st;
    petw_trace_stats_get(t, &st);
    CHECK_EQ(st.buffers_corrupt, 0);
    petw_trace_close(t);
    CHECK_EQ(g.n, 1 + 7); /* the session header, then one of each */
    const uint16_t classic = PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER;
    petw_event_record *e = &g.r[1];
    CHECK(petw_guid_equal(&e->header.provider_id, &process_guid));
    CHECK(e->header.flags & classic && e->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER);
    CHECK_EQ(e->header.descriptor.opcode, 1);
    CHECK_EQ(e->header.thread_id, 11);
    CHECK_EQ(e->user_data_length, 4);
    CHECK(memcmp(g.data[1], "PROC", 4) == 0); /* after PEBS + 2 PMC */
    e = &g.r[2];
    CHECK(petw_guid_equal(&e->header.provider_id, &perfinfo_guid));
    CHECK_EQ(e->header.descriptor.opcode, 0x2E);
    CHECK(memcmp(g.data[2], "SAMPLE!!", 8) == 0);
    e = &g.r[3];
    CHECK(petw_guid_equal(&e->header.provider_id, &thread_guid));
    CHECK_EQ(e->header.descriptor.opcode, 36);
    CHECK(memcmp(g.data[3], "CSW!", 4) == 0);
    e = &g.r[4];
    CHECK(petw_guid_equal(&e->header.provider_id, &classic_guid));
    CHECK(e->header.flags & classic);
    CHECK_EQ(e->header.descriptor.opcode, 7);
    CHECK_EQ(e->header.descriptor.level, 4);
    CHECK(memcmp(g.data[4], "FULL!", 5) == 0);
    CHECK(memcmp(g.data[5], "INS", 3) == 0);
    e = &g.r[6];
    CHECK(e->header.flags & PETW_EVENT_HEADER_FLAG_32_BIT_HEADER);
    CHECK(!(e->header.flags & classic));
    CHECK_EQ(e->header.descriptor.id, 42);
    CHECK_EQ(e->extended_data_count, 1);
    CHECK(memcmp(g.data[6], "EV", 2) == 0);
    e = &g.r[7];
    CHECK(e->header.flags & PETW_EVENT_HEADER_FLAG_TRACE_MESSAGE);
    CHECK(petw_guid_equal(&e->header.provider_id, &wpp_guid));
    CHECK_EQ(e->header.descriptor.id, 17);
    CHECK_EQ(e->header.timestamp, 1006);
    CHECK_EQ(e->header.thread_id, 77);
    CHECK_EQ(e->header.process_id, 88);
    CHECK_EQ(e->user_data_length, 6);
    CHECK(memcmp(g.data[7], "hello!", 6) == 0);
    /* Delivered in timestamp order, on the buffer's processor. */
    for (int i = 2; i < g.n; i++)
        CHECK(g.r[i].header.timestamp > g.r[i - 1].header.timestamp);
    CHECK_EQ(g.r[3].buffer_context.u.p.processor_number, 3);
}

/* Image loads are logged in the process group (hook 0x030A); their class is
 * Image, so per-provider counts and --provider filters find them there. */
static void image_load_class(void)
{
    static const petw_guid image = {
        0x2cb15d1d, 0x5fc1, 0x11d2, {0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}};
    CHECK(petw_guid_equal(&petw__kernel_class_by_hook(0x030A)->guid, &image));
    CHECK(petw_guid_equal(&petw__kernel_class_by_hook(0x140A)->guid, &image));
    CHECK(petw_guid_equal(&petw__kernel_class_by_hook(0x0301)->guid, &process_guid));
    CHECK(petw__kernel_class_by_hook(0x7F01) == NULL);
}

int main(void)
{
    static uint8_t file[2 * BUF];
    image_load_class();
    char path[512];
    test_path(path, sizeof(path), "windows-records.etl");
    for (int ps = 8; ps >= 4; ps -= 4) {
        header_buffer(file, ps);
        fill_data_buffer(file + BUF);
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(file, 1, sizeof(file), f) == sizeof(file));
        fclose(f);
        check_file(path, ps);
    }
    unlink(path);
    printf("windows_records: every header kind, 64- and 32-bit logfile headers\n");
    return 0;
}
