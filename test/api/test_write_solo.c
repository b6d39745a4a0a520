/* SPDX-License-Identifier: MIT */
/* EventWrite's two paths write the same records. One session without a
 * filter takes the path that makes no call before its commit; a thread's
 * first event, a buffer switch (small buffers, so hundreds of them) and a
 * second session take the general one. Each event's payload, thread and
 * order are checked in the file. TraceLogging's schema given as a whole
 * extended item (petw__event_write_tl_item, and TraceLoggingWrite's
 * petw__event_write_tl_plain without activity IDs nor session filter)
 * gives the same items as the schema alone (petw_event_write_tl), the
 * traits' item first with its linkage set; an EventWrite of a provider with
 * traits carries the traits alone, linkage clear; a malformed item is
 * refused with PETW_EINVAL. */
#include <uv.h>

#include "test_util.h"

DEFINE_GUID(SoloProvider, 0x5010501a, 1, 2, 3, 4, 0, 0, 0, 0, 0, 1);
DEFINE_GUID(TraitsProvider, 0x5010501a, 1, 2, 3, 4, 0, 0, 0, 0, 0, 2);

#define EVENTS 20000 /* 64 bytes each in 4 KB buffers: about 400 switches */

static REGHANDLE solo, traits;

typedef struct thread_arg {
    uint32_t first;
} thread_arg;

static void write_seq(void *p)
{
    thread_arg *a = p;
    EVENT_DESCRIPTOR d = {1, 0, 0, 4, 0, 0, 1};
    for (uint32_t i = a->first; i < a->first + EVENTS; i++) {
        uint64_t v[4] = {i, a->first / EVENTS, ~(uint64_t)i, 7};
        EVENT_DATA_DESCRIPTOR dd[2];
        EventDataDescCreate(&dd[0], &v[0], 4); /* the sequence number first */
        EventDataDescCreate(&dd[1], &v[1], 24);
        CHECK_EQ(EventWrite(solo, &d, 2, dd), ERROR_SUCCESS);
    }
}

/* A schema (u16 size, no tags, the event's name, one UInt32 field) and
 * the same as a whole EVENT_SCHEMA_TL item with its header and padding. */
static uint32_t build_schema(uint8_t *b)
{
    static const char body[] = "\0Solo\0value\0\x08";
    uint32_t n = 2 + (uint32_t)sizeof(body) - 1;
    memcpy(b + 2, body, sizeof(body) - 1);
    petw__test_wr16(b, (uint16_t)n);
    return n;
}

static uint32_t build_item(uint64_t *item, const uint8_t *schema, uint32_t n)
{
    uint32_t total = (8 + n + 7) & ~7u;
    memset(item, 0, total);
    item[0] = total | ((uint64_t)PETW_EXT_TYPE_EVENT_SCHEMA_TL << 16) | ((uint64_t)n << 48);
    memcpy(item + 1, schema, n);
    return total;
}

int main(void)
{
    char path[512];
    test_path(path, sizeof(path), "write_solo.etl");
    CHECK_EQ(EventRegister(&SoloProvider, NULL, NULL, &solo), ERROR_SUCCESS);
    CHECK_EQ(EventRegister(&TraitsProvider, NULL, NULL, &traits), ERROR_SUCCESS);
    static const uint8_t blob[] = "\x0d\0SoloTraits";
    CHECK_EQ(EventSetInformation(traits, EventProviderSetTraits, (PVOID)blob, 13), ERROR_SUCCESS);

    test_props a, b;
    test_props_init(&a, path);
    a.p.LogFileMode |= EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC;
    a.p.BufferSize = 4;                             /* KB */
    a.p.MinimumBuffers = a.p.MaximumBuffers = 1024; /* a thread's events fit: none lost */
    TRACEHANDLE h, h2;
    CHECK_EQ(test_start_trace(&h, "petw-test-write-solo", &a.p), ERROR_SUCCESS);
    CHECK_EQ(EnableTraceEx2(h, &SoloProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
             ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(h, &TraitsProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
        ERROR_SUCCESS);

    /* One session: two threads, each from its first event, the session
     * flushed after each. A loss would show as a gap. */
    thread_arg t1 = {0}, t2 = {EVENTS};
    uv_thread_t th;
    test_props f;
    CHECK_EQ(uv_thread_create(&th, write_seq, &t1), 0);
    uv_thread_join(&th);
    test_props_init(&f, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &f.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    CHECK_EQ(uv_thread_create(&th, write_seq, &t2), 0);
    uv_thread_join(&th);
    test_props_init(&f, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &f.p, EVENT_TRACE_CONTROL_FLUSH), ERROR_SUCCESS);
    /* A second session enabling the provider: the general path, into both. */
    test_props_init(&b, NULL);
    b.p.LogFileMode =
        EVENT_TRACE_PRIVATE_LOGGER_MODE | EVENT_TRACE_PRIVATE_IN_PROC | EVENT_TRACE_BUFFERING_MODE;
    CHECK_EQ(test_start_trace(&h2, "petw-test-write-solo-2", &b.p), ERROR_SUCCESS);
    CHECK_EQ(
        EnableTraceEx2(h2, &SoloProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, NULL),
        ERROR_SUCCESS);
    thread_arg t3 = {2 * EVENTS};
    write_seq(&t3);
    test_props s2;
    test_props_init(&s2, NULL);
    CHECK_EQ(ControlTraceA(h2, NULL, &s2.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(s2.p.EventsLost, 0);

    /* TraceLogging's schema, as a block and as a whole item. */
    uint8_t schema[64];
    uint64_t item[16];
    uint32_t n = build_schema(schema), total = build_item(item, schema, n);
    petw_event_descriptor ed = {0, 0, 11, 4, 0, 0, 0};
    uint32_t v = 42;
    petw_data_descriptor dd = {(uint64_t)(uintptr_t)&v, 4, 0, 0, 0};
    petw_provider_handle th_ = (petw_provider_handle)traits;
    CHECK_EQ(petw_event_write_tl(th_, &ed, schema, n, NULL, NULL, 0, 1, &dd), 0);
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, item, total, NULL, NULL, 0, 1, &dd), 0);
    CHECK_EQ(petw__event_write_tl_plain(th_, &ed, item, total, 1, &dd), 0);
    /* A plain EventWrite of the provider with traits: the traits alone. */
    EVENT_DESCRIPTOR pd = {2, 0, 0, 4, 0, 0, 0};
    EVENT_DATA_DESCRIPTOR pdd;
    EventDataDescCreate(&pdd, &v, 4);
    CHECK_EQ(EventWrite(traits, &pd, 1, &pdd), ERROR_SUCCESS);
    /* Malformed items. */
    uint64_t bad[16];
    memcpy(bad, item, total);
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, NULL, total, NULL, NULL, 0, 1, &dd), PETW_EINVAL);
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, bad, total + 8, NULL, NULL, 0, 1, &dd),
             PETW_EINVAL);
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, bad, total - 1, NULL, NULL, 0, 1, &dd),
             PETW_EINVAL);
    bad[0] = item[0] | ((uint64_t)1 << 32); /* linkage: an item would follow */
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, bad, total, NULL, NULL, 0, 1, &dd), PETW_EINVAL);
    bad[0] = (item[0] & ~((uint64_t)0xFFFF << 16)) | ((uint64_t)PETW_EXT_TYPE_PROV_TRAITS << 16);
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, bad, total, NULL, NULL, 0, 1, &dd), PETW_EINVAL);
    bad[0] = (item[0] & 0xFFFFFFFFFFFFull) | ((uint64_t)(n + 8) << 48); /* DataSize too big */
    CHECK_EQ(petw__event_write_tl_item(th_, &ed, bad, total, NULL, NULL, 0, 1, &dd), PETW_EINVAL);
    /* TraceLoggingWrite's own entry refuses them alike. */
    CHECK_EQ(petw__event_write_tl_plain(th_, &ed, NULL, total, 1, &dd), PETW_EINVAL);
    CHECK_EQ(petw__event_write_tl_plain(th_, &ed, bad, total, 1, &dd), PETW_EINVAL);
    CHECK_EQ(petw__event_write_tl_plain(th_, &ed, item, total - 8, 1, &dd), PETW_EINVAL);

    test_props s;
    test_props_init(&s, NULL);
    CHECK_EQ(ControlTraceA(h, NULL, &s.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
    CHECK_EQ(s.p.EventsLost, 0);
    CHECK(s.p.BuffersWritten > 200);

    test_events l;
    CHECK_EQ(test_read(path, 0, &l, NULL, NULL), 0);
    CHECK_EQ(l.corrupt, 0);
    uint32_t next[3] = {0, EVENTS, 2 * EVENTS};
    uint32_t tids[3] = {0, 0, 0}; /* each thread's ID, from its first event */
    size_t tl = 0, plain = 0;
    const test_event *tev[3] = {NULL, NULL, NULL};
    for (size_t i = 0; i < l.count; i++) {
        const test_event *e = &l.ev[i];
        if (memcmp(&e->header.provider_id, &SoloProvider, sizeof(GUID)) == 0) {
            CHECK_EQ(e->length, 28);
            uint32_t seq = test_seq(e), k = seq / EVENTS;
            CHECK(k < 3);
            CHECK_EQ(seq, next[k]); /* each thread's events in its order, none missing */
            next[k]++;
            if (!tids[k])
                tids[k] = e->header.thread_id;
            CHECK(tids[k] != 0);
            CHECK_EQ(e->header.thread_id, tids[k]);
            uint64_t w[3];
            memcpy(w, e->data + 4, 24);
            CHECK_EQ(w[0], k);
            CHECK(w[1] == ~(uint64_t)seq && w[2] == 7);
            CHECK_EQ(e->ext_count, 0);
        } else if (memcmp(&e->header.provider_id, &TraitsProvider, sizeof(GUID)) != 0) {
            continue; /* the file's header event */
        } else if (e->header.descriptor.id == 0) {
            CHECK(tl < 3);
            tev[tl++] = e;
        } else {
            plain++;
            CHECK_EQ(e->ext_count, 1);
            CHECK_EQ(e->ext_type[0], PETW_EXT_TYPE_PROV_TRAITS);
            CHECK_EQ(e->ext_size[0], 13);
            CHECK(memcmp(e->ext_data[0], blob, 13) == 0);
        }
    }
    for (int k = 0; k < 3; k++)
        CHECK_EQ(next[k], (uint32_t)(k + 1) * EVENTS);
    CHECK_EQ(tl, 3);
    CHECK_EQ(plain, 1);
    for (int k = 0; k < 3; k++) {
        const test_event *e = tev[k];
        CHECK_EQ(e->ext_count, 2);
        CHECK_EQ(e->ext_type[0], PETW_EXT_TYPE_PROV_TRAITS);
        CHECK_EQ(e->ext_size[0], 13);
        CHECK(memcmp(e->ext_data[0], blob, 13) == 0);
        CHECK_EQ(e->ext_type[1], PETW_EXT_TYPE_EVENT_SCHEMA_TL);
        CHECK_EQ(e->ext_size[1], n);
        CHECK(memcmp(e->ext_data[1], schema, n) == 0);
        CHECK_EQ(e->length, 4);
        CHECK(memcmp(e->data, &v, 4) == 0);
    }
    test_events_free(&l);
    remove(path);
    EventUnregister(solo);
    EventUnregister(traits);
    printf("ok\n");
    return 0;
}
