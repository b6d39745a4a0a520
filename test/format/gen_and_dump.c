/* SPDX-License-Identifier: MIT */
/* gen_and_dump FILE: records a multi-thread, multi-provider trace into FILE
 * (unless it exists already and --dump-only is given), then prints every
 * record as petw's consumer sees it, in etl_independent.py's line format. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(GenA, 0xa1a1a1a1, 0xb2b2, 0xc3c3, 0xd4, 0xd4, 1, 2, 3, 4, 5, 6);
DEFINE_GUID(GenB, 0xa1a1a1a1, 0xb2b2, 0xc3c3, 0xd4, 0xd4, 1, 2, 3, 4, 5, 7);
static REGHANDLE ra, rb;

static void writer(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    GUID act;
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &act);
    EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &act);
    for (uint32_t i = 0; i < 3000; i++) {
        uint8_t buf[64];
        for (int k = 0; k < 64; k++)
            buf[k] = (uint8_t)(i + k + t);
        EVENT_DATA_DESCRIPTOR d[2];
        EventDataDescCreate(&d[0], &i, 4);
        EventDataDescCreate(&d[1], buf, i % 60);
        EVENT_DESCRIPTOR desc;
        EventDescCreate(&desc, (USHORT)(i % 9), (UCHAR)t, 16, (UCHAR)(i % 6), (USHORT)i,
                        (UCHAR)(i % 4), 0xABCDull << (i % 5));
        if (i % 7 == 0) {
            GUID rel = act;
            rel.Data2 = (USHORT)i;
            EventWriteTransfer(i % 2 ? rb : ra, &desc, NULL, &rel, 2, d);
        } else {
            EventWrite(i % 2 ? rb : ra, &desc, 2, d);
        }
    }
}

static void print_guid(const petw_guid *g)
{
    char s[37];
    petw_guid_format(g, s);
    fputs(s, stdout);
}

static void dump(petw_event_record *r, void *ctx)
{
    (void)ctx;
    const petw_event_header *h = &r->header;
    int system = (h->flags & PETW_EVENT_HEADER_FLAG_CLASSIC_HEADER) != 0;
    printf("%s ", system ? "S" : "E");
    print_guid(&h->provider_id);
    printf(" %u %u %u %u %u %u %llu %u %u %lld ", h->descriptor.id, h->descriptor.version,
           h->descriptor.channel, h->descriptor.level, h->descriptor.opcode, h->descriptor.task,
           (unsigned long long)h->descriptor.keyword, h->process_id, h->thread_id,
           (long long)h->timestamp);
    if (system) {
        printf("- -");
    } else {
        print_guid(&h->activity_id);
        printf(" ");
        int rel = 0;
        for (int i = 0; i < r->extended_data_count; i++)
            if (r->extended_data[i].ext_type == PETW_EXT_TYPE_RELATED_ACTIVITYID) {
                print_guid((const petw_guid *)(uintptr_t)r->extended_data[i].data_ptr);
                rel = 1;
            }
        if (!rel)
            printf("-");
    }
    printf(" ");
    for (int i = 0; i < r->user_data_length; i++)
        printf("%02x", ((const uint8_t *)r->user_data)[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *path = argv[argc - 1];
    if (argc == 2) {
        test_props tp;
        test_props_init(&tp, path);
        tp.p.BufferSize = 8;
        tp.p.MaximumBuffers = 400;
        TRACEHANDLE s;
        CHECK_EQ(StartTraceA(&s, "petw-test-independent", &tp.p), ERROR_SUCCESS);
        CHECK_EQ(EventRegister(&GenA, NULL, NULL, &ra), ERROR_SUCCESS);
        CHECK_EQ(EventRegister(&GenB, NULL, NULL, &rb), ERROR_SUCCESS);
        EnableTraceEx2(s, &GenA, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL);
        EnableTraceEx2(s, &GenB, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0, 0, 0, 0, NULL);
        uv_thread_t th[3];
        for (uintptr_t t = 0; t < 3; t++)
            uv_thread_create(&th[t], writer, (void *)t);
        for (int t = 0; t < 3; t++)
            uv_thread_join(&th[t]);
        CHECK_EQ(ControlTraceA(s, NULL, &tp.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
        CHECK_EQ(tp.p.EventsLost, 0);
        return 0;
    }
    petw_trace_config c;
    petw_trace_config_init(&c);
    c.flags = PETW_TRACE_RAW_TIMESTAMP;
    c.on_event = dump;
    petw_trace *t;
    CHECK_EQ(petw_trace_open(path, &c, &t), 0);
    CHECK_EQ(petw_trace_process(&t, 1, 0, 0), 0);
    petw_trace_close(t);
    return 0;
}
